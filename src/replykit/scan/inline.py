"""Inline stage of the lexer: code spans and HTML comments inside one paragraph.

CommonMark 0.31.2 §6: a backtick run of length n opens a code span when a later run
of exactly n backticks exists in the same paragraph (the first such closes it); a
backslash-escaped backtick does not open; autolinks and raw HTML take precedence
over a code span that starts inside them; an HTML comment is ``<!-->``, ``<!--->``
or ``<!--`` up to the next ``-->``. Closers are looked up in indexes built once per
message, so scanning a paragraph is linear in its length however many runs it has.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence

import attrs

from replykit.scan.patterns import ASCII_PUNCTUATION, AUTOLINK, RAW_HTML

_RUNS = re.compile(r"`+")
_SPECIAL = re.compile(r"[`\\<]")
_COMMENT_END = re.compile(r"-->")


@attrs.frozen
class Indexes:
    """Positions found once per message so closer look-ups are logarithmic.

    ``runs``: backtick run length -> sorted start offsets of maximal runs of that
    length; ``comment_ends``: sorted offsets of every ``-->``.
    """

    runs: Mapping[int, Sequence[int]]
    comment_ends: Sequence[int]

    @classmethod
    def build(cls, text: str) -> Indexes:
        """Index ``text`` (one pass per pattern)."""
        runs: dict[int, list[int]] = {}
        for m in _RUNS.finditer(text):
            runs.setdefault(m.end() - m.start(), []).append(m.start())
        ends = [m.start() for m in _COMMENT_END.finditer(text)]
        return cls(runs=runs, comment_ends=ends)

    def next_run(self, length: int, after: int, limit: int) -> int:
        """Start of the first maximal run of ``length`` backticks at or after ``after``
        that ends by ``limit``, or -1."""
        starts = self.runs.get(length)
        if not starts:
            return -1
        i = bisect.bisect_left(starts, after)
        if i < len(starts) and starts[i] + length <= limit:
            return starts[i]
        return -1

    def next_comment_end(self, after: int, limit: int) -> int:
        """Offset just past the first ``-->`` starting at or after ``after`` that ends
        by ``limit``, or -1."""
        i = bisect.bisect_left(self.comment_ends, after)
        if i < len(self.comment_ends) and self.comment_ends[i] + 3 <= limit:
            return self.comment_ends[i] + 3
        return -1


@attrs.frozen
class InlineScan:
    """What :func:`scan_inline` found in ``[start, stop)``.

    ``regions``: ``(kind, start, end)`` with kind ``CODE_SPAN`` or ``HTML_COMMENT``, in
    order; the last may straddle ``stop``. ``covering``: the region containing
    ``stop`` (then ``stop`` is inert), or None. ``resume``: where scanning goes on if
    the character at ``stop`` turns out to be plain text.
    """

    regions: tuple[tuple[str, int, int], ...]
    covering: tuple[str, int, int] | None
    resume: int


def comment_end(text: str, q: int, limit: int, idx: Indexes) -> int:
    """End offset of the HTML comment opening at ``q`` (``<!--`` there), or -1."""
    if text.startswith(">", q + 4):
        return q + 5
    if text.startswith("->", q + 4):
        return q + 6
    return idx.next_comment_end(q + 4, limit)


def scan_inline(text: str, start: int, stop: int, limit: int, idx: Indexes) -> InlineScan:
    """Scan paragraph text ``text[start:stop]`` for inert inline regions.

    Constructs may close anywhere before ``limit`` (the raw end of the paragraph). Pure;
    linear in ``stop - start`` plus a logarithmic look-up per backtick run.
    """
    regions: list[tuple[str, int, int]] = []
    i = start
    while True:
        m = _SPECIAL.search(text, i, stop)
        if m is None:
            return InlineScan(tuple(regions), None, max(i, stop))
        q = m.start()
        ch = text[q]
        if ch == "\\":
            # An escaped character is literal (and an escaped backtick opens nothing).
            if q + 1 < limit and text[q + 1] in ASCII_PUNCTUATION:
                i = q + 2
                if i > stop:
                    return InlineScan(tuple(regions), None, i)
            else:
                i = q + 1
            continue
        if ch == "`":
            run = _RUNS.match(text, q, limit)
            assert run is not None
            n = run.end() - q
            closer = idx.next_run(n, run.end(), limit)
            if closer < 0:
                i = run.end()
                if i > stop:
                    return InlineScan(tuple(regions), None, i)
                continue
            span = ("CODE_SPAN", q, closer + n)
            regions.append(span)
            if closer + n > stop:
                return InlineScan(tuple(regions), span, closer + n)
            i = closer + n
            continue
        # ch == "<": a comment is inert; autolinks and raw HTML only hide backticks.
        if text.startswith("<!--", q):
            end = comment_end(text, q, limit, idx)
            if end >= 0:
                comment = ("HTML_COMMENT", q, end)
                regions.append(comment)
                if end > stop:
                    return InlineScan(tuple(regions), comment, end)
                i = end
                continue
        other = AUTOLINK.match(text, q, limit) or RAW_HTML.match(text, q, limit)
        if other is not None and other.end() > stop:
            return InlineScan(tuple(regions), None, other.end())
        i = other.end() if other is not None else q + 1
