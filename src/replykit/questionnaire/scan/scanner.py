"""The scanner: reads a message line by line as CommonMark 0.31.2 does and emits tokens.

It holds what ``grammar/message.lark`` cannot: CommonMark's block state (open block
quotes and list items, the open leaf block; :class:`~replykit.questionnaire.scan.state.ScanState`)
and the answers to the context questions the grammar's comments name. Each line is
read in four steps (:meth:`Scanner.line`): (1) continue the open containers, (2)
continue the open leaf block, (3) try the block starts in CommonMark's order
(:mod:`replykit.questionnaire.scan.blockstarts`), (4) continue or open a paragraph.

Modes (docs/architecture.md):

- fast (default): coarse tokens, exact shortcuts (plain lines, runs of lines read in
  one step by :mod:`replykit.questionnaire.scan.runs`, inline scanning only where it
  can matter, tags found through an index);
- ``full``: the fast reading with every inert region kept (``code_regions()``);
- ``checked``: no shortcut; a fine token for every construct, candidates found by the
  inline scan in order; the tokens parse with the grammar's ``document`` rule;
- silent: a read-ahead on a copy of the state that emits nothing and finds no
  candidate (the raw reading of §3b), made by :meth:`Scanner.read_ahead`.

``protocol=False`` looks for no candidate or near-miss: plain CommonMark.
"""

from __future__ import annotations

import attrs

from replykit.questionnaire.compat import Compat
from replykit.questionnaire.info_string import fence_name
from replykit.questionnaire.scan import blockstarts, leaves, runs
from replykit.questionnaire.scan.emit import Coarse, Fine, Silent, Sink, Token
from replykit.questionnaire.scan.lexemes import Lexemes
from replykit.questionnaire.scan.lookahead import Lookahead
from replykit.questionnaire.scan.near_miss import NearMiss
from replykit.questionnaire.scan.state import Container, Leaf, Line, ScanState, copy_leaf
from replykit.text import LINE_END_RE

# No §9 relaxation (a frozen value, shared).
_STRICT = Compat()


@attrs.frozen
class ScanResult:
    """Tokens covering the message in order, the near-misses found, and ``scanned``: the
    characters the scanner examined (lines, inline scans, read-aheads, index builds), a
    measure of work linear in the message's length."""

    tokens: tuple[Token, ...]
    near_misses: tuple[NearMiss, ...]
    scanned: int = 0


class Scanner:
    """Scan one message; :meth:`run` returns a :class:`ScanResult`.

    ``look``, ``state`` and ``silent`` make a read-ahead (see :meth:`read_ahead`).
    ``state``, ``sink`` and ``run(start)`` resume a reading at a line start: a
    streaming reader scans the text after it with the state it saved there and a
    fast-mode sink that carries the emission position and whether a visible character
    was seen (docs/streaming.md). ``line_runs``: the fast mode's :meth:`run` reads
    runs of top-level lines in one step (:mod:`replykit.questionnaire.scan.runs`);
    ``False`` reads every line alone, with the same result (a test's reference).
    ``lines_alone`` counts the lines :meth:`line` read one by one (a measure of how
    much the runs leave to the general path).
    """

    def __init__(
        self,
        text: str,
        lexemes: Lexemes,
        *,
        full: bool = False,
        protocol: bool = True,
        compat: Compat | None = None,
        checked: bool = False,
        look: Lookahead | None = None,
        state: ScanState | None = None,
        silent: bool = False,
        sink: Coarse | None = None,
        line_runs: bool = True,
    ) -> None:
        self.text = text
        self.n = len(text)
        self.lx = lexemes
        self.compat = compat or _STRICT
        self.look = look or Lookahead(text, lexemes, self.compat)
        self.protocol = protocol
        self.full = full
        self.checked = checked
        self.silent = silent
        self.state = state or ScanState()
        # The fast mode's sink also answers whether inline regions can still matter.
        self.coarse = None if silent or checked else (sink or Coarse(text, full))
        self.out: Sink = self.coarse or (Silent() if silent else Fine())
        self.scanned = 0
        self.copied = self.state.copied  # containers copied before this reading
        self.lines_alone = 0
        # The fast mode reads runs of top-level lines at once (scan/runs.py).
        self.line_runs = line_runs and self.coarse is not None
        self.line_patterns = runs.line_patterns(text) if self.line_runs else runs.ANY_EOL
        # Equal near-miss messages share one string (§1: memory stays near the input's
        # size when a reply is dense with near-misses).
        self.messages: dict[str, str] = {}
        # A silent read-ahead for question definitions_end collects here each paragraph
        # line it reads (first character, content end): leaves.skip_definitions.
        self.paragraph_lines: list[tuple[int, int]] | None = None

    def run(self, start: int = 0) -> ScanResult:
        """Read the message from the line starting at ``start`` (0: the whole message);
        return its tokens and near-misses."""
        pos, st, n, line_runs = start, self.state, self.n, self.line_runs
        while pos < n and not st.halted:
            if line_runs and pos:
                pos = runs.skip(self, pos)
                if pos >= n:
                    break
            pos = self.line(pos)
        return self.end()

    def end(self) -> ScanResult:
        """The message ends here: close the open blocks; return the tokens and
        near-misses emitted so far."""
        self.close_leaf()
        self.close_containers(0)
        self.out.finish(self.n)
        scanned = self.scanned + self.look.scanned + self.state.copied - self.copied
        return ScanResult(tuple(self.out.tokens), tuple(self.out.near_misses), scanned)

    def line_bounds(self, start: int) -> tuple[int, int]:
        """End of the content and end (line ending included) of the line at ``start``."""
        m = LINE_END_RE.search(self.text, start)
        if m is None:
            self.scanned += self.n - start
            return self.n, self.n
        self.scanned += m.end() - start
        return m.start(), m.end()

    # ---- one physical line ---------------------------------------------------------
    def line(self, start: int) -> int:
        """Read the line at ``start``; return where the next line to read starts (past
        the line's end when a candidate on it spans lines)."""
        ce, le = self.line_bounds(start)
        self.lines_alone += 1
        st = self.state
        if not self.checked and not st.containers:
            # The fast mode's shortcuts for a top-level line, each exactly what the
            # general path decides: inside a fence only a closing fence matters; a
            # blank line ends a paragraph; a line whose first character can start no
            # block is paragraph text.
            leaf, text = st.leaf, self.text
            if leaf is not None and leaf.kind == "fenced":
                return self.fence_shortcut(leaf, start, ce, le)
            if leaf is None or leaf.kind == "paragraph":
                if self.lx.blank_line.fullmatch(text, start, ce):
                    self.close_leaf()
                    return le
                # Not before a leading BOM, which the general path skips (§1).
                bom = not start and text.startswith("\ufeff")
                plain = None if bom else blockstarts.PLAIN_LINE.match(text, start, ce)
                if plain is not None:
                    first = plain.end() - 1
                    if leaf is None:
                        leaf = st.leaf = Leaf("paragraph", first, end=ce, inline_pos=first)
                    return leaves.paragraph_text(self, leaf, first, ce, le, first - start, 0)
        line = Line(self.text, start, ce, le)
        self.continue_containers(line)  # (1)
        nxt = self.continue_leaf(line)  # (2)
        if nxt < 0:
            nxt = blockstarts.open_blocks(self, line)  # (3)
        if nxt < 0:
            nxt = self.paragraph_line(line)  # (4)
        self.scanned += line.work  # the containers' work on the line
        return nxt

    def fence_shortcut(self, leaf: Leaf, start: int, ce: int, le: int) -> int:
        """The fast mode inside a top-level fenced block: only a closing fence matters."""
        fence = runs.closing_fence(self.text, start, ce, leaf.fence_char, leaf.fence_len)
        if fence >= 0:
            self.close_fence(leaf, start, fence, ce, le)
        else:
            leaf.end = le
        return le

    def continue_containers(self, line: Line) -> None:
        """Step 1: match the open containers' markers; ``line.matched`` counts them.
        A blank line continues the items that hold a block and stops at the first
        other container (question ``continues``): ``held`` of them, not visited."""
        st = self.state
        if line.blank:
            line.matched = st.held
            if st.held:
                line.advance_to(line.first)
        else:
            for c in st.containers:
                line.work += 1
                if not self.continues(c, line):
                    break
                line.matched += 1
                line.find_first()
        line.in_paragraph = st.leaf is not None and st.leaf.kind == "paragraph"
        line.continues_paragraph = line.in_paragraph and line.matched == len(st.containers)

    def continues(self, c: Container, line: Line) -> bool:
        """Question ``continues``: whether ``line`` continues container ``c`` (a ``>``
        within 3 columns; an item's content indentation, or a blank line once the item
        holds a block); if so the cursor moves past the marker or indentation (the
        caller finds the line's first character again)."""
        if c.kind == "quote":
            if line.indent > 3 or line.char != ">":
                return False
            line.advance_to(line.first + 1)
            if line.offset < line.content_end and self.text[line.offset] in " \t":
                line.advance(1, True)
            return True
        if line.blank:
            # Blank first (as commonmark.js and markdown-it-py; cmark checks the
            # indentation first): an item that began with a blank line ends at the next
            # one, even one of spaces (spec 5.2, "at most one blank line").
            if not c.has_child:
                return False
            line.advance_to(line.first)
            return True
        if line.indent >= c.marker_offset + c.padding:
            line.advance(c.marker_offset + c.padding, True)
            return True
        return False

    def continue_leaf(self, line: Line) -> int:
        """Step 2: give the line to the open leaf when every container goes on and the
        leaf can take it; where the next line starts, or -1."""
        leaf = self.state.leaf
        if leaf is None or line.matched < len(self.state.containers):
            return -1
        if leaf.kind == "fenced":
            if self.closes_fence(leaf, line):
                self.close_fence(leaf, line.start, line.first, line.content_end, line.end)
            else:
                leaf.end = line.end
                if self.checked and not leaf.candidate:  # a payload is one token
                    self.out.token("CODE_LINE", line.offset, line.end)
            return line.end
        if leaf.kind == "indented" and (line.indent >= 4 or line.blank):
            if not line.blank:
                leaf.end = line.content_end
            if self.checked and line.blank:
                self.out.token("BLANK_LINE", line.offset, line.end)
            elif self.checked:
                self.out.token("INDENTED_LINE", line.first, line.content_end)
            return line.end
        if leaf.kind == "html":
            if leaf.html_type >= 6 and line.blank:
                self.close_leaf()
                self.out.token("BLANK_LINE", line.offset, line.end)
                return line.end
            return leaves.html_text(self, leaf, line.offset, line.content_end, line.end)
        return -1

    def paragraph_line(self, line: Line) -> int:
        """Step 4: a lazy continuation line, a blank line, or paragraph text."""
        st = self.state
        if self.lazy_continuation(line):
            assert st.leaf is not None
            return leaves.paragraph_text(
                self, st.leaf, line.first, line.content_end, line.end, line.indent, line.matched
            )
        if not line.opened and line.matched < len(st.containers):
            self.close_containers(line.matched)
        if line.blank:
            if st.leaf is not None and st.leaf.kind == "paragraph":
                self.close_leaf()
            if self.checked:
                self.out.token("BLANK_LINE", line.offset, line.end)
            return line.end
        if st.leaf is None or st.leaf.kind != "paragraph":
            self.close_leaf()
            self.mark_child()
            st.leaf = Leaf("paragraph", line.first, end=line.content_end, inline_pos=line.first)
        depth = len(st.containers)
        return leaves.paragraph_text(
            self, st.leaf, line.first, line.content_end, line.end, line.indent, depth
        )

    # ---- context questions ------------------------------------------------------------
    def at_top_level(self) -> bool:
        """Question ``at_top_level``: no block quote or list item is open (§3c)."""
        return not self.state.containers

    def lazy_continuation(self, line: Line) -> bool:
        """Question ``lazy_continuation``: a line that opens no block and continues not
        every container, while a paragraph is open, continues that paragraph."""
        return line.in_paragraph and not line.continues_paragraph and not line.blank

    def closes_fence(self, leaf: Leaf, line: Line) -> bool:
        """Question ``closes_fence``: the line is 0-3 columns of indentation, then a
        run of the open fence's character at least as long, then spaces or tabs only."""
        if line.indent > 3 or line.char != leaf.fence_char:
            return False
        m = self.lx.code_fence_close.fullmatch(self.text, line.first, line.content_end)
        return m is not None and len(m.group().rstrip(" \t")) >= leaf.fence_len

    def is_fenced_candidate(self, start: int, ce: int) -> bool:
        """Question ``is_fenced_candidate``: the fence opener line ``start:ce`` at the top
        level is a FENCE_OPENER whose info string (decoded as CommonMark does), trimmed
        (§1), is a FAMILY_NAME (in any ASCII case under §9's ``case_insensitive``)."""
        if not self.protocol or self.silent or not self.at_top_level():
            return False
        first = start + 1 if start == 0 and self.text.startswith("\ufeff") else start
        opener = self.lx.fence_opener.fullmatch(self.text, first, ce)
        info = fence_name(opener.group("info")) if opener is not None else ""
        # §9 case_insensitive: the name in any ASCII case, as for tags.
        names = (
            self.lx.family_name_any_case if self.compat.case_insensitive else self.lx.family_name
        )
        return names.fullmatch(info) is not None

    def raw_end(self, leaf: Leaf, from_line: int) -> int:
        """Question ``raw_end``: where ``leaf``'s content ends in the raw reading (the
        rest of the message read with no candidate), reading ahead silently from the
        line at ``from_line`` (the block goes on at least to the line before it)."""
        if leaf.raw_next >= from_line:
            return leaf.raw_end
        ahead = self.read_ahead()
        probe = ahead.state.leaf
        assert probe is not None
        pos = from_line
        leaf.raw_next, leaf.raw_closed_on_line = self.n, False
        while pos < self.n:
            nxt = ahead.line(pos)
            if ahead.state.leaf is not probe:
                # An HTML block of types 1-5 ends with the line holding its end
                # condition; any other block ends before the line that left it.
                leaf.raw_closed_on_line = probe.end >= pos
                leaf.raw_next = nxt if leaf.raw_closed_on_line else pos
                break
            pos = nxt
        self.scanned += ahead.scanned + ahead.state.copied  # the read-ahead is work too
        leaf.raw_end = probe.end
        return probe.end

    def read_ahead(self, leaf: Leaf | None = None) -> Scanner:
        """A silent scanner on a copy of this one's state (the same code, no output,
        no candidates); ``leaf``: a copy of it is the open leaf instead (one being
        closed, its containers still open)."""
        state = self.state.copy(transient=True)
        if leaf is not None:
            state.leaf = copy_leaf(leaf)
        return Scanner(
            self.text, self.lx, protocol=self.protocol, compat=self.compat,
            checked=self.checked, look=self.look, state=state, silent=True,
        )  # fmt: skip

    # ---- block bookkeeping -------------------------------------------------------------
    def start_block(self, line: Line) -> None:
        """Before a block opens on ``line``: close the leaf and the containers the line
        does not continue (once per line)."""
        if not line.opened:
            self.close_leaf()
            self.close_containers(line.matched)

    def push(self, c: Container) -> None:
        """Open container ``c`` inside the innermost one."""
        self.state.push(c)

    def mark_child(self) -> None:
        """The innermost container now holds a block."""
        self.state.mark_child()

    def open_leaf(self, leaf: Leaf) -> None:
        """Make ``leaf`` the open leaf block."""
        self.close_leaf()
        self.mark_child()
        self.state.leaf = leaf

    def close_containers(self, keep: int) -> None:
        """Close all but the outermost ``keep`` containers (and the leaf inside)."""
        containers = self.state.containers
        if len(containers) > keep:
            self.close_leaf()
            if self.checked:
                for _ in range(len(containers) - keep):
                    self.out.mark("_CLOSE")
            self.state.truncate(keep)

    def close_leaf(self) -> None:
        """Close the open leaf block."""
        leaf = self.state.leaf
        if leaf is None:
            return
        self.state.leaf = None
        if self.silent:
            return
        out = self.out
        if leaf.kind == "fenced":
            if leaf.candidate:
                out.candidate("FENCE_PAYLOAD", leaf.opener_end, self.n)
                return
            out.inert("FENCED_CODE", leaf.start, leaf.end)
        elif leaf.kind == "indented":
            out.inert("INDENTED_CODE", leaf.start, leaf.end)
        elif self.coarse is not None:
            coarse = self.coarse
            # After the first visible character only an HTML block's comments matter.
            if coarse.full or not coarse.seen_visible or leaf.kind == "html":
                leaves.finish_text(self, leaf)
            return
        if self.checked:
            out.mark("_END")

    def close_fence(self, leaf: Leaf, start: int, fence: int, ce: int, le: int) -> None:
        """The line ``start:le`` closes the open fenced block; its fence starts at
        ``fence``."""
        self.state.leaf = None
        if self.silent:
            return
        if leaf.candidate and self.lx.fence_closer.fullmatch(self.text, start, ce):
            self.out.candidate("FENCE_PAYLOAD", leaf.opener_end, start)
            self.out.candidate("FENCE_CLOSER", start, le)
            return
        self.out.inert("FENCED_CODE", leaf.start, ce)
        self.out.token("CODE_FENCE_CLOSE", fence, ce)
        self.out.mark("_END")
