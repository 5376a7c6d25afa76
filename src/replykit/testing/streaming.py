"""The streaming guarantees of §10 as a checker (docs/streaming.md, "Guarantees").

:func:`stream_chunks` feeds chunks to a :class:`~replykit.StreamSegmenter`;
:func:`check_stream` checks one run against ``segment()`` of the whole text and
returns the faults it finds (``[]``: none). Used by the property tests and the
benchmark; no dependency on Hypothesis.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from replykit.questionnaire.compat import resolve
from replykit.questionnaire.limits import DEFAULT_LIMITS
from replykit.questionnaire.model import Segment, Segmentation
from replykit.questionnaire.profiles import CLIENT, resolve_profile
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.scanner import Scanner
from replykit.questionnaire.segmentation.segmenter import segment_counted
from replykit.questionnaire.segmentation.stream import StreamSegmenter
from replykit.questionnaire.segmentation.stream_shapes import (
    MarkdownCommit,
    Pending,
    PendingBlock,
    PendingMarkdown,
    StreamUpdate,
)

#: The scanner's tokens of inert regions (§3b).
INERT_TOKENS = frozenset({"FENCED_CODE", "INDENTED_CODE", "CODE_SPAN", "HTML_COMMENT"})

#: Work allowed per chunk on top of three one-shot readings (§10), in characters
#: scanned: a short reading may run after any chunk.
PER_CHUNK = 256


@attrs.frozen
class StreamRun:
    """One streamed message: every update, the final result, the segmenter's work in
    ``scanned`` (the characters it scanned plus the pending items it built and
    compared, ``StreamSegmenter.work``), and the characters one ``segment()`` of the
    whole text scans."""

    updates: tuple[StreamUpdate, ...]
    result: Segmentation
    scanned: int
    one_shot: int
    expected: Segmentation


def cut(text: str, cuts: Sequence[int]) -> list[str]:
    """``text`` cut at the offsets ``cuts`` (any order, repeats give empty chunks)."""
    points = [0, *sorted(min(max(c, 0), len(text)) for c in cuts), len(text)]
    return [text[a:b] for a, b in itertools.pairwise(points)]


#: What :func:`stream_chunks` and :func:`check_stream` stream with: a callable taking
#: the ``StreamSegmenter`` keyword options and returning an object with its ``push``,
#: ``finish`` and ``scanned``.
SegmenterFactory = Callable[..., StreamSegmenter]


def stream_chunks(
    chunks: Sequence[str], *, segmenter: SegmenterFactory = StreamSegmenter, **options: Any
) -> StreamRun:
    """Push ``chunks`` to a new ``segmenter(**options)`` (by default a
    :class:`~replykit.StreamSegmenter`: another implementation, e.g. a subclass, to
    check it) and finish; also read the whole text once with ``segment()`` (its result
    and work). ``options`` take the forms ``StreamSegmenter`` takes (a ``profile``
    or ``compat`` name as a string too). Raises what ``segmenter`` raises for bad
    ``options``."""
    seg = segmenter(**options)
    updates = tuple(seg.push(c) for c in chunks)
    result = seg.finish()
    expected, one_shot = segment_counted(
        "".join(chunks),
        options.get("message_id", "message"),
        resolve_profile(options.get("profile", CLIENT)),
        resolve(options.get("compat")),
        options.get("limits", DEFAULT_LIMITS),
    )
    # The pending items built and compared count as work too (``StreamSegmenter.work``).
    return StreamRun(updates, result, getattr(seg, "work", seg.scanned), one_shot, expected)


def check_stream(
    chunks: Sequence[str], *, segmenter: SegmenterFactory = StreamSegmenter, **options: Any
) -> list[str]:
    """The §10 guarantees a run of ``segmenter(**options)`` over ``chunks`` breaks
    (:func:`stream_chunks`), as messages (``[]``: none): ``finish()``
    equals ``segment()``; commits are contiguous, never withdrawn, each block equal
    to its final segment and never inside an inert region, each Markdown range inside
    one final Markdown segment; committed diagnostics are final ones; a pending
    fenced block's id is final, a tentative block becomes that block or Markdown;
    no pending item but the last is empty; the work bound holds. ``options``: as
    :func:`stream_chunks` takes them. The checks cost about what the run costs: each
    pending item is checked once, when it comes, and segments are found by bisection."""
    run = stream_chunks(chunks, segmenter=segmenter, **options)
    faults: list[str] = []
    if run.result != run.expected:
        faults.append("finish() differs from segment()")
    faults += _typed(run.updates)
    final = run.expected.segments
    text = run.expected.decoded or "".join(chunks)
    faults += _check_commits(run.updates, final, text, run.expected, options)
    faults += _check_pending(run.updates, final)
    if run.expected.decoded is None:  # (a §9 decoding moves every offset)
        faults += _check_held(run.updates, final, text)
    bound = 3 * run.one_shot + PER_CHUNK * (len(chunks) + 1)
    if run.scanned > bound:
        faults.append(f"work {run.scanned} > 3 x {run.one_shot} + {PER_CHUNK} x chunks")
    size = output_items(run.updates)
    if size > run.scanned + len(final) + 2 * (len(chunks) + 1):
        faults.append(f"{size} items in the updates > scanned + segments + 2 x chunks")
    return faults


def _typed(updates: Sequence[StreamUpdate]) -> list[str]:
    """The segmenter builds its updates without the public constructors' type check:
    each must rebuild, checked, into an equal object."""
    for n, update in enumerate(updates):
        try:
            committed = tuple(
                MarkdownCommit(c.start, c.end, c.text) if isinstance(c, MarkdownCommit) else c
                for c in update.committed
            )
            pending = tuple(
                PendingMarkdown(p.start) if isinstance(p, PendingMarkdown) else p
                for p in update.pending
            )
            rebuilt = StreamUpdate(
                committed, update.diagnostics, update.committed_end, pending,
                update.held_from, update.received, update.pending_kept,
            )  # fmt: skip
        except TypeError as e:
            return [f"update {n} has a field of the wrong type: {e}"]
        if rebuilt != update:
            return [f"update {n} differs from its checked rebuild"]
    return []


def output_items(updates: Sequence[StreamUpdate]) -> int:
    """The size of a run's updates: committed and pending items sent, all updates
    together (docs/streaming.md, "Output": linear in the message)."""
    return sum(len(u.committed) + len(u.pending) for u in updates)


def tails(updates: Sequence[StreamUpdate]) -> list[tuple[Pending, ...]]:
    """The whole pending tail after each update (:meth:`StreamUpdate.tail`)."""
    out: list[tuple[Pending, ...]] = []
    for update in updates:
        out.append(update.tail(out[-1] if out else ()))
    return out


def _home(final: Sequence[Segment]) -> Callable[[int], Segment | None]:
    """The final segment that holds an offset, found by bisection (the segments are
    in order and do not overlap), so a check stays near-linear in a long message."""
    starts = [s.start for s in final]

    def at(offset: int) -> Segment | None:
        i = bisect.bisect_right(starts, offset) - 1
        return final[i] if i >= 0 and offset < final[i].end else None

    return at


def _inert(text: str, options: dict[str, Any]) -> list[tuple[int, int]]:
    """The inert regions of the final reading (§3b): the protocol's reading with every
    region kept, not plain CommonMark's (a fence near-miss ends where §3b says)."""
    compat = resolve(options.get("compat"))
    scan = Scanner(text, lexemes(), full=True, compat=compat).run()
    return [(t.start, t.end) for t in scan.tokens if t.type in INERT_TOKENS]


def _check_commits(
    updates: Sequence[StreamUpdate], final: Sequence[Segment], text: str,
    expected: Segmentation, options: dict[str, Any],
) -> list[str]:  # fmt: skip
    faults: list[str] = []
    end = 0
    inert = sorted(_inert(text, options)) if updates else []
    inert_starts = [a for a, _ in inert]
    inert_ends = list(itertools.accumulate((b for _, b in inert), max))  # the furthest so far
    finals = set(expected.diagnostics)
    _at = _home(final)
    for n, update in enumerate(updates):
        for item in update.committed:
            if item.start != end:
                faults.append(f"update {n}: commit at {item.start}, committed end {end}")
            end = item.end
            home = _at(item.start)
            if isinstance(item, MarkdownCommit):
                if item.text != text[item.start : item.end]:
                    faults.append(f"update {n}: Markdown commit text differs")
                if home is None or home.kind != "markdown" or item.end > home.end:
                    faults.append(f"update {n}: Markdown {item.start}:{item.end} not final")
            elif home != item:
                faults.append(f"update {n}: block at {item.start} differs from its final one")
            elif (i := bisect.bisect_left(inert_starts, item.start)) and inert_ends[
                i - 1
            ] > item.start:
                faults.append(f"update {n}: block at {item.start} inside an inert region")
        if update.committed_end != end:
            faults.append(f"update {n}: committed_end {update.committed_end} != {end}")
        lost = [d for d in update.diagnostics if d not in finals]
        if lost:
            faults.append(f"update {n}: diagnostics not final: {[d.code for d in lost]}")
        if update.held_from < end:
            faults.append(f"update {n}: held text starts before the committed end")
    return faults


def _check_pending(updates: Sequence[StreamUpdate], final: Sequence[Segment]) -> list[str]:
    faults: list[str] = []
    previous: tuple[Pending, ...] = ()
    _at = _home(final)
    for n, update in enumerate(updates):
        kept = update.pending_kept
        if kept > len(previous):
            faults.append(f"update {n}: pending_kept beyond the previous tail")
        tail = previous = update.tail(previous)
        if tail and tail[0].start < update.committed_end:  # the tail is in order (below)
            faults.append(f"update {n}: pending item before the committed end")
        # Kept items were checked when they came (the final segments do not change):
        # only the new ones, and the pair where they meet the kept ones, are checked.
        new = tail[max(kept - 1, 0) :]
        for item, nxt in zip(new, [*new[1:], None], strict=False):
            if nxt is not None and nxt.start <= item.start:
                faults.append(f"update {n}: pending item at {item.start} is empty")
        for item in tail[kept:]:
            if not isinstance(item, PendingBlock):
                continue
            home = _at(item.start)
            becomes = home is not None and home.start == item.start and home.id == item.id
            if not item.tentative and not becomes:
                faults.append(f"update {n}: pending block {item.id} at {item.start} not final")
            if item.tentative and not becomes and (home is None or home.kind != "markdown"):
                faults.append(f"update {n}: tentative {item.id} neither kept nor Markdown")
    return faults


_LINE_ENDING = re.compile(r"[\r\n]")


def _check_held(updates: Sequence[StreamUpdate], final: Sequence[Segment], text: str) -> list[str]:
    """A block's opener still arriving (its fence line without its line ending, its
    opening tag without its ``>``) is held back whole or shown as a pending block,
    never shown as pending Markdown (§10, "A partial tag or fence opener at the end is
    held back whole")."""
    faults: list[str] = []
    openers = []
    for seg in final:
        if seg.kind == "markdown":
            continue
        if seg.encoding == "fenced_yaml":
            m = _LINE_ENDING.search(text, seg.start)
            ready = m.start() + 1 if m is not None else len(text)
        else:
            ready = text.find(">", seg.start) + 1
        openers.append((seg.start, ready))
    # Blocks do not overlap, so the openers' ends come in order: those still arriving
    # (``received < ready``) are the last ones, and at most one starts before held_from.
    readies = [ready for _, ready in openers]
    tail: tuple[Pending, ...] = ()
    for n, update in enumerate(updates):
        tail = update.tail(tail)
        i = bisect.bisect_right(readies, update.received)
        while i < len(openers) and openers[i][0] < update.held_from:
            start = openers[i][0]
            j = bisect.bisect_left(tail, start, key=_start)
            block = j < len(tail) and tail[j].start == start and isinstance(tail[j], PendingBlock)
            if update.committed_end <= start and not block:
                faults.append(f"update {n}: the opener at {start} is shown half as text")
            i += 1
    return faults


def _start(item: Pending) -> int:
    return item.start


__all__ = [
    "PER_CHUNK", "StreamRun", "check_stream", "cut", "output_items", "stream_chunks", "tails",
]  # fmt: skip
