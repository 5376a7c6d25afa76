"""``StreamSegmenter``: segment a reply as it arrives, committing only what is final (§10).

The segmenter keeps a resume point (a line start and the scanner's state there,
:mod:`.stream_reading`) and reads the text after it again only when enough new text
has come: each reading ends with the last checkpoint it passed, which becomes the next
resume point, and everything before it is final. Readings are spaced so that each
reads at most twice what arrived since the previous one (or is short, or is sure to
move the resume point past what it reads again), so all readings together scan at
most about three times what one ``segment()`` of the whole text scans, plus a
constant per chunk (docs/streaming.md, "Work"). ``finish()`` reads from the resume
point to the end and returns exactly ``segment(whole_text)``.
"""

from __future__ import annotations

import bisect
import sys

from replykit.argcheck import type_name, typed
from replykit.codes.segment import NEAR_MISS_UNCLOSED_TAG
from replykit.diagnostics import Diagnostic
from replykit.questionnaire.compat import Compat, decode_transport, resolve
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits, message_id_problem
from replykit.questionnaire.model import Segmentation
from replykit.questionnaire.payload.yaml_loader import choose_loader
from replykit.questionnaire.profiles import CLIENT, Profile, resolve_profile
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.parts import MarkdownRun
from replykit.questionnaire.segmentation.assemble import BlockOverflow, finalize, segment_counted
from replykit.questionnaire.segmentation.blocks import Block
from replykit.questionnaire.segmentation.stream_blocks import (
    PartReader,
    cap_safe,
    pending_items,
)
from replykit.questionnaire.segmentation.stream_closer import read_closer
from replykit.questionnaire.segmentation.stream_finish import (
    Piece,
    final_segments,
    near_before,
    near_diagnostic,
)
from replykit.questionnaire.segmentation.stream_input import Received
from replykit.questionnaire.segmentation.stream_reading import (
    CHECKPOINT_GAP,
    OpenFence,
    Reading,
    Resume,
    read,
)
from replykit.questionnaire.segmentation.stream_shapes import (
    Committed,
    Pending,
    PendingBlock,
    StreamUpdate,
    new_commit,
    new_pending,
    new_update,
)
from replykit.questionnaire.segmentation.stream_tags import before_limit, closer_came, notes, spaced
from replykit.questionnaire.segmentation.stream_tail import Tail, rest_items

# New complete text that makes a reading due even when nothing in it may close a block
# (Markdown commits lag at most about this much behind the text received).
BATCH = 1024
# An offset no text reaches: ``_edge`` when no move of the held text changes the tail.
_NEVER = sys.maxsize


@typed
class StreamSegmenter:
    """Segment one assistant message as it arrives in chunks (§10, docs/streaming.md).

    Input: the options of :func:`~replykit.segment` (``message_id``, ``profile``,
    ``compat``, ``limits``) and ``preview`` (pending blocks carry the questions complete
    so far). :meth:`push` takes the next chunk (any ``str``, cut anywhere: inside a
    ``\\r\\n``, a tag, a fence, a backtick run) and returns a :class:`StreamUpdate`;
    :meth:`finish` returns the :class:`~replykit.Segmentation` of the whole text,
    exactly ``segment(whole_text, ...)``.

    Guarantees: a committed block appears unchanged in ``finish()``'s result;
    committed Markdown ranges only grow and lie inside one final Markdown segment
    each; no committed character is withdrawn or given to another segment; a pending
    fenced candidate's id is final. Work: all pushes and ``finish()`` scan at most
    about three times the characters one ``segment()`` of the whole text scans, plus
    a constant per chunk (``scanned``; ``readings`` counts the readings, about one
    per form event: docs/streaming.md, "Work"); memory is linear in the text.

    Errors: ``TypeError`` naming the argument when an argument has the wrong type;
    ``ValueError`` for an unknown ``profile`` name (a :class:`Profile` or the CLI's
    ``client``, ``self_check``, ``product:NAME``) or ``compat``, or a ``message_id``
    that is empty or only white space, longer than 128 code points or holding a
    surrogate code point (as :func:`~replykit.segment`); ``push()`` after ``finish()``
    raises ``ValueError``. Bad text is reported, never raised.
    """

    # The general reading, for the property that compares the fast path with it
    # (tests/test_stream_fast.py): read after every chunk that completes a line, take
    # every checkpoint, compute every update in full.
    _every_line = False
    _gap = CHECKPOINT_GAP
    _line_runs = True
    _quick = True
    _grow = True  # extend the last update's tail (else rebuild it unless all was sent)
    _plain_gap = BATCH  # plain lines after the resume point: committed this many at once

    def __init__(
        self,
        *,
        message_id: str = "message",
        profile: Profile | str = CLIENT,
        compat: Compat | str | None = None,
        limits: Limits = DEFAULT_LIMITS,
        preview: bool = False,
    ) -> None:
        problem = message_id_problem(message_id)
        if problem is not None:
            raise ValueError(f"message_id {problem}")
        loader = choose_loader()  # fails here, not mid-stream; then read with (§1.2)
        self._mode = resolve(compat)
        self._compat = self._mode or Compat()
        self._in = Received(self._mode)
        chosen = resolve_profile(profile)
        self._reader = PartReader(message_id, chosen, self._compat, limits, preview, loader)
        self._limit = limits.max_diagnostics
        self._resume = Resume(0)
        self._read_to = 0  # where the last reading ended
        self._waits_blank = False  # the last reading waits only for a paragraph to end
        self._open = False  # the last reading left a candidate open (or tentative)
        # The name (as names compare) of the first opening tag the last reading left
        # without its closer, the closers looked at since, and the resume point at which
        # a closer last made a reading due (once per resume point: see _due()).
        self._open_tag: str | None = None
        self._closers_seen = 0
        self._closed_at = -1
        self._not_blank = -1  # the line at this offset is complete and not blank
        self._final: list[Piece] = []  # the final segments before the resume point
        self._committed = 0  # the end of what was committed
        self._blocked = False  # a final block could not be committed before finish()
        # Final segments not committed (from the first block the cap may trim), each
        # described once, in order; and the pending items the last reading found.
        self._deferred: list[Pending] = []
        self._pending: tuple[Pending, ...] = ()
        self._fresh = False  # a reading ran since the last update
        self._tail = Tail()  # the pending tail as the last update left it
        self._commits: list[Committed] = []
        # What decides whether an update without a reading, commit or new family word
        # repeats the last one's tail (see _calm_after()).
        self._calm = False
        self._plain = True
        self._edge = 0
        self._past = False
        self._diagnostics: list[Diagnostic] = []
        # Every near-miss before the resume point, in scan order, and whether it is an
        # unclosed-tag warning whose closer may still come (reported by ``finish()``).
        self._near: list[tuple[Diagnostic, bool]] = []
        self._result: Segmentation | None = None
        #: Characters the scanner examined so far, readings and ``finish()`` together
        #: (the measure of work of §10, counted as ``segment()``'s scanner counts).
        self.scanned = 0
        #: Readings run so far, ``finish()``'s not counted (docs/streaming.md, "Work").
        self.readings = 0

    # ---- the public calls ------------------------------------------------------------
    def push(self, chunk: str) -> StreamUpdate:
        """Take the next chunk; return what became final with it and the pending tail
        (:class:`StreamUpdate`). Raises ``TypeError`` when ``chunk`` is not a ``str``
        and ``ValueError`` after :meth:`finish`."""
        if not isinstance(chunk, str):
            raise TypeError(f"push() argument 'chunk' must be str, not {type_name(chunk)}")
        if self._result is not None:
            raise ValueError("push() after finish(): the message has ended")
        received = self._in
        if received.append(chunk):
            if received.family is None:
                self._commit_plain()
            elif received.last_family < self._resume.at and self._resume.fence is None:
                # No family word after the resume point (docs/streaming.md, "When
                # replykit commits"): final Markdown, no reading.
                if received.complete - self._committed >= self._plain_gap:
                    self._commit_plain()
            elif received.complete > self._read_to and self._due():
                self._read(received.complete)
            if received.tag_ended and self._tag_due():
                self._read(received.tag_reading_end())
        elif received.tag_ended and self._tag_due():
            self._read(received.tag_reading_end())
        elif self._calm and (self._edge < received.held) is self._past:
            # No line completed and the pending tail is the last update's: only the
            # held text and the count received moved (docs/streaming.md, "Work").
            return new_update((), (), self._committed, (), received.held, received.size,
                              len(self._tail.shown))  # fmt: skip
        return self._update()

    def finish(self) -> Segmentation:
        """The message has ended: return its :class:`~replykit.Segmentation`, exactly
        ``segment(whole_text, ...)`` with this segmenter's options (§10). The segments
        that end after the last update's ``committed_end`` are the rest of the message;
        every committed block is among them unchanged. Calling it again returns the same
        result."""
        if self._result is None:
            self._result = self._finish()
        return self._result

    @property
    def work(self) -> int:
        """The work done so far: :attr:`scanned` plus the pending items built and
        compared (each update costs what changed, not the pending tail again)."""
        return self.scanned + self._tail.work

    @property
    def committed_end(self) -> int:
        """The end of everything committed so far (a code-point offset)."""
        return self._committed

    # ---- when to read ----------------------------------------------------------------
    def _commit_plain(self) -> None:
        """The complete lines hold no family word (or none after the resume point, where
        no fenced candidate is open and no opening tag lacks its closer): they can hold
        no block, nor be part of one (a block's opener holds the word, and so does an
        XML+JSON closer), so they are final Markdown."""
        end = self._in.complete
        limit = self._in.transport_limit()
        if limit is not None:
            end = min(end, limit)
        if end > self._committed and not self._blocked:
            self._commit_markdown(self._committed, end)
            if self._in.family is not None:
                # The last reading's pending Markdown now starts at the committed end.
                self._pending, self._fresh = (), True

    def _due(self) -> bool:
        """Whether to read now (docs/streaming.md, "Work"): new complete lines came,
        and either they may open or close a block (a ``<``, or a run of three backticks
        or tildes) or are at least :data:`BATCH` code points, while the reading reads
        again at most what came since the last one (or is short); or the reading is
        sure to move the resume point past all it reads again (an open paragraph,
        then a blank line). A mark may open a block only on a line holding the family
        word (a fence's info string, a tag's name), and close one only there (an
        XML+JSON closer) or while a candidate is open (a closing fence): other marks
        wait for the batch."""
        end = self._in.complete
        if end <= self._read_to:
            return False
        if self._every_line:
            return True
        if self._open_tag is not None and self._closed_at != self._resume.at:
            # The closer of the tag that stopped the last reading came: its block is
            # final now. One such reading per resume point keeps the work linear.
            came, self._closers_seen = closer_came(
                self._in.closers, self._closers_seen, self._open_tag, self._compat
            )
            if came:
                self._closed_at = self._resume.at
                return True
        old = self._read_to - self._resume.at
        new = end - self._read_to
        marked = self._in.last_mark >= self._read_to and (
            self._in.last_family >= self._read_to or self._open
        )
        wanted = new >= BATCH or marked
        return (wanted and spaced(old, new)) or self._blank_follows()

    def _tag_due(self) -> bool:
        """Whether to read the line still arriving to the end of the complete opening
        tag that came in it (once per tag: docs/streaming.md "Pending"); what follows
        the tag is the tentative block's, so the reading stops there."""
        self._in.tag_ended = False
        old, new = self._read_to - self._resume.at, self._in.tag_end - self._read_to
        return new > 0 and (self._every_line or spaced(old, new))

    def _blank_follows(self) -> bool:
        if not self._waits_blank or self._not_blank == self._read_to:
            return False
        lines = self._in.line_starts
        i = bisect.bisect_left(lines, self._read_to)
        if i + 1 >= len(lines) or lines[i] != self._read_to:
            return False
        line = self._in.slice(self._read_to, lines[i + 1])
        if line.strip(" \t\r\n") == "":
            return True
        self._not_blank = self._read_to  # that line is complete: asked once
        return False

    # ---- one reading -----------------------------------------------------------------
    def _read(self, end: int) -> None:
        """Read from the resume point to ``end``: the end of the complete lines, or
        into the line still arriving (a complete opening tag came in it: no checkpoint)."""
        received, base = self._in, max(self._resume.at - 1, 0)
        limit = received.transport_limit()
        complete = received.complete
        text = received.slice(base, end)
        reading = None
        if self._resume.fence is not None and limit is None and end == complete:
            # Inside a fenced candidate only its closing fence matters (stream_closer.py).
            reading = read_closer(text, self._resume, lexemes()) if self._line_runs else None
        if reading is None:
            words, angles = notes(received, text, base)
            reading = read(
                text, base, self._resume, lexemes(), self._compat, final=False,
                limit=complete if limit is None else min(limit, complete), gap=self._gap,
                line_runs=self._line_runs, words=words, angles=angles,
            )  # fmt: skip
        self.scanned += reading.scanned  # the line still arriving: searched in Received
        self.readings += 1
        self._read_to = end
        if reading.checkpoint is not None:
            self._advance(reading)
        self._waits_blank = reading.waits_blank
        tag = next((m.name for m in reading.misses if m.opening), None)
        if tag is not None and self._compat.case_insensitive:
            tag = tag.lower()
        self._open_tag, self._closers_seen = tag, len(received.closers)
        found = pending_items(reading, self._resume, self._reader, received.slice, self._committed)
        self._pending = before_limit(found, limit)
        self._tail.work += len(reading.parts) + len(self._pending)
        self._open = self._resume.fence is not None or any(
            isinstance(p, PendingBlock) for p in self._pending
        )
        self._fresh = True

    def _advance(self, reading: Reading) -> None:
        """Everything before the reading's checkpoint is final: keep it, commit what
        may be committed, and resume there."""
        cp = reading.checkpoint
        assert cp is not None
        resume = self._resume
        ordinal, visible = resume.ordinal, resume.visible
        fence = resume.fence
        text_of, line_col = self._in.slice, self._in.line_col
        for part in reading.parts:
            if part.start >= cp.at or (cp.fence is not None and part.start >= cp.fence[0][0]):
                break
            if isinstance(part, MarkdownRun):
                visible = visible or part.visible
                self._keep_markdown(part.start, min(part.end, cp.at))
                continue
            if fence is not None and part.start == fence.opener[0]:
                block = self._reader.read(part, fence.ordinal, fence.visible, text_of, line_col)
                fence = None
            else:
                ordinal += 1
                block = self._reader.read(part, ordinal, visible, text_of, line_col)
            self._keep_block(block)
        open_fence = None
        if cp.fence is not None:
            if fence is None:
                ordinal += 1
            opener, payload = cp.fence
            open_fence = OpenFence(opener, payload, ordinal if fence is None else fence.ordinal,
                                   cp.visible)  # fmt: skip
        self._keep_near(reading, cp.near, cp.at)
        self._resume = Resume(cp.at, cp.state, cp.visible, ordinal, open_fence)

    # ---- keeping and committing ------------------------------------------------------
    def _keep_markdown(self, start: int, end: int) -> None:
        if end <= start:
            return
        last = self._final[-1] if self._final else None
        if last is not None and last.block is None and last.end == start:
            last.end = end
        else:
            self._final.append(Piece(start, end))
            if self._blocked:
                self._deferred.append(new_pending(start))
        if not self._blocked and end > self._committed:
            self._commit_markdown(max(start, self._committed), end)

    def _commit_markdown(self, start: int, end: int) -> None:
        self._commits.append(new_commit(start, end, self._in.slice(start, end)))
        self._committed = end

    def _keep_block(self, block: Block) -> None:
        seg = block.segment
        self._final.append(Piece(seg.start, seg.end, block))
        if not self._blocked and cap_safe(block):
            self._commits.append(seg)
            self._diagnostics.extend(seg.diagnostics)
            self._committed = seg.end
        else:
            # The message cap may still trim its diagnostics (§2.1): final only at the
            # end, and so is all that follows (commits are contiguous).
            self._blocked = True
            self._deferred.append(self._reader.final(seg))

    def _keep_near(self, reading: Reading, count: int, before: int) -> None:
        """Report the near-misses emitted before the checkpoint, but a tag's
        unclosed-tag warning: its closer may still come, so ``finish()`` reports it
        (§8, §10). Each is kept, in scan order, for ``finish()``."""
        unclosed = {m.start for m in reading.misses if not m.opening and m.start < before}
        for found in reading.near_misses[:count]:
            diagnostic = near_diagnostic(found, self._in.line_col)
            waits = diagnostic.start in unclosed and found.code == NEAR_MISS_UNCLOSED_TAG.name
            self._near.append((diagnostic, waits))
            if not waits:
                self._diagnostics.append(diagnostic)

    # ---- what the update says --------------------------------------------------------
    def _update(self) -> StreamUpdate:
        """The update after a push. The pending tail is sent as what changed since the
        last update (its first ``pending_kept`` items are unchanged, ``pending`` the
        rest), so each deferred segment is described once and the updates of a message
        add up to its size, not its square (docs/streaming.md, "Output"). Without a
        reading since the last update only the Markdown after a closed block may change:
        the update then costs a constant."""
        held, committed = self._in.held, self._committed
        if (
            self._calm and not (self._fresh or self._commits or self._diagnostics)
            and (self._in.family is None) is self._plain and (self._edge < held) is self._past
        ):  # fmt: skip
            # What the last update computed again: the client holds the whole tail.
            return new_update((), (), committed, (), held, self._in.size, len(self._tail.shown))
        tail = self._tail
        grow = tail.can_grow() if self._grow else bool(tail.base) and tail.whole
        if self._fresh or self._in.family is None or not grow:
            rest = rest_items(self._deferred, self._pending, committed, tail.shown_deferred)
            tail.rebuild(rest, committed)
        at, new = tail.grow(held, len(self._deferred))
        extra = self._extra(held)
        if extra >= 0:
            new.append(new_pending(extra))
        kept, sent = tail.send(at, new)
        update = new_update(
            tuple(self._commits), tuple(sorted(self._diagnostics, key=lambda d: d.start)),
            committed, sent, held, self._in.size, kept,
        )  # fmt: skip
        self._commits, self._diagnostics, self._fresh = [], [], False
        self._calm_after(held)
        return update

    def _extra(self, held: int) -> int:
        """Where the Markdown after a closed pending block starts when text came after
        the last reading (-1: no such item)."""
        base = self._tail.base
        last = base[-1] if base else None
        extra = max(self._read_to, self._committed)
        if (
            self._in.family is not None and self._in.size > self._read_to
            and isinstance(last, PendingBlock) and last.closed and extra < held
        ):  # fmt: skip
            return extra
        return -1

    def _calm_after(self, held: int) -> None:
        """Note what alone decides the next update's pending items while nothing is
        read or committed and no family word comes: the tail is the last one's unless
        ``_edge < held`` turns (the Markdown item after a closed block appears, or
        ``committed < held`` turns before the first family word). ``_calm`` is false
        when more decides (the client was not sent the whole tail)."""
        plain = self._in.family is None
        self._plain = plain
        if plain:
            self._calm, self._edge = self._quick, self._committed
        else:
            base = self._tail.base
            self._calm = self._quick and self._tail.whole and bool(base)
            last = base[-1] if base else None
            closed = isinstance(last, PendingBlock) and last.closed
            self._edge = max(self._read_to, self._committed) if closed else _NEVER
        self._past = self._edge < held

    # ---- the end ---------------------------------------------------------------------
    def _finish(self) -> Segmentation:
        """The whole message's result, exactly ``segment(whole_text)``: the final
        segments before the resume point as kept, then one reading from there to the
        end (docs/streaming.md, "Work"). A transport decoding that changes the text
        (§9) moves every offset: then the whole text is read again, as ``segment()``
        reads it, reusing the blocks already read."""
        self._in.close()
        text = self._in.text()
        at = self._resume.at
        if at == 0 or (self._mode is not None and decode_transport(text, self._mode) != text):
            result, scanned = segment_counted(
                text, self._reader.message_id, self._reader.profile, self._mode,
                self._reader.limits, known=self._reader.known, loader=self._reader.loader,
            )  # fmt: skip
            self.scanned += scanned
            return result
        reading = read(
            self._in.slice(at - 1, self._in.size), at - 1, self._resume, lexemes(),
            self._compat, final=True, limit=self._in.size, line_runs=self._line_runs,
            words=self._in.words,
        )  # fmt: skip
        self.scanned += reading.scanned
        segments, blocks = final_segments(
            self._final, reading, self._resume, self._reader, self._in
        )
        diagnostics: list[Diagnostic] = []
        overflows: list[BlockOverflow] = []
        for block in blocks:
            diagnostics.extend(block.segment.diagnostics)
            if block.overflow is not None:
                overflows.append((block.segment.start, block.overflow))
        diagnostics.extend(near_before(self._near, text, self._compat))
        for found in reading.near_misses:
            diagnostics.append(near_diagnostic(found, self._in.line_col))
        return finalize(segments, diagnostics, overflows, self._limit, None)


__all__ = ["StreamSegmenter"]
