"""The text deltas of a captured server-sent-event stream of a chat completion.

Three shapes are read (docs/cli.md, ``replykit stream --sse``): an OpenAI-style chat
completion stream (``data: {"choices": [{"delta": {"content": "..."}}]}`` lines, ended
by ``data: [DONE]``; a legacy completion's ``{"choices": [{"text": "..."}]}`` too), an
OpenAI Responses stream (``response.output_text.delta`` events, whose ``delta`` is the
text, ended by ``response.completed`` or ``response.incomplete``) and an
Anthropic-style message stream (``event: content_block_delta`` with ``data: {"type":
"content_block_delta", "delta": {"type": "text_delta", "text": "..."}}``, ended by
``message_stop``). Only choice 0 of a chat completion stream is read (a request with
``n > 1`` interleaves its choices, each event naming its ``index``). Other events
(roles, tool calls, reasoning, pings, usage) carry no text and are skipped. An input
error names its line: event data that is no JSON object, a field there with the wrong
type (``"choices": {}``, ``"content": 5``), an error event (``event: error`` with
``{"type": "error", ...}``, ``{"error": {...}}`` or ``response.failed``); and so is a
stream without any ``data:`` line (not a server-sent-event stream) or without its end
event (cut short). Events are read line by line as the stream arrives (the WHATWG
server-sent-events format: ``data:`` lines joined by ``\\n`` up to a blank line; lines
starting with ``:`` are comments; one byte-order mark at the start is ignored).
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


#: The events that end a stream (besides ``data: [DONE]``): Anthropic's, and the
#: Responses stream's (an incomplete response, cut by its token limit, has ended too).
END_EVENTS = ("message_stop", "response.completed", "response.incomplete")


def delta_text(value: Any) -> str | None:
    """The text one event's JSON value carries (``None``: none), in any shape: in a
    chat completion event the ``delta.content`` of the choice whose ``index`` is 0
    (absent: 0), other choices ignored (a legacy completion's choice ``text``); a
    Responses ``response.output_text.delta`` event's ``delta``; an Anthropic text
    delta's ``text``. Raises :class:`NotText` when a field there has the wrong type:
    ``choices`` no list, a choice no object, an ``index`` no integer, a ``delta``
    neither an object nor null, a text neither a string nor null."""
    if not isinstance(value, dict):
        return None
    if value.get("type") == "response.output_text.delta":
        return _text(value.get("delta"), "delta")
    if "choices" in value:
        choices = _must(value["choices"], list, "choices", "a list")
        for i, choice in enumerate(choices):
            field = f"choices[{i}]"
            _must(choice, dict, field, "an object")
            if _must(choice.get("index", 0), int, f"{field}.index", "an integer") != 0:
                continue  # another choice of a request with n > 1
            delta = choice.get("delta")
            if delta is None:  # a legacy completion carries its text in the choice
                return _text(choice.get("text"), f"{field}.text")
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
    ``{"type": "error", "error": {...}}``, an OpenAI ``{"error": {...}}``, a Responses
    ``{"type": "error", "code": ..., "message": ...}`` or ``{"type": "response.failed",
    "response": {"error": {...}}}``, as ``TYPE: MESSAGE`` (or the message alone) on one
    line, at most 200 characters. An ``error`` member that is ``null``, ``false``,
    ``""``, ``{}`` or ``[]`` reports nothing (servers write optional fields as null):
    only ``"type": "error"``, ``response.failed`` or an ``error`` with content is a
    report."""
    if not isinstance(value, dict):
        return None
    if value.get("type") == "response.failed":
        response = value.get("response")
        error = response.get("error") if isinstance(response, dict) else None
        value = {"type": "error", "error": error}
    error = value.get("error")
    if value.get("type") == "error" and _empty(error):  # Responses: its own fields
        error = {k: value[k] for k in ("code", "message") if k in value}
    empty = _empty(error)
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


def _empty(error: Any) -> bool:
    return error is None or error is False or error in ("", {}, [])


def _said(value: Any) -> str:
    """A JSON value as an error message shows it: a string as it is, else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def deltas(lines: Iterable[str], name: str) -> Iterator[str]:
    """The text deltas of the stream ``lines`` (read from ``name``), in order, up to
    its end (``[DONE]``, blanks around it allowed, or one of :data:`END_EVENTS`).
    Raises :class:`InputError` naming the line when an event's data is neither
    ``[DONE]`` nor a strict JSON object, a field has the wrong type
    (:func:`delta_text`) or the event is an error (:func:`reported_error`); and naming
    the stream when it has no ``data:`` line or ends without its end event (it was cut
    short)."""
    seen = False
    for number, data in events(lines):
        seen = True
        if data.strip() == "[DONE]":
            return
        value = parse_json(data, f"{name} line {number}: event data")
        if not isinstance(value, dict):
            kind = a_json_type(value)
            raise InputError(f"{name} line {number}: event data must be an object, not {kind}")
        if value.get("type") in END_EVENTS:
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
        f"{name}: the stream ends without data: [DONE], message_stop or "
        "response.completed (it was cut short)"
    )
