"""Every message of a conversation is checked for shape wherever it stands
(docs/protocol-responses.md section 3.1): self_check, can_submit, replykit check (one
JSON value and JSON Lines) and the audit's reply reader agree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replykit import can_submit, self_check
from replykit.cli import main
from replykit.evals.record import replies

REPLY = {"role": "assistant", "content": "x"}
# (a malformed message placed before the reply, the TypeError message)
BAD: list[tuple[Any, str]] = [
    ({"role": "user", "content": 5},
     "messages[0].content must be a string, a list of content parts or null, not a number"),
    ({"role": "user", "content": {"x": 1}},
     "messages[0].content must be a string, a list of content parts or null, not an object"),
    ({"role": "user", "content": ["x"]},
     "messages[0].content[0] must be a content part object, not a string"),
    ({"role": "tool", "content": [{"type": "text", "text": None}]},
     "messages[0].content[0].text must be a string, not null"),
    ({"role": "tool", "content": [{"type": "output_text"}]}, "messages[0].content[0] has no text"),
    ({"role": "user", "content": "hi", "message_type": 3},
     "messages[0].message_type must be a string, not a number"),
    ({"role": 5, "content": "hi"}, "messages[0].role must be a string, not a number"),
    ({"content": "hi"}, "messages[0] has no role"),
    ("hi", "messages[0] must be an object, not a string"),
]  # fmt: skip


@pytest.mark.parametrize(("bad", "message"), BAD)
def test_a_bad_message_before_the_reply_is_refused(bad: Any, message: str) -> None:
    for call in (
        lambda: self_check([bad, REPLY]),
        lambda: self_check({"messages": [bad, REPLY]}),
        lambda: can_submit([bad, REPLY], 1),
        lambda: replies([bad, REPLY], None, latest=False),
    ):
        with pytest.raises(TypeError) as info:
            call()
        assert str(info.value) == message


@pytest.mark.parametrize(("bad", "message"), BAD[:4])
def test_a_bad_message_after_the_reply_is_refused(bad: Any, message: str) -> None:
    """After the last user message too: a later tool message is never inspected."""
    shifted = message.replace("messages[0]", "messages[1]")
    with pytest.raises(TypeError) as info:
        self_check([REPLY, bad])
    assert str(info.value) == shifted


@pytest.mark.parametrize(("bad", "message"), BAD)
def test_check_exits_2_whatever_line_the_bad_message_is_on(
    bad: Any, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = tmp_path / "c.json"
    whole.write_text(json.dumps([bad, REPLY]), encoding="utf-8")
    assert main(["check", str(whole)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"replykit check: error: the conversation is malformed: {message}"
    )
    lines = tmp_path / "c.jsonl"
    lines.write_text(json.dumps([REPLY]) + "\n" + json.dumps([bad, REPLY]) + "\n", "utf-8")
    assert main(["check", str(lines)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"replykit check: error: the conversation (line 2) is malformed: {message}"
    )


def test_good_messages_of_every_shape_pass() -> None:
    messages = [
        {"role": "system", "content": None},
        {"role": "user", "content": [{"type": "image_url"}, {"type": "text", "text": "q"}]},
        {"role": "assistant", "content": "", "message_type": "empty"},
        {"role": "tool", "content": "r", "message_type": None},
        REPLY,
    ]
    assert self_check(messages).to_json() == {
        "passed": True, "index": 4, "diagnostics": [], "repair_prompt": None,
    }  # fmt: skip
    assert can_submit(messages, 4) is True
    assert replies(messages, None, latest=False) == [(4, "x")]


@pytest.mark.parametrize("kind", [5, None, {}, [], {"a": 1}, True])
def test_a_part_whose_type_is_no_string_is_skipped(kind: object) -> None:
    # Only text parts are read; a part of no known type (an object or array there
    # too) is skipped as image_url is, never a Python error (stored.py).
    from replykit.questionnaire.conversation.stored import has_tool_part

    reply = {"role": "assistant", "content": [{"type": "text", "text": "Hello"}, {"type": kind}]}
    assert self_check([{"role": "user", "content": "hi"}, reply]).passed is True
    assert has_tool_part(reply) is False
