"""A number the readers refuse (an integer over 4300 digits; in JSON also one beyond a
64-bit float) is one diagnostic at the value's path, and nothing else is reported on
that value (§5), in every field, in YAML (both loaders) and in JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from replykit import segment
from replykit.questionnaire.payload.fenced_form import read_fenced_form
from replykit.questionnaire.payload.yaml_loader import c_available

BIG = "9" * 4301
LOADERS = ["pure", "c"] if c_available() else ["pure"]
# (field path, the question it sits in); the form is valid without the refused value.
SINGLE = {"type": "single_choice", "text": "Q", "options": ["a", "b"], "default": "a"}
MULTI = {"type": "multi_choice", "text": "Q", "options": ["a", "b"], "default": ["a"]}
FREE = {"type": "free_text", "text": "Q", "default": ""}
PLACES: list[tuple[str, dict[str, Any], tuple[Any, ...], str]] = [
    ("title", FREE, ("title",), "title"),
    ("text", FREE, ("questions", 0, "text"), "questions[1].text"),
    ("id", FREE, ("questions", 0, "id"), "questions[1].id"),
    ("type", FREE, ("questions", 0, "type"), "questions[1].type"),
    ("free default", FREE, ("questions", 0, "default"), "questions[1].default"),
    ("option", SINGLE, ("questions", 0, "options", 1), "questions[1].options[2]"),
    ("single default", SINGLE, ("questions", 0, "default"), "questions[1].default"),
    ("multi default", MULTI, ("questions", 0, "default", 0), "questions[1].default[1]"),
    ("allow_other", SINGLE, ("questions", 0, "allow_other"), "questions[1].allow_other"),
    ("unknown key", FREE, ("questions", 0, "note"), "questions[1].note"),
]


def _form(question: dict[str, Any], where: tuple[Any, ...], marker: Any) -> dict[str, Any]:
    form: dict[str, Any] = {"title": "T", "questions": [json.loads(json.dumps(question))]}
    node: Any = form
    for part in where[:-1]:
        node = node[part]
    if isinstance(node, list):
        node[where[-1]] = marker
    else:
        node[where[-1]] = marker
    return form


def _yaml(form: dict[str, Any]) -> str:
    """The form as block YAML, the marker a plain integer of 4301 digits."""
    text = yaml.safe_dump(form, allow_unicode=True, sort_keys=False, width=10**9)
    return text.replace("'@BIG@'", BIG)


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize(("name", "question", "where", "path"), PLACES)
def test_yaml_refused_integer_is_one_diagnostic_at_its_path(
    loader: str, name: str, question: dict[str, Any], where: tuple[Any, ...], path: str
) -> None:
    payload = _yaml(_form(question, where, "@BIG@"))
    read = read_fenced_form(payload, loader=loader)
    start = payload.index(BIG)
    unknown = {"form.unknown_field", "question.unknown_field"}
    got = [(f.code, f.path, f.start, f.end) for f in read.findings if f.code not in unknown]
    wanted_path = where if name != "title" else ("title",)
    assert got == [("yaml.number_too_large", wanted_path, start, start + len(BIG))], name
    # A key the fenced form does not know is reported whatever its value (§4: every
    # violation; the value's placeholder hides only what lies at or under it).
    keys = [f.path for f in read.findings if f.code == "question.unknown_field"]
    assert keys == ([where] if name in ("id", "unknown key") else [])
    # A message names the limit, never "a float"
    message = segment(f"Intro\n\n```questionnaire\n{payload}\n```\n").diagnostics
    assert [(d.code, d.path) for d in message if d.code not in unknown] == [
        ("yaml.number_too_large", path.replace("[2]", "[2]"))
    ]
    big = next(d for d in message if d.code == "yaml.number_too_large")
    assert big.message == "integer with more than 4300 digits; quote it"


@pytest.mark.parametrize("big", [BIG, "1e400", "-" + BIG])
@pytest.mark.parametrize(("name", "question", "where", "path"), PLACES)
def test_json_refused_number_is_one_diagnostic_at_its_path(
    big: str, name: str, question: dict[str, Any], where: tuple[Any, ...], path: str
) -> None:
    payload = json.dumps(_form(question, where, "@BIG@")).replace('"@BIG@"', big)
    diags = segment(f"Intro <questionnaire>{payload}</questionnaire>").diagnostics
    start = len("Intro <questionnaire>") + payload.index(big)
    assert [(d.code, d.path, d.start, d.end) for d in diags] == [
        ("json.number_too_large", path, start, start + len(big))
    ]


@pytest.mark.parametrize("loader", LOADERS)
def test_a_refused_integer_key_is_one_diagnostic(loader: str) -> None:
    payload = (
        f"title: T\nquestions:\n  - type: free_text\n    ? {BIG}\n    : x\n"
        '    text: Q\n    default: ""\n'
    )
    read = read_fenced_form(payload, loader=loader)
    start = payload.index(BIG)
    assert [(f.code, f.path, f.start, f.end) for f in read.findings] == [
        ("yaml.number_too_large", ("questions", 0), start, start + len(BIG))
    ]


@given(st.lists(st.sampled_from(range(len(PLACES))), min_size=1, max_size=4, unique=True))
def test_several_refused_values_give_one_diagnostic_each(picked: list[int]) -> None:
    form: dict[str, Any] = {"title": "T", "questions": []}
    paths = []
    for n, i in enumerate(picked):
        name, question, where, path = PLACES[i]
        one = _form(question, where, "@BIG@")
        if name == "title":
            form["title"] = "@BIG@"
            paths.append("title")
            form["questions"].append(one["questions"][0])
        else:
            form["questions"].append(one["questions"][0])
            paths.append(path.replace("questions[1]", f"questions[{n + 1}]"))
    payload = json.dumps(form).replace('"@BIG@"', BIG)
    for text in (
        f"Intro\n\n```questionnaire\n{_yaml(form)}```\n",
        f"Intro <questionnaire>{payload}</questionnaire>",
    ):
        found = segment(text).diagnostics
        # (A key the fenced form does not know is reported too: see above.)
        diags = [d for d in found if d.code not in ("form.unknown_field", "question.unknown_field")]
        assert sorted(d.path for d in diags) == sorted(paths)
        assert {d.code for d in diags} <= {"yaml.number_too_large", "json.number_too_large"}


def test_a_list_finding_keeps_only_the_items_not_refused() -> None:
    payload = (
        '{"questions":[{"type":"multi_choice","text":"Q","options":["a"],"default":[1e400,5,"a"]}]}'
    )
    diags = segment(f"<questionnaire>{payload}</questionnaire>").diagnostics
    assert [(d.code, d.path, d.message) for d in diags] == [
        (
            "questionnaire.start.default_list_invalid_items",
            "questions[1].default",
            "questions[1].default holds items that are not strings: 5; a multi-choice "
            "default is an array of option values.",
        ),
        (
            "json.number_too_large",
            "questions[1].default[1]",
            "the number 1e400 is beyond a 64-bit float's range (it would read as "
            "infinity); write it as a string or a smaller number",
        ),
    ]
    assert diags[0].params["invalid_items"] == [5]


@pytest.mark.parametrize("value", ["*a", "&a 5", BIG, "[" + BIG + "]"])
@pytest.mark.parametrize("top", [True, False])
def test_an_unknown_key_is_reported_whatever_its_value(value: str, top: bool) -> None:
    # §4 "every violation is reported": the value's own finding (an alias, a refused
    # number) hides what lies at or under the value, not the key that holds it.
    question = '  - type: free_text\n    text: Q\n    default: ""\n'
    extra = f"x: {value}\n" if top else f"    x: {value}\n"
    payload = (
        "title: T\n" + (extra if top else "") + "questions:\n" + question + ("" if top else extra)
    )
    codes = [
        (d.code, d.path) for d in segment(f"Intro\n\n```questionnaire\n{payload}```\n").diagnostics
    ]
    key = ("form.unknown_field", "x") if top else ("question.unknown_field", "questions[1].x")
    assert key in codes
    assert len(codes) == 2  # the key's and the value's
