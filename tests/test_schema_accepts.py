"""Every JSON Schema ``replykit schema`` prints accepts what its reader accepts (§5,
§7; docs/protocol-responses.md sections 2.2 and 2.3): the tool's and the reader's own
normalized output, ``null`` for every optional field, and every accepted call except
the few shapes the docs name as stricter (a title in place of text, unknown keys, a
type in another spelling, options or an ``allow_other`` but ``false`` on a free-text
question)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from replykit import call_questionnaire_async, form_schema, segment, tool_schema
from replykit.testing.strategies import form_dicts, tool_arguments
from replykit.testing.strategies.tool import tool_one_rule

TOOL = Draft202012Validator(tool_schema())
FORM = Draft202012Validator(form_schema())
TYPES = {"single_choice", "multi_choice", "multiple_choice", "free_text", "text"}
QUESTION_KEYS = {"id", "type", "text", "title", "options", "default", "allow_other"}


def _other_given(q: dict[str, Any]) -> bool:
    """An ``allow_other`` the free-text schema refuses and the tool ignores: anything but
    ``false`` or ``null`` (``is``: ``0`` is not ``false`` in JSON)."""
    return not (q.get("allow_other") is None or q.get("allow_other") is False)


def _stricter(args: dict[str, Any], top: set[str]) -> bool:
    """Whether the arguments use a shape the docs name as one the schema refuses."""
    if set(args) - top:
        return True
    for q in args["questions"]:
        free = q.get("type") in ("free_text", "text")
        if (
            set(q) - QUESTION_KEYS
            or q.get("type") not in TYPES
            or not (isinstance(q.get("text"), str) and q["text"])
            or (free and (q.get("options") not in (None, []) or _other_given(q)))
            or any(
                isinstance(o, dict) and set(o) - {"value", "label"} for o in q.get("options") or []
            )
        ):
            return True
    return False


@given(st.one_of(tool_arguments(), tool_one_rule()))
def test_the_tool_schema_accepts_every_call_the_tool_accepts(args: Any) -> None:
    result = call_questionnaire_async(args)
    if not result["success"]:
        return
    if not _stricter(args, {"title", "questions"}):
        assert TOOL.is_valid(args), list(TOOL.iter_errors(args))
    # The tool's own normalized output is an input the schema and the tool accept.
    again = {"title": result["title"], "questions": result["questions"]}
    assert TOOL.is_valid(again), list(TOOL.iter_errors(again))
    assert call_questionnaire_async(again)["questions"] == result["questions"]


@given(form_dicts())
def test_the_form_schema_accepts_every_form_the_reader_reads(form: Any) -> None:
    text = "Intro <questionnaire>" + json.dumps(form) + "</questionnaire>"
    (block,) = [s for s in segment(text).segments if s.kind != "markdown"]
    if not block.valid:
        return
    if isinstance(form, dict) and "questions" in form:
        top = {"title", "questions", "ui_text", "timeout_seconds"}
        if not _stricter(form, top) and all(
            isinstance(v, str | type(None)) for v in (form.get("ui_text") or {}).values()
        ):
            assert FORM.is_valid(form), list(FORM.iter_errors(form))
    normalized = block.questionnaire.to_json()
    assert FORM.is_valid(normalized), list(FORM.iter_errors(normalized))


QUESTIONS = [
    {"type": "single_choice", "text": "Q", "options": ["a", {"value": "b", "label": None}]},
    {"type": "multi_choice", "text": "Q", "options": ["a"]},
    {"type": "free_text", "text": "Q"},
]


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("field", ["id", "title", "default", "allow_other", "options", "top"])
def test_null_for_an_optional_field_is_accepted_by_schema_and_tool(
    question: dict[str, Any], field: str
) -> None:
    if field == "options" and question["type"] != "free_text":
        return  # required for a choice
    args: dict[str, Any] = {"questions": [{**question, field: None}]}
    if field == "top":
        args = {"title": None, "questions": [question], "ui_text": None, "timeout_seconds": None}
        assert FORM.is_valid(args)
        assert segment("<questionnaire>" + json.dumps(args) + "</questionnaire>").segments[0].valid
        del args["ui_text"], args["timeout_seconds"]
    assert TOOL.is_valid(args), list(TOOL.iter_errors(args))
    assert call_questionnaire_async(args)["success"] is True


def test_the_reported_cases_are_accepted() -> None:
    own = {"id": "q1", "type": "free_text", "text": "Q", "options": []}
    own |= {"default": "", "allow_other": False}
    for question in (
        own,
        {"type": "single_choice", "text": "Q", "options": ["a"], "default": None},
    ):
        assert TOOL.is_valid({"questions": [question]})
    # Still refused: what the tool would ignore or read otherwise.
    for question in (
        {**own, "options": ["a"]},
        {**own, "allow_other": True},
        {**own, "default": 5},
        {"type": "free_text", "text": ""},
    ):
        assert not TOOL.is_valid({"questions": [question]}), question
