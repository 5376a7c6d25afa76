"""The fast mode's runs: many top-level lines read in one step (docs/architecture.md).

Reading the lines of a run one by one (:meth:`Scanner.line`) decides nothing more than
the run does, so :meth:`Scanner.run` reads them at once when no block quote or list
item is open:

- the inside of a top-level fenced block up to the next line that may close it (its
  fence's characters within 3 spaces of the line start, found with ``str.find``):
  the lines before it only extend the block (§3a, §3b);
- once a visible character has been seen and inert regions are folded into ``PROSE``
  (the fast mode's sink, not ``full``), the lines up to the one holding the next
  family word (in any case: a line without one holds no candidate and no near-miss,
  §3a, §8) that are blank lines, plain paragraph lines, ATX headings and whole fenced
  code blocks: nothing in them is emitted. A plain line starts with a character that
  starts no block (the block-start table's triggers) and is no blank character (§1),
  so it continues or opens a paragraph. The run leaves open the paragraph the lines
  would have left open.

Each run counts its characters as scanned, as the lines would. The runs are proven
equal to line-by-line reading (``Scanner(..., line_runs=False)``) by property tests.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from replykit.questionnaire.scan.blockstarts import TRIGGERS
from replykit.questionnaire.scan.state import Container, Leaf
from replykit.text import LINE_END_RE

if TYPE_CHECKING:
    from replykit.questionnaire.scan.scanner import Scanner

_EOL = r"(?:\r\n?|\n)"
_BLANK_LINE = rf"[ \t]*{_EOL}"
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
_PLAIN_LINE = rf"[ ]{{0,3}}{_FIRST}[^\r\n]*{_EOL}"
# Paragraphs separated by blank lines, then blank lines; ``first``: the first character
# of the last paragraph (a repeated group keeps its last match), ``tail``: the blank
# lines after it. Blank and plain lines never both match a line, so nothing backtracks.
PROSE_RUN = re.compile(
    rf"(?:(?:{_BLANK_LINE})*[ ]{{0,3}}(?P<first>{_FIRST})[^\r\n]*{_EOL}(?:{_PLAIN_LINE})*)*"
    rf"(?P<tail>(?:{_BLANK_LINE})*)"
)
# At the top level a closing fence is a line of 0-3 spaces, a fence, spaces or tabs.
FENCE_CLOSER_LINE = re.compile(r"[ ]{0,3}(`{3,}|~{3,})[ \t]*$")
_INDENT = re.compile(r"[ ]{0,3}")
_BLANK = re.compile(_BLANK_LINE)
# A plain line, or a list item (bullet or ordered marker, 1-4 spaces) whose content
# starts with a plain character (spaces only, so columns are characters), then the
# lines that go on with the paragraph it leaves open (lazily or not, at any
# indentation: indented code cannot interrupt a paragraph).
_ITEM_LINES = re.compile(
    rf"(?P<indent>[ ]*)(?:(?P<marker>[-*+]|(?P<number>[0-9]{{1,9}})[.)])(?P<pad>[ ]{{1,4}}))?"
    rf"(?P<first>{_FIRST})[^\r\n]*{_EOL}(?:[ ]*{_FIRST}[^\r\n]*{_EOL})*"
)
# Inside a list item that holds a block: blank lines, then items whose marker stands
# at column 0 (so before the content of the item open before it), each with its
# paragraph's lines and the blank lines after it.
_ITEMS = re.compile(
    rf"(?:{_BLANK_LINE})*(?:(?P<marker>[-*+]|[0-9]{{1,9}}[.)])(?P<pad>[ ]{{1,4}})"
    rf"(?P<first>{_FIRST})[^\r\n]*{_EOL}(?:[ ]*{_FIRST}[^\r\n]*{_EOL})*"
    rf"(?P<blanks>(?:{_BLANK_LINE})*))*"
)


def closing_fence(text: str, start: int, ce: int, char: str, length: int) -> int:
    """Where the closing fence starts when the top-level line ``text[start:ce]`` closes
    a fence of ``length`` ``char`` (question ``closes_fence``), else -1."""
    m = FENCE_CLOSER_LINE.match(text, start, ce)
    if m is None or m.group(1)[0] != char or len(m.group(1)) < length:
        return -1
    return m.start(1)


def skip(sc: Scanner, pos: int) -> int:
    """Read the run of lines starting at line start ``pos`` (no container open, fast
    mode); where the first line not in it starts (``pos``: no run)."""
    leaf, containers = sc.state.leaf, sc.state.containers
    if containers:
        simple = len(containers) == 1 and containers[0].kind == "item" and containers[0].has_child
        if simple and (leaf is None or leaf.kind == "paragraph") and _quiet(sc):
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
    start, stop = pos, sc.look.family_word_at_or_after(pos)
    while True:
        if not sc.state.containers:
            pos = _prose(sc, pos, stop)
        nxt = _items(sc, pos, stop) if sc.state.containers else pos
        if nxt == pos:
            nxt = _list_line(sc, pos, stop)
        if nxt == pos:
            nxt = _closed_block(sc, pos, stop)
            if nxt == pos:
                break
            sc.close_leaf()
            sc.state.containers.clear()
        pos = nxt
    sc.scanned += pos - start
    return pos


def _prose(sc: Scanner, pos: int, stop: int) -> int:
    """Blank and plain lines from ``pos`` (before ``stop``); the paragraph they leave
    open becomes ``sc.state.leaf``."""
    text, leaf = sc.text, sc.state.leaf
    m = PROSE_RUN.match(text, pos, stop)
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


def _list_line(sc: Scanner, pos: int, stop: int) -> int:
    """Where the next line starts when the line at ``pos`` (ending before ``stop``) is
    one of a top-level list whose items hold plain paragraphs: a blank line, a
    paragraph line of the item (also a lazy one), an item's start, a plain line that
    ends the list (each with the lines that go on with its paragraph); else ``pos``."""
    st, text = sc.state, sc.text
    containers, leaf = st.containers, st.leaf
    item = containers[0] if containers else None
    m = _ITEM_LINES.match(text, pos, stop)
    if m is None:
        blank = _BLANK.match(text, pos, stop)
        if blank is None or item is None:
            return pos
        sc.close_leaf()  # the item goes on (it holds a block); its paragraph ends
        return blank.end()
    indent, first, end = m.end("indent") - pos, m.start("first"), m.end()
    ce = end - 2 if text.startswith("\r\n", end - 2) else end - 1
    marker, number = m.group("marker"), m.group("number")
    content = item.marker_offset + item.padding if item is not None else 0
    if item is not None and indent >= content:
        if marker is not None or indent - content > 3:
            return pos  # a nested list, or perhaps indented code
    elif indent > 3 or (item is None and marker is None):
        return pos
    elif marker is not None:
        if item is None and leaf is not None and number is not None and int(number) != 1:
            return pos  # an ordered item interrupts a paragraph only from 1
        sc.close_leaf()
        padding = len(marker) + len(m.group("pad"))
        containers[:] = [Container("item", indent, padding, has_child=True)]
    elif leaf is None:
        containers.clear()  # a plain line after a blank one ends the list
    if st.leaf is None:
        st.leaf = Leaf("paragraph", first, end=ce, inline_pos=first)
    st.leaf.end = ce
    return end


def _items(sc: Scanner, pos: int, stop: int) -> int:
    """Blank lines and items at column 0 from ``pos`` inside the open list item (see
    :data:`_ITEMS`); where the next line starts."""
    m = _ITEMS.match(sc.text, pos, stop)
    if m is None or m.end() == pos:
        return pos
    st, end = sc.state, m.end()
    sc.close_leaf()
    if m.start("marker") < 0:
        return end  # blank lines: the item goes on, its paragraph ends
    padding = len(m.group("marker")) + len(m.group("pad"))
    st.containers[:] = [Container("item", 0, padding, has_child=True)]
    if m.start("blanks") == end:
        ce = end - 2 if sc.text.startswith("\r\n", end - 2) else end - 1
        st.leaf = Leaf("paragraph", m.start("first"), end=ce, inline_pos=m.start("first"))
    return end
