"""Question ``definitions_end``: where a paragraph's leading link reference definitions end.

CommonMark 0.31.2 (4.7) reads link reference definitions from the start of a
paragraph's raw content before any inline reading: ``[label]: destination "title"``,
the label, the destination and the title each possibly on a line of their own. Their
text is no inline content, so no code span, comment, raw HTML or tag starts inside
them (§3b: a tag there is no candidate; a backtick there pairs with nothing). The
paragraph's inline reading starts after the last one (docs/protocol.md §3b).

The lines are the paragraph's lines as the block structure gives them: each one's
content from its first non-blank character (container markers and indentation
removed, as CommonMark strips a paragraph line's leading spaces) to its end, read on
the raw text (candidates not taken, as for inert regions). They are asked for one at a
time, only as far as a definition reaches, so the work is linear: a title that never
closes is read to the paragraph's end once, and ends the definitions.
"""

from __future__ import annotations

from collections.abc import Callable

Span = tuple[int, int]

#: CommonMark's limit on a link label's characters between its brackets.
LABEL_MAX = 999
#: Nested unescaped parentheses a destination may hold (as cmark and markdown-it-py).
PAREN_DEPTH_MAX = 32
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


class _Lines:
    """The paragraph's lines read so far, fetched one more at a time (``more``: the
    next line's content span, or ``None`` after the last)."""

    def __init__(self, first: Span, more: Callable[[], Span | None]) -> None:
        self.spans = [first]
        self._more: Callable[[], Span | None] | None = more

    def has(self, i: int) -> bool:
        while i >= len(self.spans) and self._more is not None:
            nxt = self._more()
            if nxt is None:
                self._more = None
            else:
                self.spans.append(nxt)
        return i < len(self.spans)


def definitions_end(text: str, first: Span, more: Callable[[], Span | None]) -> int:
    """Where the link reference definitions at the start of a paragraph end: the
    content end of the last line a definition takes, or -1 when the paragraph does not
    start with one. ``first``: the paragraph's first line (first character, content
    end; code-point offsets of ``text``); ``more``: the next line of the paragraph
    each time it is called, ``None`` after its last. Never raises."""
    lines = _Lines(first, more)
    end, i = -1, 0
    while lines.has(i) and text.startswith("[", lines.spans[i][0]):
        taken = _definition(text, lines, i)
        if taken is None:
            break
        i, end = taken
    return end


def _definition(text: str, lines: _Lines, i: int) -> tuple[int, int] | None:
    """The definition starting at line ``i``: the index of the line after it and its
    content end, or ``None`` when none starts there."""
    spans = lines.spans
    p, ce = spans[i][0] + 1, spans[i][1]
    count, shown = 0, False
    while True:  # the label, to its unescaped "]"
        if p >= ce:
            if not lines.has(i + 1):
                return None
            i += 1
            p, ce = spans[i]
            count += 1  # the line ending
        else:
            ch = text[p]
            if ch == "]":
                break
            if ch == "[":
                return None
            step = 2 if ch == "\\" and p + 1 < ce else 1
            shown = shown or ch not in " \t"
            count += step
            p += step
        if count > LABEL_MAX:
            return None
    if not shown or not text.startswith(":", p + 1, ce):
        return None
    p += 2
    p = _spaces(text, p, ce)
    if p >= ce:  # the destination may stand on the next line
        if not lines.has(i + 1):
            return None
        i += 1
        p, ce = spans[i]
    after = destination_end(text, p, ce)
    if after < 0:
        return None
    dest_line = i
    p = _spaces(text, after, ce)
    dest_alone = p >= ce  # nothing but blanks follows the destination on its line
    if dest_alone and lines.has(i + 1):
        i += 1
        p, ce = spans[i]
    elif p == after and not dest_alone:
        return None  # text right after the destination: no definition
    if p < ce and text[p] in "\"'(":
        closed = _title(text, lines, i, p)
        if closed is not None:
            j, q = closed
            if _spaces(text, q, spans[j][1]) >= spans[j][1]:
                return j + 1, spans[j][1]
    # No title, or one that does not stand alone: the definition ends with the
    # destination when nothing but blanks follows it on its line.
    return (dest_line + 1, spans[dest_line][1]) if dest_alone else None


def _spaces(text: str, p: int, ce: int) -> int:
    while p < ce and text[p] in " \t":
        p += 1
    return p


def destination_end(text: str, p: int, ce: int) -> int:
    """The end of the link destination at ``p`` on its line (CommonMark 6.3: ``<...>``
    without ``<`` or a line ending, or a raw one: no space or ASCII control character,
    balanced parentheses), read by ``ce``, or -1. Shared by link reference definitions
    and inline links (:mod:`.links`)."""
    return destination_scan(text, p, ce)[0]


def destination_scan(text: str, p: int, ce: int) -> tuple[int, int]:
    """:func:`destination_end` and where its reading stopped (the work it did)."""
    if text.startswith("<", p):
        q = p + 1
        while q < ce:
            ch = text[q]
            if ch == ">":
                return q + 1, q + 1
            if ch == "<" or ch in "\r\n":
                return -1, q
            q += 2 if ch == "\\" and q + 1 < ce and text[q + 1] not in "\r\n" else 1
        return -1, q
    q, depth = p, 0
    while q < ce:
        ch = text[q]
        if ch <= " " or ch == "\x7f":  # a space or an ASCII control character ends it
            break
        if ch == "\\" and q + 1 < ce and text[q + 1] in _PUNCTUATION:
            q += 2
            continue
        if ch == "(":
            depth += 1
            if depth > PAREN_DEPTH_MAX:
                return -1, q
        elif ch == ")":
            if depth == 0:
                break
            depth -= 1
        q += 1
    return (q if q > p and depth == 0 else -1), q


def _title(text: str, lines: _Lines, i: int, p: int) -> tuple[int, int] | None:
    """The line index and end of the link title opening at ``p`` on line ``i`` (it may
    span lines), or ``None`` when it does not close within the paragraph."""
    spans = lines.spans
    opener = text[p]
    closer = ")" if opener == "(" else opener
    p, ce = p + 1, spans[i][1]
    while True:
        if p >= ce:
            if not lines.has(i + 1):
                return None
            i += 1
            p, ce = spans[i]
            continue
        ch = text[p]
        if ch == closer:
            return i, p + 1
        if ch == "(" and opener == "(":
            return None
        p += 2 if ch == "\\" and p + 1 < ce else 1
