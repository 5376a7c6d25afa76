"""Block starts (CommonMark 0.31.2, 4-5): a table of rules tried in CommonMark's order.

Each rule has one signature, ``(scanner, line) -> int``: it looks at the line from its
first non-space character (``line.first``) and returns :data:`NOT_STARTED`,
:data:`CONTAINER` (a block quote or list item opened: the rest of the line may start
more blocks) or, when a leaf block took the line, where the next line starts. Which
rules may start while a paragraph is open (may "interrupt" it) is data of the table,
answered by :func:`can_interrupt_paragraph`. The shapes are grammar terminals
(``ATX_MARKER``, ``CODE_FENCE_OPEN``, ``HTML_START_1`` ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Literal

import attrs

from replykit.questionnaire.scan import leaves
from replykit.questionnaire.scan.near_miss import fence_near_misses
from replykit.questionnaire.scan.state import Container, Leaf, Line, skip_spaces

if TYPE_CHECKING:
    from replykit.questionnaire.scan.scanner import Scanner

NOT_STARTED: Final = -1
CONTAINER: Final = -2

# Which rules may start a block while the line could continue an open paragraph:
# "yes"; "no"; "restricted" (the rule applies CommonMark's restriction itself: an HTML
# block of type 7 cannot, nor an empty list item or one numbered other than 1);
# "only" (it applies to an open paragraph and nothing else: a setext underline).
Interrupts = Literal["yes", "no", "restricted", "only"]


@attrs.frozen
class BlockStart:
    """One rule of the table: its name, the rule, the first characters that may start
    it (``""``: 4+ columns of indentation) and whether it may interrupt a paragraph."""

    name: str
    rule: Callable[[Scanner, Line], int]
    triggers: str
    interrupts: Interrupts


def indented_code(sc: Scanner, line: Line) -> int:
    """Indented code (4.4): a non-blank line indented 4+ columns."""
    if line.blank:
        return NOT_STARTED
    sc.start_block(line)
    sc.open_leaf(Leaf("indented", line.first, end=line.content_end))
    sc.out.token("INDENTED_LINE", line.first, line.content_end)
    return line.end


def block_quote(sc: Scanner, line: Line) -> int:
    """A block quote (5.1): ``>`` and one optional space or tab column."""
    sc.start_block(line)
    sc.push(Container("quote"))
    sc.out.token("QUOTE_MARKER", line.first, line.first + 1)
    line.advance_to(line.first + 1)
    if line.offset < line.content_end and line.text[line.offset] in " \t":
        line.advance(1, True)
    return CONTAINER


def atx_heading(sc: Scanner, line: Line) -> int:
    """An ATX heading (4.2): one line of inline text after 1-6 ``#``."""
    m = sc.lx.atx_marker.match(line.text, line.first, line.content_end)
    if m is None:
        return NOT_STARTED
    sc.start_block(line)
    leaf = Leaf("heading", line.first, end=line.content_end, inline_pos=m.end())
    sc.open_leaf(leaf)
    sc.out.token("ATX_MARKER", line.first, m.end())
    nxt = leaves.inline_text(sc, leaf, line.first, line.content_end, line.end)
    sc.close_leaf()
    return nxt


def fenced_code(sc: Scanner, line: Line) -> int:
    """A fenced code block (4.5), which at the top level may be a fenced candidate
    (§3a); a fence with a family name that is not one is a near-miss (§8)."""
    text, first, ce, le = line.text, line.first, line.content_end, line.end
    m = sc.lx.code_fence_open.fullmatch(text, first, ce)
    if m is None:
        return NOT_STARTED
    sc.start_block(line)
    fence = m.group("backticks") or m.group("tildes")
    info = m.group("binfo") if m.group("backticks") else m.group("tinfo")
    candidate = sc.is_fenced_candidate(line.start, ce)
    leaf = Leaf("fenced", first, end=le, fence_char=fence[0], fence_len=len(fence))
    leaf.candidate, leaf.opener_end = candidate, le
    sc.open_leaf(leaf)
    if candidate:
        sc.out.candidate("FENCE_OPENER", line.start, le)
    else:
        sc.out.token("CODE_FENCE_OPEN", first, le)
        if sc.protocol and not sc.silent:
            found = fence_near_misses(
                fence,
                info,
                first,
                ce,
                sc.lx,
                in_container=not sc.at_top_level(),
                shared=sc.messages,
            )
            sc.out.warn(found)
    return le


def html_block(sc: Scanner, line: Line) -> int:
    """An HTML block (4.6): the first start condition of 1-7 that matches."""
    kind = _html_start(sc, line)
    if not kind:
        return NOT_STARTED
    sc.start_block(line)
    leaf = Leaf("html", line.first, end=line.content_end, html_type=kind, inline_pos=line.first)
    sc.open_leaf(leaf)
    sc.out.mark("_HTML_OPEN")
    return leaves.html_text(sc, leaf, line.first, line.content_end, line.end)


def _html_start(sc: Scanner, line: Line) -> int:
    """The start condition (1-7) the line meets, or 0. Type 7 cannot interrupt a
    paragraph (nor a lazy one), and an XML+JSON candidate reads as one character, not
    as a tag (§3b)."""
    for kind, pattern in enumerate(sc.lx.html_starts, start=1):
        if kind == 7 and (line.in_paragraph or leaves.candidate_at(sc, line.first)):
            return 0
        if pattern.match(line.text, line.first, line.content_end):
            return kind
    return 0


def setext_underline(sc: Scanner, line: Line) -> int:
    """A setext heading underline (4.3): the open paragraph becomes a heading, unless
    all it holds so far is link reference definitions: then no heading starts (4.7,
    example 218), and the line is paragraph text or whatever else it starts."""
    if not sc.lx.setext_underline.fullmatch(line.text, line.first, line.content_end):
        return NOT_STARTED
    if leaves.definitions_only(sc):
        return NOT_STARTED
    sc.out.token("SETEXT_UNDERLINE", line.first, line.content_end)
    sc.close_leaf()
    return line.end


def thematic_break(sc: Scanner, line: Line) -> int:
    """A thematic break (4.1): 3+ of one of ``*-_``, with spaces or tabs only. A failed
    scan stops at a character that also stops every later try on the line before it
    (nested list markers), so each line is scanned once."""
    text, first, ce = line.text, line.first, line.content_end
    if first < line.break_stop:
        return NOT_STARTED
    ch, stop = text[first], first
    while stop < ce and text[stop] in (ch, " ", "\t"):
        stop += 1
    sc.scanned += stop - first
    line.break_stop = stop
    if stop < ce or text.count(ch, first, ce) < 3:
        return NOT_STARTED
    sc.start_block(line)
    sc.close_leaf()
    sc.mark_child()  # a block of its container (an item holding it goes on past a blank)
    sc.out.token("THEMATIC_BREAK", first, ce)
    return line.end


def list_item(sc: Scanner, line: Line) -> int:
    """A list item (5.2): a bullet or an ordered marker and its padding."""
    m = sc.lx.list_marker.match(line.text, line.first, line.content_end)
    if m is None:
        return NOT_STARTED
    if line.continues_paragraph:
        # Interrupting a paragraph: not empty, and numbered 1 when ordered.
        if skip_spaces(line.text, m.end(), line.content_end) >= line.content_end:
            return NOT_STARTED
        number = m.group("number")
        if number is not None and int(number) != 1:
            return NOT_STARTED
    sc.start_block(line)
    sc.push(Container("item", marker_offset=line.indent, padding=_padding(line, m.end())))
    sc.out.token("LIST_MARKER", m.start(), m.end())
    return CONTAINER


def _padding(line: Line, marker_end: int) -> int:
    """Move the cursor past a list marker ending at ``marker_end`` and the spaces after
    it that belong to the item; return the marker's width plus those spaces."""
    width = marker_end - line.first
    line.advance_to(marker_end)
    save = (line.offset, line.column, line.partial)
    start_col = line.column
    while (
        line.column - start_col <= 5
        and line.offset < line.content_end
        and line.text[line.offset] in " \t"
    ):
        line.advance(1, True)
    spaces = line.column - start_col
    if 1 <= spaces < 5 and line.offset < line.content_end:
        return width + spaces
    # No content, or indented code after the marker: one space belongs to the item.
    line.offset, line.column, line.partial = save
    if spaces > 0:
        line.advance(1, True)
    return width + 1


BLOCK_STARTS: tuple[BlockStart, ...] = (
    BlockStart("indented_code", indented_code, "", "no"),
    BlockStart("block_quote", block_quote, ">", "yes"),
    BlockStart("atx_heading", atx_heading, "#", "yes"),
    BlockStart("fenced_code", fenced_code, "`~", "yes"),
    BlockStart("html_block", html_block, "<", "restricted"),
    BlockStart("setext_underline", setext_underline, "=-", "only"),
    BlockStart("thematic_break", thematic_break, "*-_", "yes"),
    BlockStart("list_item", list_item, "*+-0123456789", "restricted"),
)

_INDENTED = tuple(r for r in BLOCK_STARTS if not r.triggers)
# The first characters of every rule but indented code.
TRIGGERS = "".join(r.triggers for r in BLOCK_STARTS)
_BY_CHAR: dict[str, tuple[BlockStart, ...]] = {
    ch: tuple(r for r in BLOCK_STARTS if ch in r.triggers) for ch in TRIGGERS
}
# A line whose first character (after at most 3 spaces) is no rule's trigger, nor a
# tab or the line's end, starts no block: the fast mode's shortcut, exact.
PLAIN_LINE = re.compile(f"[ ]{{0,3}}[^ \t\r\n{re.escape(TRIGGERS)}]")


def can_interrupt_paragraph(rule: BlockStart, line: Line) -> bool:
    """Question ``can_interrupt_paragraph``: whether ``rule`` may start a block on
    ``line`` given the paragraph the line could continue (the table's data)."""
    if rule.interrupts == "no":
        return not line.in_paragraph
    if rule.interrupts == "only":
        return line.continues_paragraph
    return True


def open_blocks(sc: Scanner, line: Line) -> int:
    """Step 3: try the block starts in order, again after each container that opens;
    where the next line starts when a leaf block took the line, else -1."""
    # Fast-mode shortcut, exact: a rest that starts with no block's character.
    plain = not sc.checked and not line.partial
    if plain and PLAIN_LINE.match(line.text, line.offset, line.content_end):
        return -1
    while True:
        rules = _INDENTED if line.indent >= 4 else _BY_CHAR.get(line.char, ())
        for rule in rules:
            if rule.interrupts != "yes" and not can_interrupt_paragraph(rule, line):
                continue
            nxt = rule.rule(sc, line)
            if nxt == CONTAINER:
                line.opened = True
                line.in_paragraph = line.continues_paragraph = False
                line.matched = len(sc.state.containers)
                line.find_first()
                break
            if nxt != NOT_STARTED:
                return nxt
        else:
            return -1
