"""The parts of a streaming reading's tokens, without the parser's cost per call (§10).

A streaming reading (:mod:`.stream_reading`) turns the fast mode's tokens of the text
it read into parts, as ``segment()`` does with the grammar's rule ``message``
(``grammar/message.lark``: ``markdown? (_candidate markdown?)*``). The readings are
many and short, and the LALR parser's set-up per call costs more than their tokens:
:func:`parts_of` reads the same rule directly and hands anything else to the parser,
so its result is always ``parse(text, tokens)``'s (``tests/test_stream_parts.py``
compares the two).
"""

from __future__ import annotations

from collections.abc import Sequence

from replykit.questionnaire.scan.emit import Token
from replykit.questionnaire.scan.grammar import parse
from replykit.questionnaire.scan.parts import FencedPart, MarkdownRun, Part, XmlPart
from replykit.text import first_visible

# Rule ``_markdown_piece``.
MARKDOWN_PIECES = frozenset({"PROSE", "FENCED_CODE", "INDENTED_CODE", "CODE_SPAN", "HTML_COMMENT"})


def parts_of(text: str, tokens: Sequence[Token]) -> list[Part]:
    """``parse(text, tokens)`` (rule ``message``, transformed to parts): Markdown runs
    (``visible`` when a ``PROSE`` token holds a non-blank character), fenced candidates
    (``FENCE_OPENER FENCE_PAYLOAD? FENCE_CLOSER?``) and XML+JSON candidates
    (``OPEN_TAG TAG_PAYLOAD? CLOSE_TAG``); any other sequence goes to the parser."""
    out: list[Part] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        kind = tok.type
        if kind in MARKDOWN_PIECES:
            visible = False
            j = i
            while j < n and tokens[j].type in MARKDOWN_PIECES:
                piece = tokens[j]
                if not visible and piece.type == "PROSE":
                    visible = first_visible(text, piece.start, piece.end) >= 0
                j += 1
            out.append(MarkdownRun(tok.start, tokens[j - 1].end, visible))
            i = j
        elif kind == "FENCE_OPENER":
            opener = (tok.start, tok.end)
            payload, closer = (tok.end, tok.end), None
            i += 1
            if i < n and tokens[i].type == "FENCE_PAYLOAD":
                payload = (tokens[i].start, tokens[i].end)
                i += 1
            if i < n and tokens[i].type == "FENCE_CLOSER":
                closer = (tokens[i].start, tokens[i].end)
                i += 1
            out.append(FencedPart(opener, payload, closer))
        elif kind == "OPEN_TAG":
            j = i + 1
            if j < n and tokens[j].type == "TAG_PAYLOAD":
                j += 1
            if j >= n or tokens[j].type != "CLOSE_TAG":
                return parse(text, tokens)
            out.append(XmlPart((tok.start, tok.end), (tokens[j].start, tokens[j].end)))
            i = j + 1
        else:
            return parse(text, tokens)
    return out
