"""``code_regions()``: the inert regions of a Markdown text, as CommonMark 0.31.2 decides.

Pure CommonMark: no protocol block is looked for, so a ```` ```questionnaire ```` block
is simply a fenced code block here (docs/protocol.md §3b lists the inert regions).
"""

from __future__ import annotations

from typing import Literal

import attrs

from replykit.argcheck import typed
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.scanner import Scanner

RegionKind = Literal["fenced", "indented", "span", "html_comment"]

_KINDS: dict[str, RegionKind] = {
    "FENCED_CODE": "fenced",
    "INDENTED_CODE": "indented",
    "CODE_SPAN": "span",
    "HTML_COMMENT": "html_comment",
}


@typed
@attrs.frozen
class CodeRegion:
    """One inert region: ``text[start:end]`` (code-point offsets).

    ``fenced``: from the opening fence's first character to the end of the closing
    fence line's content (or of the last line of the container when unclosed);
    ``indented``: from the first code character to the end of the last non-blank code
    line; ``span``: the code span with its backtick strings; ``html_comment``: from
    ``<!--`` through ``-->``, within its paragraph or HTML block (an unclosed comment in
    an HTML block that starts a line, after the container markers and indentation, runs
    to the end of that block here, as plain CommonMark reads it; ``segment()`` makes it
    run to the end of the message, §3b).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    kind: RegionKind
    start: int
    end: int


@typed
def code_regions(text: str) -> tuple[CodeRegion, ...]:
    """Every fenced code block, indented code block, code span and HTML comment of
    ``text`` in document order (CommonMark 0.31.2; comments also inside HTML blocks).

    Raises ``TypeError`` naming ``text`` when it is not a ``str``; nothing else.
    """
    result = Scanner(text, lexemes(), full=True, protocol=False).run()
    return tuple(
        CodeRegion(_KINDS[t.type], t.start, t.end) for t in result.tokens if t.type in _KINDS
    )
