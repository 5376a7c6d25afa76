"""The lexer stage: a CommonMark 0.31.2 block scanner that emits coarse tokens.

This is the one place that holds what ``grammar/message.lark`` cannot: CommonMark's
block state (open block quotes and list items, whether a paragraph is open, the open
fence's character, length and indentation, the HTML block type) and the rule that a
closing tag must equal its opener (PROTOCOL-DECISIONS §3). It reads the message line
by line, the way CommonMark's reference parser does, and emits tokens that cover the
message exactly, in order: ``FENCE_OPENER``/``FENCE_PAYLOAD``/``FENCE_CLOSER`` and
``OPEN_TAG``/``TAG_PAYLOAD``/``CLOSE_TAG`` for candidate blocks, ``FENCED_CODE``,
``INDENTED_CODE``, ``CODE_SPAN``, ``HTML_COMMENT`` for inert regions, and ``PROSE``
for everything else (runs of plain lines become one token).

It also records the near-miss warnings of §8, since only it knows which openers stand
outside inert regions.

Inline inertness (code spans, comments) is computed where it matters: in a paragraph
holding a tag, a two-backtick line or a fence behind blanks that are not indentation,
and before the message's first visible character (the preface rule, §4). Once a
visible character has been emitted, inert regions are folded into ``PROSE``: they can
change no segment any more. With ``full=True`` every paragraph is scanned and every
inert region becomes a token (in protocol mode: the regions ``segment()`` acts on, with
the same candidates and near-misses); with ``protocol=False`` no candidate, tag or
near-miss is looked for, which is plain CommonMark (both used by
:func:`replykit.code_regions`).
"""

from __future__ import annotations

import bisect
import re

import attrs

from replykit.compat import Compat
from replykit.diagnostics import Finding
from replykit.scan.inline import Indexes, InlineScan, comment_end, scan_inline
from replykit.scan.near_miss import fence_near_misses, is_family_word, tag_near_misses
from replykit.scan.patterns import (
    ATX_HEADING,
    BULLET_MARKER,
    FENCE_CLOSE,
    FENCE_OPEN,
    HTML_BLOCK_ENDS,
    HTML_BLOCK_STARTS,
    ORDERED_MARKER,
    SETEXT_UNDERLINE,
)
from replykit.text import BLANK_CLASS, LINE_END_RE, first_visible, trim_blank

# Anything that could be a protocol tag or a near-miss of one (§8): case-insensitive
# family name, then ``>`` or attributes. ``[^<>]*`` stops at the next ``<``, so
# scanning many unclosed openers stays linear.
_TAGLIKE = re.compile(
    r"<((?:[a-z0-9]+-)?questionnaire(?:-response)?)(>|[ \t\r\n/][^<>]*>|)", re.IGNORECASE | re.ASCII
)
_CLOSERS = re.compile(
    r"<(\\?)/((?:[a-z0-9]+-)?questionnaire(?:-response)?)>", re.IGNORECASE | re.ASCII
)
_SHORT_FENCE = re.compile(r"``(?!`)")
_BLANK_LINE = re.compile(r"[ \t]*$")
_FENCE_CLOSER_LINE = re.compile(r"[ ]{0,3}(`{3,}|~{3,})[ \t]*$")
_INERT = frozenset({"FENCED_CODE", "INDENTED_CODE", "CODE_SPAN", "HTML_COMMENT"})
# A line start that opens no CommonMark block: at most 3 spaces, then a character that
# begins none of block quote, heading, fence, HTML block, setext underline, thematic
# break, list item (nor a tab, which could make indented code).
_PLAIN_LINE = re.compile(r"[ ]{0,3}[^ \t>#`~<*\-_+=0-9\r\n]")
# Blank characters (§1) that CommonMark does not read as indentation (all but space and
# tab), possibly mixed with spaces, at the start of a paragraph line.
_INDENT_BLIND = re.compile(rf"(?![ \t]){BLANK_CLASS}(?:(?![\t\r\n]){BLANK_CLASS})*")


@attrs.frozen
class Token:
    """One token: ``type`` is a terminal name of the grammar; offsets are code points."""

    type: str
    start: int
    end: int


#: A §8 near-miss warning found by the lexer: a finding at message offsets.
NearMiss = Finding


@attrs.frozen
class LexResult:
    """Tokens covering the message in order, the near-misses found, and ``scanned``: the
    characters the lexer's scanning primitives examined (a measure of work, linear in
    the message's length)."""

    tokens: tuple[Token, ...]
    near_misses: tuple[Finding, ...]
    scanned: int = 0


@attrs.frozen
class Lexemes:
    """The grammar's lexeme patterns the lexer applies (read from message.lark)."""

    fence_opener: re.Pattern[str]
    fence_closer: re.Pattern[str]
    fenced_name: re.Pattern[str]
    open_tag: re.Pattern[str]
    close_tag: re.Pattern[str]


@attrs.define
class _Container:
    kind: str  # "quote" or "item"
    marker_offset: int = 0
    padding: int = 0
    has_child: bool = False


@attrs.define
class _Leaf:
    kind: str  # paragraph, heading, fenced, indented, html
    start: int  # first character of the block (after container prefixes)
    end: int = 0  # end of the last line's content so far
    fence_char: str = ""
    fence_len: int = 0
    candidate: bool = False
    opener_end: int = 0
    html_type: int = 0
    inline_pos: int = 0  # inline scanning resumes here
    inert_end: int = 0  # end of the last inert region found in this block
    # The raw reading, cached: where the block's last line's content ends, the start of
    # the first line after it (-1: unknown), and whether that last line ended the block
    # by an end condition standing on it (HTML blocks of types 1-5).
    raw_end: int = 0
    raw_next: int = -1
    raw_closed_on_line: bool = False
    # HTML blocks: the first non-blank offset of each line's content (after container
    # markers), in order; an unclosed comment there "starts a line" (§3b).
    line_firsts: list[int] = attrs.Factory(list)


@attrs.define
class _Cursor:
    offset: int
    column: int = 0
    partial: bool = False  # a tab is partly consumed (CommonMark columns)


def _break_stop(text: str, start: int, end: int) -> int:
    """Where a thematic break (spec 4.1) starting at ``start`` stops matching: the first
    character that is neither the break character nor a space or tab (``end`` if none)."""
    ch = text[start]
    i = start
    while i < end and text[i] in (ch, " ", "\t"):
        i += 1
    return i


def _first_nonspace(text: str, cur: _Cursor, end: int) -> tuple[int, int]:
    i, col = cur.offset, cur.column
    to_tab = 4 - (col % 4)
    while i < end:
        ch = text[i]
        if ch == " ":
            i += 1
            col += 1
            to_tab -= 1
            if to_tab == 0:
                to_tab = 4
        elif ch == "\t":
            i += 1
            col += to_tab
            to_tab = 4
        else:
            break
    return i, col


def _advance(text: str, cur: _Cursor, count: int, columns: bool, end: int) -> None:
    while count > 0 and cur.offset < end:
        if text[cur.offset] == "\t":
            to_tab = 4 - (cur.column % 4)
            if columns:
                cur.partial = to_tab > count
                step = min(count, to_tab)
                cur.column += step
                if not cur.partial:
                    cur.offset += 1
                count -= step
            else:
                cur.partial = False
                cur.column += to_tab
                cur.offset += 1
                count -= 1
        else:
            cur.partial = False
            cur.offset += 1
            cur.column += 1
            count -= 1


class Lexer:
    """Scan one message; :meth:`run` returns a :class:`LexResult`.

    Internal state is the CommonMark block state of the line being read. A dry copy
    (no tokens, no candidates) reads ahead to find where the open paragraph or HTML
    block ends in the raw reading, which decides whether a code span or comment
    opened before a tag still covers it (§3b: a candidate is judged with the earlier
    candidates in place and the rest of the text raw).
    """

    def __init__(
        self,
        text: str,
        lexemes: Lexemes,
        *,
        full: bool = False,
        protocol: bool = True,
        compat: Compat | None = None,
    ) -> None:
        self.text = text
        self.compat = compat or Compat()
        self.protocol = protocol
        self.n = len(text)
        self.lx = lexemes
        self.full = full
        self.dry = False
        self.containers: list[_Container] = []
        self.leaf: _Leaf | None = None
        self.tokens: list[Token] = []
        self.near: list[Finding] = []
        # Equal near-miss messages share one string: a message dense with near-misses
        # repeats a few texts many times (§1: memory stays near the input's size).
        self.messages: dict[str, str] = {}
        self.pos = 0  # text before pos is tokenized
        self.seen_visible = False
        self.idx = Indexes(text)
        tags = list(_TAGLIKE.finditer(text))
        self.tag_starts = [m.start() for m in tags]
        self.tag_matches = tags
        # Closing tags by name (lower-cased when names match in any case): starts, ends.
        closers: dict[str, tuple[list[int], list[int]]] = {}
        for m in _CLOSERS.finditer(text):
            if m.group(1) and not self.compat.escaped_closers:
                continue
            key = m.group(2).lower() if self.compat.case_insensitive else m.group(2)
            starts, ends = closers.setdefault(key, ([], []))
            starts.append(m.start())
            ends.append(m.end())
        self.closers = closers
        # Characters the scanning primitives examined (lines, inline and thematic-break
        # scans, dry read-aheads included): the tests prove linearity with it.
        self.scanned = 0
        self.halted = False  # an unclosed comment made the rest of the message inert
        # HTML block type -> starts and ends of its end condition's matches (on first use).
        self.end_marks: dict[int, tuple[list[int], list[int]]] = {}

    # ---- driving -------------------------------------------------------------
    def run(self) -> LexResult:
        """Read the whole message; return its tokens and near-misses."""
        pos = 0
        while pos < self.n and not self.halted:
            pos = self._line(pos)
        self._close_leaf(self.n)
        self._close_containers(0)
        if self.pos < self.n:
            self._prose(self.pos, self.n)
        return LexResult(tuple(self.tokens), tuple(self.near), self.scanned)

    def _line_bounds(self, start: int) -> tuple[int, int]:
        m = LINE_END_RE.search(self.text, start)
        if m is None:
            self.scanned += self.n - start
            return self.n, self.n
        self.scanned += m.end() - start
        return m.start(), m.end()

    # ---- emission --------------------------------------------------------------
    def _prose(self, start: int, end: int) -> None:
        if not self.seen_visible and first_visible(self.text, start, end) >= 0:
            self.seen_visible = True
        if self.tokens and self.tokens[-1].type == "PROSE":
            self.tokens[-1] = Token("PROSE", self.tokens[-1].start, end)
        else:
            self.tokens.append(Token("PROSE", start, end))
        self.pos = end

    def _emit(self, kind: str, start: int, end: int) -> None:
        if self.dry or self.halted or end <= start or start < self.pos:
            return
        if kind in _INERT and self.seen_visible and not self.full:
            return  # after the first visible character no inert region changes a segment
        if start > self.pos:
            self._prose(self.pos, start)
        self.tokens.append(Token(kind, start, end))
        self.pos = end

    def _warn(self, near_miss: Finding) -> None:
        if self.protocol and not self.dry and not self.halted:
            self.near.append(near_miss)

    # ---- one physical line ---------------------------------------------------------
    def _line(self, ls: int) -> int:
        text = self.text
        ce, le = self._line_bounds(ls)
        leaf = self.leaf
        if not self.containers and leaf is not None and leaf.kind == "fenced":
            # Fast path, exact: a top-level fenced block only looks for its closing fence.
            closer = _FENCE_CLOSER_LINE.match(text, ls, ce)
            if (
                closer is not None
                and closer.group(1)[0] == leaf.fence_char
                and len(closer.group(1)) >= leaf.fence_len
            ):
                self._close_fence(ls, closer.start(1), ce, le)
            else:
                leaf.end = le
            return le
        top_text = not self.containers and (leaf is None or leaf.kind == "paragraph")
        if top_text and _BLANK_LINE.match(text, ls, ce):  # a blank line ends the paragraph
            if leaf is not None:
                self._close_leaf(ls)
            return le
        if top_text and ls:
            # Fast path, exact: with no container open, a line whose first character
            # (after at most 3 spaces) can start no block is paragraph text.
            plain = _PLAIN_LINE.match(text, ls, ce)
            if plain is not None:
                fns = plain.end() - 1
                if leaf is None:
                    self.leaf = _Leaf("paragraph", fns, end=ce, inline_pos=fns)
                return self._inline_text(fns, ce, le, fns - ls)
        cur = _Cursor(ls)
        if ls == 0 and text.startswith("\ufeff"):
            cur.offset = 1  # a leading BOM is kept but not read (§1)
        matched = 0
        for c in self.containers:
            fns, fnc = _first_nonspace(text, cur, ce)
            indent = fnc - cur.column
            blank = fns >= ce
            if c.kind == "quote":
                if indent <= 3 and not blank and text[fns] == ">":
                    _advance(text, cur, fns + 1 - cur.offset, False, ce)
                    if cur.offset < ce and text[cur.offset] in " \t":
                        _advance(text, cur, 1, True, ce)
                else:
                    break
            else:
                need = c.marker_offset + c.padding
                if blank:
                    # Blank first (as commonmark.js and markdown-it-py; cmark checks the
                    # indentation first): an item that began with a blank line ends at
                    # the next one, even one of spaces (spec 5.2, "at most one blank line").
                    if not c.has_child:
                        break
                    _advance(text, cur, fns - cur.offset, False, ce)
                elif indent >= need:
                    _advance(text, cur, need, True, ce)
                else:
                    break
            matched += 1
        all_matched = matched == len(self.containers)
        leaf = self.leaf
        fns, fnc = _first_nonspace(text, cur, ce)
        indent = fnc - cur.column
        blank = fns >= ce

        if all_matched and leaf is not None and leaf.kind != "paragraph":
            if leaf.kind == "fenced":
                if indent <= 3 and not blank and text[fns] == leaf.fence_char:
                    m = FENCE_CLOSE.match(text, fns, ce)
                    if m is not None and len(m.group(1)) >= leaf.fence_len:
                        self._close_fence(ls, fns, ce, le)
                        return le
                leaf.end = le
                return le
            if leaf.kind == "indented":
                if indent >= 4 or blank:
                    if not blank:
                        leaf.end = ce
                    return le
            elif leaf.kind == "html":
                if leaf.html_type >= 6 and blank:
                    self._close_leaf(ls)
                    return le
                return self._html_text(cur.offset, ce, le)

        # New block starts (CommonMark 4.x), possibly several containers on one line.
        tip_is_para = leaf is not None and leaf.kind == "paragraph"
        cont_is_para = tip_is_para and all_matched
        opened = False
        # A failed thematic-break scan stops at a character that also stops every later
        # try on this line before it (nested list markers), so each line is scanned once.
        no_break_before = 0
        # A line whose rest can start no block skips the search (exact, as above).
        rest_is_plain = not cur.partial and _PLAIN_LINE.match(text, cur.offset, ce) is not None
        while not rest_is_plain:
            if opened:
                tip_is_para = cont_is_para = False
                fns, fnc = _first_nonspace(text, cur, ce)
                indent = fnc - cur.column
                blank = fns >= ce
            ch = "" if blank else text[fns]
            if indent >= 4:
                if not tip_is_para and not blank:
                    self._start_block(opened, matched, ls)
                    opened = True
                    self._open_leaf(_Leaf("indented", fns, end=ce))
                    return le
                break
            if ch == ">":
                self._start_block(opened, matched, ls)
                opened = True
                self._push(_Container("quote"))
                matched = len(self.containers)
                _advance(text, cur, fns + 1 - cur.offset, False, ce)
                if cur.offset < ce and text[cur.offset] in " \t":
                    _advance(text, cur, 1, True, ce)
                continue
            if ch == "#" and ATX_HEADING.match(text, fns, ce):
                self._start_block(opened, matched, ls)
                self._open_leaf(_Leaf("heading", fns, end=ce, inline_pos=fns))
                nxt = self._inline_text(fns, ce, le)
                self._close_leaf(self.leaf.end if self.leaf else ce)
                return nxt
            if ch in ("`", "~"):
                m = FENCE_OPEN.match(text, fns, ce)
                if m is not None:
                    self._start_block(opened, matched, ls)
                    self._open_fence(m, ls, fns, ce, le)
                    return le
            if ch == "<":
                kind = self._html_start(fns, ce, cont_is_para or (tip_is_para and not all_matched))
                if kind:
                    self._start_block(opened, matched, ls)
                    self._open_leaf(_Leaf("html", fns, end=ce, html_type=kind, inline_pos=fns))
                    return self._html_text(fns, ce, le)
            if cont_is_para and not opened and SETEXT_UNDERLINE.match(text, fns, ce):
                self._close_leaf(ce)  # the paragraph becomes a setext heading
                return le
            if ch and ch in "*-_" and fns >= no_break_before:
                no_break_before = _break_stop(text, fns, ce)
                self.scanned += no_break_before - fns
                if no_break_before == ce and text.count(ch, fns, ce) >= 3:
                    self._start_block(opened, matched, ls)
                    self._close_leaf(ls)
                    return le
            item = (
                self._list_marker(cur, fns, ce, cont_is_para and not opened)
                if ch and ch in "*+-0123456789"
                else None
            )
            if item is not None:
                self._start_block(opened, matched, ls)
                opened = True
                self._push(item)
                matched = len(self.containers)
                continue
            break

        if not opened and not all_matched and tip_is_para and not blank:
            return self._inline_text(fns, ce, le, indent, matched)  # lazy continuation line
        if not opened:
            self._close_containers(matched, ls)
        if blank:
            if self.leaf is not None and self.leaf.kind == "paragraph":
                self._close_leaf(ls)
            return le
        if self.leaf is not None and self.leaf.kind == "paragraph":
            return self._inline_text(fns, ce, le, indent, len(self.containers))
        self._close_leaf(ls)
        self._mark_child()
        self.leaf = _Leaf("paragraph", fns, end=ce, inline_pos=fns)
        return self._inline_text(fns, ce, le, indent, len(self.containers))

    # ---- block bookkeeping -------------------------------------------------------
    def _start_block(self, opened: bool, matched: int, ls: int) -> None:
        if not opened:
            self._close_leaf(ls)
            self._close_containers(matched, ls)

    def _push(self, c: _Container) -> None:
        self._mark_child()
        self.containers.append(c)

    def _mark_child(self) -> None:
        if self.containers:
            self.containers[-1].has_child = True

    def _open_leaf(self, leaf: _Leaf) -> None:
        self._close_leaf(leaf.start)
        self._mark_child()
        self.leaf = leaf

    def _close_containers(self, keep: int, at: int = 0) -> None:
        if len(self.containers) > keep:
            self._close_leaf(at)
            del self.containers[keep:]

    def _close_leaf(self, at: int) -> None:
        leaf = self.leaf
        if leaf is None:
            return
        self.leaf = None
        if self.dry:
            return
        if leaf.kind in ("paragraph", "heading"):
            if not self.full and not self.seen_visible:
                # The preface only needs the first visible character: when it opens
                # no inline construct, nothing before it is inert and no scan is due.
                first = first_visible(self.text, leaf.inline_pos, leaf.end)
                if first >= 0 and self.text[first] not in "`<\\":
                    self.seen_visible = True
                    return
            if self.full or not self.seen_visible:
                self._flush_inline(leaf, leaf.end, leaf.end)
        elif leaf.kind == "fenced":
            if leaf.candidate:
                self._emit("FENCE_PAYLOAD", leaf.opener_end, self.n)
            else:
                self._emit("FENCED_CODE", leaf.start, leaf.end)
        elif leaf.kind == "indented":
            self._emit("INDENTED_CODE", leaf.start, leaf.end)
        elif leaf.kind == "html" and (self.full or self.protocol):
            self._html_comments(leaf, leaf.end, leaf.end)

    def _list_marker(self, cur: _Cursor, fns: int, ce: int, interrupts: bool) -> _Container | None:
        text = self.text
        m = BULLET_MARKER.match(text, fns, ce) or ORDERED_MARKER.match(text, fns, ce)
        if m is None:
            return None
        rest_blank = first_visible_ws(text, m.end(), ce) >= ce
        if interrupts:
            if rest_blank:
                return None
            if m.re is ORDERED_MARKER and int(m.group(1)) != 1:
                return None
        fnc_indent = _first_nonspace(text, cur, ce)[1] - cur.column
        _advance(text, cur, m.end() - cur.offset, False, ce)
        width = m.end() - fns
        save = (cur.offset, cur.column, cur.partial)
        start_col = cur.column
        while cur.column - start_col <= 5 and cur.offset < ce and text[cur.offset] in " \t":
            _advance(text, cur, 1, True, ce)
        spaces = cur.column - start_col
        if spaces >= 5 or spaces < 1 or cur.offset >= ce:
            padding = width + 1
            cur.offset, cur.column, cur.partial = save
            if spaces > 0:
                _advance(text, cur, 1, True, ce)
        else:
            padding = width + spaces
        return _Container("item", marker_offset=fnc_indent, padding=padding)

    def _html_start(self, fns: int, ce: int, no_type7: bool) -> int:
        for kind, pat in enumerate(HTML_BLOCK_STARTS, start=1):
            if kind == 7 and (no_type7 or self._candidate_at(fns)):
                return 0  # a candidate opener reads as one character, not a tag (§3b)
            if pat.match(self.text, fns, ce):
                return kind
        return 0

    # ---- fenced code ------------------------------------------------------------
    def _open_fence(self, m: re.Match[str], ls: int, fns: int, ce: int, le: int) -> None:
        fence = m.group(1) or m.group(3)
        info = m.group(2) if m.group(1) else m.group(4)
        top = not self.containers
        leaf = _Leaf("fenced", fns, end=le, fence_char=fence[0], fence_len=len(fence))
        leaf.opener_end = le
        if top and self.protocol and not self.dry:
            # A leading BOM is kept in the opener token but is not part of the line (§1).
            first = ls + 1 if ls == 0 and self.text.startswith("\ufeff") else ls
            opener = self.lx.fence_opener.fullmatch(self.text, first, ce)
            leaf.candidate = (
                opener is not None
                and self.lx.fenced_name.fullmatch(trim_blank(opener.group("info"))) is not None
            )
        self._open_leaf(leaf)
        if self.dry:
            return
        if leaf.candidate:
            self._emit("FENCE_OPENER", ls, le)
        else:
            self._fence_near_miss(fence, info, fns, ce, in_container=not top)

    def _fence_near_miss(
        self, fence: str, info: str, start: int, end: int, *, in_container: bool, prefix: str = ""
    ) -> None:
        """§8 near-misses of a fence line whose first info word is a family name;
        ``prefix``: the blank characters before the fence that CommonMark does not read
        as indentation (they make the line paragraph text)."""
        for f in fence_near_misses(
            fence, info, start, end, in_container=in_container, prefix=prefix, shared=self.messages
        ):
            self._warn(f)

    def _close_fence(self, ls: int, fns: int, ce: int, le: int) -> None:
        leaf = self.leaf
        assert leaf is not None
        self.leaf = None
        if self.dry:
            return
        if leaf.candidate and self.lx.fence_closer.fullmatch(self.text, ls, ce):
            self._emit("FENCE_PAYLOAD", leaf.opener_end, ls)
            self._emit("FENCE_CLOSER", ls, le)
        else:
            self._emit("FENCED_CODE", leaf.start, ce)

    # ---- HTML blocks ------------------------------------------------------------
    def _html_text(self, start: int, ce: int, le: int) -> int:
        leaf = self.leaf
        assert leaf is not None
        leaf.end = ce
        if not self.dry:
            leaf.line_firsts.append(first_visible_ws(self.text, start, ce))
        nxt, pieces = self._scan_tags(start, ce, le)
        if leaf is self.leaf and leaf.html_type <= 5:
            end_pat = HTML_BLOCK_ENDS[leaf.html_type - 1]
            assert end_pat is not None
            if any(end_pat.search(self.text, a, b) for a, b in pieces):
                self._close_leaf(leaf.end)
        return nxt

    def _html_comments(self, leaf: _Leaf, stop: int, limit: int) -> InlineScan:
        """Comments in an HTML block's text from ``leaf.inline_pos`` up to ``stop``."""
        text = self.text
        i = leaf.inline_pos
        self.scanned += max(0, stop - i)
        regions: list[tuple[str, int, int]] = []
        while True:
            q = text.find("<!--", i, stop)
            if q < 0:
                leaf.inline_pos = max(i, stop)
                return InlineScan(tuple(regions), None, leaf.inline_pos)
            end = comment_end(text, q, limit, self.idx)
            halting = False
            if end < 0:
                # It starts a line when it is the first non-blank character of a line's
                # content, after the container markers and indentation.
                at = bisect.bisect_left(leaf.line_firsts, q)
                if at < len(leaf.line_firsts) and leaf.line_firsts[at] == q:
                    # An unclosed comment that starts a line runs to the end (§3b): of
                    # the message where protocol blocks are read (a rendered page hides
                    # everything after it), of its HTML block in plain CommonMark.
                    end = self.n if self.protocol else limit
                    halting = self.protocol
            if end < 0:
                i = q + 4
                continue
            region = ("HTML_COMMENT", q, end)
            regions.append(region)
            self._emit(*region)
            # Nothing after it is read: no token, no near-miss, also on this line.
            self.halted = self.halted or halting
            leaf.inline_pos = leaf.inert_end = end
            if end > stop:
                return InlineScan(tuple(regions), region, end)
            i = end

    # ---- paragraph and heading text --------------------------------------------------
    def _inline_text(self, start: int, ce: int, le: int, indent: int = 0, depth: int = 0) -> int:
        """Read paragraph or heading text ``text[start:ce]``; ``start`` is the line's
        first character after ``indent`` columns of spaces and tabs, inside ``depth``
        open containers (both only used for paragraph line starts)."""
        leaf = self.leaf
        assert leaf is not None
        leaf.end = ce
        if self.protocol and not self.dry:
            self._paragraph_fence_near_miss(start, ce, le, indent, depth)
        return self._scan_tags(start, ce, le)[0]

    def _paragraph_fence_near_miss(
        self, start: int, ce: int, le: int, indent: int, depth: int
    ) -> None:
        """§8 near-misses of a paragraph line that would open a fence with a family
        name but for two backticks (``near_miss.short_fence``) or for blank characters
        that CommonMark does not read as indentation (``near_miss.fence_indent``)."""
        text = self.text
        pos = start
        blanks = _INDENT_BLIND.match(text, start, ce)
        if blanks is not None:
            # Spaces among them would still indent the fence once the others are gone.
            if indent + blanks.group().count(" ") > 3:
                return
            pos = blanks.end()
        if pos >= ce or text[pos] not in "`~":
            return
        m = FENCE_OPEN.match(text, pos, ce)
        if m is not None:
            fence = m.group(1) or m.group(3)
            info = m.group(2) if m.group(1) else m.group(4)
        elif _SHORT_FENCE.match(text, pos):
            fence, info = "``", text[pos + 2 : ce]
        else:
            return
        if pos == start and fence != "``":
            return  # a real fence opener: not paragraph text
        words = trim_blank(info).split()
        if words and is_family_word(words[0]) and not self._inert_at(start, ce, le):
            prefix = text[start:pos]
            # Two backticks open no fence, so no fence stands in the container either.
            in_container = depth > 0 and fence != "``"
            self._fence_near_miss(fence, info, start, ce, in_container=in_container, prefix=prefix)

    def _flush_inline(self, leaf: _Leaf, stop: int, limit: int) -> InlineScan:
        scan = scan_inline(self.text, leaf.inline_pos, stop, limit, self.idx)
        self.scanned += max(0, scan.resume - leaf.inline_pos)
        for region in scan.regions:
            self._emit(*region)
            leaf.inert_end = region[2]
        leaf.inline_pos = scan.resume
        return scan

    def _raw_end(self, leaf: _Leaf, from_line: int) -> int:
        """Where ``leaf``'s content ends in the raw reading, reading ahead from the line
        at ``from_line`` (the block goes on at least to the line before it)."""
        if leaf.raw_next >= from_line:
            return leaf.raw_end
        dry = Lexer.__new__(Lexer)
        dry.__dict__.update(self.__dict__)
        dry.dry = True
        dry.containers = [attrs.evolve(c) for c in self.containers]
        dry.leaf = probe = attrs.evolve(leaf)
        pos = from_line
        leaf.raw_next, leaf.raw_closed_on_line = self.n, False
        while pos < self.n:
            nxt = dry._line(pos)
            if dry.leaf is not probe:
                # An HTML block of types 1-5 ends with the line holding its end
                # condition; any other block ends before the line that left it.
                leaf.raw_closed_on_line = probe.end >= pos
                leaf.raw_next = nxt if leaf.raw_closed_on_line else pos
                break
            pos = nxt
        self.scanned = dry.scanned  # the read-ahead is work too
        leaf.raw_end = probe.end
        return probe.end

    def _ends_within(self, kind: int, start: int, end: int) -> bool:
        """Whether the end condition of an HTML block of type ``kind`` (1-5) lies
        wholly in ``text[start:end]`` (found through a per-message index)."""
        marks = self.end_marks.get(kind)
        if marks is None:
            pattern = HTML_BLOCK_ENDS[kind - 1]
            assert pattern is not None
            found = list(pattern.finditer(self.text))
            self.scanned += self.n
            marks = self.end_marks[kind] = ([m.start() for m in found], [m.end() for m in found])
        i = bisect.bisect_left(marks[0], start)
        return i < len(marks[0]) and marks[1][i] <= end

    def _inert_at(self, p: int, ce: int, le: int, line_ends_block: bool = False) -> bool:
        """Whether offset ``p`` of the current leaf's text lies in a code span or an
        HTML comment opened before it (raw reading after ``p``, §3b). ``ce``/``le``
        bound the physical line holding ``p`` (passed in: finding them again for every
        tag of a long line would be quadratic); ``line_ends_block``: an HTML block's
        end condition stands on this line (earlier candidates in place, the rest raw),
        so the block ends with it."""
        leaf = self.leaf
        if leaf is None or leaf.kind in ("fenced", "indented"):
            return True
        if p < leaf.inline_pos:
            return p < leaf.inert_end
        limit = ce if line_ends_block else max(self._raw_end(leaf, le), ce)
        if leaf.kind == "html":
            return self._html_comments(leaf, p, limit).covering is not None
        return self._flush_inline(leaf, p, limit).covering is not None

    def _candidate_at(self, p: int) -> bool:
        """Whether an exact opening tag with a closer starts at ``p`` (block starts)."""
        if self.dry or not self.protocol:
            return False
        i = bisect.bisect_left(self.tag_starts, p)
        if i >= len(self.tag_starts) or self.tag_starts[i] != p:
            return False
        return self._closer(self.tag_matches[i])[0] >= 0 and self._opens(self.tag_matches[i])

    def _opens(self, m: re.Match[str]) -> bool:
        """Whether ``m`` is an opening tag (§3a; relaxed by the §9 switches)."""
        if self.lx.open_tag.fullmatch(self.text, m.start(), m.end()):
            return True
        name, rest = m.group(1), m.group(2)
        return (name == name.lower() or self.compat.case_insensitive) and (
            rest == ">" or (self.compat.tag_attributes and rest[:1] in " \t\r\n")
        )

    def _closer(self, m: re.Match[str]) -> tuple[int, int]:
        """Start and end of the first closing tag named like ``m``'s after it, or -1s."""
        name = m.group(1)
        found = self.closers.get(name.lower() if self.compat.case_insensitive else name)
        if not found:
            return -1, -1
        i = bisect.bisect_left(found[0], m.end())
        return (found[0][i], found[1][i]) if i < len(found[0]) else (-1, -1)

    def _scan_tags(self, start: int, ce: int, le: int) -> tuple[int, list[tuple[int, int]]]:
        """Find tag candidates and tag near-misses in ``text[start:ce]`` of the current
        leaf. A candidate reads as one character, so the line goes on after its closer
        (§3b). Returns where the next physical line starts and the pieces of this
        logical line that lie outside candidates."""
        pieces: list[tuple[int, int]] = []
        if self.dry or not self.protocol:
            return le, [(start, ce)]
        piece_start = start
        leaf = self.leaf
        # An HTML block of types 1-5 ends with this line when its end condition stands
        # in a piece outside the candidates before the tag or in the raw rest.
        end_kind = leaf.html_type if leaf is not None and leaf.kind == "html" else 0
        ended_before = False
        i = bisect.bisect_left(self.tag_starts, start)
        while i < len(self.tag_starts) and self.tag_starts[i] < ce:
            m = self.tag_matches[i]
            i += 1
            p = m.start()
            if m.group(2) == "" or self.leaf is None:
                continue
            ends = 0 < end_kind <= 5 and (
                ended_before or self._ends_within(end_kind, piece_start, ce)
            )
            if self._inert_at(p, ce, le, ends):
                continue
            closer, close_end = self._closer(m)
            if closer >= 0 and self._opens(m):
                self._emit("OPEN_TAG", p, m.end())
                self._emit("TAG_PAYLOAD", m.end(), closer)
                self._emit("CLOSE_TAG", closer, close_end)
                pieces.append((piece_start, p))
                if 0 < end_kind <= 5 and not ended_before:
                    ended_before = self._ends_within(end_kind, piece_start, p)
                piece_start = close_end
                leaf = self.leaf
                assert leaf is not None
                leaf.inline_pos = close_end
                if close_end > ce:  # the block spans lines: go on from the closer's line
                    ce, le = self._line_bounds(close_end)
                leaf.end = ce
                # The cached raw reading holds while it took the block past this line
                # (an end condition it saw here may lie inside the candidate).
                if leaf.raw_next < le or (leaf.raw_next == le and leaf.raw_closed_on_line):
                    leaf.raw_next = -1
                i = bisect.bisect_left(self.tag_starts, close_end)
                continue
            self._tag_near_miss(m, closer)
        pieces.append((piece_start, ce))
        return le, pieces

    def _tag_near_miss(self, m: re.Match[str], closer: int) -> None:
        found = tag_near_misses(
            m.group(1), m.group(2), closer >= 0, m.start(), m.end(), shared=self.messages
        )
        for f in found:
            self._warn(f)


def first_visible_ws(text: str, start: int, end: int) -> int:
    """Index of the first character in ``text[start:end]`` that is not a space or tab
    (CommonMark whitespace for blank-line tests), or ``end``."""
    i = start
    while i < end and text[i] in " \t":
        i += 1
    return i
