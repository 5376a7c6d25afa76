"""Question ``continued``: whether a line of prose continues an open paragraph, as
CommonMark reads it (4.8 paragraphs, 5.1 block quotes, 5.2 list items, laziness), for
the preface rule (§4.3, :mod:`.shown`).

A line that continues a paragraph starts only a block that may interrupt one: an empty
list item, an ordered item not starting at 1, a link reference definition and a line
indented by 4 columns are paragraph text there (visible), and a setext underline makes
the paragraph a heading. What paragraph is open before a line is read from the lines
before it within the span judged, and kept per line start in a memo that lives for one
question (each line is read once: linear). A paragraph whose start is not in the span,
one nested in two containers and one in a list item whose first line is empty are not
read (the line is then read as any line head).
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping

from replykit.questionnaire.scan.lexemes import Lexemes
from replykit.questionnaire.scan.lines import (
    break_tail,
    column,
    indent,
    is_break,
    is_definition,
    line_end,
    line_start,
)

# What is open before a line: nothing that a line may continue (UNKNOWN also when it
# cannot be told), a place where a paragraph may start (START: the span's start, after
# a blank line, a leaf block or a container line that holds no paragraph: where a
# reading may resume, so it is read alike whatever came before), or a paragraph: at the
# top level (lines that render nothing, or link reference definitions only), in a list
# item (its content column) or a block quote.
UNKNOWN, START = "unknown", "start"
TEXT, DEFINITIONS, ITEM, QUOTE = "text", "definitions", "item", "quote"
#: ``(kind, column)``: the state before a line start.
State = tuple[str, int]
Memo = MutableMapping[int, State]


def continued(
    text: str, lo: int, lo_line: bool, pos: int, end: int, lx: Lexemes, memo: Memo
) -> int:
    """Where the text of line ``pos`` starts when it continues a paragraph open before
    it and starts no block that may interrupt one (then its marker is paragraph text),
    or the line's end when it is a setext underline that renders the paragraph a
    heading; -1: the line is read as any line head. ``lo``: where the span judged
    starts (``lo_line``: at a line start); ``memo``: the states already read, for this
    span only. Lines before are read only for a line that may continue a paragraph."""
    stop = line_end(text, pos)
    columns, first = indent(text, pos, stop)
    if first >= stop:
        return -1
    lead = text[first]
    underline = lead in "=-" and lx.setext_underline.fullmatch(text, first, stop) is not None
    definition = lead == "[" and is_definition(text, first, stop)
    m = _marker(text, first, stop, lx)
    breaks = lead in "-*_" and is_break(text, first, stop, break_tail(text, first, stop), lx)
    continuing = False  # an empty item or an ordered one not at 1: no interruption
    if m is not None and not underline:
        number = m.group("number")
        empty = text[m.end() : stop].strip(" \t") == ""
        continuing = not breaks and (empty or (number is not None and int(number) != 1))
    if columns < 4 and not (underline or definition or continuing):
        return -1  # a line that starts as any line does, whatever came before
    kind, col = state_before(text, lo, lo_line, pos, lx, memo)
    if kind in (ITEM, QUOTE) and not (kind == ITEM and columns >= col):
        # Lazy: a block start (a list item, "-", a thematic break) is read as such;
        # anything else continues the paragraph as its text.
        lazy_text = definition or columns >= 4 or (underline and not breaks and m is None)
        return min(first, end) if lazy_text else -1
    if kind not in (TEXT, DEFINITIONS, ITEM):
        return -1
    if kind == ITEM:
        columns -= col  # inside the item: read from its content's column
    if columns >= 4:
        return min(first, end)
    if underline:
        if kind in (TEXT, ITEM):
            return min(stop, end)
        return -1 if breaks else min(first, end)  # under definitions alone: text
    if definition:
        return min(first, end) if kind in (TEXT, ITEM) else -1
    return min(first, end) if continuing else -1


def state_before(text: str, lo: int, lo_line: bool, pos: int, lx: Lexemes, memo: Memo) -> State:
    """What is open before line start ``pos`` (see the constants), read back from
    ``pos`` to the nearest line whose state is known (in ``memo``), a line that decides
    it, or the span's start, then forward once over the lines read, each kept."""
    lines: list[tuple[int, int, int, int]] = []  # (line start, first, stop, columns)
    at, base = pos, (UNKNOWN, 0)
    while True:
        if at in memo:
            base = memo[at]
            break
        if at <= lo or text[at - 1] not in "\r\n":
            base = (START, 0) if at == lo and lo_line else (UNKNOWN, 0)
            break
        stop = at - 1
        if text[stop] == "\n" and stop > lo and text[stop - 1] == "\r":
            stop -= 1
        begin = line_start(text, lo, stop)
        if begin == lo and not lo_line:
            base = (UNKNOWN, 0)  # the line starts before the span
            break
        # §1.1: a leading BOM is not read.
        start = 1 if begin == 0 and text.startswith("\ufeff") else begin
        columns, first = indent(text, start, stop)
        lines.append((at, first, stop, columns))
        at = begin
        if first >= stop or _decides(text, first, stop, columns, lx):
            # This line's state after it does not depend on what came before it.
            break
    state = base
    for after, first, stop, columns in reversed(lines):
        state = _after(state, text, first, stop, columns, lx)
        memo[after] = state
    return memo.get(pos, state)


def _decides(text: str, first: int, stop: int, columns: int, lx: Lexemes) -> bool:
    """Whether the line decides the state after it alone (a leaf block, a container's
    line, an HTML block start)."""
    return columns < 4 and (
        _leaf_line(text, first, stop, lx)
        or text[first] == ">"
        or _marker(text, first, stop, lx) is not None
        or _html_start(text, first, stop, lx)
    )


def _marker(text: str, first: int, stop: int, lx: Lexemes) -> re.Match[str] | None:
    """The list item marker at ``first`` (a bullet or digits start one), or ``None``."""
    if text[first] not in _MARKER_FIRST:
        return None
    return lx.list_marker.match(text, first, stop)


def _html_start(text: str, first: int, stop: int, lx: Lexemes) -> bool:
    """Whether an HTML block starts at ``first`` (all seven kinds start with "<")."""
    return text[first] == "<" and any(h.match(text, first, stop) for h in lx.html_starts)


_MARKER_FIRST = frozenset("-+*0123456789")
# What a leaf line that leaves no paragraph open starts with: "#", a thematic break's
# "-*_" or a setext underline's "=-".
_LEAF_FIRST = frozenset("#-*_=")


def _after(state: State, text: str, first: int, stop: int, columns: int, lx: Lexemes) -> State:
    """The state after the line ``text[first:stop]`` (indented ``columns``), given the
    state before it."""
    if first >= stop:
        return START, 0  # as at a reading's resume point: nothing open (§10 readings)
    if columns < 4:
        if _leaf_line(text, first, stop, lx):
            return START, 0  # as after a block a span starts after: alike in every reading
        marker = _marker(text, first, stop, lx)
        if text[first] == ">" or marker is not None:
            return _container(text, first, stop, marker, lx)
        if _html_start(text, first, stop, lx):
            return UNKNOWN, 0
    kind = state[0]
    definition = columns < 4 and text[first] == "[" and is_definition(text, first, stop)
    if kind == START and columns >= 4:
        return START, 0  # indented code at the top level: a paragraph may start after it
    if kind == START:
        opens = columns < 4  # a paragraph starts here
    elif kind in (TEXT, DEFINITIONS):
        return (DEFINITIONS if kind == DEFINITIONS and definition else TEXT), 0
    elif kind in (ITEM, QUOTE):
        return state  # continued inside, or lazily
    else:
        return UNKNOWN, 0
    if not opens:
        return UNKNOWN, 0
    return (DEFINITIONS if definition else TEXT), 0


def _leaf_line(text: str, first: int, stop: int, lx: Lexemes) -> bool:
    """Whether content ``text[first:stop]`` is an ATX heading, a thematic break or a
    setext underline: a line after which no paragraph is open."""
    return text[first] in _LEAF_FIRST and (
        lx.atx_marker.match(text, first, stop) is not None
        or lx.thematic_break.fullmatch(text, first, stop) is not None
        or lx.setext_underline.fullmatch(text, first, stop) is not None
    )


def _container(
    text: str, first: int, stop: int, marker: re.Match[str] | None, lx: Lexemes
) -> State:
    """The state after a list item's or block quote's line starting at ``first``: its
    paragraph when the line holds paragraph text; START when it leaves no paragraph open
    (an empty item or quote, a heading, break, fence or code in it: what a reading
    resuming after it sees, so every reading answers alike); else UNKNOWN (a nested
    container's paragraph, a definition, an HTML block)."""
    if marker is None:
        inner = first + 1
        while inner < stop and text[inner] in " \t":
            inner += 1
        if column(text, inner) - column(text, first + 1) > 4:
            return START, 0  # indented code in the quote (4 columns after its space)
        kind, col = QUOTE, 0
    else:
        inner = marker.end()
        while inner < stop and text[inner] in " \t":
            inner += 1
        if inner >= stop:
            return START, 0  # an empty item
        col = column(text, inner)
        if not 1 <= col - column(text, marker.end()) <= 4:
            return START, 0  # indented code in the item
        kind = ITEM
    rest = text[inner:stop].strip(" \t>")
    if rest == "":
        return START, 0  # an empty quote, nested ones included
    if text[inner] in " \t>" or _marker(text, inner, stop, lx) is not None:
        nested_empty = _marker(text, inner, stop, lx) is not None and _empty_after(
            text, inner, stop, lx
        )
        return (START, 0) if nested_empty else (UNKNOWN, 0)
    if _leaf_line(text, inner, stop, lx) or text[inner] in "`~":
        return START, 0  # a heading, a break or a fence: no paragraph
    if is_definition(text, inner, stop) or _html_start(text, inner, stop, lx):
        return UNKNOWN, 0
    return kind, col


def _empty_after(text: str, at: int, stop: int, lx: Lexemes) -> bool:
    """Whether the container markers from ``at`` (list markers and ">") are followed by
    nothing on the line: nested empty containers, no paragraph."""
    while at < stop:
        m = _marker(text, at, stop, lx)
        if m is not None:
            at = m.end()
        elif text[at] in " \t>":
            at += 1
        else:
            return False
    return True
