"""The text deltas of a captured server-sent-event stream of a chat completion.

Two shapes are read (docs/cli.md, ``replykit stream --sse``): an OpenAI-style chat
completion stream (``data: {"choices": [{"delta": {"content": "..."}}]}`` lines, ended
by ``data: [DONE]``) and an Anthropic-style message stream (``event:
content_block_delta`` with ``data: {"type": "content_block_delta", "delta": {"type":
"text_delta", "text": "..."}}``, ended by ``message_stop``). Other events (roles, tool
calls, pings, usage) carry no text and are skipped; a text field that is there but
neither a string nor null (``"content": 5``) is an input error naming its line.
Events are read line by line as the stream arrives (the WHATWG server-sent-events
format: ``data:`` lines joined by ``\\n`` up to a blank line; lines starting with
``:`` are comments).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from replykit.cli.io import InputError, parse_json
from replykit.questionnaire.payload.describe import a_json_type


class NotText(ValueError):
    """A delta's text field holds something other than a string or null; ``str`` is
    ``FIELD must be a string or null, not KIND``."""


def _text(value: Any, field: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise NotText(f"{field} must be a string or null, not {a_json_type(value)}")


def events(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """The ``data`` of each event of ``lines`` (each line without its ending): the
    1-based line number where the event's data starts, and the data."""
    data: list[str] = []
    first = 0
    for number, line in enumerate(lines, 1):
        if line == "":
            if data:
                yield first, "\n".join(data)
            data = []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if field == "data":
            if not data:
                first = number
            data.append(value.removeprefix(" "))
    if data:
        yield first, "\n".join(data)


def delta_text(value: Any) -> str | None:
    """The text one event's JSON value carries (``None``: none), in either shape.
    Raises :class:`NotText` when its text field is neither a string nor null."""
    if not isinstance(value, dict):
        return None
    choices = value.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        delta = choices[0].get("delta")
        content = delta.get("content") if isinstance(delta, dict) else None
        return _text(content, "choices[0].delta.content")
    if value.get("type") == "content_block_delta":
        delta = value.get("delta")
        if isinstance(delta, dict) and delta.get("type") == "text_delta":
            return _text(delta.get("text"), "delta.text")
    return None


def deltas(lines: Iterable[str], name: str) -> Iterator[str]:
    """The text deltas of the stream ``lines`` (read from ``name``), in order, up to
    its end (``[DONE]`` or ``message_stop``). Raises :class:`InputError` naming the line
    when an event's data is neither ``[DONE]`` nor strict JSON, or its text field is
    neither a string nor null."""
    for number, data in events(lines):
        if data == "[DONE]":
            return
        value = parse_json(data, f"{name} line {number}: event data")
        if isinstance(value, dict) and value.get("type") == "message_stop":
            return
        try:
            text = delta_text(value)
        except NotText as exc:
            raise InputError(f"{name} line {number}: event data {exc}") from None
        if text:
            yield text
