"""A question whose type is invalid still gets every check that does not depend on its
type (docs/protocol.md §4.2, §7: every violation is reported), in fenced YAML, XML+JSON
and ``questionnaire_async`` alike.

The property: the diagnostics of a question with an invalid type are ``type_invalid``
plus exactly those the same question gets with type ``single_choice`` and with
``multi_choice`` alike (same code, path and, for the type of the same length, the same
offsets), except "options required" for options that are missing or empty: a
free_text question needs none."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import call_questionnaire_async, segment

BAD = "x" * len("single_choice")  # an invalid type as long as a valid one: same offsets
ABSENT = object()
FIELDS = {
    "text": st.sampled_from(["Why", "", " ", 5, None, ABSENT]),
    "options": st.sampled_from([ABSENT, [], 5, "a", None, {"a": 1}])
    | st.lists(
        st.sampled_from(["a", "b", " ", 5, {"value": "a"}, "__questionnaire_other__"]),
        min_size=1,
        max_size=3,
    ),
    "default": st.sampled_from([ABSENT, "a", "", 5, None, ["a"], [5], ["a", "a"], {"a": 1}, True]),
    "allow_other": st.sampled_from([ABSENT, True, False, 3, "yes", None, []]),
}
QUESTIONS = st.fixed_dictionaries(FIELDS).map(
    lambda q: {k: v for k, v in q.items() if v is not ABSENT}
)


def _fenced(question: dict[str, Any], qtype: str) -> str:
    lines = [f"type: {qtype}"] + [f"{key}: {json.dumps(value)}" for key, value in question.items()]
    return "Hi\n\n```questionnaire\ntitle: T\nquestions:\n  - " + "\n    ".join(lines) + "\n```\n"


def _xml(question: dict[str, Any], qtype: str) -> str:
    return (
        "<questionnaire>"
        + json.dumps({"questions": [{"type": qtype, **question}]})
        + "</questionnaire>"
    )


Key = tuple[str, str, str, int | None, int | None]


def _block(message: str) -> list[Key]:
    (block,) = [s for s in segment(message).segments if s.kind == "questionnaire"]
    return [(d.code, d.severity, d.path or "", d.start, d.end) for d in block.diagnostics]


def _tool(question: dict[str, Any], qtype: str) -> list[Key]:
    result = call_questionnaire_async({"questions": [{"type": qtype, **question}]})
    return [(e["code"], "error", e["path"], None, None) for e in result.get("errors", [])]


def _expected(question: dict[str, Any], read: Any, fenced: bool) -> list[Key]:
    single, multi = read(question, "single_choice"), read(question, "multi_choice")
    in_multi = {key[:3] for key in multi}
    # Options a free_text question takes without an error: none in XML+JSON and the
    # tool (which ignore them), any given in fenced YAML (where they are forbidden).
    fine = "options" not in question or (not fenced and question["options"] in ([], None))
    return [
        key
        for key in single
        if key[:3] in in_multi and not (key[0].endswith("options_required") and fine)
    ] + _item_errors(question, multi, fenced)


def _item_errors(question: dict[str, Any], multi: list[Key], fenced: bool) -> list[Key]:
    """The multi_choice errors on the items of a list default that are not strings:
    not a string is wrong whatever the type (§4.2), so they stay, one offset later
    (``BAD`` is one longer than ``multi_choice``)."""
    if not isinstance(question.get("default"), list):
        return []
    if fenced:
        code, path = "question.default_invalid", "questions[1].default["
    else:
        code, path = "questionnaire.start.default_list_invalid_items", "questions[1].default"
    return [
        (c, s, p, None if a is None else a + 1, None if b is None else b + 1)
        for c, s, p, a, b in multi
        if c == code and p.startswith(path)
    ]


def _check(question: dict[str, Any], read: Any, type_code: str, fenced: bool = False) -> None:
    got = read(question, BAD)
    assert [key[0] for key in got].count(type_code) == 1
    assert [key for key in got if key[0] != type_code] == _expected(question, read, fenced)


@settings(max_examples=150, deadline=None)
@given(QUESTIONS)
def test_fenced_untyped_question(question: dict[str, Any]) -> None:
    _check(question, lambda q, t: _block(_fenced(q, t)), "question.type_invalid", fenced=True)


@settings(max_examples=150, deadline=None)
@given(QUESTIONS)
def test_xml_untyped_question(question: dict[str, Any]) -> None:
    _check(question, lambda q, t: _block(_xml(q, t)), "questionnaire.start.question_type_invalid")


@settings(max_examples=150, deadline=None)
@given(QUESTIONS)
def test_tool_untyped_question(question: dict[str, Any]) -> None:
    _check(question, _tool, "questionnaire.start.question_type_invalid")


def test_the_reported_case() -> None:
    # The tester's question: every field error is reported beside the type's.
    fenced = _block(
        "Hi\n\n```questionnaire\ntitle: T\nquestions:\n  - type: bogus\n    text: ''\n"
        "    options: 5\n    default: 5\n    allow_other: 3\n```\n"
    )
    assert [(code, path) for code, _, path, _, _ in fenced] == [
        ("question.type_invalid", "questions[1].type"),
        ("question.text_required", "questions[1].text"),
        ("question.options_required", "questions[1].options"),
        ("question.allow_other_invalid", "questions[1].allow_other"),
        ("question.default_invalid", "questions[1].default"),
    ]
    message = "Hi\n\n```questionnaire\ntitle: T\nquestions:\n  - type: bogus\n    text: a\n"
    (block,) = [
        s for s in segment(message + "    default: 5\n```\n").segments if s.kind != "markdown"
    ]
    assert block.diagnostics[-1].message == (
        "questions[1].default must be a string or a list of strings, whatever the question's "
        'type; YAML reads 5 as an integer; quote it to keep the text: "5"'
    )
    result = call_questionnaire_async(
        {
            "questions": [
                {"type": "bogus", "text": "a", "allow_other": 3, "options": 5, "default": 5}
            ]
        }
    )
    assert [(e["code"], e["path"], e["details"]) for e in result["errors"]] == [
        (
            "questionnaire.start.question_type_invalid",
            "questions[1].type",
            {
                "path": "questions[1].type",
                "value": "bogus",
                "allowed": [
                    "single_choice",
                    "multiple_choice",
                    "multi_choice",
                    "text",
                    "free_text",
                ],
            },
        ),
        (
            "questionnaire.start.question_options_required",
            "questions[1].options",
            {"path": "questions[1].options", "expected": "non-empty array", "actual": "number"},
        ),
        (
            "questionnaire.start.allow_other_type_invalid",
            "questions[1].allow_other",
            {"path": "questions[1].allow_other", "expected": "boolean", "actual": "number"},
        ),
        (
            "questionnaire.start.default_type_invalid",
            "questions[1].default",
            {
                "path": "questions[1].default",
                "expected": "string or array of strings",
                "actual": "number",
            },
        ),
    ]
