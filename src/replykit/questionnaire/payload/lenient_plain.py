"""The lenient normalizer on a request with nothing to report (docs/protocol.md §5, §7):
the fast path of :func:`~replykit.questionnaire.payload.xml_form.read_xml_request`.

It builds the form straight from the decoded JSON object, with no cursor, path or
finding, and gives up (``None``) at the first thing
:func:`~replykit.questionnaire.payload.lenient.normalize_fitting` would report, warnings
included; that then runs and reports everything. Its answer, when it gives one, is the
form ``normalize_fitting`` builds. Only plain JSON values are read (``dict``, ``list``,
``str`` ...): any other type gives up.
"""

from __future__ import annotations

import math
from typing import Any

from replykit.questionnaire.model import (
    MAX_UI_TEXT,
    OTHER_VALUE,
    UI_TEXT_KEYS,
    Option,
    Question,
    Questionnaire,
    QuestionType,
)
from replykit.questionnaire.payload.lenient import normalize_type
from replykit.questionnaire.payload.numbers import unsigned_zero
from replykit.text import is_blank, trim_blank
from replykit.trusted import trusted

_UI_TEXT_KEYS = frozenset(UI_TEXT_KEYS)
# Built from what this module accepted: without the public constructors' checks.
_option = trusted(Option)
_question = trusted(Question)
_questionnaire = trusted(Questionnaire)


def plain_request(args: Any) -> Questionnaire | None:
    """The form of the XML+JSON request ``args`` (a decoded JSON object whose lists fit
    the limits, §1) on which the lenient normalizer (§5, §7) reports nothing, else
    ``None``: the same ``Questionnaire`` as ``normalize_fitting(args, True, limits)``
    builds, ``ui_text`` and ``timeout_seconds`` kept. Nothing to report means: a string
    or absent title; a non-empty list of questions, each an object with a distinct
    string or absent id, a known type, a non-blank text (or title); a choice with a
    non-empty list of distinct non-blank strings or ``{value, label}`` objects, none the
    reserved value, ``allow_other`` a bool when present, a default among the options
    (distinct string items for multi-choice); ``ui_text`` an object of short strings and
    ``timeout_seconds`` a non-negative finite number, when present. Linear in the size
    of ``args``."""
    if type(args) is not dict:
        return None
    title = args.get("title")
    if title is None:
        title = ""
    elif type(title) is not str:
        return None
    raw_questions = args.get("questions")
    if type(raw_questions) is not list or not raw_questions:
        return None
    questions: list[Question] = []
    used: set[str] = set()
    for index, raw in enumerate(raw_questions):
        question = _plain_question(raw, index, used)
        if question is None:
            return None
        questions.append(question)
    ui_text = _ui_text(args.get("ui_text"))
    timeout = args.get("timeout_seconds")
    if ui_text is None or not _timeout_ok(timeout):
        return None
    if timeout is not None:
        timeout = unsigned_zero(timeout)  # as the normalizer keeps it
    return _questionnaire(trim_blank(title), tuple(questions), ui_text, timeout)


def _plain_question(raw: Any, index: int, used: set[str]) -> Question | None:
    """One question of :func:`plain_request`, or ``None`` when the normalizer would
    report anything about it (``used``: the ids so far, this one added)."""
    if type(raw) is not dict:
        return None
    given = raw.get("id")
    if given is None or (type(given) is str and is_blank(given)):
        qid = f"q{index + 1}"
    elif type(given) is str:
        qid = given
    else:
        return None
    if qid in used:
        return None
    used.add(qid)
    qtype = normalize_type(raw.get("type"))
    text = _text(raw)
    if qtype is None or text is None:
        return None
    default = raw.get("default")
    if qtype == "free_text":
        if default is None:
            default = ""
        elif type(default) is not str:
            return None
        return _question(qid, "free_text", text, (), trim_blank(default))
    allow_other = raw.get("allow_other")
    if allow_other is None:
        allow_other = False
    elif type(allow_other) is not bool:
        return None
    options = _options(raw.get("options"))
    if options is None:
        return None
    chosen = _default(qtype, default, options)
    if chosen is None:
        return None
    return _question(qid, qtype, text, tuple(options), chosen, allow_other)


def _text(raw: dict[str, Any]) -> str | None:
    """The question's text (else, when it is blank or missing, its title), trimmed;
    ``None`` when the text is not a string or neither is a non-blank string."""
    given = raw.get("text")
    if given is not None and type(given) is not str:
        return None
    for key in ("text", "title"):
        value = raw.get(key)
        if type(value) is str and not is_blank(value):
            return trim_blank(value)
    return None


def _options(raw: Any) -> list[Option] | None:
    """The options, or ``None`` when any would be reported (not a list, empty, an
    invalid, reserved or repeated value)."""
    if type(raw) is not list or not raw:
        return None
    out: list[Option] = []
    seen: set[str] = set()
    for item in raw:
        if type(item) is str:
            if is_blank(item):
                return None
            value = label = trim_blank(item)
        elif type(item) is dict:
            pair = _option_object(item)
            if pair is None:
                return None
            value, label = pair
        else:
            return None
        if value == OTHER_VALUE or value in seen:
            return None
        seen.add(value)
        out.append(_option(value, label))
    return out


def _option_object(item: dict[str, Any]) -> tuple[str, str] | None:
    """A ``{value, label}`` option's trimmed value and label (a missing or blank label
    takes the value), or ``None`` when it is invalid."""
    value, label = item.get("value"), item.get("label")
    if type(value) is not str or is_blank(value):
        return None
    value = trim_blank(value)
    if label is None:
        return value, value
    if type(label) is not str:
        return None
    return value, trim_blank(label) if not is_blank(label) else value


def _default(qtype: QuestionType, raw: Any, options: list[Option]) -> str | tuple[str, ...] | None:
    """A choice's default, or ``None`` when it would be reported: a single-choice one a
    string among the option values or empty (absent: ``""``); a multi-choice one a list
    of distinct strings among them (absent: ``()``)."""
    values = {o.value for o in options}
    if qtype == "single_choice":
        if raw is None:
            return ""
        if type(raw) is not str:
            return None
        chosen = trim_blank(raw)
        return chosen if not chosen or chosen in values else None
    if raw is None:
        return ()
    if type(raw) is not list:
        return None
    items: list[str] = []
    seen: set[str] = set()
    for item in raw:
        if type(item) is not str:
            return None
        value = trim_blank(item)
        if value not in values or value in seen:
            return None  # outside the options, or a repeat (a warning or dropped)
        seen.add(value)
        items.append(value)
    return tuple(items)


def _ui_text(raw: Any) -> tuple[tuple[str, str], ...] | None:
    """The kept ``ui_text`` pairs (unknown keys and null values ignored), or ``None``
    when it would be reported (not an object, a known key's value not a non-blank string
    of at most :data:`~replykit.questionnaire.model.MAX_UI_TEXT` code points)."""
    if raw is None:
        return ()
    if type(raw) is not dict:
        return None
    out: list[tuple[str, str]] = []
    for key, value in raw.items():
        if key not in _UI_TEXT_KEYS or value is None:
            continue
        if type(value) is not str or len(value) > MAX_UI_TEXT or is_blank(value):
            return None
        out.append((key, value))
    return tuple(out)


def _timeout_ok(raw: Any) -> bool:
    """``timeout_seconds`` absent, or a non-negative finite ``int`` or ``float``."""
    if raw is None:
        return True
    if type(raw) is int:
        return raw >= 0
    return type(raw) is float and raw >= 0 and math.isfinite(raw)
