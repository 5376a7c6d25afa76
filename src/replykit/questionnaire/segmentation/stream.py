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

from replykit.argcheck import type_name, typed
from replykit.diagnostics import Diagnostic
from replykit.questionnaire.compat import Compat, resolve
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits, message_id_problem
from replykit.questionnaire.model import Segmentation
from replykit.questionnaire.payload.yaml_loader import choose_loader
from replykit.questionnaire.profiles import CLIENT, Profile, resolve_profile
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.parts import MarkdownRun
from replykit.questionnaire.segmentation.blocks import Block
from replykit.questionnaire.segmentation.stream_blocks import PartReader, cap_safe, pending_items
from replykit.questionnaire.segmentation.stream_closer import direct_reading
from replykit.questionnaire.segmentation.stream_finish import Piece, finished, kept_near
from replykit.questionnaire.segmentation.stream_input import Received
from replykit.questionnaire.segmentation.stream_reading import (
    CHECKPOINT_GAP,
    Miss,
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
    new_object,
    new_pending,
    new_update,
)
from replykit.questionnaire.segmentation.stream_tags import before_limit, closer_came, notes, spaced
from replykit.questionnaire.segmentation.stream_tail import (
    NEVER,
    Tail,
    calm,
    extra_start,
    rest_items,
)

# New complete text that makes a reading due even when nothing in it may close a block
# (Markdown commits lag at most about this much behind the text received).
BATCH = 1024


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

    # Knobs of the general reading the fast path is compared with (test_stream_fast.py):
    # read after every line, take every checkpoint, compute every update in full.
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
        self._read_to, self._weight = 0, 1  # where the last reading ended; see _due
        self._waits_blank = False  # the last reading waits only for a paragraph to end
        # The last reading ended in a comment that runs to the end of the message (§3b):
        # only a "-->" may change what a reading finds (not decided under a §9 mode).
        self._halted = False
        self._open, self._preview_at = False, NEVER  # a candidate left open (or tentative); _due
        # The first opening tag the last reading left without its closer (its name as
        # names compare), the closers looked at since, where a closer last made one due.
        self._open_tag: str | None = None
        self._open_miss: Miss | None = None  # that tag as the reading found it
        self._closers_seen, self._closed_at = 0, -1
        self._not_blank = -1  # the line at this offset is complete and not blank
        self._final: list[Piece] = []  # the final segments before the resume point
        self._committed = 0  # the end of what was committed
        self._blocked = False  # a final block could not be committed before finish()
        # Final segments not committed (from the first the cap may trim); pending items.
        self._deferred: list[Pending] = []
        self._pending: tuple[Pending, ...] = ()
        self._fresh = False  # a reading ran since the last update
        self._tail = Tail()  # the pending tail as the last update left it
        self._commits: list[Committed] = []
        # Whether an update with nothing read or committed repeats the last tail (_update);
        # push()'s first path is open (_note_idle), and the fields of its update then.
        self._calm, self._plain, self._idle = False, True, False
        self._same: dict[str, object] = {}
        self._still = -1  # complete lines that note nothing change nothing up to here
        self._edge, self._past = 0, False  # (_update)
        self._diagnostics: list[Diagnostic] = []
        # Each near-miss before the resume point and whether its closer may still come.
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
        if self._idle and type(chunk) is str and not ("\r" in chunk or "<" in chunk):
            # Idle (see _note_idle): the commonest chunks move only the size and the held
            # text; their update is the idle one with those (built as new_update() does).
            update = new_object(StreamUpdate)
            fields = update.__dict__
            fields.update(self._same)
            if "\n" not in chunk:
                fields["held_from"] = fields["received"] = self._in.grow(chunk)
                return update
            received = self._in
            received.lf_chunk(chunk)
            if received.noted or received.complete > self._still:  # else none due (_quiet_to)
                return self._lines_noted()
            self._idle = received.quiet  # held only grows while idle: the tail stays
            fields["held_from"], fields["received"] = received.held, received.size
            return update
        if not isinstance(chunk, str):
            raise TypeError(f"push() argument 'chunk' must be str, not {type_name(chunk)}")
        if self._result is not None:
            raise ValueError("push() after finish(): the message has ended")
        received = self._in
        if received.append(chunk):
            self._lines_came()
            if received.tag_ended and self._tag_due():
                self._read(received.tag_reading_end())
            update = self._update()
        elif received.tag_ended and self._tag_due():
            self._read(received.tag_reading_end())
            update = self._update()
        elif self._calm and (self._edge < received.held) is self._past:
            # No line completed and the pending tail is the last update's: only the
            # held text and the count received moved (docs/streaming.md, "Work").
            update = new_update((), (), self._committed, (), received.held, received.size,
                                len(self._tail.shown))  # fmt: skip
        else:
            update = self._update()
        self._note_idle()
        return update

    def finish(self) -> Segmentation:
        """The message has ended: return its :class:`~replykit.Segmentation`, exactly
        ``segment(whole_text, ...)`` with this segmenter's options (§10). The segments
        that end after the last update's ``committed_end`` are the rest of the message;
        every committed block is among them unchanged. Calling it again returns the same
        result."""
        if self._result is None:
            self._idle = False  # push() raises from now on
            self._in.close()
            result, scanned = finished(
                self._in, self._resume, self._reader, self._mode, self._final, self._near,
                self._limit, line_runs=self._line_runs,
            )  # fmt: skip
            self._result, self.scanned = result, self.scanned + scanned
            return result
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
    def _lines_noted(self) -> StreamUpdate:
        """push() of a chunk with ``\\n`` but no ``\\r`` or ``<`` while idle, whose lines
        may note something or make a reading due (Received.lf_chunk took it): read or
        commit as due; when nothing was read or committed and the tail stays the last
        update's, the update is built here (_update()'s checks: test_stream_fast.py)."""
        received = self._in
        held = received.held
        self._lines_came()
        if (
            self._fresh or self._commits or self._diagnostics
            or (received.family is None) is not self._plain or (self._edge < held) is not self._past
        ):  # fmt: skip
            update = self._update()
            self._note_idle()
            return update
        self._idle = received.quiet and (self._past or self._edge == NEVER)
        self._still = self._quiet_to()
        return new_update((), (), self._committed, (), held, received.size, len(self._tail.shown))

    def _quiet_to(self) -> int:
        """The end of the complete lines up to which lines that note nothing
        (``Received.noted`` false: no family word, ``&#``, ``<``, ``>`` or fence run)
        make :meth:`_lines_came` neither commit nor read; -1 when such a line may, when
        not idle (only idle pushes read it) or under the general reading's knobs. Set
        after ``_idle`` by :meth:`_note_idle` and :meth:`_lines_noted`."""
        received, resume = self._in, self._resume
        if not self._idle or self._every_line or not self._quick or received.family is None:
            return -1
        if received.last_family < resume.at and resume.fence is None:
            return self._committed + self._plain_gap - 1  # then _commit_plain commits
        if self._halted and received.last_close < self._read_to - 2:
            return NEVER  # _due waits for a "-->": none comes in such a line
        if self._open_tag is not None and self._closed_at != resume.at:
            # _due asks only whether a closer came: none comes in such a line.
            return NEVER if self._closers_seen == len(received.closers) else -1
        if self._waits_blank or received.last_mark >= self._read_to:
            return -1  # _due may read at a blank line or once the reading is spaced
        return min(self._read_to + BATCH, self._preview_at) - 1  # then _due may read

    def _lines_came(self) -> None:
        """Complete lines came: commit plain ones, or read when a reading is due."""
        received = self._in
        if received.family is None:
            self._commit_plain()
        elif received.last_family < self._resume.at and self._resume.fence is None:
            # No family word after the resume point (docs/streaming.md, "When
            # replykit commits"): final Markdown, no reading.
            if received.complete - self._committed >= self._plain_gap:
                self._commit_plain()
        elif received.complete > self._read_to and self._due():
            self._read(received.complete)

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
        """Whether to read now (docs/streaming.md, "Work"): new complete lines may open or
        close a block (a ``<`` or a fence run on a line with the family word, or while a
        candidate is open), are :data:`BATCH` code points or reach ``_preview_at`` (the
        pending form's preview is due: PartReader.preview_due), and the reading reads
        again at most what is new (half of it when the last reading did not move the
        resume point), or is short; or a blank line ended the awaited paragraph."""
        end = self._in.complete
        if self._mode is not None:  # under a §9 limit, only the lines before its line
            end = self._in.reading_end(end)
        if end <= self._read_to:
            return False
        if self._every_line:
            return True
        if self._halted and self._in.last_close < self._read_to - 2:
            return False  # only a "-->" may end the comment that halted the last reading
        if self._open_tag is not None and self._closed_at != self._resume.at:
            # Its closer came: its block is final now (once per resume point: linear).
            # Until then a reading would find the same tag again: none runs.
            came, self._closers_seen = closer_came(
                self._in.closers, self._closers_seen, self._open_tag, self._compat
            )
            self._closed_at = self._resume.at if came else self._closed_at
            return came
        old = self._weight * (self._read_to - self._resume.at)
        new = end - self._read_to
        marked = self._in.last_mark >= self._read_to and (
            self._in.last_family >= self._read_to or self._open
        )
        wanted = new >= BATCH or marked or end >= self._preview_at
        return (wanted and spaced(old, new)) or self._blank_follows()

    def _tag_due(self) -> bool:
        """Whether to read the line still arriving to the end of the opening tag that
        came in it (once per tag, and no further: docs/streaming.md "Pending")."""
        self._in.tag_ended = False
        old = self._weight * (self._read_to - self._resume.at)
        new = self._in.reading_end(self._in.tag_end) - self._read_to
        if self._halted and not self._in.comment_closed(self._read_to, self._in.tag_end):
            return False  # the tag is inside the comment that halted the last reading
        return new > 0 and (self._every_line or spaced(old, new))

    def _blank_follows(self) -> bool:
        if not self._waits_blank or self._not_blank == self._read_to:
            return False
        blank = self._in.blank_line(self._read_to)
        self._not_blank = self._read_to if blank is False else self._not_blank  # asked once
        return blank is True

    # ---- one reading -----------------------------------------------------------------
    def _read(self, end: int) -> None:
        """Read from the resume point to ``end``: the end of the complete lines, or
        into the line still arriving (a complete opening tag came in it: no checkpoint);
        under a §9 limit, no further than its line's start (Received.reading_end)."""
        received, base = self._in, max(self._resume.at - 1, 0)
        limit, end = received.transport_limit(), received.reading_end(end)
        complete = received.complete
        text = received.slice(base, end)
        reading = None
        if self._line_runs and limit is None and end == complete:  # stream_closer.py
            reading = direct_reading(text, self._resume, self._open_miss, self._mode is None)
        if reading is None:
            # Before a §9 limit's line the notes of later lines do not apply: searched.
            words, angles = notes(received, text, base) if end >= complete else (None, None)
            reading = read(
                text, base, self._resume, lexemes(), self._compat, final=False,
                limit=complete if limit is None else min(limit, complete), gap=self._gap,
                line_runs=self._line_runs, words=words, angles=angles, tag_lines=self._line_runs,
            )  # fmt: skip
        self.scanned += reading.scanned  # the line still arriving: searched in Received
        self.readings += 1
        self._read_to, at = end, self._resume.at
        if reading.checkpoint is not None:
            self._advance(reading)
        self._weight = 1 if self._resume.at > at else 2  # stuck: readings spaced wider
        self._waits_blank, self._halted = reading.waits_blank, reading.halted and self._mode is None
        miss = self._open_miss = next((m for m in reading.misses if m.opening), None)
        tag = None if miss is None else miss.name
        tag = tag.lower() if tag is not None and self._compat.case_insensitive else tag
        self._open_tag, self._closers_seen = tag, len(received.closers)
        found = pending_items(reading, self._resume, self._reader, received.slice, self._committed)
        self._pending = before_limit(found, limit)
        self._preview_at = self._reader.preview_due(self._pending)
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
        near = kept_near(reading, cp.near, cp.at, self._in.line_col)
        self._near.extend(near)
        self._diagnostics.extend(d for d, waits in near if not waits)
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

    # ---- what the update says --------------------------------------------------------
    def _note_idle(self) -> None:
        """Note whether push()'s first path is open for the next chunk without
        ``\\n``, ``\\r`` or ``<``: nothing is held back (``Received.quiet``) and the
        pending tail is the last update's and stays so while the held text grows; such
        a chunk changes only ``held_from`` and ``received`` (test_stream_fast.py)."""
        self._idle = self._calm and self._in.quiet and (self._past or self._edge == NEVER)
        self._still = self._quiet_to()
        self._same = {
            "committed": (), "diagnostics": (), "committed_end": self._committed, "pending": (),
            "held_from": 0, "received": 0, "pending_kept": len(self._tail.shown),
        }  # fmt: skip

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
        extra = extra_start(self._tail, self._in, self._read_to, self._committed)
        if extra >= 0:
            new.append(new_pending(extra))
        kept, sent = tail.send(at, new)
        update = new_update(
            tuple(self._commits), tuple(sorted(self._diagnostics, key=lambda d: d.start)),
            committed, sent, held, self._in.size, kept,
        )  # fmt: skip
        self._commits, self._diagnostics, self._fresh = [], [], False
        # What alone decides the next update's pending items (stream_tail.calm).
        self._plain = self._in.family is None
        self._calm, self._edge = calm(self._tail, self._plain, self._read_to, self._committed)
        self._calm = self._calm and self._quick
        self._past = self._edge < held
        return update


__all__ = ["StreamSegmenter"]
