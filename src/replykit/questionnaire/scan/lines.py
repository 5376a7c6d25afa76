"""Line helpers of the preface rule (§4.3): where a line's content ends, indentation and
columns, thematic breaks and one-line link reference definitions, read on the text as
it stands (offsets are code-point indices; every search stays within one line)."""

from __future__ import annotations

import re

from replykit.questionnaire.scan.definitions import definitions_end
from replykit.questionnaire.scan.lexemes import Lexemes

_LINE_ENDING = re.compile(r"[\r\n]")


def line_end(text: str, pos: int, end: int | None = None) -> int:
    """The end of the content of the line holding ``pos``, looked for before ``end``
    only when given (then ``end`` when the line goes on past it)."""
    limit = len(text) if end is None else end
    m = _LINE_ENDING.search(text, pos, limit)
    return limit if m is None else m.start()


def line_start(text: str, lo: int, end: int) -> int:
    """The start of the line whose content ends at ``end``, but not before ``lo``: the
    position after the last line ending in ``text[lo:end]`` (``lo`` when none)."""
    # Searched back in windows that double: about twice the line's length in all, however
    # far back ``lo`` lies (a text with one kind of line ending never scans to ``lo``).
    width, hi = 64, end
    while True:
        a = max(lo, hi - width)
        last = max(text.rfind("\n", a, hi), text.rfind("\r", a, hi))
        if last >= 0:
            return last + 1
        if a == lo:
            return lo
        hi, width = a, width * 2


def indent(text: str, pos: int, stop: int) -> tuple[int, int]:
    """The columns of indentation at line start ``pos`` (tab stops of 4) and where it ends."""
    columns = 0
    while pos < stop and text[pos] in " \t":
        columns = columns + 4 - columns % 4 if text[pos] == "\t" else columns + 1
        pos += 1
    return columns, pos


def column(text: str, at: int) -> int:
    """The column of ``at`` in its line (tab stops of 4)."""
    col, start = 0, line_start(text, 0, at)
    if start == 0 and text.startswith("\ufeff"):
        start = 1  # §1.1: a leading BOM is not read
    for ch in text[start:at]:
        col = col + 4 - col % 4 if ch == "\t" else col + 1
    return col


def break_tail(text: str, start: int, stop: int) -> int:
    """The start of the longest end of ``text[start:stop]`` made of spaces, tabs and
    one of ``-``, ``*``, ``_`` (grammar ``THEMATIC_BREAK`` matches nothing else)."""
    i, mark = stop, ""
    while i > start:
        ch = text[i - 1]
        if ch not in " \t":
            if ch not in "-*_" or (mark and ch != mark):
                break
            mark = ch
        i -= 1
    return i


def is_break(text: str, pos: int, stop: int, breaks: int, lx: Lexemes) -> bool:
    """Whether ``text[pos:stop]`` is a thematic break (``breaks``: :func:`break_tail`)."""
    return pos >= breaks and lx.thematic_break.fullmatch(text, pos, stop) is not None


def is_definition(text: str, pos: int, stop: int) -> bool:
    """Whether ``text[pos:stop]`` (one line's content) is a link reference definition
    written on that line alone: question ``definitions_end`` asked of the line, so the
    preface and the inert regions read a definition with one reader (CommonMark 4.7)."""
    return text.startswith("[", pos) and definitions_end(text, (pos, stop), _no_line) == stop


def _no_line() -> None:
    return None
