"""A lone surrogate from a payload (a JSON ``\\udXXX`` escape, a YAML ``"\\udXXX"``) or
a caller's key never reaches a diagnostic's message or path raw (§1): it shows as the
six-character escape, and a key holding one is written in brackets as a JSON string
(``["\\ud800"]``), in segment(), the tool, responses, Self-check and answer actions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import (
    call_questionnaire_async,
    questionnaire_async_json,
    segment,
    self_check,
)
from replykit.actions import lint, sanitize, sanitize_json
from replykit.questionnaire.conversation.responses import AnswersError
from replykit.questionnaire.conversation.responses.build import build_response_json

LONE = st.sampled_from(["\ud800", "\udfff", "\udc00", "\udbff"])
PIECE = st.sampled_from(["", "a", "questions", "type", "text", "id", " ", "é"])
ODD = st.builds(lambda a, s, b: a + s + b, PIECE, LONE, PIECE)
TEXT = st.one_of(ODD, st.sampled_from(["Q", "a", "free_text", "single_choice", ""]))
FORM = {"title": "T", "questions": [{"type": "single_choice", "text": "Q", "options": ["a"]}]}
PLACES = [(), ("questions", 0), ("questions", 0, "options", 0)]


def _clean(text: str | None) -> bool:
    return text is None or not any("\ud800" <= c <= "\udfff" for c in text)


def _with(where: tuple[Any, ...], key: str | None, value: str) -> dict[str, Any]:
    form: Any = json.loads(json.dumps(FORM))
    node = form
    for part in where:
        node = node[part]
    if isinstance(node, dict):
        node[value if key is None else key] = value
    else:
        parent = form
        for part in where[:-1]:
            parent = parent[part]
        parent[where[-1]] = value
    return form


def _check(diagnostics: Any) -> None:
    for d in diagnostics:
        assert _clean(d.message), d
        assert _clean(d.path), d


@given(st.sampled_from(PLACES), st.booleans(), ODD)
def test_payload_readers_escape_it_in_messages_and_paths(
    where: tuple[Any, ...], as_key: bool, odd: str
) -> None:
    form = _with(where, odd if as_key else None, odd)
    as_json = json.dumps(form)  # ensure_ascii: the surrogate as a \\udXXX escape
    for text in (
        f"Intro <questionnaire>{as_json}</questionnaire>",
        f"Intro\n\n```questionnaire\nx: 1\n{_yaml_lines(form)}```\n",
        "<questionnaire-response>"
        + json.dumps({"type": "questionnaire_response", "questionnaire_id": odd, odd: 1})
        + "</questionnaire-response>",
    ):
        result = segment(text)
        _check(result.diagnostics)
        assert result.diagnostics, text
        checked = self_check([{"role": "assistant", "content": text}], locale="en")
        _check(checked.diagnostics)
        assert _clean(checked.repair_prompt)
    for tool in (questionnaire_async_json(as_json), call_questionnaire_async(form)):
        for error in tool.get("errors", []):
            assert _clean(error["message"]) and _clean(error["path"]), error
            assert _clean(error["details"].get("path")), error


def _yaml_lines(form: dict[str, Any]) -> str:
    # JSON strings are YAML double-quoted scalars, escapes included.
    return f"form: {json.dumps(form)}\n"


@given(ODD, st.sampled_from(["answerData", None]))
def test_answer_actions_escape_it(odd: str, wrapper: str | None) -> None:
    action = {"id": "a", "type": "view.detail", "label": "L", odd: 1, "params": {odd: odd}}
    actions = {"actions": [action]}
    answer: dict[str, Any] = actions if wrapper is None else {wrapper: actions}
    for found in (
        sanitize(answer).diagnostics,
        sanitize_json(json.dumps(answer)).diagnostics,
        lint(answer),
    ):
        _check(found)
        assert found


@pytest.mark.parametrize(
    ("text", "path", "message"),
    [
        (
            '{"\\ud800":1,"questions":[{"type":"text","text":"Q"}]}',
            '["\\ud800"]',
            "lone surrogate \\ud800 in a string: a surrogate must come as a pair",
        ),
        (
            '{"questions":[{"type":"text","text":"Q","a\\udc00b":2}]}',
            'questions[1]["a\\udc00b"]',
            "lone surrogate \\udc00 in a string",
        ),
    ],
)
def test_the_reported_key_is_written_escaped(text: str, path: str, message: str) -> None:
    (d,) = segment(f"Intro <questionnaire>{text}</questionnaire>").diagnostics
    assert (d.code, d.path) == ("json.lone_surrogate", path)
    assert d.message.startswith(message)
    result = questionnaire_async_json(text, locale="en")
    assert [(e["path"], e["details"]["path"]) for e in result["errors"]] == [(path, path)]
    key = json.loads(text)
    result = call_questionnaire_async(key, locale="en")
    assert [e["path"] for e in result["errors"]] == [path]
    assert path in result["errors"][0]["message"]


def test_answers_text_escapes_it() -> None:
    text = 'Intro <questionnaire>{"questions":[{"type":"text","text":"Q"}]}</questionnaire>'
    form = segment(text, message_id="m").segments[1].questionnaire
    assert form is not None
    with pytest.raises(AnswersError) as info:
        build_response_json(form, '{"q1": "x", "\\ud800": "y"}', questionnaire_id="m_q1")
    for f in info.value.findings:
        assert _clean(f.message) and _clean(f.details.get("path")), f
    assert [f.details["path"] for f in info.value.findings] == ['["\\ud800"]']


@given(ODD, ODD, ODD)
def test_a_failed_tool_results_own_errors_escape_it(code: str, path: str, message: str) -> None:
    from replykit import questionnaire_from_tool_result

    error = {"code": code, "path": path, "message": message, "details": {}}
    result = {"success": False, "errors": [error]}
    (got,) = questionnaire_from_tool_result(result, "call_1", locale="en").errors
    assert _clean(got.code) and _clean(got.path) and _clean(got.message)
    assert json.loads(json.dumps(got.message)) == got.message.encode("utf-8").decode("utf-8")
