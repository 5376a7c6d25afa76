"""The text deltas of a captured server-sent-event stream of a chat completion.

Two shapes are read (docs/cli.md, ``replykit stream --sse``): an OpenAI-style chat
completion stream (``data: {"choices": [{"delta": {"content": "..."}}]}`` lines, ended
by ``data: [DONE]``) and an Anthropic-style message stream (``event:
content_block_delta`` with ``data: {"type": "content_block_delta", "delta": {"type":
"text_delta", "text": "..."}}``, ended by ``message_stop``). Only choice 0 of an
OpenAI stream is read (a request with ``n > 1`` interleaves its choices, each event
naming its ``index``). Other events (roles, tool calls, pings, usage) carry no text and
are skipped. An input error names its line: a field there with the wrong type
(``"choices": {}``, ``"content": 5``), an error event (``event: error`` with
``{"type": "error", ...}``, or ``{"error": {...}}``); and so is a stream without any
``data:`` line (not a server-sent-event stream) or without its end event (cut short).
Events are read line by line as the stream arrives (the WHATWG server-sent-events
format: ``data:`` lines joined by ``\\n`` up to a blank line; lines starting with
``:`` are comments; one byte-order mark at the start is ignored).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from replykit.cli.io import InputError, parse_json
from replykit.questionnaire.payload.describe import a_json_type


class NotText(ValueError):
    """A field of an event holds a value of the wrong type (a delta's text something
    other than a string or null, ``choices`` no list); ``str`` is ``FIELD must be
    WHAT, not KIND``."""


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
        if number == 1:
            line = line.removeprefix("\ufeff")  # one byte-order mark (WHATWG)
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


def _must(value: Any, kind: type, field: str, what: str) -> Any:
    if not isinstance(value, kind) or isinstance(value, bool):
        raise NotText(f"{field} must be {what}, not {a_json_type(value)}")
    return value


def delta_text(value: Any) -> str | None:
    """The text one event's JSON value carries (``None``: none), in either shape: in
    an OpenAI event the ``delta.content`` of the choice whose ``index`` is 0 (absent:
    0), other choices ignored. Raises :class:`NotText` when a field there has the
    wrong type: ``choices`` no list, a choice no object, an ``index`` no integer, a
    ``delta`` neither an object nor null, a text neither a string nor null."""
    if not isinstance(value, dict):
        return None
    if "choices" in value:
        choices = _must(value["choices"], list, "choices", "a list")
        for i, choice in enumerate(choices):
            field = f"choices[{i}]"
            _must(choice, dict, field, "an object")
            if _must(choice.get("index", 0), int, f"{field}.index", "an integer") != 0:
                continue  # another choice of a request with n > 1
            delta = choice.get("delta")
            if delta is None:
                return None
            content = _must(delta, dict, f"{field}.delta", "an object or null").get("content")
            return _text(content, f"{field}.delta.content")
        return None
    if value.get("type") == "content_block_delta":
        delta = _must(value.get("delta"), dict, "delta", "an object")
        if delta.get("type") == "text_delta":
            return _text(delta.get("text"), "delta.text")
    return None


def reported_error(value: Any) -> str | None:
    """What an error event says (``None``: the event is no error): an Anthropic
    ``{"type": "error", "error": {...}}`` or an OpenAI ``{"error": {...}}``, as
    ``TYPE: MESSAGE`` (or the message alone) on one line, at most 200 characters.
    An ``error`` member that is ``null``, ``false``, ``""``, ``{}`` or ``[]`` reports
    nothing (servers write optional fields as null): only ``"type": "error"`` or an
    ``error`` with content is a report."""
    if not isinstance(value, dict):
        return None
    error = value.get("error")
    empty = error is None or error is False or error in ("", {}, [])
    if value.get("type") != "error" and empty:
        return None
    said = ""
    if isinstance(error, dict):
        kind, message = error.get("type") or error.get("code"), error.get("message")
        words = [_said(x) for x in (kind, message) if x not in (None, "")]
        said = ": ".join(words)
    elif not empty:
        said = _said(error)
    return " ".join(said.split())[:200] or "an error without a message"


def _said(value: Any) -> str:
    """A JSON value as an error message shows it: a string as it is, else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def deltas(lines: Iterable[str], name: str) -> Iterator[str]:
    """The text deltas of the stream ``lines`` (read from ``name``), in order, up to
    its end (``[DONE]``, blanks around it allowed, or ``message_stop``). Raises
    :class:`InputError` naming the line when an event's data is neither ``[DONE]`` nor
    strict JSON, a field has the wrong type (:func:`delta_text`) or the event is an
    error (:func:`reported_error`); and naming the stream when it has no ``data:``
    line or ends without its end event (it was cut short)."""
    seen = False
    for number, data in events(lines):
        seen = True
        if data.strip() == "[DONE]":
            return
        value = parse_json(data, f"{name} line {number}: event data")
        if isinstance(value, dict) and value.get("type") == "message_stop":
            return
        error = reported_error(value)
        if error is not None:
            raise InputError(f"{name} line {number}: the stream reports an error: {error}")
        try:
            text = delta_text(value)
        except NotText as exc:
            raise InputError(f"{name} line {number}: event data {exc}") from None
        if text:
            yield text
    if not seen:
        raise InputError(f"{name}: not a server-sent-event stream (no data: line)")
    raise InputError(
        f"{name}: the stream ends without data: [DONE] or message_stop (it was cut short)"
    )
