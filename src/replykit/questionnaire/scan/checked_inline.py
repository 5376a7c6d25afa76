"""The checked mode's reading of inline text: every construct in order, candidates included.

Where the fast mode jumps from tag to tag through an index, this reading walks a line's
text left to right and emits a fine token for each construct of the grammar's
``_inline`` and ``_html_inline`` rules. A tag-like opener is judged where the walk
meets it, so it is a candidate exactly when nothing opened before it covers it: code
spans and comments hide tags; raw HTML and autolinks only hide backticks, so a
candidate inside raw HTML ends that construct (nothing opened before a candidate goes
on after it, §3b). Closers are found no further than the block's end in the raw
reading (question ``raw_end``).
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING

from replykit.questionnaire.scan import leaves
from replykit.questionnaire.scan.inline import SPECIAL, comment_end, other_end
from replykit.questionnaire.scan.links import close_link, push_opener
from replykit.questionnaire.scan.near_miss import (
    judged_tag,
    tag_near_misses,
    unknown_tag_near_miss,
)
from replykit.questionnaire.scan.state import Leaf

if TYPE_CHECKING:
    from replykit.questionnaire.scan.scanner import Scanner


class _Walk:
    """One line's walk: the scanner, the leaf, the line's content end and end (they move
    to the closer's line after a candidate that spans lines) and the position."""

    def __init__(self, sc: Scanner, leaf: Leaf, ce: int, le: int, text_kind: str) -> None:
        self.sc, self.leaf, self.ce, self.le = sc, leaf, ce, le
        self.text = sc.text
        self.text_kind = text_kind  # TEXT or HTML_TEXT
        self.pos = self.begin = leaf.inline_pos  # text before pos is emitted

    def done(self) -> int:
        """Finish the walk (the text it passed is work too); where the next line starts."""
        self.leaf.inline_pos = self.pos
        self.sc.scanned += max(0, self.pos - self.begin)
        return self.le

    def limit(self) -> int:
        """Constructs close no further than the block's end in the raw reading."""
        return max(self.sc.raw_end(self.leaf, self.le), self.ce)

    def emit_text(self, end: int) -> None:
        """The text up to ``end`` (which may lie on a later line, inside a construct
        that started on this one)."""
        if self.pos < end:
            self.sc.out.token(self.text_kind, self.pos, end)
            self.pos = end

    def emit(self, kind: str, start: int, end: int) -> None:
        """Text up to ``start``, then the token."""
        self.sc.out.token(self.text_kind, self.pos, start)
        self.sc.out.token(kind, start, end)
        self.pos = end

    def candidate(self, tag: re.Match[str]) -> bool:
        """Judge ``tag``, which the walk has reached: take it as a candidate, or report
        its near-misses (then it is text, or raw HTML)."""
        sc = self.sc
        closer = sc.look.closer_for(tag)
        if closer[0] < 0 or not leaves.opens(sc, tag):
            sc.out.warn(tag_near_misses(tag, closer[0], sc.messages))
            return False
        sc.out.token(self.text_kind, self.pos, tag.start())
        self.ce, self.le = leaves.take_candidate(sc, tag, closer, self.ce, self.le)
        self.pos = closer[1]
        return True

    def unknown_at(self, start: int, end: int) -> None:
        """Warn ``near_miss.unknown_name`` for each opening tag with an unknown name
        whose ``<`` lies in ``text[start:end]`` (§8.1; judged where a tag is)."""
        found, starts = self.sc.look.unknown()
        i = bisect.bisect_left(starts, start)
        while i < len(found) and starts[i] < end:
            p, e, name = found[i]
            self.sc.out.warn([unknown_tag_near_miss(p, e, name, self.sc.messages)])
            i += 1

    def tag_at(self, q: int) -> re.Match[str] | None:
        """The tag-like opener at ``q`` with a bracket or attributes, if any."""
        tag = self.sc.lx.tag_like.match(self.text, q)
        return tag if tag is not None and judged_tag(tag) else None

    def first_candidate_inside(self, start: int, end: int) -> int:
        """The first candidate among the tags in ``text[start:end]`` (inside raw HTML),
        or -1; the tags before it are judged (near-misses)."""
        self.sc.scanned += end - start
        pos = start
        while True:
            found = self.sc.lx.tag_like.search(self.text, pos, end)
            if found is None:
                self.unknown_at(start, end)
                return -1
            tag = self.tag_at(found.start())
            if tag is not None:
                closer = self.sc.look.closer_for(tag)
                if closer[0] >= 0 and leaves.opens(self.sc, tag):
                    self.unknown_at(start, tag.start())
                    return tag.start()
                self.sc.out.warn(tag_near_misses(tag, closer[0], self.sc.messages))
            pos = found.start() + 1


def read_text(sc: Scanner, leaf: Leaf, ce: int, le: int) -> int:
    """Read paragraph or heading text from ``leaf.inline_pos`` to ``ce``; where the next
    line starts."""
    before = leaf.inline_pos
    leaves.skip_definitions(sc, leaf)
    if leaf.inline_pos > before:  # leading link reference definitions: text, no construct
        sc.out.token("TEXT", before, leaf.inline_pos)
    w = _Walk(sc, leaf, ce, le, "TEXT")
    i = w.pos
    while i < w.ce:
        m = SPECIAL.search(w.text, i, w.ce)
        if m is None:
            break
        q = m.start()
        ch = w.text[q]
        if ch == "\\":
            i = _escape(w, q)
        elif ch == "`":
            i = _backticks(w, q)
        elif ch in "[!]":
            i = _bracket(w, q, m.end())
        else:
            i = _angle(w, q)
    w.emit_text(max(i, w.ce))
    return w.done()


def _escape(w: _Walk, q: int) -> int:
    """A backslash: an escaped ASCII punctuation character is text, and an escaped
    backtick opens nothing; an escaped ``<`` still starts a tag (tags are judged on the
    raw text)."""
    if not w.sc.lx.escape.match(w.text, q, w.ce):
        return q + 1
    if w.text[q + 1] == "<":
        tag = w.tag_at(q + 1)
        if tag is not None and w.candidate(tag):
            return w.pos
        w.unknown_at(q + 1, q + 2)
    w.emit("ESCAPE", q, q + 2)
    return q + 2


def _bracket(w: _Walk, q: int, after: int) -> int:
    """``[`` or ``![`` opens link text; a ``]`` that closes active link text and is
    followed by an inline link's target on its line (question ``link_target_end``):
    the target is text, and nothing in it is read as another construct (§3b)."""
    leaf = w.leaf
    brackets = (leaf.brackets, leaf.links_from)
    if w.text[q] != "]":
        leaf.brackets, leaf.links_from = push_opener(brackets, w.text[q] == "!")
        return after
    end, read, (leaf.brackets, leaf.links_from) = close_link(w.text, q, w.limit(), brackets)
    w.sc.scanned += read
    if end < 0:
        return q + 1
    w.emit_text(end)
    leaf.inert_end = end
    return end


def _backticks(w: _Walk, q: int) -> int:
    """A backtick run: a code span when a run of the same length closes it (question
    ``pairs_code_span``), else text."""
    run = w.sc.lx.backtick_run.match(w.text, q)
    assert run is not None
    n = run.end() - q
    closer = w.sc.look.closing_run(n, run.end(), w.limit())
    if closer < 0:
        return run.end()
    w.emit("SPAN_OPEN", q, q + n)
    if closer > q + n:
        w.sc.out.token("SPAN_TEXT", q + n, closer)
    w.sc.out.token("SPAN_CLOSE", closer, closer + n)
    w.pos = w.leaf.inert_end = closer + n
    return w.pos


def _angle(w: _Walk, q: int) -> int:
    """A ``<``: a candidate, a comment, an autolink or raw HTML (the last two hide
    backticks but no candidate), or text."""
    tag = w.tag_at(q)
    if tag is not None and w.candidate(tag):
        return w.pos
    w.unknown_at(q, q + 1)
    text, sc = w.text, w.sc
    if text.startswith("<!--", q):
        end = comment_end(text, q, w.limit(), sc.look)
        if end >= 0:
            w.emit("HTML_COMMENT", q, end)
            w.leaf.inert_end = end
            return end
    other = other_end(text, q, w.limit(), sc.lx, sc.look)
    if other < 0:
        return q + 1
    inside = w.first_candidate_inside(q + 1, other)
    if inside >= 0:
        return inside  # the candidate ends the construct; the walk meets it next
    kind = "AUTOLINK" if sc.lx.autolink.match(text, q, other) else "RAW_HTML"
    w.emit(kind, q, other)
    return other


def read_html(
    sc: Scanner, leaf: Leaf, start: int, ce: int, le: int
) -> tuple[int, list[tuple[int, int]]]:
    """Read an HTML block line ``text[start:ce]`` from ``leaf.inline_pos``: comments
    (one that starts a line and never closes halts the scan, §3b) and candidates.
    Returns where the next line starts and the pieces of the line outside candidates."""
    w = _Walk(sc, leaf, ce, le, "HTML_TEXT")
    pieces: list[tuple[int, int]] = []
    piece_start, ended_before = start, False
    kind = leaf.html_type if leaf.html_type <= 5 else 0
    i = w.pos
    while i < w.ce:
        q = w.text.find("<", i, w.ce)
        if q < 0:
            break
        tag = w.tag_at(q)
        if tag is not None and w.candidate(tag):
            pieces.append((piece_start, q))
            if kind and not ended_before:
                ended_before = sc.look.end_condition_within(kind, piece_start, q)
            piece_start = i = w.pos
            continue
        w.unknown_at(q, q + 1)
        if not w.text.startswith("<!--", q):
            i = q + 1
            continue
        ends = kind > 0 and (ended_before or sc.look.end_condition_within(kind, piece_start, w.ce))
        end = comment_end(w.text, q, w.ce if ends else w.limit(), sc.look)
        if end < 0 and leaves.starts_line(leaf, q):
            w.emit("HALTING_COMMENT", q, sc.n)
            leaves.halt(sc)
            return sc.n, pieces
        if end < 0:
            i = q + 4
            continue
        w.emit("HTML_COMMENT", q, end)
        leaf.inert_end = i = end
    w.emit_text(max(i, w.ce))
    pieces.append((piece_start, w.ce))
    return w.done(), pieces
