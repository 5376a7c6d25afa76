"""Self-check's fast paths (docs/performance.md, "Self-check's own work") give exactly
what the general path gives: the one-pass conversation walk against the three passes
of the stored-message readers (the same replies, the same ``TypeError`` for the same
first fault), and the reading of a reply below ``segment()``'s checks against
``segment()`` itself (the same diagnostics, offsets and response verdict)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from inputs import VECTORS, rich_reply_texts

from replykit.diagnostics import Diagnostic
from replykit.questionnaire.conversation.replies import assistant_replies, reply_diagnostics
from replykit.questionnaire.conversation.selfcheck import can_submit, self_check
from replykit.questionnaire.conversation.stored import (
    checked_messages,
    message_field,
    message_text,
)
from replykit.questionnaire.limits import DEFAULT_LIMITS
from replykit.questionnaire.profiles import SELF_CHECK
from replykit.questionnaire.segmentation.segmenter import segment
from replykit.testing.strategies import messages as generated_messages
from replykit.text import LineIndex, is_blank

IGNORED = {"empty", "token_usage"}


# --- the general path, as Self-check read conversations before the one-pass walk -------------


def _general_replies(messages: Any, *, latest: bool) -> list[tuple[int, str]]:
    """Every message's shape checked, then the roles read again, then each candidate's
    text and type read a third time (the readers of ``stored.py``, no shortcut)."""
    messages = checked_messages(messages)
    roles = [message_field(m, i, "role", required=True) for i, m in enumerate(messages)]
    if latest:
        last_user = len(roles) - 1 - roles[::-1].index("user") if "user" in roles else -1
        indices = list(range(len(messages) - 1, last_user, -1))
    else:
        indices = list(range(len(messages)))
    found: list[tuple[int, str]] = []
    for index in indices:
        if roles[index] != "assistant":
            continue
        content = message_text(messages[index], index)
        kind = message_field(messages[index], index, "message_type", required=False)
        if kind in IGNORED:
            continue
        if content is None or is_blank(content):
            # No visible text: a reply still when it calls a tool (one rule with can_submit).
            calls = messages[index].get("tool_calls")
            parts = messages[index].get("content")
            tool_part = isinstance(parts, list) and any(
                isinstance(p, dict) and p.get("type") == "tool_use" for p in parts
            )
            if not ((isinstance(calls, list) and calls) or tool_part):
                continue
            content = content or ""
        found.append((index, content))
        if latest:
            break
    return found


def _outcome(fn: Any, *args: Any, **kwargs: Any) -> tuple[str, Any]:
    try:
        return "value", fn(*args, **kwargs)
    except TypeError as error:
        return "TypeError", str(error)


_TEXT = st.sampled_from(["", " \u200b\n", "Hello", "你好", "```questionnaire\ntitle: T\n```"])
_VALUE = st.one_of(_TEXT, st.none(), st.integers(), st.lists(_TEXT, max_size=1))
_PART = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["text", "output_text"]), "text": _VALUE}),
    st.fixed_dictionaries({"type": st.sampled_from(["image_url", "tool_use"])}),
    _TEXT,
)
_ROLE = st.one_of(st.sampled_from(["user", "assistant", "tool", "system"]), _VALUE)
_KIND = st.one_of(st.sampled_from(["empty", "token_usage", "text", "reasoning"]), _VALUE)


@st.composite
def _message(draw: st.DrawFn) -> Any:
    """Mostly well-formed stored messages, sometimes with a field of the wrong type, a
    missing field, content parts, or not a mapping at all."""
    shape = draw(st.integers(0, 9))
    if shape == 0:
        return draw(st.one_of(_TEXT, st.none(), st.integers()))
    message: dict[str, Any] = {}
    if draw(st.integers(0, 9)):
        message["role"] = draw(_ROLE if shape == 1 else st.sampled_from(["user", "assistant"]))
    if draw(st.booleans()):
        content = draw(st.lists(_PART, max_size=3)) if shape == 2 else draw(_TEXT)
        message["content"] = draw(_VALUE) if shape == 3 else content
    if draw(st.booleans()):
        message["message_type"] = draw(_KIND if shape == 4 else st.sampled_from(["empty", "text"]))
    if shape == 5:
        message["tool_calls"] = [{"id": "x"}]
    return message


_CONVERSATIONS = st.one_of(
    st.lists(_message(), max_size=6),
    st.lists(_message(), max_size=6).map(tuple),
    st.lists(_message(), max_size=4).map(lambda ms: {"messages": ms}),
    _message(),
    st.sampled_from([{"messages": "x"}, {}, "text", 3, None]),
)


@given(_CONVERSATIONS, st.booleans())
def test_the_one_pass_walk_gives_what_the_three_passes_give(
    conversation: Any, latest: bool
) -> None:
    assert _outcome(assistant_replies, conversation, latest=latest) == _outcome(
        _general_replies, conversation, latest=latest
    )


def test_the_walk_names_the_first_bad_message_and_field() -> None:
    conversation = [
        {"role": "assistant", "content": "fine"},
        {"role": "user", "content": 3, "message_type": 4},
        {"content": "no role"},
    ]
    for latest in (True, False):
        with pytest.raises(TypeError, match=r"^messages\[1\]\.content must be"):
            assistant_replies(conversation, latest=latest)


# --- the reading below segment()'s checks ----------------------------------------------------


def _general_diagnostics(content: str, index: int) -> tuple[tuple[Diagnostic, ...], bool]:
    """The reply read through the checked ``segment()``, and the response error placed as
    docs/protocol-responses.md section 3 says."""
    message_id = f"message_{index}"
    result = segment(content, message_id=message_id, profile=SELF_CHECK)
    # Registered response blocks only: an unregistered one is Markdown to a client.
    responses = [s for s in result.segments if s.kind == "questionnaire_response" and s.registered]
    if not responses:
        return result.diagnostics, False
    limit = DEFAULT_LIMITS.max_diagnostics
    if len(result.diagnostics) >= limit:
        fewer = attrs.evolve(DEFAULT_LIMITS, max_diagnostics=limit - 1)
        result = segment(content, message_id=message_id, profile=SELF_CHECK, limits=fewer)
    first = responses[0]
    line, column = LineIndex(content).line_col(first.start)
    out = list(result.diagnostics)
    at = next((k for k, d in enumerate(out) if d.start >= first.start), len(out))
    own = Diagnostic(
        "selfcheck.response_in_reply", "error", "-", first.start, first.end, line, column
    )
    out.insert(at, own)
    return tuple(out), True


def _same(content: str, index: int) -> None:
    fast, fast_responded = reply_diagnostics(content, index)
    general, responded = _general_diagnostics(content, index)
    assert fast_responded == responded
    assert len(fast) == len(general)
    for a, b in zip(fast, general, strict=True):
        if b.code == "selfcheck.response_in_reply":
            # The error's own text comes from its code's table; its place is the point.
            assert (a.code, a.start, a.end, a.line, a.column) == (
                b.code, b.start, b.end, b.line, b.column,
            )  # fmt: skip
        else:
            assert a == b


_RESPONSE = st.sampled_from(
    [
        '<questionnaire-response>{"questionnaire_id": "q", "answers": {}}'
        "</questionnaire-response>\n",
        "<questionnaire-response>{broken</questionnaire-response>\n",
        "\n```questionnaire\ntitle: [\n```\n",
    ]
)


@given(
    st.lists(st.one_of(generated_messages(), _RESPONSE), min_size=1, max_size=4).map("".join),
    st.integers(0, 12),
)
def test_the_reading_below_the_checks_gives_what_segment_gives(content: str, index: int) -> None:
    _same(content, index)


def test_the_reading_below_the_checks_on_the_vectors_and_the_rich_replies() -> None:
    for case in VECTORS:
        _same(case["input"], 0)
    for text in rich_reply_texts():
        _same(text, 3)


def test_a_reply_full_of_findings_with_a_response_is_read_again_with_one_slot_fewer() -> None:
    bad = "```questionnaire\ntitle: [\n```\n\n" * (DEFAULT_LIMITS.max_diagnostics + 5)
    content = bad + '<questionnaire-response>{"answers": {}}</questionnaire-response>\n'
    _same(content, 1)
    found, responded = reply_diagnostics(content, 1)
    assert responded
    assert len(segment(content).diagnostics) >= DEFAULT_LIMITS.max_diagnostics
    assert [d.code for d in found].count("selfcheck.response_in_reply") == 1


class _Tagged(str):
    """A caller's ``str`` subclass: Self-check's results hold plain ``str`` only."""


def test_a_reply_given_as_a_str_subclass_is_read_as_plain_text() -> None:
    text = "Pick one.\n\n```questionnaire\ntitle: [\n```\n"
    found, _ = reply_diagnostics(_Tagged(text), 0)
    assert found == reply_diagnostics(text, 0)[0]
    assert found and all(type(d.message) is str for d in found)
    # A mapping that is not a dict: argument checks make plain only dicts, lists, tuples.
    message = MappingProxyType({"role": "assistant", "content": _Tagged(text)})
    result = self_check((message,))
    assert not result.passed
    assert all(type(d.message) is str for d in result.diagnostics)
    assert result.diagnostics == self_check([{"role": "assistant", "content": text}]).diagnostics


# ---- tool results and calls as each product stores them (§8, §11) -------------------
_BAD = "Intro\n\n```Questionnaire\ntitle: T\n```\n"
_STORED = {
    "anthropic": [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [
            {"type": "text", "text": _BAD},
            {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "done"}]},
    ],
    "openai": [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": _BAD, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "lookup", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "done"},
    ],
    "openai legacy": [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": _BAD,
         "function_call": {"name": "lookup", "arguments": "{}"}},
        {"role": "function", "name": "lookup", "content": "done"},
    ],
}  # fmt: skip


@pytest.mark.parametrize("product", sorted(_STORED))
def test_a_tool_result_is_not_the_users_turn(product: str) -> None:
    conversation = _STORED[product]
    result = self_check(conversation, locale="en")
    assert (result.passed, result.index) == (False, 1)
    assert [d.code for d in result.diagnostics] == ["near_miss.case"]
    assert can_submit(conversation, 1)


def test_a_user_message_with_text_beside_its_tool_results_is_the_users_turn() -> None:
    conversation = [dict(m) for m in _STORED["anthropic"]]
    conversation[2] = {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "done"},
        {"type": "text", "text": "and now?"}]}  # fmt: skip
    result = self_check(conversation, locale="en")
    assert (result.passed, result.index) == (True, None)
    assert not can_submit(conversation, 1)


def test_a_legacy_function_call_is_a_reply_that_makes_a_call() -> None:
    broken = {
        "role": "assistant",
        "content": "Intro\n\n```questionnaire\ntitle: T\nquestions: []\n```\n",
    }
    call = {"role": "assistant", "content": None,
            "function_call": {"name": "questionnaire_async", "arguments": "{}"}}  # fmt: skip
    conversation = [{"role": "user", "content": "q"}, broken, call]
    result = self_check(conversation)
    assert (result.passed, result.index, result.diagnostics) == (True, 2, ())
    assert (can_submit(conversation, 1), can_submit(conversation, 2)) == (False, True)
