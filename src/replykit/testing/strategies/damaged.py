"""Fault families of damaged forms: a valid form with exactly one field changed (§4, §5).

A client that repairs or skips one thing reads such a form as valid, or as another
form, where replykit reports one error; with the rest of the form valid the one
difference shows. Each strategy draws a whole message, in both encodings (fenced YAML
and XML+JSON) where the damage can be written in both.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from hypothesis import strategies as st

from replykit.testing.strategies._clean import (
    around_fenced,
    around_xml,
    clean_form,
    fenced,
    json_text,
    xml,
)
from replykit.testing.strategies._common import pick
from replykit.testing.strategies.forms import yaml_quote


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return yaml_quote(value)
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    return json.dumps(value)


def yaml_form(form: dict[str, Any]) -> str:
    """``form`` as block YAML, writing exactly the keys it has, in its order (strings
    double-quoted, lists in flow style); each question a block mapping. Unlike
    :func:`~replykit.testing.strategies.forms.form_yaml`, a missing ``default`` stays
    missing and unknown keys are written."""
    lines: list[str] = []
    for key, value in form.items():
        if key == "questions" and isinstance(value, list):
            lines.append("questions:")
            for question in value:
                if not isinstance(question, dict):
                    lines.append(f"  - {_scalar(question)}")
                    continue
                for i, (k, v) in enumerate(question.items()):
                    lines.append(("  - " if i == 0 else "    ") + f"{k}: {_scalar(v)}")
        else:
            lines.append(f"{key}: {_scalar(value)}")
    return "".join(line + "\n" for line in lines)


def _message(draw: st.DrawFn, form: dict[str, Any], yaml: bool) -> str:
    if yaml:
        return around_fenced(draw, fenced(yaml_form(form)))
    return around_xml(draw, xml(json_text(form)))


def _with_plain(text: str, marker: str, plain: str) -> str:
    # The marker string was written quoted; put the plain text in its place.
    return text.replace(json.dumps(marker), plain, 1)


_TRAP: Final = "@@value@@"
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_CURLY: Final[tuple[tuple[str, str], ...]] = (("“", "”"), ("‘", "’"), ('"', "”"), ("“", '"'))


@st.composite
def curly_quote_messages(draw: st.DrawFn) -> str:
    """A valid form with typographic quotes (§5: JSON strings end only at ``"``): in
    the JSON, around one key or string value or at one end of it (``json.syntax``);
    inside a JSON string value (valid, kept as written); or around a YAML value (a
    plain scalar that keeps them)."""
    form = clean_form(draw)
    kind = draw(st.integers(0, 3))
    if kind == 2:
        form["title"] = f"Say “{form['title']}”"
        return around_xml(draw, xml(json_text(form)))
    if kind == 3:
        field = draw(st.integers(0, len(form["questions"])))
        owner = form if field == 0 else form["questions"][field - 1]
        key = "title" if field == 0 else "text"
        value = owner[key]
        owner[key] = _TRAP
        left, right = pick(draw, _CURLY[:2])
        text = yaml_form(form).replace(json.dumps(_TRAP), left + value + right)
        return around_fenced(draw, fenced(text))
    payload = json_text(form)
    tokens = list(_STRING.finditer(payload))
    found = tokens[draw(st.integers(0, len(tokens) - 1))]
    left, right = pick(draw, _CURLY)
    curly = left + found.group()[1:-1] + right
    return around_xml(draw, xml(payload[: found.start()] + curly + payload[found.end() :]))


@st.composite
def json_string_payload_messages(draw: st.DrawFn) -> str:
    """A valid form made a JSON string, whole or one field (§5 ``json.string_payload``,
    §4 ``yaml.root_not_mapping``): the XML+JSON payload ``"{\\"title\\": ...}"``,
    ``"questions"`` (or one question, or one ``options``) as a string of JSON, or the
    fenced payload as one quoted YAML string of JSON, or ``questions: '[...]'``."""
    form = clean_form(draw)
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return around_xml(draw, xml(json.dumps(json_text(form), ensure_ascii=False)))
    if kind == 1:
        return around_fenced(draw, fenced(yaml_quote(json_text(form)) + "\n"))
    questions = form["questions"]
    if kind == 2:
        form["questions"] = json.dumps(questions, ensure_ascii=False)
    elif kind == 3:
        index = draw(st.integers(0, len(questions) - 1))
        questions[index] = json.dumps(questions[index], ensure_ascii=False)
    else:
        choice = [q for q in questions if "options" in q]
        if not choice:
            form["questions"] = json.dumps(questions, ensure_ascii=False)
        else:
            question = pick(draw, choice)
            question["options"] = json.dumps(question["options"], ensure_ascii=False)
    return _message(draw, form, draw(st.integers(0, 2)) == 0)


def _damage_strict(draw: st.DrawFn, question: dict[str, Any]) -> dict[str, Any]:
    # One violation of the strict field table (§4 fields).
    choice = "options" in question
    kinds = ["no-default", "type", "alias", "text", "unknown"]
    kinds += ["not-in-options", "no-options", "allow-other"] if choice else ["options"]
    kind = pick(draw, kinds)
    if kind == "no-default":
        del question["default"]
    elif kind == "type":
        question["type"] = pick(draw, ("choice", "single", "string"))
    elif kind == "alias":
        question["type"] = "multiple_choice" if choice else "text"
    elif kind == "text":
        question["text"] = pick(draw, ("", " "))
    elif kind == "unknown":
        question["id"] = "x"
    elif kind == "not-in-options":
        question["default"] = "zzz" if question["type"] == "single_choice" else ["zzz"]
    elif kind == "no-options":
        question["options"] = []
    elif kind == "allow-other":
        question["allow_other"] = "yes"
    else:
        question["options"] = ["a"]
    return question


def _damage_lenient(draw: st.DrawFn, question: dict[str, Any]) -> Any:
    # One violation of the lenient normalizer (§5, the questionnaire.start codes).
    choice = "options" in question
    kinds = ["type", "text", "not-object", "id"]
    kinds += ["not-in-options", "no-options", "blank-option", "allow-other"] if choice else []
    kind = pick(draw, kinds)
    if kind == "not-object":
        return pick(draw, (1, "question", None))
    if kind == "type":
        question["type"] = pick(draw, ("choice", "single", "string"))
    elif kind == "text":
        del question["text"]
    elif kind == "id":
        question["id"] = pick(draw, (3, True, ["q"]))
    elif kind == "not-in-options":
        question["default"] = "zzz" if question["type"] == "single_choice" else ["zzz"]
    elif kind == "no-options":
        del question["options"]
        question.pop("default", None)
    elif kind == "blank-option":
        question["options"] = [*question["options"], " "]
    else:
        question["allow_other"] = "yes"
    return question


@st.composite
def one_bad_question_messages(draw: st.DrawFn) -> str:
    """A valid form of 2-4 questions of which exactly one breaks one rule (§4 fields
    for fenced YAML, §5/§7 for XML+JSON): no default, a bad type, a blank text, an
    unknown field, a default not among the options, no options, a blank option, a
    non-boolean ``allow_other``, a question that is not an object. The whole form is
    invalid."""
    form = clean_form(draw)
    while len(form["questions"]) < 2:
        form["questions"] += clean_form(draw)["questions"]
    questions = form["questions"]
    index = draw(st.integers(0, len(questions) - 1))
    yaml = draw(st.booleans())
    damage = _damage_strict if yaml else _damage_lenient
    questions[index] = damage(draw, questions[index])
    return _message(draw, form, yaml)


_ALIAS_MARK: Final = "@@anchor@@"
_ALIAS_USE: Final = "@@alias@@"


@st.composite
def yaml_alias_messages(draw: st.DrawFn) -> str:
    """A form made valid only by resolving an anchor and an alias (§4 ``yaml.alias``):
    the title anchored and reused as a question text, one question's options reused by
    another, a whole question repeated (``- *q``) or merged (``<<: *q``); or the same
    anchor and alias in the JSON of an XML+JSON form (``json.syntax``)."""
    form = clean_form(draw)
    kind = draw(st.integers(0, 4))
    if kind == 0 or kind == 4:
        title = form["title"]
        form["title"] = _ALIAS_MARK
        form["questions"][0]["text"] = _ALIAS_USE
        if kind == 4:
            text = _with_plain(json_text(form), _ALIAS_MARK, f"&t {json.dumps(title)}")
            return around_xml(draw, xml(_with_plain(text, _ALIAS_USE, "*t")))
        text = _with_plain(yaml_form(form), _ALIAS_MARK, f"&t {yaml_quote(title)}")
        return around_fenced(draw, fenced(_with_plain(text, _ALIAS_USE, "*t")))
    if kind == 1:
        options = ["red", "blue", "继续"][: draw(st.integers(1, 3))]
        form["questions"] = [
            {"type": "single_choice", "text": "Q1", "options": _ALIAS_MARK, "default": "red"},
            {"type": "single_choice", "text": "Q2", "options": _ALIAS_USE, "default": "red"},
        ]
        text = _with_plain(yaml_form(form), _ALIAS_MARK, "&o " + _scalar(options))
        return around_fenced(draw, fenced(_with_plain(text, _ALIAS_USE, "*o")))
    body = yaml_form({"title": form["title"], "questions": form["questions"][:1]})
    body = body.replace("  - ", "  - &q\n    ", 1)
    if kind == 2:
        body += "  - *q\n"
    else:
        body += '  - <<: *q\n    text: "again"\n'
    return around_fenced(draw, fenced(body))


#: Plain scalars that YAML 1.1 and YAML 1.2 read differently (§4): booleans,
#: sexagesimal, date, underscore and ``0o`` numbers in YAML 1.1; strings (or, for
#: ``0o7``, an integer) in YAML 1.2.
YAML11: Final[tuple[str, ...]] = (
    "yes",
    "no",
    "on",
    "off",
    "Yes",
    "NO",
    "9:16",
    "0o7",
    "0o17",
    "1_000",
    "2026-11-30",
)


@st.composite
def yaml11_messages(draw: st.DrawFn) -> str:
    """A valid form with one plain scalar from :data:`YAML11` as its title, a question
    text, a free-text default or a single-choice option and default (§4: YAML 1.2 core
    schema; ``0o7`` is an integer there, so that form is invalid); or the same plain
    value in the JSON of an XML+JSON form (``json.syntax``)."""
    form = clean_form(draw)
    trap = pick(draw, YAML11)
    questions = form["questions"]
    place = draw(st.integers(0, 3))
    if place == 0:
        form["title"] = _TRAP
    elif place == 1:
        questions[0]["text"] = _TRAP
    elif place == 2:
        questions.insert(0, {"type": "free_text", "text": "Note", "default": _TRAP})
    else:
        questions.insert(
            0, {"type": "single_choice", "text": "Go", "options": [_TRAP, "x"], "default": _TRAP}
        )
    if draw(st.integers(0, 3)) == 0:
        return around_xml(draw, xml(json_text(form).replace(json.dumps(_TRAP), trap)))
    return around_fenced(draw, fenced(yaml_form(form).replace(json.dumps(_TRAP), trap)))


__all__ = [
    "YAML11",
    "curly_quote_messages",
    "json_string_payload_messages",
    "one_bad_question_messages",
    "yaml11_messages",
    "yaml_alias_messages",
    "yaml_form",
]
