"""The conversation walk and the reading of one reply that Self-check makes (§8),
below :func:`~replykit.questionnaire.conversation.selfcheck.self_check`'s argument
checks: compiled in the opt-in build (docs/performance.md, "Compiled build").
``selfcheck.py`` holds the checked entry points and the repair instruction.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from replykit.codes.responses import SELFCHECK_RESPONSE_IN_REPLY
from replykit.diagnostics import Diagnostic
from replykit.plain import plain
from replykit.questionnaire.conversation.stored import (
    check_role,
    conversation_messages,
    has_tool_part,
    is_tool_result,
    message_field,
    message_text,
)
from replykit.questionnaire.limits import DEFAULT_LIMITS
from replykit.questionnaire.model import Segment
from replykit.questionnaire.profiles import SELF_CHECK
from replykit.questionnaire.segmentation.assemble import segment_counted
from replykit.text import LineIndex, is_blank

#: ``message_type`` values that never count as an assistant reply (§8, §11).
IGNORED_MESSAGE_TYPES = frozenset({"empty", "token_usage"})


def _shape(message: Any, index: int) -> tuple[str, str | None]:
    """``(role, text)`` of the ``index``-th message, its shape checked as
    :func:`~replykit.questionnaire.conversation.stored.checked_messages` checks it (the
    same ``TypeError`` for the same first fault); ``text`` is ``None`` when the content
    is ``None`` or the ``message_type`` is ignored (§8)."""
    if type(message) is dict:
        # The usual stored message: a dict of strings, read with one look-up per field.
        role = message.get("role")
        content = message.get("content")
        kind = message.get("message_type")
        if (
            type(role) is str
            and (content is None or type(content) is str)
            and (kind is None or type(kind) is str)
        ):
            check_role(role, index)
            return role, None if kind in IGNORED_MESSAGE_TYPES else content
    checked_role = message_field(message, index, "role", required=True)
    assert checked_role is not None
    check_role(checked_role, index)
    text = message_text(message, index)
    kind = message_field(message, index, "message_type", required=False)
    return checked_role, None if kind in IGNORED_MESSAGE_TYPES else text


def reply_text(message: Mapping[str, Any], index: int) -> str | None:
    """The one rule for "a reply" (§8, §11; docs/protocol-responses.md section 3): an
    ``assistant`` message (the caller checks the role) whose ``message_type`` is not
    ``empty``/``token_usage`` and that has visible text (not blank, §1) or makes a tool
    call (a non-empty ``tool_calls`` list, OpenAI; a ``function_call`` object, OpenAI's
    legacy function calling; a ``tool_use`` content part, Anthropic). Output: its text
    (content parts joined; ``""`` when it has none, as a call alone), or ``None`` when
    the message is no reply."""
    kind = message_field(message, index, "message_type", required=False)
    if kind in IGNORED_MESSAGE_TYPES:
        return None
    content = message_text(message, index)
    if content is not None and not is_blank(content):
        return content
    calls = message.get("tool_calls")
    if (isinstance(calls, list) and bool(calls)) or has_tool_part(message):
        return content or ""
    return None


def assistant_replies(
    messages: Sequence[Mapping[str, Any]] | Mapping[str, Any], *, latest: bool
) -> list[tuple[int, str]]:
    """The assistant replies of a stored conversation as §8 reads them, each
    ``(0-based message index, text)``: the messages :func:`reply_text` counts (visible
    text or a tool call; the text, content parts joined, is ``""`` for a call alone).
    ``latest``: only the one Self-check inspects, the latest of them
    among the messages after the last ``user`` message (none when a user message comes
    after every reply; a ``user`` message of ``tool_result`` parts only is the tool's,
    :func:`~replykit.questionnaire.conversation.stored.is_tool_result`); else all of
    them, in order.

    Raises ``TypeError`` as :func:`~replykit.questionnaire.conversation.selfcheck.self_check`
    does: every message, wherever it stands, must be an object with a known ``role``,
    a ``content`` that is a string, a list of content parts or ``None``, and a
    ``message_type`` that is a string or ``None``; the first bad one is named. One pass
    over the messages.
    """
    roles: list[str] = []
    texts: list[str | None] = []
    # A list or tuple is its own message sequence (conversation_messages returns it).
    listed = messages if type(messages) in (list, tuple) else conversation_messages(messages)
    for index, message in enumerate(listed):
        role, text = _shape(message, index)
        roles.append(role)
        texts.append(text)
    last_user = -1
    if latest:
        for index in range(len(roles) - 1, -1, -1):
            if roles[index] == "user" and not is_tool_result(
                typing.cast(Sequence[Any], listed)[index]
            ):
                last_user = index
                break
    found: list[tuple[int, str]] = []
    indices = range(len(roles) - 1, last_user, -1) if latest else range(len(roles))
    for index in indices:
        text = texts[index]
        if roles[index] != "assistant":
            continue
        if text is None or is_blank(text):
            # No visible text: a reply still when it makes a tool call (reply_text).
            text = reply_text(typing.cast(Sequence[Any], listed)[index], index)
            if text is None:
                continue
        found.append((index, text))
        if latest:
            break
    return found


def reply_diagnostics(content: str, index: int) -> tuple[tuple[Diagnostic, ...], bool]:
    """The diagnostics of the reply ``content`` (the ``index``-th message), read with
    the ``SELF_CHECK`` profile and block ids ``message_{index}_qN``, with one
    ``selfcheck.response_in_reply`` error placed by offset at its first response block
    when it holds any (docs/protocol-responses.md section 3), within the cap (§2.1: the
    reply is then read with one slot fewer); and whether it holds one.

    The reading is :func:`~replykit.segment`'s below its argument checks: the message id
    and the profile are this function's own, valid values."""
    found, responded, _segments = reply_reading(content, index)
    return found, responded


def reply_reading(
    content: str, index: int
) -> tuple[tuple[Diagnostic, ...], bool, tuple[Segment, ...]]:
    """:func:`reply_diagnostics` and the reply's segments (the repair instruction names
    the failing block's registered name from them, docs/protocol-responses.md section 3)."""
    if type(content) is not str:
        content = plain(content)  # as segment()'s argument check gives it
    message_id = f"message_{index}"
    result = segment_counted(content, message_id, SELF_CHECK, None, DEFAULT_LIMITS)[0]
    first = None
    total = 0
    for s in result.segments:
        # An unregistered name is shown as Markdown, no answer (its name.unregistered
        # fails the check); a registered one would be shown as the user's answer.
        if s.kind == "questionnaire_response" and s.registered:
            total += 1
            if first is None:
                first = s
    if first is None:
        return result.diagnostics, False, result.segments
    limit = DEFAULT_LIMITS.max_diagnostics
    if len(result.diagnostics) >= limit:
        fewer = attrs.evolve(DEFAULT_LIMITS, max_diagnostics=limit - 1)
        result = segment_counted(content, message_id, SELF_CHECK, None, fewer)[0]
    found = SELFCHECK_RESPONSE_IN_REPLY.finding(
        start=first.start, end=first.end, name=first.name, total=total
    )
    line, column = LineIndex(content).line_col(first.start)
    own = Diagnostic(
        found.code, "error", found.message, first.start, first.end, line, column,
        params=found.params,
    )  # fmt: skip
    out = list(result.diagnostics)
    at = next((k for k, d in enumerate(out) if d.start >= first.start), len(out))
    out.insert(at, own)
    return tuple(out), True, result.segments
