"""Sage compatibility switches (§9): opt-in, off by default.

Stored Sage conversations carry forms the strict reader rejects. Each relaxation is a
separate switch of :class:`Compat`; ``segment(..., compat="sage")`` turns all on.
"""

from __future__ import annotations

import functools
import html
import re

import attrs

from replykit.argcheck import typed
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.text import trim_blank
from replykit.textout import quoted


@functools.cache
def _escaped_tag(any_case: bool) -> re.Pattern[str]:
    """``&lt;`` or ``&lt;/`` (``&lt;`` or ``&LT;``: the spellings ``html.unescape``
    reads as ``<``; ``&Lt;`` is U+226A) and a whole family tag name (the grammar's
    pattern, ``-response`` allowed, then no name character: ``&lt;questionnaire_id&gt;``
    names no tag) in the case the switches accept: exact, or any ASCII case with
    ``case_insensitive`` (``any_case``), so ``decode_entities`` never decodes a message
    for a tag no switch would read."""
    from replykit.questionnaire.scan.grammar import (
        family_pattern,  # the scanner imports this module
    )

    flags = re.IGNORECASE | re.ASCII if any_case else re.ASCII
    name = "(?:" + family_pattern() + ")(?:-response)?(?![A-Za-z0-9_.:-])"
    return re.compile("(?-i:&lt;|&LT;)/?" + name, flags)


# One JSON string escape, or a quote or backslash that is not part of one.
_STRING_PART = re.compile(r'\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])|["\\]')
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n",
                   "r": "\r", "t": "\t"}  # fmt: skip


@typed
@attrs.frozen
class Compat:
    """Which relaxations to apply when reading a message (§9).

    - ``decode_json_string``: a message whose whole text (blank characters around it
      aside) is a JSON string literal is read as that string's value; the literal is
      read strictly (§1), so one with a lone-surrogate escape stays undecoded.
    - ``decode_entities``: a message holding an entity-escaped family tag
      (``&lt;questionnaire&gt;``) is read after ``html.unescape``; the name must be
      in the case the switches accept (``&lt;Questionnaire&gt;`` only with
      ``case_insensitive``).
    - ``escaped_closers``: ``<\\/name>`` closes a block as ``</name>`` does.
    - ``tag_attributes``: an opening tag may carry attributes
      (``<questionnaire timeout_seconds="30">``); a numeric ``timeout_seconds`` is kept.
    - ``case_insensitive``: names match in any ASCII case and are reported lower
      case: tag names and a fence's info string alike (```` ```Questionnaire ```` opens
      a candidate named ``questionnaire``, with no ``near_miss.case``).
    - ``filter_invalid_questions``: an XML+JSON request question with errors is dropped
      with the warning ``compat.question_dropped`` instead of failing the block; the
      kept questions keep their ids (``q<n>`` by payload position), paths and
      diagnostics, and nothing is dropped when no question would be left.
    - ``escaped_payloads``: an XML+JSON payload (request or response) that is not JSON
      but holds ``\\"`` and reads as the body of a JSON string whose value is JSON
      (``{\\"questions\\":[...]}``) is read as that value (:func:`unescape_payload`).
      The message text is unchanged; offsets of its diagnostics point into the message:
      a character of the unescaped payload maps to the escape sequence that wrote it.

    When decoding changed the text, offsets index the decoded text, which the
    :class:`~replykit.questionnaire.model.Segmentation` carries as ``decoded``.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    decode_json_string: bool = False
    decode_entities: bool = False
    escaped_closers: bool = False
    tag_attributes: bool = False
    case_insensitive: bool = False
    filter_invalid_questions: bool = False
    escaped_payloads: bool = False


SAGE = Compat(True, True, True, True, True, True, True)


def resolve(compat: Compat | str | None) -> Compat | None:
    """Map the ``compat`` argument of ``segment`` to a :class:`Compat` or ``None``.

    Accepts ``None``, ``"sage"`` or a :class:`Compat`; raises ``ValueError`` otherwise.
    """
    if compat is None or isinstance(compat, Compat):
        return compat
    if compat == "sage":
        return SAGE
    raise ValueError(f"unknown compat mode {quoted(compat)}: use None, 'sage' or a Compat")


def decode_transport(text: str, compat: Compat) -> str:
    """Undo transport encodings the switches allow; returns ``text`` unchanged when none
    applies. Never raises."""
    if compat.decode_json_string:
        body = trim_blank(text)  # §9: blank characters around it aside (§1.1)
        if len(body) >= 2 and body[0] == body[-1] == '"':
            read = read_json_value(body)  # strict (§1): a lone surrogate is not decoded
            if not read.findings and isinstance(read.value, str):
                text = read.value
    if compat.decode_entities and _escaped_tag(compat.case_insensitive).search(text):
        text = html.unescape(text)
    return text


def unescape_payload(payload: str) -> tuple[str, tuple[tuple[int, int], ...]] | None:
    """Read ``payload`` as the body of a JSON string literal (§9 ``escaped_payloads``).

    Input: the raw payload, e.g. ``{\\"title\\":\\"T\\"}``. Output: ``(value, pieces)``,
    the string's value (``{"title":"T"}``) and the offset map: ``(value_offset,
    payload_offset)`` per piece, in order, ending with ``(len(value), len(payload))``;
    value offset ``v`` maps to ``payload_offset + (v - value_offset)`` of the last piece
    that starts at or before ``v``. A run of plain characters is one piece; each escape
    is a piece of one character (a surrogate pair written as two ``\\uXXXX`` escapes
    gives one character at the first escape), so a span of the value maps to the
    escapes that wrote it. ``None`` when the payload holds no ``\\"`` or is no such body:
    an unescaped ``"`` or a ``\\`` that starts no JSON escape. Characters JSON would
    escape (line breaks, tabs) may stand raw. Linear; never raises.
    """
    if '\\"' not in payload:
        return None
    out: list[str] = []
    pieces: list[tuple[int, int]] = []
    size = pos = 0
    matches = list(_STRING_PART.finditer(payload))
    i = 0
    while i < len(matches):
        m = matches[i]
        token = m.group()
        if token in ('"', "\\"):
            return None
        if m.start() > pos:
            pieces.append((size, pos))
            out.append(payload[pos : m.start()])
            size += m.start() - pos
        pieces.append((size, m.start()))
        end = m.end()
        if token[1] == "u":
            code = int(token[2:], 16)
            after = matches[i + 1] if i + 1 < len(matches) else None
            if (
                0xD800 <= code <= 0xDBFF
                and after is not None
                and after.start() == end
                and after.group()[1] == "u"
                and 0xDC00 <= int(after.group()[2:], 16) <= 0xDFFF
            ):
                low = int(after.group()[2:], 16)
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                end = after.end()
                i += 1
            out.append(chr(code))
        else:
            out.append(_SIMPLE_ESCAPES[token[1]])
        size += 1
        pos = end
        i += 1
    if pos < len(payload):
        pieces.append((size, pos))
        out.append(payload[pos:])
        size += len(payload) - pos
    pieces.append((size, len(payload)))
    return "".join(out), tuple(pieces)
