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
import functools
import re
from collections.abc import Mapping, Sequence

import attrs

from replykit.scan.patterns import ASCII_PUNCTUATION, AUTOLINK

_RUNS = re.compile(r"`+")
_SPECIAL = re.compile(r"[`\\<]")
_COMMENT_END = re.compile(r"-->")
_TERMINATORS = re.compile(r"\?>|\]\]>|[\"'>]")
# White space inside a raw HTML tag, which may span lines of its paragraph. The scan
# reads raw text, where a continuation line inside a block quote still starts with its
# ">" markers; in a paragraph a line can only start with ">" as such a marker (content
# there would open a block quote), so the markers count as part of the line break.
_WS_UNIT = r"(?:[ \t]|(?:\r\n|\r|\n)(?>(?:[ \t]*>)*))"  # atomic: a marker never ends a tag
_WS = _WS_UNIT + "*"
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_ATTR_NAME = re.compile(_WS_UNIT + r"+([A-Za-z_:][A-Za-z0-9_.:-]*)")
_ATTR_EQ = re.compile(_WS + "=" + _WS)
_UNQUOTED = re.compile(r"[^\"'=<>`\x00-\x20]+")
_TAG_END = re.compile(_WS + "/?>")
_CLOSING_TAG = re.compile(r"</[A-Za-z][A-Za-z0-9-]*" + _WS + ">")


class Indexes:
    """Positions found once per message, each on first use, so closer look-ups are
    logarithmic: ``runs`` (backtick run length -> sorted starts of maximal runs),
    ``comment_ends`` (sorted offsets of ``-->``), ``terminators`` (sorted offsets of
    quotes, ``>``, ``?>`` and ``]]>``, which end raw HTML constructs)."""

    def __init__(self, text: str) -> None:
        self._text = text

    @functools.cached_property
    def runs(self) -> Mapping[int, Sequence[int]]:
        """Backtick run length -> sorted start offsets of maximal runs of that length."""
        runs: dict[int, list[int]] = {}
        for m in _RUNS.finditer(self._text):
            runs.setdefault(m.end() - m.start(), []).append(m.start())
        return runs

    @functools.cached_property
    def comment_ends(self) -> Sequence[int]:
        """Sorted offsets of every ``-->``."""
        return [m.start() for m in _COMMENT_END.finditer(self._text)]

    @functools.cached_property
    def terminators(self) -> Mapping[str, Sequence[int]]:
        """Token (a quote, ``>``, ``?>``, ``]]>``) -> sorted offsets."""
        terms: dict[str, list[int]] = {'"': [], "'": [], ">": [], "?>": [], "]]>": []}
        for m in _TERMINATORS.finditer(self._text):
            terms[m.group()].append(m.start())
            if m.group() != ">" and m.group().endswith(">"):
                terms[">"].append(m.end() - 1)
        return terms

    def next_terminator(self, token: str, after: int, limit: int) -> int:
        """Offset just past the first ``token`` (a quote, ``>``, ``?>`` or ``]]>``)
        starting at or after ``after`` and ending by ``limit``, or -1."""
        starts = self.terminators[token]
        i = bisect.bisect_left(starts, after)
        if i < len(starts) and starts[i] + len(token) <= limit:
            return starts[i] + len(token)
        return -1

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


def raw_html_end(text: str, q: int, limit: int, idx: Indexes) -> int:
    """End of the raw HTML construct (CommonMark 6.6: open tag, closing tag, processing
    instruction, declaration, CDATA section) opening at ``q``, or -1. Comments are
    handled by :func:`comment_end`. Quoted attribute values and the other constructs'
    terminators are found through ``idx``, so each attempt costs its own length."""
    if text.startswith("<?", q):
        return idx.next_terminator("?>", q + 2, limit)
    if text.startswith("<![CDATA[", q):
        return idx.next_terminator("]]>", q + 9, limit)
    if text.startswith("<!", q):
        if q + 2 < limit and text[q + 2].isascii() and text[q + 2].isalpha():
            return idx.next_terminator(">", q + 3, limit)
        return -1
    if text.startswith("</", q):
        m = _CLOSING_TAG.match(text, q, limit)
        return m.end() if m else -1
    m = _TAG_NAME.match(text, q + 1, limit)
    if m is None:
        return -1
    i = m.end()
    while True:
        attr = _ATTR_NAME.match(text, i, limit)
        if attr is None:
            break
        i = attr.end()
        eq = _ATTR_EQ.match(text, i, limit)
        if eq is None:
            continue
        j = eq.end()
        if j < limit and text[j] in "\"'":
            end = idx.next_terminator(text[j], j + 1, limit)
            if end < 0:
                return -1
            i = end
        else:
            value = _UNQUOTED.match(text, j, limit)
            if value is None:
                return -1
            i = value.end()
    end_m = _TAG_END.match(text, i, limit)
    return end_m.end() if end_m else -1


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
        auto = AUTOLINK.match(text, q, limit)
        other = auto.end() if auto is not None else raw_html_end(text, q, limit, idx)
        if other > stop:
            return InlineScan(tuple(regions), None, other)
        i = other if other > 0 else q + 1
