"""The scanner's state: CommonMark's open containers and leaf block, and the line read.

:class:`ScanState` is everything the scanner carries from one line to the next; it is
an explicit record so that a read-ahead runs the same code on a copy
(:meth:`ScanState.copy`) and a streaming reader can keep it at a line boundary.
:class:`Line` is one physical line and how far the scanner has read into it.
Offsets are code-point indices into the message (docs/protocol.md §1).
"""

from __future__ import annotations

import operator
from typing import Literal

import attrs

ContainerKind = Literal["quote", "item"]
LeafKind = Literal["paragraph", "heading", "fenced", "indented", "html"]


@attrs.define
class Container:
    """An open block quote or list item (CommonMark 5.1, 5.2).

    ``marker_offset`` and ``padding`` (list items): the columns before the content of
    a continuation line; ``has_child``: a block has opened inside it (an item that
    began with a blank line ends at the next blank line).
    """

    kind: ContainerKind
    marker_offset: int = 0
    padding: int = 0
    has_child: bool = False


@attrs.frozen
class Bracket:
    """An opener of link text not yet closed (CommonMark 6.3 "look for link or image"):
    ``image`` for ``![``; ``depth``: the openers below it; ``below``: the one under it.
    Immutable, so a copy of the leaf shares the stack."""

    image: bool
    depth: int
    below: Bracket | None


@attrs.define
class Leaf:
    """The open leaf block.

    ``start``: its first character (after container markers); ``end``: the end of its
    last line's content so far (fenced code: of the last line, line ending included).
    Fenced code: ``fence_char``, ``fence_len``, ``candidate`` (a fenced candidate,
    §3a) and ``opener_end`` (where its payload starts). HTML blocks: ``html_type``
    (start condition 1-7) and ``line_firsts`` (each line's first non-blank offset,
    where an unclosed comment "starts a line", §3b).

    Inline reading: it resumes at ``inline_pos``; ``inert_end`` is the end of the last
    code span or comment found. ``raw_end``, ``raw_next`` and
    ``raw_closed_on_line`` cache the raw read-ahead (question ``raw_end``): where the
    block's content ends, the start of the first line after it (-1: unknown), and
    whether its last line ended it by an end condition standing on it.
    ``definitions_read``: a paragraph's leading link reference definitions were
    looked for (question ``definitions_end``; its inline reading starts after them),
    ``definitions_end``: where they end then (``start`` when there are none).
    ``brackets``: the openers of link text read and not closed (the top one first);
    ``links_from``: the openers of depth below it may form no link (a link formed
    inside them, CommonMark 6.3: links do not nest; images may).
    """

    kind: LeafKind
    start: int
    end: int = 0
    fence_char: str = ""
    fence_len: int = 0
    candidate: bool = False
    opener_end: int = 0
    html_type: int = 0
    inline_pos: int = 0
    inert_end: int = 0
    raw_end: int = 0
    raw_next: int = -1
    raw_closed_on_line: bool = False
    line_firsts: list[int] = attrs.Factory(list)
    definitions_read: bool = False
    brackets: Bracket | None = None
    links_from: int = 0
    definitions_end: int = 0


#: A leaf's field values in field order (what :func:`copy_leaf` copies).
LEAF_VALUES = operator.attrgetter(*(a.name for a in attrs.fields(Leaf)))


def copy_leaf(leaf: Leaf) -> Leaf:
    """A copy of ``leaf`` (its ``line_firsts`` list shared: a copy only reads it), as
    ``attrs.evolve(leaf)`` gives, without looking up the class's fields each time."""
    return Leaf(*LEAF_VALUES(leaf))


@attrs.define
class ScanState:
    """What the scanner carries across line boundaries: the open containers
    (outermost first), the open leaf, and ``halted`` (an unclosed comment that starts
    a line of an HTML block made the rest of the message inert, §3b).

    ``held``: how many of the outermost containers are list items that hold a block,
    the containers a blank line continues (CommonMark 5.2; a block quote or an item
    that began with a blank line stops it), kept as they open, close and take a child
    so that a blank line is matched without visiting them. Change ``containers``
    through :meth:`push`, :meth:`mark_child` and :meth:`truncate` only: a copy shares
    the list (``shared``) until one side changes it, and a :class:`Container` is never
    changed once shared. ``copied``: the containers copied so (a measure of work).
    """

    containers: list[Container] = attrs.Factory(list)
    leaf: Leaf | None = None
    halted: bool = False
    held: int = 0
    shared: bool = False
    copied: int = 0

    def copy(self, *, transient: bool = False) -> ScanState:
        """An independent copy, whatever the depth in constant time: the leaf is
        copied (its ``line_firsts`` shared, a copy only reads them), the containers
        are shared until either side changes them. ``transient``: the copy is used up
        before this state changes again (a read-ahead), so only the copy copies."""
        leaf = copy_leaf(self.leaf) if self.leaf is not None else None
        return self.with_leaf(leaf, transient=transient)

    def with_leaf(self, leaf: Leaf | None, *, transient: bool = False) -> ScanState:
        """A copy as :meth:`copy` gives (the containers shared), with ``leaf`` for its
        open leaf (a stream checkpoint moves the leaf's offsets)."""
        self.shared = self.shared or not transient
        return ScanState(self.containers, leaf, self.halted, self.held, shared=True)

    def push(self, c: Container) -> None:
        """Open container ``c`` inside the innermost one (which now holds a block)."""
        self.mark_child()
        self._own(len(self.containers))
        self.containers.append(c)
        self._hold()

    def mark_child(self) -> None:
        """The innermost container, if any, now holds a block."""
        if self.containers and not self.containers[-1].has_child:
            self._own(len(self.containers))
            c = self.containers[-1]  # every field, as attrs.evolve would (cheaper)
            self.containers[-1] = Container(c.kind, c.marker_offset, c.padding, True)
            self._hold()

    def truncate(self, keep: int) -> None:
        """Close all but the outermost ``keep`` containers."""
        if len(self.containers) > keep:
            self._own(keep)
            del self.containers[keep:]
            self.held = min(self.held, keep)

    def _own(self, keep: int) -> None:
        # A shared list is copied (its outermost ``keep``) before it changes. The line
        # that changes it continued those containers (or closes ones a line opened).
        if self.shared:
            self.containers = self.containers[:keep]
            self.shared = False
            self.copied += keep

    def _hold(self) -> None:
        # Only the innermost container changes: extend ``held`` by it if it may.
        c, depth = self.containers[-1], len(self.containers)
        if self.held == depth - 1 and c.kind == "item" and c.has_child:
            self.held = depth


class Line:
    """One physical line: ``start``, ``content_end`` (before its line ending), ``end``
    (after it); the cursor ``offset``/``column`` (CommonMark columns, tabs to stops of
    4; ``partial``: a tab is partly consumed) moves past container markers as they are
    read. :meth:`find_first` sets, from the cursor: ``first``, the first non-space
    character; ``indent``, the columns before it; ``blank``, nothing but
    spaces and tabs follow; ``char``, the character at ``first`` ("" when blank).

    ``matched``: the open containers the line continues; ``opened``: a container opened
    on it; ``in_paragraph``: a paragraph is open and no container opened on the line,
    so the line may continue it (lazily); ``continues_paragraph``: moreover every
    container goes on, so the paragraph is the line's own; ``break_stop``: where a
    failed thematic-break scan stopped (a later try before it fails too).

    ``work``: the characters :meth:`find_first` visited and the containers the line
    was matched against, a measure of the container work the scanner adds to its
    ``scanned`` count (each container consumes its own prefix of the line, so this
    stays within a constant per character of the line).
    """

    __slots__ = (
        "blank",
        "break_stop",
        "char",
        "column",
        "content_end",
        "continues_paragraph",
        "end",
        "first",
        "first_column",
        "in_paragraph",
        "indent",
        "matched",
        "offset",
        "opened",
        "partial",
        "scan_from",
        "start",
        "text",
        "work",
    )

    def __init__(self, text: str, start: int, content_end: int, end: int) -> None:
        self.text = text
        self.start = start
        self.content_end = content_end
        self.end = end
        # A leading BOM is kept in the text but not read (§1).
        self.offset = 1 if start == 0 and text.startswith("\ufeff") else start
        self.column = 0
        self.partial = False
        self.matched = 0
        self.opened = False
        self.in_paragraph = False
        self.continues_paragraph = False
        self.break_stop = 0
        self.work = 0
        self.scan_from, self.first, self.first_column = 0, -1, 0
        self.find_first()

    def find_first(self) -> None:
        """Skip spaces and tabs from the cursor: set ``first``, ``indent``, ``blank``
        and ``char``. A cursor still inside the run of spaces and tabs scanned last
        time finds the same first character at the same column (columns count from
        the line's start), so that run is not scanned again: a line's containers
        take its prefix in turns, and each character is visited once."""
        text, i, col, end = self.text, self.offset, self.column, self.content_end
        if self.scan_from <= i <= self.first:
            self.indent = self.first_column - col
            return
        self.scan_from = i
        to_tab = 4 - (col % 4)
        while i < end:
            ch = text[i]
            if ch == " ":
                col += 1
                to_tab = to_tab - 1 or 4
            elif ch == "\t":
                col += to_tab
                to_tab = 4
            else:
                break
            i += 1
        self.work += i - self.scan_from + 1
        self.first, self.first_column, self.indent = i, col, col - self.column
        self.blank = i >= end
        self.char = "" if self.blank else text[i]

    def advance(self, count: int, columns: bool) -> None:
        """Move the cursor ``count`` columns (``columns``: a tab may be consumed in
        part) or ``count`` characters (a tab whole)."""
        text, end = self.text, self.content_end
        while count > 0 and self.offset < end:
            if text[self.offset] == "\t":
                to_tab = 4 - (self.column % 4)
                step = min(count, to_tab) if columns else to_tab
                self.partial = columns and to_tab > count
                self.column += step
                if not self.partial:
                    self.offset += 1
                count -= step if columns else 1
            else:
                self.partial = False
                self.offset += 1
                self.column += 1
                count -= 1

    def advance_to(self, offset: int) -> None:
        """Move the cursor to ``offset`` (whole characters)."""
        self.advance(offset - self.offset, False)


def skip_spaces(text: str, start: int, end: int) -> int:
    """The first offset in ``text[start:end]`` that is not a space or tab (CommonMark's
    white space for blank lines), or ``end``."""
    i = start
    while i < end and text[i] in " \t":
        i += 1
    return i
