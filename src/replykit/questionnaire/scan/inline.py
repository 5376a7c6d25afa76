"""Inline constructs that decide inertness: code spans, HTML comments, raw HTML, autolinks.

CommonMark 6: a backtick run of length n opens a code span when a later run of
exactly n backticks exists in the same block (the first such closes it); a
backslash-escaped backtick does not open one; autolinks and raw HTML take precedence
over a code span that starts inside them; an HTML comment is ``<!-->``, ``<!--->`` or
``<!--`` up to the next ``-->``. The shapes are terminals of ``grammar/message.lark``;
closers are found through :class:`~replykit.questionnaire.scan.lookahead.Lookahead`, so scanning a
block is linear in its length however many openers it holds. Pure functions.
"""

from __future__ import annotations

import re

import attrs

from replykit.questionnaire.scan.lexemes import Lexemes
from replykit.questionnaire.scan.links import Brackets, close_link, push_opener
from replykit.questionnaire.scan.lookahead import Lookahead

# The characters that may start an inline construct that matters (derived from the
# grammar's ESCAPE, BACKTICK_RUN, HTML_COMMENT, RAW_HTML, AUTOLINK and LINK_OPENER, and
# the "]" that may close link text).
SPECIAL = re.compile(r"[`\\<\[\]]|!\[")

Region = tuple[str, int, int]


@attrs.frozen
class InlineScan:
    """What :func:`scan_inline` found in ``[start, stop)``.

    ``regions``: ``(kind, start, end)`` with kind ``CODE_SPAN``, ``HTML_COMMENT`` or
    ``LINK_TARGET`` (an inline link's part after its ``]``: inert, but no token of
    its own), in order; the last may straddle ``stop``. ``covering``: the region
    containing ``stop`` (then ``stop`` is inert), or None. ``resume``: where scanning
    goes on if the character at ``stop`` turns out to be plain text. ``brackets``:
    the openers of link text left open there (:mod:`.links`); ``examined``: what the
    link target attempts read (work beyond ``resume - start``).
    """

    regions: tuple[Region, ...]
    covering: Region | None
    resume: int
    brackets: Brackets = (None, 0)
    examined: int = 0


def comment_end(text: str, q: int, limit: int, look: Lookahead) -> int:
    """End offset of the HTML comment opening at ``q`` (``<!--`` there) that closes by
    ``limit``, or -1 (question ``comment_end``)."""
    if text.startswith(">", q + 4):
        return q + 5
    if text.startswith("->", q + 4):
        return q + 6
    return look.comment_close(q + 4, limit)


def raw_html_end(text: str, q: int, limit: int, lx: Lexemes, look: Lookahead) -> int:
    """End of the raw HTML construct (grammar ``RAW_HTML``: open tag, closing tag,
    processing instruction, declaration, CDATA section) opening at ``q`` and closing by
    ``limit``, or -1. Comments are :func:`comment_end`'s. Quoted attribute values and
    the other constructs' terminators are found through ``look``, so each attempt
    costs its own length."""
    if text.startswith("<?", q):
        return look.terminator("?>", q + 2, limit)
    if text.startswith("<![CDATA[", q):
        return look.terminator("]]>", q + 9, limit)
    if text.startswith("<!", q):
        if q + 2 < limit and text[q + 2].isascii() and text[q + 2].isalpha():
            return look.terminator(">", q + 3, limit)
        return -1
    if text.startswith("</", q):
        m = lx.raw_closing_tag.match(text, q, limit)
        return m.end() if m else -1
    m = lx.tag_name.match(text, q + 1, limit)
    return -1 if m is None else _open_tag_end(text, m.end(), limit, lx, look)


def _open_tag_end(text: str, i: int, limit: int, lx: Lexemes, look: Lookahead) -> int:
    """End of an open tag whose name ends at ``i`` (its attributes, then ``/>`` or
    ``>``), or -1."""
    while True:
        attr = lx.attribute_start.match(text, i, limit)
        if attr is None:
            break
        i = attr.end()
        eq = lx.attribute_equals.match(text, i, limit)
        if eq is None:
            continue
        j = eq.end()
        if j < limit and text[j] in "\"'":
            i = look.terminator(text[j], j + 1, limit)
            if i < 0:
                return -1
        else:
            value = lx.unquoted_value.match(text, j, limit)
            if value is None:
                return -1
            i = value.end()
    end = lx.tag_end.match(text, i, limit)
    return end.end() if end else -1


def other_end(text: str, q: int, limit: int, lx: Lexemes, look: Lookahead) -> int:
    """End of the autolink or raw HTML construct at ``q`` (a ``<``), or -1: text inside
    it opens no code span."""
    auto = lx.autolink.match(text, q, limit)
    return auto.end() if auto is not None else raw_html_end(text, q, limit, lx, look)


def scan_inline(
    text: str, start: int, stop: int, limit: int, lx: Lexemes, look: Lookahead,
    brackets: Brackets = (None, 0),
) -> InlineScan:  # fmt: skip
    """Scan paragraph text ``text[start:stop]`` for code spans, comments and inline link
    targets (the fast mode's reading, which stops at ``stop``: a tag whose inertness is
    asked); ``brackets``: the openers of link text open at ``start``.

    Constructs may close anywhere before ``limit`` (the raw end of the block).
    Linear in ``stop - start`` plus a logarithmic look-up per construct.
    """
    regions: list[Region] = []
    i, examined = start, 0
    while True:
        m = SPECIAL.search(text, i, stop)
        if m is None:
            return InlineScan(tuple(regions), None, max(i, stop), brackets, examined)
        q = m.start()
        ch = text[q]
        if ch in "[!":
            brackets = push_opener(brackets, ch == "!")
            i = m.end()
            continue
        if ch == "]":
            end, read, brackets = close_link(text, q, limit, brackets)
            examined += read
            if end < 0:
                i = q + 1
                continue
            regions.append(("LINK_TARGET", q + 1, end))
            i = end
        elif ch == "\\":
            # An escaped character is literal (and an escaped backtick opens nothing).
            i = q + 2 if lx.escape.match(text, q, limit) else q + 1
        elif ch == "`":
            n = len(lx.backtick_run.match(text, q, limit).group())  # type: ignore[union-attr]
            closer = look.closing_run(n, q + n, limit)
            i = q + n if closer < 0 else closer + n
            if closer >= 0:
                regions.append(("CODE_SPAN", q, i))
        else:
            end = comment_end(text, q, limit, look) if text.startswith("<!--", q) else -1
            if end >= 0:
                regions.append(("HTML_COMMENT", q, end))
                i = end
            else:
                # Autolinks and raw HTML only hide backticks: not inert themselves.
                other = other_end(text, q, limit, lx, look)
                if other > stop:
                    return InlineScan(tuple(regions), None, other, brackets, examined)
                i = other if other > 0 else q + 1
                continue
        if i > stop:
            last = regions[-1] if regions and regions[-1][2] == i else None
            return InlineScan(tuple(regions), last, i, brackets, examined)
