"""Sage compatibility switches (PROTOCOL-DECISIONS §9): opt-in, off by default.

Stored Sage conversations carry forms the strict reader rejects. Each relaxation is a
separate switch of :class:`Compat`; ``segment(..., compat="sage")`` turns all on.
"""

from __future__ import annotations

import html
import re

import attrs

from replykit.argcheck import typed
from replykit.payload.json_strict import read_json_value

_ESCAPED_TAG = re.compile(r"&lt;/?(?:[a-z0-9]+-)?questionnaire", re.IGNORECASE | re.ASCII)


@typed
@attrs.frozen
class Compat:
    """Which relaxations to apply when reading a message (§9).

    - ``decode_json_string``: a message whose whole text (blank characters around it
      aside) is a JSON string literal is read as that string's value; the literal is
      read strictly (§1), so one with a lone-surrogate escape stays undecoded.
    - ``decode_entities``: a message holding an entity-escaped family tag
      (``&lt;questionnaire&gt;``) is read after ``html.unescape``.
    - ``escaped_closers``: ``<\\/name>`` closes a block as ``</name>`` does.
    - ``tag_attributes``: an opening tag may carry attributes
      (``<questionnaire timeout_seconds="30">``); a numeric ``timeout_seconds`` is kept.
    - ``case_insensitive``: tag names match in any ASCII case and are reported lower
      case.
    - ``filter_invalid_questions``: an XML+JSON request question with errors is dropped
      with the warning ``compat.question_dropped`` instead of failing the block.

    When decoding changed the text, offsets index the decoded text, which the
    :class:`~replykit.model.Segmentation` carries as ``decoded``.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    decode_json_string: bool = False
    decode_entities: bool = False
    escaped_closers: bool = False
    tag_attributes: bool = False
    case_insensitive: bool = False
    filter_invalid_questions: bool = False


SAGE = Compat(True, True, True, True, True, True)


def resolve(compat: Compat | str | None) -> Compat | None:
    """Map the ``compat`` argument of ``segment`` to a :class:`Compat` or ``None``.

    Accepts ``None``, ``"sage"`` or a :class:`Compat`; raises ``ValueError`` otherwise.
    """
    if compat is None or isinstance(compat, Compat):
        return compat
    if compat == "sage":
        return SAGE
    raise ValueError(f"unknown compat mode {compat!r}: use None, 'sage' or a Compat")


def decode_transport(text: str, compat: Compat) -> str:
    """Undo transport encodings the switches allow; returns ``text`` unchanged when none
    applies. Never raises."""
    if compat.decode_json_string:
        body = text.strip()
        if len(body) >= 2 and body[0] == body[-1] == '"':
            read = read_json_value(body)  # strict (§1): a lone surrogate is not decoded
            if not read.findings and isinstance(read.value, str):
                text = read.value
    if compat.decode_entities and _ESCAPED_TAG.search(text):
        text = html.unescape(text)
    return text
