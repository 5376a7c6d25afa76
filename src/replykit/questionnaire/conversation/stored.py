"""Conversations as chat products store them (§8; docs/protocol-responses.md section 3).

A stored conversation is a list of messages, an object with a ``messages`` list, or a
single message object (one with ``role``); a file holds one such JSON value, or JSON
Lines of them. A message's ``content`` is a string, ``null``, or a list of content
parts: the ``text`` of every part whose ``type`` is ``text`` or ``output_text``,
joined in order with nothing between them, is the message text; other parts (images,
tool use) are skipped. Offsets in diagnostics refer to that joined text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from replykit.jsonout import dumps
from replykit.questionnaire.payload.describe import a_json_type
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.text import NOT_A_LIST, json_lines_line_col

#: Content-part types whose ``text`` is message text (Anthropic/OpenAI chat ``text``,
#: OpenAI Responses ``output_text``).
TEXT_PART_TYPES: Final[frozenset[str]] = frozenset({"text", "output_text"})
#: Content-part types that call a tool (Anthropic ``tool_use``): such a message counts
#: for the submission rule as one with ``tool_calls`` does.
TOOL_PART_TYPES: Final[frozenset[str]] = frozenset({"tool_use"})
#: The message roles the chat APIs write (OpenAI and Anthropic spellings, matched
#: exactly): any other ``role`` is a malformed message (docs/protocol-responses.md 3.1).
KNOWN_ROLES: Final[tuple[str, ...]] = (
    "user",
    "assistant",
    "system",
    "developer",
    "tool",
    "function",
)
#: A refused role is quoted up to this many code points (bounded messages, §1.5).
_QUOTE: Final = 60
# The payload reader's complaints about the root type do not apply to a whole file.


class ConversationError(ValueError):
    """A conversation text that is not strict JSON or JSON Lines (message names the
    1-based line and column)."""


@attrs.frozen
class StoredConversation:
    """One conversation read by :func:`read_conversations`.

    ``line``: 1-based line of the JSON Lines file that held it, ``None`` when the whole
    text was one JSON value; ``value``: the decoded value (a list of messages, an object
    with ``messages``, or one message object), as :func:`conversation_messages` takes.
    """

    line: int | None
    value: Any


def conversation_messages(conversation: object) -> Sequence[Mapping[str, Any]]:
    """The messages of a stored conversation (§8 conversations as stored).

    Input: a list (or other non-string sequence) of messages; a mapping with a
    ``messages`` list; or one message, a mapping with ``role`` and no ``messages``
    (a conversation of that one message). Output: the message sequence (not copied;
    the messages themselves are checked by whoever reads them). Raises ``TypeError``
    for anything else, naming what was found.
    """
    if isinstance(conversation, Mapping):
        if "messages" in conversation:
            messages = conversation["messages"]
            if isinstance(messages, Sequence) and not isinstance(messages, NOT_A_LIST):
                return messages
            raise TypeError(f"messages must be a list, not {a_json_type(messages)}")
        if "role" in conversation:
            return (conversation,)
        raise TypeError("a conversation object needs a messages list (or a role, for one message)")
    if isinstance(conversation, Sequence) and not isinstance(conversation, NOT_A_LIST):
        return conversation
    raise TypeError(
        "a conversation must be a list of messages or an object with a messages list, "
        f"not {a_json_type(conversation)}"
    )


def _parts_text(parts: Sequence[Any], index: int) -> str:
    texts: list[str] = []
    for number, part in enumerate(parts):
        where = f"messages[{index}].content[{number}]"
        if not isinstance(part, Mapping):
            raise TypeError(f"{where} must be a content part object, not {a_json_type(part)}")
        if _part_type(part) in TEXT_PART_TYPES:
            if "text" not in part:  # missing, not null: say which
                raise TypeError(f"{where} has no text")
            text = part["text"]
            if not isinstance(text, str):
                raise TypeError(f"{where}.text must be a string, not {a_json_type(text)}")
            texts.append(text)
    return "".join(texts)


def message_text(message: Mapping[str, Any], index: int) -> str | None:
    """The text of ``message`` (the ``index``-th, 0-based, named in errors), §8.

    ``content`` a string: itself. ``content`` a list of content parts: the ``text`` of
    each part whose ``type`` is ``text`` or ``output_text``, joined with nothing between
    them (other parts such as ``image_url`` or ``tool_use`` are skipped). ``content``
    absent or ``null``: ``None``. Raises ``TypeError`` naming the message (and the part)
    when ``message`` is not a mapping, ``content`` is anything else, a part is not an
    object, or a text part has no ``text`` (``... has no text``) or one that is not a
    string.
    """
    if not isinstance(message, Mapping):
        raise TypeError(f"messages[{index}] must be an object, not {a_json_type(message)}")
    content = message.get("content")
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, Sequence) and not isinstance(content, NOT_A_LIST):
        return _parts_text(content, index)
    raise TypeError(
        f"messages[{index}].content must be a string, a list of content parts or null, "
        f"not {a_json_type(content)}"
    )


def message_field(message: Any, index: int, key: str, *, required: bool) -> str | None:
    """``message[key]`` as a string, ``None`` when absent or ``null`` (a ``TypeError``
    then when ``required``); ``TypeError`` naming ``messages[index].key`` for a value of
    another type, or ``messages[index]`` when ``message`` is not a mapping (§8)."""
    if not isinstance(message, Mapping):
        raise TypeError(f"messages[{index}] must be an object, not {a_json_type(message)}")
    if key not in message or message[key] is None:
        if required:
            raise TypeError(f"messages[{index}] has no {key}")
        return None
    value = message[key]
    if not isinstance(value, str):
        raise TypeError(f"messages[{index}].{key} must be a string, not {a_json_type(value)}")
    return value


def checked_messages(conversation: object) -> Sequence[Mapping[str, Any]]:
    """:func:`conversation_messages`, with every message's shape checked, wherever it
    stands (§8; docs/protocol-responses.md section 3.1): an object with a string
    ``role``, a ``content`` that :func:`message_text` reads (its parts included) and a
    ``message_type`` that is a string or ``null``; the role one of
    :data:`KNOWN_ROLES` (``Assistant``, ``human`` or ``model`` is refused). Raises
    ``TypeError`` naming the first bad message (``messages[i]``, 0-based) and field
    (``messages[1].role must be one of user, ..., not "model"``). Linear in the size of the
    messages."""
    messages = conversation_messages(conversation)
    for index, message in enumerate(messages):
        role = message_field(message, index, "role", required=True)
        assert role is not None
        check_role(role, index)
        message_text(message, index)
        message_field(message, index, "message_type", required=False)
    return messages


def check_role(role: str, index: int) -> None:
    """Raise ``TypeError`` naming ``messages[index].role`` and the role (quoted as JSON,
    cut to 60 code points) unless it is one of :data:`KNOWN_ROLES` (§8)."""
    if role not in KNOWN_ROLES:
        shown = dumps(role)  # quoted, a lone surrogate escaped: the message prints
        if len(shown) > _QUOTE:
            shown = shown[: _QUOTE - 1] + "…"
        raise TypeError(
            f"messages[{index}].role must be one of {', '.join(KNOWN_ROLES)}, not {shown}"
        )


def has_tool_part(message: Mapping[str, Any]) -> bool:
    """True when ``message`` makes a tool call: its content list holds a ``tool_use``
    part (as Anthropic stores a call), or it has a ``function_call`` object (OpenAI's
    legacy function calling, whose results come back in ``function`` messages). The
    caller looks at ``tool_calls`` itself. Never raises."""
    if not isinstance(message, Mapping):
        return False
    if isinstance(message.get("function_call"), Mapping):
        return True
    content = message.get("content")
    if isinstance(content, str) or not isinstance(content, Sequence):
        return False
    return any(isinstance(p, Mapping) and _part_type(p) in TOOL_PART_TYPES for p in content)


def _part_type(part: Mapping[Any, Any]) -> str | None:
    """A content part's ``type`` when it is a string (an object or array there is no
    type any reader knows: the part is skipped, as an unknown type is)."""
    kind = part.get("type")
    return kind if isinstance(kind, str) else None


def is_tool_result(message: Mapping[str, Any]) -> bool:
    """True when a ``user`` message only carries tool results: its content is a
    non-empty list of ``tool_result`` parts and nothing else (Anthropic stores every
    tool result so, in the role ``user``). Such a message is the tool's, not the user's
    turn (§8, §11: later tool messages do not count). Never raises."""
    content = message.get("content") if isinstance(message, Mapping) else None
    if isinstance(content, str) or not isinstance(content, Sequence) or not content:
        return False
    return all(isinstance(p, Mapping) and p.get("type") == "tool_result" for p in content)


def _decode(text: str, line: int) -> Any:
    """Strict JSON (§1) of ``text``; errors placed at file ``line`` (1-based) plus the
    line inside ``text``, lines ending at ``\n`` only (:func:`json_lines_line_col`)."""
    read = read_json_value(text)
    problems = list(read.findings)
    if not problems:
        return read.value
    first = min(problems, key=lambda f: f.start or 0)
    where_line, column = json_lines_line_col(text, first.start or 0)
    message = first.message.removeprefix("JSON syntax error: ")
    raise ConversationError(
        f"not strict JSON at line {line + where_line - 1}, column {column}: {message}"
    )


def read_conversations(
    text: str, *, json_lines: bool | None = None
) -> tuple[StoredConversation, ...]:
    """Read stored conversations from a file's text (§8 conversations as stored).

    Input: the text (a leading U+FEFF is skipped). With ``json_lines`` ``None`` (auto):
    a text that is one strict JSON value is one conversation (``line`` ``None``);
    otherwise, when its first non-blank line is itself a JSON value, it is JSON Lines:
    every non-blank line (``\\n``-separated; a ``\\r`` before it, or a lone ``\\r``
    inside it, is JSON white space) is one conversation, with its 1-based ``line``.
    ``json_lines=True`` reads JSON Lines even when the text is one line; ``False``
    never does. The values are not checked here: see :func:`checked_messages`.

    Raises :class:`ConversationError` ``not strict JSON at line L, column C: ...``
    (1-based, code points, lines of the whole text ending at ``\\n`` only, as JSON Lines
    splits them) for the first problem: syntax,
    nesting deeper than 64, ``NaN``/``Infinity``, duplicate keys, integers over 4300
    digits; in JSON Lines, on the first line that has one; a text with no conversation
    at all in JSON Lines mode is ``no conversation``. Never anything else.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if json_lines is not True:
        try:
            return (StoredConversation(None, _decode(text, 1)),)
        except ConversationError:
            if json_lines is False or not _looks_like_json_lines(text):
                raise
    found: list[StoredConversation] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip(" \t\r"):
            found.append(StoredConversation(number, _decode(line, number)))
    if not found:
        raise ConversationError("no conversation: every line is blank")
    return tuple(found)


def _looks_like_json_lines(text: str) -> bool:
    """True when the first non-blank line of ``text`` is a whole JSON value (then a
    failure of the whole text is read as JSON Lines, not reported as one error)."""
    for line in text.split("\n"):
        if line.strip(" \t\r"):
            try:
                _decode(line, 1)
            except ConversationError:
                return False
            return True
    return False
