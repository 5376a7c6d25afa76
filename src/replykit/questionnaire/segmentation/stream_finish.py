"""What ``StreamSegmenter.finish()`` joins to the last reading: the final segments kept
before the resume point and the near-misses found there (§10, docs/streaming.md "Work").

``finish()`` reads only from the resume point to the end; everything before it was
final when it was read and is kept as it was: :class:`Piece` per final segment (the
blocks read once), and each near-miss in the order the scanner found it. Joined to the
last reading they give exactly the segments and diagnostics ``segment()`` gives for the
whole text (the properties compare them on every run).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from replykit.codes.segment import NEAR_MISS_UNCLOSED_TAG
from replykit.diagnostics import Diagnostic
from replykit.questionnaire.compat import Compat, decode_transport
from replykit.questionnaire.model import Segment, Segmentation
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.lookahead import Lookahead
from replykit.questionnaire.scan.near_miss import NearMiss
from replykit.questionnaire.scan.parts import MarkdownRun
from replykit.questionnaire.segmentation.assemble import BlockOverflow, finalize, segment_counted
from replykit.questionnaire.segmentation.blocks import Block
from replykit.questionnaire.segmentation.stream_blocks import PartReader
from replykit.questionnaire.segmentation.stream_input import Received
from replykit.questionnaire.segmentation.stream_reading import Reading, Resume, read
from replykit.trusted import trusted

# A Markdown segment of the text received, built as segment() builds it (trusted.py).
_segment = trusted(Segment)


@attrs.define
class Piece:
    """A final segment before the resume point: Markdown ``start:end`` or a block."""

    start: int
    end: int
    block: Block | None = None


def final_segments(
    final: Sequence[Piece], reading: Reading, resume: Resume, reader: PartReader,
    received: Received,
) -> tuple[list[Segment], list[Block]]:  # fmt: skip
    """The message's segments (the ``final`` ones, then those of the last ``reading``
    from ``resume``, Markdown joined across the resume point) and its blocks, in order
    (ids and the preface flag go on from ``resume``, §4, §6)."""
    pieces = [Piece(p.start, p.end, p.block) for p in final]
    blocks = [p.block for p in pieces if p.block is not None]
    ordinal, visible, fence = resume.ordinal, resume.visible, resume.fence
    for part in reading.parts:
        if isinstance(part, MarkdownRun):
            visible = visible or part.visible
            last = pieces[-1] if pieces else None
            if last is not None and last.block is None and last.end == part.start:
                last.end = part.end
            else:
                pieces.append(Piece(part.start, part.end))
            continue
        if fence is not None and part.start == fence.opener[0]:
            block = reader.read(
                part, fence.ordinal, fence.visible, received.slice, received.line_col
            )
            fence = None
        else:
            ordinal += 1
            block = reader.read(part, ordinal, visible, received.slice, received.line_col)
        blocks.append(block)
        pieces.append(Piece(block.segment.start, block.segment.end, block))
    segments = [
        p.block.segment if p.block is not None
        else _segment("markdown", p.start, p.end, received.slice(p.start, p.end))
        for p in pieces
    ]  # fmt: skip
    return segments, blocks


def near_before(
    near: Sequence[tuple[Diagnostic, bool]], text: str, compat: Compat
) -> list[Diagnostic]:
    """The near-misses before the resume point in scan order (``near``: each with
    whether it is an unclosed-tag warning kept back), each kept-back one only when its
    closing tag has not come in the whole ``text`` (§8, as ``segment()`` decides)."""
    look: Lookahead | None = None
    out: list[Diagnostic] = []
    for diagnostic, waits in near:
        if waits:
            look = look or Lookahead(text, lexemes(), compat)
            tag = lexemes().tag_like.match(text, diagnostic.start)
            if tag is not None and look.closer_for(tag)[0] >= 0:
                continue
        out.append(diagnostic)
    return out


def near_diagnostic(found: NearMiss, line_col: Callable[[int], tuple[int, int]]) -> Diagnostic:
    """The diagnostic of a near-miss the scanner found (message offsets), placed at its
    1-based line and column."""
    start = found.start or 0
    line, col = line_col(start)
    return Diagnostic(
        found.code, found.severity, found.message, start, found.end or 0, line, col,
        params=found.params, variant=found.variant,
    )  # fmt: skip


def kept_near(
    reading: Reading, count: int, before: int, line_col: Callable[[int], tuple[int, int]]
) -> list[tuple[Diagnostic, bool]]:
    """The diagnostics of the first ``count`` near-misses of ``reading`` (those emitted
    before its checkpoint at ``before``), in scan order, each with whether it waits:
    an unclosed-tag warning's closer may still come (§8), so it is reported only by
    ``finish()``."""
    unclosed = {m.start for m in reading.misses if not m.opening and m.start < before}
    out = []
    for found in reading.near_misses[:count]:
        diagnostic = near_diagnostic(found, line_col)
        waits = diagnostic.start in unclosed and found.code == NEAR_MISS_UNCLOSED_TAG.name
        out.append((diagnostic, waits))
    return out


def finished(
    received: Received, resume: Resume, reader: PartReader, mode: Compat | None,
    final: list[Piece], near: list[tuple[Diagnostic, bool]], limit: int, *, line_runs: bool,
) -> tuple[Segmentation, int]:  # fmt: skip
    """The whole message's :class:`~replykit.Segmentation` once all of it was
    ``received`` (closed), exactly ``segment(whole_text)``, and the characters
    scanned: the ``final`` segments before the ``resume`` point as kept, and the
    near-misses found there (``near``, each with whether it waited for its closer),
    joined to one reading from there to the end (docs/streaming.md, "Work"); ``limit``:
    the message's diagnostics cap (§2.1). A transport decoding of ``mode`` that
    changes the text (§9) moves every offset: then the whole text is read again, as
    ``segment()`` reads it, reusing the blocks already read."""
    text = received.text()
    at = resume.at
    if at == 0 or (mode is not None and decode_transport(text, mode) != text):
        return segment_counted(
            text, reader.message_id, reader.profile, mode, reader.limits, known=reader.known,
            loader=reader.loader,
        )  # fmt: skip
    reading = read(
        received.slice(at - 1, received.size), at - 1, resume, lexemes(), reader.compat,
        final=True, limit=received.size, line_runs=line_runs, words=received.words,
    )  # fmt: skip
    segments, blocks = final_segments(final, reading, resume, reader, received)
    diagnostics: list[Diagnostic] = []
    overflows: list[BlockOverflow] = []
    for block in blocks:
        diagnostics.extend(block.segment.diagnostics)
        if block.overflow is not None:
            overflows.append((block.segment.start, block.overflow))
    diagnostics.extend(near_before(near, text, reader.compat))
    for found in reading.near_misses:
        diagnostics.append(near_diagnostic(found, received.line_col))
    return finalize(segments, diagnostics, overflows, limit, None), reading.scanned
