"""Every public entry point that takes JSON text answers every strict JSON value, of
every type and encoded twice, with its documented result or diagnostic, never an
undocumented exception (§1, §7, §8, §12; docs/actions.md section 12, docs/cli.md)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replykit import build_response, call_questionnaire_async, questionnaire_async_json, segment
from replykit.actions import ActionSet, sanitize, sanitize_json
from replykit.cli import main
from replykit.evals.record import audit_json, audit_record
from replykit.questionnaire.conversation.responses import AnswersError
from replykit.questionnaire.conversation.responses.build import build_response_json

TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=6)
SCALARS = st.none() | st.booleans() | st.integers(-(2**63), 2**63) | TEXT
SCALARS |= st.floats(allow_nan=False, allow_infinity=False)
KEYS = st.sampled_from(["questions", "type", "text", "actions", "answerData", "role", "content"])
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS | TEXT, inner, max_size=3),
    max_leaves=8,
)
# A value, or the JSON text of one encoded once more (a JSON string holding JSON).
TWICE = VALUES | VALUES.map(lambda v: json.dumps(v))
TYPE_NAMES = {type(None): "null", bool: "a boolean", int: "a number", float: "a number"}
TYPE_NAMES |= {str: "a string", list: "an array", dict: "an object"}
MESSAGE = (
    "Intro\n\n```questionnaire\ntitle: T\nquestions:\n"
    '  - type: free_text\n    text: Q\n    default: ""\n```\n'
)
FORM = segment(MESSAGE, message_id="m").segments[1].questionnaire


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@given(TWICE)
def test_sanitize_json_answers_every_value(value: Any) -> None:
    got = sanitize_json(_text(value))
    # A string is a non-object answer: no actions, no diagnostic (docs/actions.md 1).
    assert got == (ActionSet() if isinstance(value, str) else sanitize(value))


@pytest.mark.parametrize("text", ['"x"', '"{\\"actions\\":[{\\"id\\":\\"a\\"}]}"', "5", "null"])
def test_sanitize_json_of_a_non_object_has_no_actions(text: str) -> None:
    got = sanitize_json(text)
    assert (got.actions, got.diagnostics, got.source) == ((), (), None)


@given(TWICE)
def test_tool_json_answers_every_value(value: Any) -> None:
    assert questionnaire_async_json(_text(value)) == call_questionnaire_async(value)


@given(TWICE)
def test_audit_json_answers_every_value(value: Any) -> None:
    assert audit_json(_text(value)) == audit_record(value)


def _built(call: Any) -> Any:
    try:
        return call().to_json()
    except AnswersError as exc:
        return [(f.code, f.message, f.details) for f in exc.findings]


@given(TWICE)
def test_build_response_json_answers_every_value(value: Any) -> None:
    assert FORM is not None
    text = _text(value)
    got = _built(lambda: build_response_json(FORM, text, questionnaire_id="m_q1"))
    if isinstance(value, dict):
        assert got == _built(lambda: build_response(FORM, value, questionnaire_id="m_q1"))
    else:
        expected = "the answers must be a JSON object from question id to answer, not "
        [(code, message, details)] = got
        assert (code, details) == ("json.not_object", {"path": None, "line": 1, "column": 1})
        assert message.startswith(expected)
        assert message.endswith(TYPE_NAMES[type(value)].split()[-1])


def _cli(tmp: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    capsys.readouterr()
    status = main(argv)
    return status, capsys.readouterr().err


NOT = " must be {}, not {}"
TWICE_HINT = " (JSON text inside a string? decode it once more)"


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=TWICE)
def test_cli_commands_answer_every_value(capsys: pytest.CaptureFixture[str], value: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "v.json")
        path.write_text(_text(value), encoding="utf-8")
        message = Path(tmp, "m.md")
        message.write_text(MESSAGE, encoding="utf-8")
        kind = TYPE_NAMES[type(value)] + (TWICE_HINT if isinstance(value, str) else "")
        commands = {
            "actions": (["actions", str(path)], f"answer {path}", "an answer object", dict),
            "tool": (
                ["tool", "questionnaire_async", str(path)],
                "the tool-call arguments",
                "a JSON object",
                dict,
            ),
            "respond": (
                ["respond", "--message", str(message), "--message-id", "m", "--answers", str(path)],
                "the answers",
                "a JSON object from question id to answer",
                dict,
            ),
            "check": (
                ["check", str(path)],
                "the conversation is malformed: a conversation",
                "an array of messages or an object",
                (list, dict),
            ),
        }
        for name, (argv, what, expected, shapes) in commands.items():
            status, err = _cli(Path(tmp), capsys, argv)
            refused = not isinstance(value, shapes) and (
                name != "actions" or isinstance(value, str)
            )
            if refused:
                line = f"replykit {name}: error: {what}{NOT.format(expected, kind)}\n"
                assert (status, err) == (2, line)
            else:
                assert status in (0, 1, 2)
                assert "argument '" not in err and "Traceback" not in err
