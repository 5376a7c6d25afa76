"""One rule for "a reply" wherever a conversation is walked (self_check, can_submit,
``replykit check``, ``replykit audit --latest``), and the known roles
(docs/protocol-responses.md sections 3, 3.1 and 4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import can_submit, self_check
from replykit.cli import main
from replykit.evals.record import audit_record
from replykit.questionnaire.conversation.stored import KNOWN_ROLES

BAD = "Intro\n\n```questionnaire\ntitle: T\nquestions: []\n```\n"
OPENAI_CALL = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {
            "id": "call_1",
            "type": "function",
            "function": {"name": "questionnaire_async", "arguments": "{}"},
        }
    ],
}
ANTHROPIC_CALL = {
    "role": "assistant",
    "content": [
        {"type": "text", "text": " \n"},
        {"type": "tool_use", "id": "toolu_1", "name": "questionnaire_async", "input": {}},
    ],
}
CALLS = [OPENAI_CALL, ANTHROPIC_CALL, {**OPENAI_CALL, "content": ""}]


def _conversation(call: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": BAD},
        call,
        {"role": "tool", "content": "{}", "tool_call_id": "call_1"},
    ]


@pytest.mark.parametrize("call", CALLS)
def test_a_tool_call_alone_is_the_latest_reply_everywhere(
    call: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conv = _conversation(call)
    result = self_check(conv)
    assert (result.passed, result.index, result.diagnostics, result.repair_prompt) == (
        True,
        2,
        (),
        None,
    )
    assert [can_submit(conv, i) for i in range(4)] == [False, False, True, False]
    path = tmp_path / "c.json"
    path.write_text(json.dumps(conv), encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "passed": True,
        "index": 2,
        "diagnostics": [],
        "repair_prompt": None,
    }
    latest = audit_record(conv, latest=True)["messages"]
    assert [(m["index"], m["passed"], m["codes"]) for m in latest] == [(2, True, [])]
    every = audit_record(conv)["messages"]
    assert [(m["index"], m["passed"]) for m in every] == [(1, False), (2, True)]


def test_an_empty_tool_calls_list_is_no_reply() -> None:
    conv = _conversation({**OPENAI_CALL, "tool_calls": []})
    result = self_check(conv)
    assert (result.passed, result.index) == (False, 1)
    assert [can_submit(conv, i) for i in range(4)] == [False, True, False, False]


def test_a_call_with_text_is_inspected_by_its_text() -> None:
    conv = _conversation({**OPENAI_CALL, "content": BAD})
    result = self_check(conv, locale="en")
    assert (result.passed, result.index) == (False, 2)
    assert [d.code for d in result.diagnostics] == ["form.questions_invalid"]


def test_a_token_usage_message_with_a_call_is_no_reply() -> None:
    conv = _conversation({**OPENAI_CALL, "message_type": "token_usage"})
    assert self_check(conv).index == 1
    assert can_submit(conv, 1) and not can_submit(conv, 2)


# --- the property: Self-check inspects exactly the message can_submit allows ------------

_TEXTS = st.sampled_from([None, "", " \n", "\u200b", "ok", BAD])
_MESSAGES = st.one_of(
    st.builds(lambda r, c: {"role": r, "content": c}, st.sampled_from(KNOWN_ROLES), _TEXTS),
    st.builds(lambda c: {**OPENAI_CALL, "content": c}, _TEXTS),
    st.builds(lambda n: {**OPENAI_CALL, "tool_calls": [{"id": "c"}] * n}, st.integers(0, 2)),
    st.just(ANTHROPIC_CALL),
    st.builds(
        lambda t, c: {"role": "assistant", "content": c, "message_type": t},
        st.sampled_from(["empty", "token_usage", "text"]),
        _TEXTS,
    ),
)


@given(st.lists(_MESSAGES, max_size=6))
def test_self_check_inspects_the_one_message_can_submit_allows(
    conv: list[dict[str, Any]],
) -> None:
    index = self_check(conv).index
    allowed = [i for i in range(len(conv)) if can_submit(conv, i)]
    assert allowed == ([] if index is None else [index])
    latest = audit_record(conv, latest=True)
    assert [m["index"] for m in latest["messages"]] == allowed


# --- roles ----------------------------------------------------------------------------------


def test_the_known_roles() -> None:
    assert KNOWN_ROLES == ("user", "assistant", "system", "developer", "tool", "function")
    conv = [{"role": r, "content": "x"} for r in KNOWN_ROLES]
    assert self_check(conv).passed


@pytest.mark.parametrize("role", ["Assistant", "human", "model", "USER", "", "bot"])
def test_an_unknown_role_is_a_shape_error_everywhere(
    role: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conv = [
        {"role": "user", "content": "q"},
        {"role": role, "content": "Intro <foo-questionnaire>{}</foo-questionnaire>"},
    ]
    message = (
        "messages[1].role must be one of user, assistant, system, developer, tool, "
        f"function, not {json.dumps(role)}"
    )
    with pytest.raises(TypeError) as caught:
        self_check(conv)
    assert str(caught.value) == message
    with pytest.raises(TypeError) as caught:
        can_submit(conv, 0)
    assert str(caught.value) == message
    assert audit_record(conv) == {"group": "all", "error": message, "messages": []}
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(conv[:1]) + "\n" + json.dumps(conv) + "\n", encoding="utf-8")
    assert main(["check", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"(line 2) is malformed: {message}" in captured.err


def test_a_long_role_is_quoted_short() -> None:
    with pytest.raises(TypeError) as caught:
        self_check([{"role": "x" * 10_000, "content": "hi"}])
    assert str(caught.value).endswith('not "' + "x" * 58 + "…")
