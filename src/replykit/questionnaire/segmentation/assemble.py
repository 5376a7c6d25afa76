"""The work of ``segment()`` below its argument checks (§2-§6), compiled in the
opt-in build (docs/performance.md, "Compiled build"): the scanner and the grammar give
the raw parts, the preface rule and ids are applied, each block goes to ``blocks.py``,
and the diagnostics are sorted and capped (§1). ``segmenter.py`` holds the checked
public entry point.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from replykit.cap import (
    LIMIT_DIAGNOSTICS,
    Overflow,
    cap,
    merge_counts,
    summary_message,
    summary_params,
)
from replykit.codes.segment import ALWAYS_SHOWN
from replykit.diagnostics import Diagnostic
from replykit.questionnaire.compat import Compat, decode_transport
from replykit.questionnaire.limits import Limits
from replykit.questionnaire.model import Segment, Segmentation
from replykit.questionnaire.profiles import Profile
from replykit.questionnaire.scan.checked import check_reading, compare
from replykit.questionnaire.scan.grammar import lexemes, parse
from replykit.questionnaire.scan.lookahead import Lookahead, find_family_word
from replykit.questionnaire.scan.near_miss import NearMiss
from replykit.questionnaire.scan.parts import FencedPart, MarkdownRun, Part, XmlPart
from replykit.questionnaire.scan.scanner import Scanner
from replykit.questionnaire.segmentation.blocks import Block, Context, fenced_block, xml_block
from replykit.text import LineIndex
from replykit.trusted import trusted

# No §9 relaxation (a frozen value, shared).
_STRICT = Compat()
# The segmenter's own values: built without the public constructors' checks (trusted.py).
_segment = trusted(Segment)
_segmentation = trusted(Segmentation)
_diagnostic = trusted(Diagnostic)

#: How a block already read is known: its id, its part and whether visible prose came
#: before it (§4 preface).
KnownKey = tuple[str, FencedPart | XmlPart, bool]


def segment_counted(
    text: str,
    message_id: str,
    profile: Profile,
    mode: Compat | None,
    limits: Limits,
    checked: bool = False,
    known: Mapping[KnownKey, Block] | None = None,
) -> tuple[Segmentation, int]:
    """:func:`segment` with its arguments checked and ``compat`` resolved; also the
    characters its scanner examined (the measure of work the streaming reader's bound
    of §10 is stated in). ``known``: blocks already read, by id, part and preface flag
    (a streaming reader's: each is what :func:`read_block` returns for them)."""
    decoded = None
    if mode is not None:
        plain = decode_transport(text, mode)
        if plain != text:
            text = decoded = plain
    read = _read(text, mode, checked)
    if read is None:
        segs = (_segment("markdown", 0, len(text), text),) if text else ()
        return _segmentation(segs, (), decoded), 0
    ctx = Context(text, LineIndex(text), profile, mode or _STRICT, limits)
    return _assemble(read[0], read[1], message_id, ctx, decoded, known or {}), read[2]


def _assemble(
    parts: list[Part],
    near_misses: list[NearMiss],
    message_id: str,
    ctx: Context,
    decoded: str | None,
    known: Mapping[KnownKey, Block],
) -> Segmentation:
    """The segments of the parts (the preface rule, ids, each block read by
    ``blocks.py``) and every diagnostic, capped (§1). Empties ``near_misses``."""
    text = ctx.text
    segments: list[Segment] = []
    diagnostics: list[Diagnostic] = []
    overflows: list[Overflow[Diagnostic]] = []
    seen_visible = False
    ordinal = 0
    for part in parts:
        if isinstance(part, MarkdownRun):
            seen_visible = seen_visible or part.visible
            segments.append(_segment("markdown", part.start, part.end, text[part.start : part.end]))
            continue
        ordinal += 1
        block_id = f"{message_id}_q{ordinal}"
        block = known.get((block_id, part, seen_visible)) or read_block(
            part, block_id, seen_visible, ctx
        )
        segments.append(block.segment)
        diagnostics.extend(block.segment.diagnostics)
        if block.overflow is not None:
            overflows.append(block.overflow)
    # Each near-miss becomes a diagnostic and is let go at once: the two are never all
    # held together (§1, memory of a message dense with near-misses).
    near_misses.reverse()
    while near_misses:
        diagnostics.append(near_miss_diagnostic(near_misses.pop(), ctx.lines))
    return finalize(segments, diagnostics, overflows, ctx.limits.max_diagnostics, decoded)


def read_block(
    part: FencedPart | XmlPart, block_id: str, seen_visible: bool, ctx: Context
) -> Block:
    """Read one candidate part into its :class:`Block` (``seen_visible``: visible prose
    came before it, the preface rule of §4)."""
    if isinstance(part, FencedPart):
        end = (part.closer or part.payload)[1]
        closed = part.closer is not None
        return fenced_block(part.opener, part.payload, end, closed, seen_visible, block_id, ctx)
    return xml_block(part.opener, part.closer, block_id, ctx)


def finalize(
    segments: list[Segment],
    diagnostics: list[Diagnostic],
    overflows: list[Overflow[Diagnostic]],
    limit: int,
    decoded: str | None,
) -> Segmentation:
    """The message's result from its segments and, in this order, its blocks'
    diagnostics (part order) then its near-misses (scan order): the diagnostics sorted
    by offset (a stable sort) and capped (§1), the summary placed. ``overflows``: what
    the blocks' readers left out. Shared with the streaming reader's ``finish()``."""
    diagnostics.sort(key=lambda d: d.start)
    if len(diagnostics) > limit or overflows:
        return _capped(segments, diagnostics, overflows, limit, decoded)
    return _segmentation(tuple(segments), tuple(diagnostics), decoded)


def near_miss_diagnostic(nm: NearMiss, lines: LineIndex) -> Diagnostic:
    """The warning of a near-miss the scanner found (§8), with the parameters and
    variant its message was rendered from."""
    start, end = nm.start or 0, nm.end or 0
    line, col = lines.line_col(start)
    return _diagnostic(
        nm.code,
        nm.severity,
        nm.message,
        start,
        end,
        line,
        col,
        params=nm.params,
        variant=nm.variant,
    )


def _read(
    text: str, compat: Compat | None, checked: bool
) -> tuple[list[Part], list[NearMiss], int] | None:
    """The message's raw parts, near-misses and characters scanned, or None when it
    cannot hold a block (the near-misses in a list of their own, which the caller
    empties)."""
    # Exact: without the family word (in any ASCII case) there can be no candidate and
    # no near-miss, so the message is one Markdown segment.
    lx = lexemes()
    first_word = find_family_word(text, lx)
    possible = first_word < len(text)
    if checked:
        reading = check_reading(text, compat)
        compare(text, reading, compat, possible)
        return list(reading.parts), list(reading.near_misses), len(text)
    if not possible:
        return None
    mode = compat or _STRICT
    look = Lookahead(text, lx, mode, first_word)  # the word is not searched for again
    scan = Scanner(text, lx, compat=mode, look=look).run()
    return parse(text, scan.tokens), list(scan.near_misses), scan.scanned


def _verdicts(segments: list[Segment]) -> set[int]:
    """``id()`` of the diagnostics the cap never hides (§1): the first error of every
    block (its ``diagnostics`` order); near-misses and ``name.unregistered`` are
    recognized by code."""
    out: set[int] = set()
    for seg in segments:
        first = next((d for d in seg.diagnostics if d.severity == "error"), None)
        if first is not None:
            out.add(id(first))
    return out


def _capped(
    segments: list[Segment],
    diagnostics: list[Diagnostic],
    overflows: list[Overflow[Diagnostic]],
    limit: int,
    decoded: str | None,
) -> Segmentation:
    """Apply the message cap of §1 and give each block the kept diagnostics it owns."""
    verdicts = _verdicts(segments)
    kept, overflow, index = cap(
        diagnostics,
        limit,
        code=lambda d: d.code,
        severity=lambda d: d.severity,
        protected=lambda d: id(d) in verdicts or d.code in ALWAYS_SHOWN,
        reserve=bool(overflows),
    )
    firsts = [o.first for o in overflows] + ([overflow.first] if overflow else [])
    if not firsts:
        return Segmentation(tuple(segments), tuple(kept), decoded)
    first = min(firsts, key=lambda d: d.start)
    counts = merge_counts(*(o.counts for o in overflows), overflow.counts if overflow else ())
    # The summary stands where the first left-out diagnostic does.
    line, col = first.line, first.column
    params, variant = summary_params(counts, limit)
    summary = Diagnostic(
        LIMIT_DIAGNOSTICS,
        "warning",
        summary_message(counts, limit),
        first.start,
        first.end,
        line,
        col,
        None,
        counts,
        params=params,
        variant=variant,
    )
    if overflow is None or first is not overflow.first:
        # Left out by a block's reader: after every kept diagnostic at the same offset.
        index = next((i for i, d in enumerate(kept) if d.start > first.start), len(kept))
    kept.insert(index, summary)
    keep = {id(d) for d in kept}
    out: list[Segment] = []
    for seg in segments:
        if seg.kind == "markdown":
            out.append(seg)
            continue
        own = [d for d in seg.diagnostics if id(d) in keep]
        if seg.start <= first.start < seg.end:
            own = _insert_summary(seg, own, first, summary, keep)
        if len(own) != len(seg.diagnostics) or any(
            a is not b for a, b in zip(own, seg.diagnostics, strict=True)
        ):
            seg = attrs.evolve(seg, diagnostics=tuple(own))
        out.append(seg)
    return Segmentation(tuple(out), tuple(kept), decoded)


def _insert_summary(
    seg: Segment,
    own: list[Diagnostic],
    first: Diagnostic,
    summary: Diagnostic,
    keep: set[int],
) -> list[Diagnostic]:
    """``own`` with ``summary`` where ``first`` stood in the block's order, or after its
    last kept diagnostic when ``first`` was left out by the block's reader."""
    position = next((i for i, d in enumerate(seg.diagnostics) if d is first), None)
    if position is None:
        return [*own, summary]
    before = sum(1 for d in seg.diagnostics[:position] if id(d) in keep)
    return [*own[:before], summary, *own[before:]]
