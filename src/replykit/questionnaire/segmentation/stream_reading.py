"""One reading of the streaming segmenter: the text after a resume point (§10).

The streaming segmenter (:mod:`replykit.questionnaire.segmentation.stream`) never reads
a prefix twice from the start. It keeps a *resume point*: a line start ``at`` with the
scanner's state there (:class:`Resume`), and reads the text after it with the same
scanner ``segment()`` uses, resumed from that state. The text it reads is the
message from ``at - 1`` (the line ending before ``at``, so that offset 0 of the read
text is never a line start: the byte-order-mark rule of §1 holds only at the
message's own start) to the end of the last complete line received.

While it reads, it notes each *checkpoint*: a line start after which nothing that
arrives later can change what came before (docs/streaming.md, "When replykit
commits"): no paragraph, heading or HTML block is open (their inline reading, the
end of a code span or comment, depends on lines still to come), only code or a
fenced candidate may be; no opening tag read so far lacks its closer (a closer
arriving later would make everything from the tag on payload, §3a); no tag-like text
at the end may still grow into a tag; nothing is hidden by a halting comment (§3b).
The last checkpoint becomes the next resume point; everything before it is final.

Offsets in a :class:`Reading` are message offsets.
"""

from __future__ import annotations

import bisect
import re
from collections import deque
from collections.abc import Sequence

import attrs

from replykit.questionnaire.compat import Compat
from replykit.questionnaire.scan import runs
from replykit.questionnaire.scan.emit import Coarse
from replykit.questionnaire.scan.grammar import parse
from replykit.questionnaire.scan.leaves import opens
from replykit.questionnaire.scan.lexemes import Lexemes
from replykit.questionnaire.scan.lookahead import Lookahead, tag_name
from replykit.questionnaire.scan.near_miss import NearMiss
from replykit.questionnaire.scan.parts import FencedPart, MarkdownRun, Part, XmlPart
from replykit.questionnaire.scan.scanner import Scanner
from replykit.questionnaire.scan.shown import shows_text
from replykit.questionnaire.scan.state import LEAF_VALUES, Leaf, ScanState
from replykit.questionnaire.segmentation.stream_plain import plain_tag_line
from replykit.text import BLANK_CLASS
from replykit.trusted import Rebuild

Span = tuple[int, int]
# Where the possible family words of the message start (ascending message offsets), and
# the message offset of the text read (a reading's look-ahead answers from them).
Words = tuple[Sequence[int], int]
# A family word that is a plain lower-case word is checked by its letters.
_LOWER_WORD = re.compile("[a-z]+")

# After a tag's name, the start of attributes whose ">" has not arrived (grammar
# TAG_LIKE: its ``rest`` may still grow until a "<" or ">" comes).
_OPEN_REST = re.compile(f"(?:[ \\t\\r\\n/]|{BLANK_CLASS})[^<>]*")
# Leaves whose lines later text cannot change: code and fenced candidates.
_FIXED_LEAVES = ("fenced", "indented")
# A leaf's fields in their order, read at once (a copy is built from them, cheaper than
# attrs.evolve); which of them are offsets, moved with the text read.
_LEAF_NAMES = tuple(a.name for a in attrs.fields(Leaf))
_LEAF_OFFSETS = tuple(
    _LEAF_NAMES.index(name)
    for name in (
        "start",
        "end",
        "opener_end",
        "inline_pos",
        "inert_end",
        "raw_end",
        "definitions_end",
    )
)
_RAW_NEXT = _LEAF_NAMES.index("raw_next")
_LINE_FIRSTS = _LEAF_NAMES.index("line_firsts")
# A checkpoint whose state must be copied (a container or a code block is open) is
# taken at most once per this many code points of a reading, unless tokens came since
# the last one or the reading ends there (each copy costs the state's size).
CHECKPOINT_GAP = 128
# Near-misses moved to message offsets: the scanner built them (trusted.py).
_NEAR_MISS = Rebuild(NearMiss)


@attrs.frozen
class OpenFence:
    """A fenced candidate open at a resume point (§3a): its opener line ``opener``,
    where its payload starts, its ordinal among the message's candidates (§6), and
    ``visible``: visible prose came before it (the preface rule, §4)."""

    opener: Span
    payload_start: int
    ordinal: int
    visible: bool


@attrs.frozen
class Resume:
    """Where the next reading starts: the line start ``at`` and the scanner's
    ``state`` there (message offsets; a copy is resumed, never this one), ``visible``
    (visible prose before ``at``), ``ordinal`` (candidates that start before ``at``) and
    the fenced candidate open at ``at``, if any."""

    at: int
    # attrs.Factory, not attrs.field(factory=...): the compiled build type-checks this default.
    state: ScanState = attrs.Factory(ScanState)
    visible: bool = False
    ordinal: int = 0
    fence: OpenFence | None = None


@attrs.frozen
class Miss:
    """A tag read without a closer in the text so far: its ``start``, its ``name`` as
    written and whether it would open a block (§3a, §9)."""

    start: int
    name: str
    opening: bool


@attrs.frozen
class Checkpoint:
    """A line start ``at`` before which the reading is final: the scanner's ``state``
    there, ``visible`` prose before it, the near-misses emitted before it (``near``)
    and, when a fenced candidate is open there, its opener and payload start."""

    at: int
    state: ScanState
    visible: bool
    near: int
    fence: tuple[Span, int] | None


@attrs.frozen
class Reading:
    """What one reading found, in message offsets: the ``parts`` of the text read (the
    last ones provisional, see ``taint``; each Markdown run ``visible`` when visible
    prose came before it, :func:`~replykit.questionnaire.scan.grammar.parse`), every
    near-miss emitted, the last
    ``checkpoint`` (``None``: none), the tags read without a closer, ``taint`` (the
    offset from which the reading may still change: the first opening tag without a
    closer, the start of a paragraph, heading or HTML block still open at the end,
    tag-like text that may grow, or ``limit``; the end of the text when nothing may),
    the look-ahead indexes of the text read (``None`` when no scanner ran:
    :mod:`.stream_closer`), the characters scanned,
    ``waits_blank``: only a paragraph open at the end keeps the reading from being
    final (a blank line next ends it), ``alone``: the lines read one by one, not
    in a run (a measure of the reading's cost beyond its characters), ``halted``:
    an unclosed comment that starts a line of an HTML block runs to the end of the
    text read (§3b: nothing after it is read; only a later ``-->`` may end it), and
    ``grows``: where tag-like text whose attributes may still grow starts (-1: none;
    what follows it may yet be that tag's, so no block after it is shown)."""

    parts: tuple[Part, ...]
    near_misses: tuple[NearMiss, ...]
    checkpoint: Checkpoint | None
    misses: tuple[Miss, ...]
    taint: int
    look: Lookahead | None
    scanned: int
    waits_blank: bool = False
    alone: int = 0
    halted: bool = False
    grows: int = -1


class _Lookahead(Lookahead):
    """The look-ahead of a text still arriving: it records every tag whose closer is
    not in the text so far (it may still come). With ``until`` set, the scanner's runs
    of lines (:mod:`replykit.questionnaire.scan.runs`, which stop at the line of the
    next family word) also stop after the last blank line before that word, and at
    ``until``: a reading notes a checkpoint at each place a run stops, so the last one
    before a paragraph still open, an opening tag without its closer or ``until`` is
    found as reading line by line finds it."""

    def __init__(
        self, text: str, lexemes: Lexemes, compat: Compat, words: Words | None = None
    ) -> None:
        super().__init__(text, lexemes, compat)
        self._words = words if _LOWER_WORD.fullmatch(lexemes.family_word_any_case.pattern) else None
        self.missed: list[re.Match[str]] = []  # in the order first asked about
        self._seen: set[int] = set()
        self.text = text
        self.until = -1  # -1: runs stop only where the scanner's own rule says
        self._cr = "\r" in text
        self._cut = (-1, -1)  # the last stop asked about and its cut

    def closer_for(self, tag: re.Match[str]) -> tuple[int, int]:
        """As :meth:`Lookahead.closer_for`; a tag without a closer is recorded."""
        found = super().closer_for(tag)
        if found[0] < 0 and tag.start() not in self._seen:
            self._seen.add(tag.start())
            self.missed.append(tag)
        return found

    def family_word_at_or_after(self, pos: int) -> int:
        """Where a run of lines from ``pos`` stops (see the class): stopping earlier
        only leaves more lines to be read one by one, with the same result."""
        stop = self._next_word(pos) if self._words else super().family_word_at_or_after(pos)
        if self.until < pos:  # none set, or the reading is past it: nothing to note
            return stop
        stop = min(stop, self.until)
        if self._cut[0] != stop:
            # Asked at increasing offsets: each stretch is searched once, from its end
            # back to its last blank line (counted as examined).
            cut, examined = _after_last_blank(self.text, pos, stop, self._cr)
            self.scanned += examined
            self._cut = (stop, cut)
        cut = self._cut[1]
        return cut if pos < cut else stop

    def _next_word(self, pos: int) -> int:
        """As :meth:`Lookahead.family_word_at_or_after`, from the words the segmenter
        found once as the text arrived (a reading does not search its text again, so
        text read again costs no new search): each possible word at or after ``pos``
        is checked as the search checks it."""
        assert self._words is not None
        found, base = self._words
        text, word = self.text, self._lx.family_word_any_case.pattern
        i = bisect.bisect_left(found, pos + base)
        while i < len(found) and (at := found[i] - base) < len(text):
            if text.startswith("&#", at):
                self.scanned += 2
                return at
            window = text[at : at + len(word)]
            self.scanned += len(window)  # the possible word's own characters
            if window.isascii() and window.lower() == word:
                return at
            i += 1
        return len(text)


# Where a line ending meets an empty line: the last character of the line ending, then
# the first of the empty line's ("\n" always ends a line, and "\r" followed by "\r"
# does; "\r\n" is one line ending). Zero-width, so pairs that overlap are all found.
_EMPTY_LINE_AFTER = re.compile("(?=\n[\n\r]|\r\r)")


def _after_last_blank(text: str, pos: int, stop: int, cr: bool) -> tuple[int, int]:
    """The start of the line after the last empty line from line start ``pos`` on that
    ends before ``stop``, or -1, and the characters examined (``cr``: the text holds a
    "\r"; lines of spaces are not looked for: a run then only stops later)."""
    lo = max(0, pos - 1)  # from the end of the line before ``pos``: it may be empty
    if not cr:
        at = text.rfind("\n\n", lo, stop)
        return (at + 2 if at >= 0 else -1), stop - max(pos, at + 2 if at >= 0 else pos)
    # Searched back in windows that double, each character once: the last pair found
    # is the last empty line.
    hi, width, examined = stop, 64, 0
    while hi > lo:
        a = max(lo, hi - width)
        pairs = deque(_EMPTY_LINE_AFTER.finditer(text, a, min(hi + 1, stop)), maxlen=1)
        examined += min(hi + 1, stop) - a
        if pairs:
            found = pairs[0]
            end = found.start() + 2
            if text[found.start() + 1] == "\r" and text.startswith("\n", end):
                end += 1  # the empty line ends with "\r\n"
            return end, examined
        hi, width = a, width * 2
    return -1, examined


def rebase(state: ScanState, delta: int, floor: int) -> ScanState:
    """A copy of ``state`` with its offsets moved by ``delta`` and none below
    ``floor`` (what lies before a resume point is not in the text read)."""
    if state.leaf is None and not state.containers:
        return ScanState(halted=state.halted)  # nothing to copy or move
    leaf = state.leaf
    if leaf is not None:
        values = list(LEAF_VALUES(leaf))
        for i in _LEAF_OFFSETS:
            values[i] = max(floor, values[i] + delta)
        values[_RAW_NEXT] = -1  # the raw read-ahead is asked again
        values[_LINE_FIRSTS] = [p + delta for p in leaf.line_firsts]
        leaf = Leaf(*values)
    return state.with_leaf(leaf)  # the containers shared until one side changes them


def read(
    text: str,
    base: int,
    resume: Resume,
    lexemes: Lexemes,
    compat: Compat,
    *,
    final: bool,
    limit: int,
    gap: int = CHECKPOINT_GAP,
    line_runs: bool = True,
    words: Sequence[int] | None = None,
    angles: Span | None = None,
    tag_lines: bool = True,
) -> Reading:
    """Read ``text`` (the message from ``base``: ``resume.at - 1``, or 0) from ``resume``.
    ``final``: ``text`` ends the message (no checkpoint is looked for); else more may
    follow (a line with an opening tag without its closer is read to that tag). No
    checkpoint lies after ``limit`` (§9: text a decoding may still change); one that
    copies the state comes at most every ``gap`` code points. With the same result:
    ``line_runs=False`` reads every line alone, ``tag_lines=False`` scans a tentative
    block's line of plain prose too (``_drive``). ``words``, ``angles``: the family
    words' starts, the last ``<`` and ``>`` (message offsets, -1: none), else searched."""
    start = resume.at - base
    look = _Lookahead(text, lexemes, compat, None if words is None else (words, base))
    look.stop_at_unclosed = not final  # the rest of such a tag's line is its block (§10)
    sink = Coarse(text, False)
    sink.seen_visible = resume.visible
    if resume.fence is not None:  # its opener lies before the text: a character stands for it
        sink.candidate("FENCE_OPENER", start - 1, start)
    sink.pos = start
    sc = Scanner(
        text, lexemes, compat=compat, look=look, state=rebase(resume.state, -base, start),
        sink=sink, line_runs=line_runs,
    )  # fmt: skip
    scanned, taints, waits_blank, grows = 0, [limit], False, None
    checkpoint: Checkpoint | None = None
    if final:
        result = sc.run(start)
    else:
        grows, scanned = _tag_may_grow(look, text, None if angles is None else max(angles) - base)
        if grows is not None:
            taints.append(grows + base)
        checkpoint = _drive(sc, look, start, base, min(taints) - base, resume.fence, gap, tag_lines)
        leaf = sc.state.leaf
        if leaf is not None and leaf.kind not in _FIXED_LEAVES:
            waits_blank = leaf.kind == "paragraph" and min(taints) >= base + len(text)
            taints.append(leaf.start + base)
        result = sc.end()
    misses = _misses(sc, look, base)
    opening = [m.start for m in misses if m.opening]
    taints.extend(opening)
    parts = _absolute(parse(text, result.tokens, resume.visible), base, resume.fence)
    near = _moved_near(result.near_misses, base)
    taint = min(taints) if not final else base + len(text)
    waits_blank = waits_blank and not opening
    return Reading(
        parts, near, checkpoint, misses, taint, look, scanned + result.scanned, waits_blank,
        sc.lines_alone, sc.state.halted, -1 if grows is None else grows + base,
    )  # fmt: skip


def _moved_near(found: tuple[NearMiss, ...], base: int) -> tuple[NearMiss, ...]:
    """The near-misses ``found`` in message offsets."""
    if not found:
        return ()
    move = _NEAR_MISS.rebuilt
    return tuple(move(f, start=(f.start or 0) + base, end=(f.end or 0) + base) for f in found)


def _misses(sc: Scanner, look: _Lookahead, base: int) -> tuple[Miss, ...]:
    """The tags read without a closer, in message offsets."""
    if not look.missed:
        return ()
    return tuple(Miss(t.start() + base, tag_name(t), opens(sc, t)) for t in look.missed)


def _drive(
    sc: Scanner, look: _Lookahead, start: int, base: int, limit: int, fence: OpenFence | None,
    gap: int, tag_lines: bool = True,
) -> Checkpoint | None:  # fmt: skip
    """Read every line from ``start``, runs of lines in one step as ``Scanner.run``
    does; the last checkpoint at or before ``limit`` (offsets of the text read), as
    message offsets (``fence``: the candidate open at the resume point). With
    ``tag_lines``, stop at a last line that :func:`.stream_plain.plain_tag_line` finds
    when nothing is open there: it starts a paragraph holding the tag, which scanning
    it would find without its closer, and the scanner emits it as prose when it ends."""
    plain, tag = plain_tag_line(sc.text, sc.lx, sc.compat) if tag_lines else (-1, -1)
    pos, st, n, line_runs = start, sc.state, sc.n, sc.line_runs
    look.until = limit
    missed, skip, line = look.missed, runs.skip, sc.line
    run = line_runs and pos > 0  # try a run of lines first (after a run, one line alone)
    checkpoint: Checkpoint | None = None
    checked = 0
    sink = sc.coarse
    assert sink is not None
    taken, tokens = start, -1  # where the last checkpoint was taken, tokens then
    # The last checkpoint with nothing open, noted cheaply (line start, visible prose
    # seen, emission position, near-misses); built at the end if it stays the last.
    last_plain: tuple[int, bool, int, int] | None = None
    while pos < n and not st.halted:
        if pos == plain and st.leaf is None and not st.containers:
            found = sc.lx.tag_like.match(sc.text, tag)
            assert found is not None  # an exact opening tag is tag-like
            missed.append(found)
            break
        if run and (nxt := skip(sc, pos)) > pos:
            pos, run = nxt, False
        else:
            pos, run = line(pos), line_runs
        if len(missed) > checked:
            if any(opens(sc, tag) for tag in missed[checked:]):
                # Nothing after an opening tag without its closer can be final, nor
                # shown as anything but a tentative block: the rest waits.
                break
            checked = len(missed)
        if pos > limit or st.halted:
            _read_rest(sc, look, pos, checked)  # no checkpoint lies after ``limit``
            break
        leaf = st.leaf
        if leaf is None and not st.containers:
            last_plain = (pos, sink.seen_visible, sink.pos, len(sink.near_misses))
            taken, tokens = pos, len(sink.tokens)
        elif (leaf is None or leaf.kind in _FIXED_LEAVES) and (
            len(sink.tokens) != tokens or pos - taken >= gap or pos >= n
        ):
            # Skipping a checkpoint only moves the resume point less far (commits come
            # with a later reading); each taken one copies the state.
            checkpoint, last_plain = _checkpoint(sc, pos, leaf, base, fence), None
            taken, tokens = pos, len(sink.tokens)
    if last_plain is not None:
        at, seen, emitted, near = last_plain
        visible = seen or shows_text(sc.text, emitted, max(emitted, at))
        checkpoint = Checkpoint(at + base, ScanState(), visible, near, None)
    return checkpoint


def _read_rest(sc: Scanner, look: _Lookahead, pos: int, checked: int) -> None:
    """Read the lines from line start ``pos`` as ``Scanner.run`` does, to the end or,
    as :func:`_drive` stops, to the line of an opening tag without its closer (its
    tentative block is not read: a reading past its ``limit``, the end of the complete
    lines, costs what one within it costs; ``checked``: the tags of ``look.missed``
    looked at so far)."""
    st, n, missed = sc.state, sc.n, look.missed
    while pos < n and not st.halted:
        if sc.line_runs:
            pos = runs.skip(sc, pos)
            if pos >= n:
                break
        pos = sc.line(pos)
        if len(missed) > checked:
            if any(opens(sc, tag) for tag in missed[checked:]):
                return
            checked = len(missed)


def _checkpoint(
    sc: Scanner, pos: int, leaf: Leaf | None, base: int, fence: OpenFence | None
) -> Checkpoint:
    """The checkpoint at line start ``pos`` (offsets of the text read; ``fence``: the
    candidate open at the resume point, whose opener the text read lacks)."""
    sink = sc.coarse
    assert sink is not None
    upto = pos if leaf is None else leaf.start
    open_at: tuple[Span, int] | None = None
    if leaf is not None and leaf.candidate:
        upto = sink.pos
        opener = sink.tokens[-1]  # inside a candidate nothing follows its opener
        if fence is not None and opener.start == 0:  # the stand-in for its opener
            open_at = (fence.opener, fence.payload_start)
        else:
            open_at = ((opener.start + base, opener.end + base), leaf.opener_end + base)
    visible = sink.seen_visible or shows_text(sc.text, sink.pos, max(sink.pos, upto))
    state = rebase(sc.state, base, 0)
    return Checkpoint(pos + base, state, visible, len(sc.out.near_misses), open_at)


def _tag_may_grow(look: Lookahead, text: str, last: int | None = None) -> tuple[int | None, int]:
    """The start of the last tag-like text if its attributes may still grow into a
    tag (no "<" or ">" after them yet), and the characters examined. ``last``: where
    the last "<" or ">" of ``text`` starts (negative: none), when the caller knows
    (noted once as the text arrived, so text read again is not searched again)."""
    if not look.tags:
        return None, 0
    tag = look.tags[-1]
    name_end = tag.start("rest")
    if tag.group("rest") or _OPEN_REST.match(text, name_end, name_end + 1) is None:
        return None, 1  # the tag ended, or its name did without attributes
    if last is not None:
        return (tag.start() if last < name_end else None), 1
    m = _OPEN_REST.match(text, name_end)
    assert m is not None  # it starts with one of the characters above
    # The match stops at the first "<" or ">": only that much was examined.
    return (tag.start() if m.end() == len(text) else None), m.end() - name_end + 1


def _absolute(parts: list[Part], base: int, fence: OpenFence | None) -> tuple[Part, ...]:
    """``parts`` in message offsets; the fenced candidate open at the resume point (the
    first part) gets its real opener and payload start."""
    out: list[Part] = []
    for part in parts:
        if isinstance(part, MarkdownRun):
            out.append(MarkdownRun(part.start + base, part.end + base, part.visible))
        elif isinstance(part, XmlPart):
            out.append(XmlPart(_move(part.opener, base), _move(part.closer, base)))
        else:
            closer = _move(part.closer, base) if part.closer is not None else None
            opener, payload = _move(part.opener, base), _move(part.payload, base)
            if fence is not None and not out:
                opener, payload = fence.opener, (fence.payload_start, payload[1])
            out.append(FencedPart(opener, payload, closer))
    return tuple(out)


def _move(span: Span, delta: int) -> Span:
    return span[0] + delta, span[1] + delta
