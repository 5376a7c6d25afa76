"""Question ``link_target_end``: where an inline link's ``(destination "title")`` ends.

CommonMark 0.31.2 (6.3, 6.4) reads inline text left to right; at a ``]`` that closes
link text (its opener ``[`` or ``![`` is still active) it reads an inline link's
``(destination "title")`` at once, so what it consumes there is no inline content: a
backtick in a title opens no code span, ``<!--`` no comment, and a tag there is no
candidate (§3b), as in a link reference definition (:mod:`.definitions`).

The openers are a stack kept in the leaf (:class:`~.state.Bracket`, immutable, so a
copy of the state shares it): ``[`` and ``![`` push; ``]`` pops the top one. A link
formed from a ``[`` makes every opener below it inactive for links (links do not
nest; images may hold links). Read here: an inline link whose part after ``]`` lies
on one line. Not read (docs/protocol.md, appendix B): a destination or title that
continues on the next line, and reference links (``[text][label]``, ``[label]``),
whose forming depends on definitions anywhere in the message: their ``]`` is text,
and a reference link inside link text does not deactivate the openers below it.

Each attempt reads at most its own target; a raw destination read through later
openers gains a parenthesis level at each (at most 32), so every character is read by
a bounded number of attempts: linear.
"""

from __future__ import annotations

from replykit.questionnaire.scan.definitions import destination_scan
from replykit.questionnaire.scan.state import Bracket

Brackets = tuple[Bracket | None, int]


def push_opener(brackets: Brackets, image: bool) -> Brackets:
    """``brackets`` with a ``[`` (``image``: ``![``) opened on top."""
    top, links_from = brackets
    return Bracket(image, 0 if top is None else top.depth + 1, top), links_from


def close_link(text: str, q: int, limit: int, brackets: Brackets) -> tuple[int, int, Brackets]:
    """At the ``]`` at ``q``: the end of the inline link target that follows it when it
    closes active link text (else -1: the ``]`` is text), the characters the attempt
    examined (work, as the scanner counts it), and the openers after it."""
    top, links_from = brackets
    if top is None:
        return -1, 0, brackets
    depth = top.depth
    active = top.image or depth >= links_from
    after: Brackets = (top.below, min(links_from, depth))
    end, reached = link_target_end(text, q + 1, limit) if active else (-1, q + 1)
    if end >= 0 and not top.image:
        after = (top.below, depth)  # the openers below may form no link now
    return end, reached - q, after


def link_target_end(text: str, p: int, limit: int) -> tuple[int, int]:
    """The end of an inline link's ``(destination "title")`` opening at ``p`` and ending
    on its line, by ``limit`` (CommonMark 6.3: blanks, an optional destination, an
    optional title after blanks, blanks, ``)``), or -1; and how far it was read."""
    if not text.startswith("(", p):
        return -1, p
    q = _blanks(text, p + 1, limit)
    if q >= limit or text[q] in "\r\n":
        return -1, q  # goes on on the next line: not read (appendix B)
    if text[q] == ")":
        return q + 1, q + 1
    d, reached = destination_scan(text, q, limit)
    if d < 0:
        return -1, reached
    r = _blanks(text, d, limit)
    if r < limit and text[r] == ")":
        return r + 1, r + 1
    if r == d or r >= limit or text[r] not in "\"'(":
        return -1, r
    t, reached = _title_scan(text, r, limit)
    if t < 0:
        return -1, reached
    s = _blanks(text, t, limit)
    return (s + 1, s + 1) if s < limit and text[s] == ")" else (-1, s)


def _blanks(text: str, p: int, limit: int) -> int:
    while p < limit and text[p] in " \t":
        p += 1
    return p


def _title_scan(text: str, p: int, limit: int) -> tuple[int, int]:
    """The end of the link title opening at ``p`` on its line (``"..."``, ``'...'`` or
    ``(...)``, backslash escapes; an unescaped ``(`` ends a parenthesized one), or -1;
    and where the reading stopped."""
    opener = text[p]
    closer = ")" if opener == "(" else opener
    q = p + 1
    while q < limit:
        ch = text[q]
        if ch in "\r\n":
            return -1, q
        if ch == closer:
            return q + 1, q + 1
        if ch == "(" and opener == "(":
            return -1, q
        q += 2 if ch == "\\" and q + 1 < limit and text[q + 1] not in "\r\n" else 1
    return -1, q
