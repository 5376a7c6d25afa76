"""The fast mode's runs: many lines read in one step (docs/architecture.md).

Reading the lines of a run one by one (:meth:`Scanner.line`) decides nothing more than
the run does, so :meth:`Scanner.run` reads them at once where no block quote is open
(a run inside list items only where said; a run may open a block quote):

- the inside of a top-level fenced block up to the next line that may close it (its
  fence's characters within 3 spaces of the line start, found with ``str.find``):
  the lines before it only extend the block (§3a, §3b);
- once a visible character has been seen and inert regions are folded into ``PROSE``
  (the fast mode's sink, not ``full``), the lines up to the one holding the next
  family word (in any case: a line without one holds no candidate and no near-miss,
  §3a, §8) that are blank lines, plain paragraph lines (a table's pipe lines among
  them), ATX headings, whole fenced code blocks, the lines of lists (no block quote)
  whose items hold plain paragraphs, at any depth, also from inside the open items,
  and block quotes holding plain paragraphs (lazy lines too): nothing in them is
  emitted. A plain line starts with a character that starts no block (see
  ``_FIRST``), so it continues or opens a paragraph. The run leaves open the
  paragraph, the list items and the block quote the lines would have left open.

Each run counts its characters as scanned, as the lines would. The runs are proven
equal to line-by-line reading (``Scanner(..., line_runs=False)``) by property tests.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import attrs

from replykit.questionnaire.scan.blockstarts import TRIGGERS
from replykit.questionnaire.scan.state import Container, Leaf
from replykit.text import LINE_END_RE

if TYPE_CHECKING:
    from replykit.questionnaire.scan.scanner import Scanner

# What starts a plain line in a run: a character that starts no block (the block-start
# table's triggers), or a run of one trigger that none of its rules accepts (fewer
# than three backticks or tildes, no list marker, thematic break, setext underline or
# ATX marker: the character after the run is neither a space nor the run's own). No
# family word stands on a run's lines, so no fence near-miss either (§8).
_FIRST = (
    rf"(?:[^ \t\r\n{re.escape(TRIGGERS)}]"
    r"|`{1,2}(?=[^`\r\n])|~{1,2}(?=[^~\r\n])"
    r"|\*+(?=[^*\s])|_+(?=[^_\s])|=+(?=[^=\s])|\++(?=[^+\s])|-+(?=[^-\s])|#+(?=[^#\s])"
    r"|[0-9]+(?=[^0-9.)\r\n]))"
)
# At the top level a closing fence is a line of 0-3 spaces, a fence, spaces or tabs.
FENCE_CLOSER_LINE = re.compile(r"[ ]{0,3}(`{3,}|~{3,})[ \t]*$")
_INDENT = re.compile(r"[ ]{0,3}")


@attrs.frozen
class LinePatterns:
    """The patterns of a run's lines, for texts whose lines end as ``eol`` says and
    whose line content is ``rest``.

    ``prose``: paragraphs separated by blank lines and ATX headings (lines that end a
    paragraph and leave no block open; grammar ``ATX_MARKER``: 1-6 ``#``, then a space,
    a tab or the line's end), then such lines; group ``first`` is the first character
    of the last paragraph (a repeated group keeps its last match), ``tail`` the lines
    after it. ``item_lines``: a plain line, or a list item (bullet or ordered marker,
    1-4 spaces; spaces only, so columns are characters) whose content starts with a
    plain character, then the lines that go on with the paragraph it leaves open
    (lazily or not, at any indentation: indented code cannot interrupt a paragraph).
    ``items``: inside a list item that holds a block, blank lines, then items whose
    marker stands at column 0 (so before the content of the item open before them),
    each with its paragraph's lines and the blank lines after it (group ``blanks``).
    ``blank``: a blank line. ``quote_line``: a block quote line (``>`` within 3
    spaces, group ``mark``) holding a plain line (its content within 3 columns, group
    ``first``, spaces only) or nothing but spaces and tabs; ``lazy``: a plain line at
    any indentation (spaces), a lazy continuation line while a paragraph is open. No
    two kinds of line match one line, so nothing backtracks.
    """

    prose: re.Pattern[str]
    item_lines: re.Pattern[str]
    items: re.Pattern[str]
    blank: re.Pattern[str]
    quote_line: re.Pattern[str]
    lazy: re.Pattern[str]

    @classmethod
    def build(cls, eol: str, rest: str) -> LinePatterns:
        """Compile the patterns for line endings ``eol`` and line content ``rest``."""
        blank = rf"[ \t]*+{eol}"
        plain = rf"[ ]{{0,3}}+{_FIRST}{rest}{eol}"
        brk = rf"(?:[ \t]*+|[ ]{{0,3}}+#{{1,6}}(?:[ \t]{rest})?){eol}"
        lines = rf"(?P<first>{_FIRST}){rest}{eol}(?:[ ]*+{_FIRST}{rest}{eol})*"
        marker = r"(?P<marker>[-*+]|(?P<number>[0-9]{1,9})[.)])(?P<pad>[ ]{1,4}+)"
        return cls(
            prose=re.compile(
                rf"(?:(?:{brk})*[ ]{{0,3}}+(?P<first>{_FIRST}){rest}{eol}(?:{plain})*)*"
                rf"(?P<tail>(?:{brk})*)"
            ),
            item_lines=re.compile(rf"(?P<indent>[ ]*+)(?:{marker})?{lines}"),
            items=re.compile(rf"(?:{blank})*(?:{marker}{lines}(?P<blanks>(?:{blank})*))*"),
            blank=re.compile(blank),
            # ">", one optional space, then at most 3 columns: 0-4 spaces in all.
            quote_line=re.compile(
                rf"[ ]{{0,3}}+(?P<mark>>)(?:[ ]{{0,4}}+(?P<first>{_FIRST}){rest}|[ \t]*+){eol}"
            ),
            lazy=re.compile(rf"[ ]*+{_FIRST}{rest}{eol}"),
        )


# Any text: lines end with \r\n, \r or \n. A text without \r: lines end with \n, and
# ``.*`` reads a line several times faster than ``[^\r\n]*``. Runs of spaces and line
# contents are possessive (``*+``): what follows them never starts with what they
# take, so giving back a character never helps, and not trying is several times faster.
# A line ending is atomic: "\r\n" is one (§1), and were it also "\r" then "\n" (two
# blank lines), k blank lines of "\r\n" could be split 2**k ways when a match fails.
ANY_EOL = LinePatterns.build(r"(?>\r\n|\r|\n)", r"[^\r\n]*+")
_LF = LinePatterns.build(r"\n", r".*+")


def line_patterns(text: str) -> LinePatterns:
    """The patterns of a run's lines in ``text`` (looks at the text once)."""
    return ANY_EOL if "\r" in text else _LF


def closing_fence(text: str, start: int, ce: int, char: str, length: int) -> int:
    """Where the closing fence starts when the top-level line ``text[start:ce]`` closes
    a fence of ``length`` ``char`` (question ``closes_fence``), else -1."""
    m = FENCE_CLOSER_LINE.match(text, start, ce)
    if m is None or m.group(1)[0] != char or len(m.group(1)) < length:
        return -1
    return m.start(1)


def skip(sc: Scanner, pos: int) -> int:
    """Read the run of lines starting at line start ``pos`` (fast mode); where the
    first line not in it starts (``pos``: no run)."""
    leaf, containers = sc.state.leaf, sc.state.containers
    if containers:
        items = sc.state.held == len(containers)  # all items holding a block
        if items and (leaf is None or leaf.kind == "paragraph") and _quiet(sc):
            return quiet_run(sc, pos)
        return pos
    if leaf is not None and leaf.kind == "fenced":
        end = closer_line(sc.text, pos, sc.n, leaf.fence_char, leaf.fence_len)
        if end > pos:
            leaf.end = end  # the line before ended here, line ending included
            sc.scanned += end - pos
        return end
    if (leaf is None or leaf.kind == "paragraph") and _quiet(sc):
        return quiet_run(sc, pos)
    return pos


def _quiet(sc: Scanner) -> bool:
    """Nothing but candidates and near-misses is emitted any more: a visible character
    was seen and inert regions are folded into ``PROSE``."""
    coarse = sc.coarse
    return coarse is not None and coarse.seen_visible and not coarse.full


def closer_line(text: str, pos: int, stop: int, char: str, length: int) -> int:
    """Start of the first line from line start ``pos`` that may close a fence of
    ``length`` ``char`` (it holds that fence within 3 spaces of its start) and starts
    before ``stop``; else ``stop``."""
    needle = char * length
    i = pos
    while (q := text.find(needle, i, stop)) >= 0:
        j = q
        while j > pos and q - j <= 3 and text[j - 1] == " ":
            j -= 1
        if q - j <= 3 and (j == pos or text[j - 1] in "\r\n"):
            return j
        i = q + length
    return stop


def quiet_run(sc: Scanner, pos: int) -> int:
    """The lines from ``pos`` that emit nothing once a visible character was seen
    (see the module docstring), up to the line holding the next family word."""
    start, stop, text = pos, sc.look.family_word_at_or_after(pos), sc.text
    while True:
        if not sc.state.containers:
            pos = _prose(sc, pos, stop)
        first = _INDENT.match(text, pos, stop).end()  # type: ignore[union-attr]
        if text.startswith(("#", "`", "~"), first):
            nxt = _closed_block(sc, pos, stop)
            if nxt == pos:
                break
            sc.close_leaf()
            sc.state.truncate(0)
        elif text.startswith(">", first):
            nxt = _quote(sc, pos, stop)
            if nxt == pos or sc.state.containers:
                pos = nxt  # the quote goes on: its next line is read alone
                break
        else:
            # Items at column 0 or blank lines may be read at once inside a list.
            at = text[first : first + 1]
            flat = at in " \t\r\n" or (first == pos and at in "-*+0123456789")
            nxt = _items(sc, pos, stop) if flat and sc.state.containers else pos
            if nxt == pos:
                nxt = _list_lines(sc, pos, stop)
            if nxt == pos:
                break
        pos = nxt
    sc.scanned += pos - start
    return pos


def _prose(sc: Scanner, pos: int, stop: int) -> int:
    """Blank, heading and plain lines from ``pos`` (before ``stop``); the paragraph they
    leave open becomes ``sc.state.leaf``."""
    text, leaf = sc.text, sc.state.leaf
    m = sc.line_patterns.prose.match(text, pos, stop)
    if m is None or m.end() == pos:
        return pos
    end, first = m.end(), m.start("first")
    # The run's last paragraph started on its first line: no blank line before it.
    one_paragraph = 0 <= first - pos <= 3 and text.count(" ", pos, first) == first - pos
    if not one_paragraph or m.start("tail") < end:
        sc.close_leaf()
    if m.start("tail") == end:
        ce = end - 2 if text.startswith("\r\n", end - 2) else end - 1
        if leaf is not None and one_paragraph:
            leaf.end = ce
        else:
            sc.state.leaf = Leaf("paragraph", first, end=ce, inline_pos=first)
    return end


def _closed_block(sc: Scanner, pos: int, stop: int) -> int:
    """Where the next line starts when the line at ``pos`` is an ATX heading, or the
    line after the closing fence when it opens a fenced code block closed before
    ``stop`` (at the top level, without the family word: no candidate, no near-miss),
    outside the open list item if any (it ends the list); else ``pos``."""
    text, item = sc.text, sc.state.containers[:1]
    eol = LINE_END_RE.search(text, pos, stop)
    if eol is None:
        return pos
    ce, le = eol.start(), eol.end()
    first = _INDENT.match(text, pos, ce).end()  # type: ignore[union-attr]
    if item and first - pos >= item[0].marker_offset + item[0].padding:
        return pos  # the line goes on in the item
    if sc.lx.atx_marker.match(text, first, ce):
        return le
    opener = sc.lx.code_fence_open.fullmatch(text, first, ce)
    if opener is None:
        return pos
    fence = opener.group("backticks") or opener.group("tildes")
    at = le
    while (at := closer_line(text, at, stop, fence[0], len(fence))) < stop:
        eol = LINE_END_RE.search(text, at, stop)
        if eol is None:
            break
        if closing_fence(text, at, eol.start(), fence[0], len(fence)) >= 0:
            return eol.end()
        at = eol.end()
    sc.scanned += at - pos  # searched in vain: the lines are read again one by one
    return pos


def _list_lines(sc: Scanner, pos: int, stop: int) -> int:
    """The lines from ``pos`` (ending before ``stop``) of a list whose items hold
    blocks (no block quote): blank lines, paragraph lines of an item (also lazy ones),
    items' starts, plain lines that end items (each with the lines that go on with
    its paragraph). Where the first line not read starts (``pos``: none).

    Nothing is emitted before the run ends, so the state is kept in plain values:
    ``keep``, how many items open before the run still are; ``new``, the items opened
    since (marker offset, padding); ``para``, the open paragraph's first character
    (-1: none), ``kept`` when it is the one open before. No line visits more items
    than its indentation holds (:func:`_continued`), however deep the list."""
    st, text, lp = sc.state, sc.text, sc.line_patterns
    containers, start, ce, keep = st.containers, pos, 0, len(st.containers)
    new: list[tuple[int, int]] = []
    para, kept = (-1, False) if st.leaf is None else (st.leaf.start, True)
    while True:
        m = lp.item_lines.match(text, pos, stop)
        if m is None:
            blank = lp.blank.match(text, pos, stop)
            if blank is None or not keep + len(new):
                break
            para, kept = -1, False  # every item goes on (each holds a block)
            pos = blank.end()
            continue
        rest, matched = _continued(sc, containers, keep, new, m.end(1) - pos)
        marker, number, pad = m.group(2, 3, 4)
        if marker is None and para >= 0:
            pass  # the paragraph goes on, lazily or not (indented code cannot interrupt it)
        elif rest > 3 or (marker is None and not keep + len(new)):
            break  # indented code, or a top-level line the prose run did not take
        elif matched == keep + len(new) and para >= 0 and number and int(number) != 1:
            break  # an ordered item interrupts a paragraph only from 1
        if marker is not None or para < 0:
            # The items the line does not continue end.
            if matched < keep:
                keep = matched
            del new[matched - keep :]
            if marker is not None:
                new.append((rest, len(marker) + len(pad)))
            para, kept = m.start(5), False
        pos = m.end()
        ce = pos - 2 if text.startswith("\r\n", pos - 2) else pos - 1
    if pos > start:
        st.truncate(keep)
        for offset, padding in new:
            st.push(Container("item", offset, padding, has_child=True))
        if not kept:
            sc.close_leaf()  # a paragraph emits nothing when it closes here
            if para >= 0:
                st.leaf = Leaf("paragraph", para, end=ce, inline_pos=para)
        elif st.leaf is not None:
            st.leaf.end = ce
    return pos


def _continued(
    sc: Scanner, containers: list[Container], keep: int, new: list[tuple[int, int]], indent: int
) -> tuple[int, int]:
    """The items a list line of ``indent`` leading spaces continues, outermost first
    (``containers[:keep]``, then ``new``): each takes its content's columns. Returns
    the columns left and how many it continues. An item's content stands 2+ columns
    in, so at most ``indent // 2 + 1`` items are visited (counted as scanned)."""
    matched, depth = 0, keep + len(new)
    while matched < depth:
        if matched < keep:
            width = containers[matched].marker_offset + containers[matched].padding
        else:
            width = sum(new[matched - keep])
        if indent < width:
            break
        indent -= width
        matched += 1
    sc.scanned += matched + 1
    return indent, matched


def _items(sc: Scanner, pos: int, stop: int) -> int:
    """Blank lines and items at column 0 from ``pos`` inside the open list item (see
    :class:`LinePatterns`); where the next line starts."""
    m = sc.line_patterns.items.match(sc.text, pos, stop)
    if m is None or m.end() == pos:
        return pos
    st, end = sc.state, m.end()
    sc.close_leaf()
    if m.start("marker") < 0:
        return end  # blank lines: the item goes on, its paragraph ends
    padding = len(m.group("marker")) + len(m.group("pad"))
    st.truncate(0)
    st.push(Container("item", 0, padding, has_child=True))
    if m.start("blanks") == end:
        ce = end - 2 if sc.text.startswith("\r\n", end - 2) else end - 1
        st.leaf = Leaf("paragraph", m.start("first"), end=ce, inline_pos=m.start("first"))
    return end


_QUOTE_MARK = re.compile(r"[ ]{0,3}>")


def _quote(sc: Scanner, pos: int, stop: int) -> int:
    """The lines of a block quote from ``pos`` (before ``stop``) that hold plain
    paragraphs: its lines (see :class:`LinePatterns`), lazy continuation lines while a
    paragraph is open. The line at ``pos`` closes the open list items unless it goes
    on in the first one (then nothing is read). The quote stays open
    (``sc.state.containers``) unless the line after the run closes it: a blank line,
    or with no paragraph open any line without ``>``. Returns where the next line
    starts."""
    text, st, lp = sc.text, sc.state, sc.line_patterns
    m = lp.quote_line.match(text, pos, stop)
    item = st.containers[:1]
    if m is None or (item and m.start("mark") - pos >= item[0].marker_offset + item[0].padding):
        return pos
    sc.close_leaf()  # a block quote interrupts a paragraph and ends the list
    st.truncate(0)
    st.push(Container("quote"))
    while True:
        if m is not None:
            first = m.start("first")
            if first < 0:
                sc.close_leaf()  # a blank line in the quote ends its paragraph
            elif st.leaf is None:
                st.leaf = Leaf("paragraph", first, end=0, inline_pos=first)
                st.mark_child()
        elif st.leaf is None or (m := lp.lazy.match(text, pos, stop)) is None:
            break
        pos = m.end()
        if st.leaf is not None:
            st.leaf.end = pos - 2 if text.startswith("\r\n", pos - 2) else pos - 1
        m = lp.quote_line.match(text, pos, stop)
    if lp.blank.match(text, pos, stop) or (st.leaf is None and not _QUOTE_MARK.match(text, pos)):
        sc.close_leaf()
        st.truncate(0)
    return pos
