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
from replykit.diagnostics import Diagnostic, LeftOut
from replykit.questionnaire.compat import Compat, decode_transport
from replykit.questionnaire.limits import Limits
from replykit.questionnaire.model import Segment, Segmentation
from replykit.questionnaire.payload.yaml_loader import choose_loader
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

#: A block reader's overflow (§2.1) and the offset where its block's segment starts.
BlockOverflow = tuple[int, Overflow[Diagnostic]]

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
    loader: str | None = None,
) -> tuple[Segmentation, int]:
    """:func:`segment` with its arguments checked and ``compat`` resolved; also the
    characters its scanner examined (the measure of work the streaming reader's bound
    of §10 is stated in). ``known``: blocks already read, by id, part and preface flag
    (a streaming reader's: each is what :func:`read_block` returns for them);
    ``loader``: the YAML event source chosen up front (``None``: chosen now, §1.2)."""
    decoded = None
    if mode is not None:
        plain = decode_transport(text, mode)
        if plain != text:
            text = decoded = plain
    read = _read(text, mode, checked)
    if read is None:
        segs = (_segment("markdown", 0, len(text), text),) if text else ()
        return _segmentation(segs, (), decoded), 0
    chosen = choose_loader() if loader is None else loader
    ctx = Context(text, LineIndex(text), profile, mode or _STRICT, limits, chosen)
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
    overflows: list[BlockOverflow] = []
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
            overflows.append((block.segment.start, block.overflow))
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
    overflows: list[BlockOverflow],
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


#: A diagnostic's place in the message's order (§2): its offset, then its block's
#: ordinal (near-misses after every block), then its position in that block's order.
_Place = tuple[int, int, float]


def _capped(
    segments: list[Segment],
    diagnostics: list[Diagnostic],
    overflows: list[BlockOverflow],
    limit: int,
    decoded: str | None,
) -> Segmentation:
    """Apply the message cap of §2.1 and give each block the kept diagnostics it owns,
    the summary to the block of the first diagnostic left out."""
    blocks = [seg for seg in segments if seg.kind != "markdown"]
    where: dict[int, _Place] = {}
    for b, seg in enumerate(blocks):
        for pos, d in enumerate(seg.diagnostics):
            where[id(d)] = (d.start, b, float(pos))
    verdicts = _verdicts(segments)
    kept, overflow, _index = cap(
        diagnostics,
        limit,
        code=lambda d: d.code,
        severity=lambda d: d.severity,
        protected=lambda d: id(d) in verdicts or d.code in ALWAYS_SHOWN,
        reserve=bool(overflows),
    )
    ordinal = {seg.start: b for b, seg in enumerate(blocks)}
    # Each candidate for the first left out, with its place; a block reader's stands
    # before the kept diagnostic its ``before`` names.
    firsts: list[tuple[_Place, Diagnostic]] = [
        ((o.first.start, ordinal[at], o.before - 0.5), o.first) for at, o in overflows
    ]
    if overflow is not None:
        firsts.append((where[id(overflow.first)], overflow.first))
    if not firsts:
        return Segmentation(tuple(segments), tuple(kept), decoded)
    place, first = min(firsts, key=lambda pair: pair[0])
    counts = merge_counts(overflow.counts if overflow else (), *(o.counts for _at, o in overflows))
    summary = _summary(first, counts, limit)
    nowhere = len(blocks)  # a near-miss: after every block's diagnostics at its offset
    index = next(
        (i for i, d in enumerate(kept) if where.get(id(d), (d.start, nowhere, 0.0)) > place),
        len(kept),
    )
    kept.insert(index, summary)
    keep = {id(d) for d in kept}
    out: list[Segment] = []
    b = -1
    for seg in segments:
        if seg.kind != "markdown":
            b += 1
            seg = _owned(seg, keep, summary if b == place[1] else None, place[2])
        out.append(seg)
    return Segmentation(tuple(out), tuple(kept), decoded)


def _summary(first: Diagnostic, counts: tuple[LeftOut, ...], limit: int) -> Diagnostic:
    """The ``limit.diagnostics`` warning: where ``first`` stands (its offsets, line and
    column; path ``None``), counting ``counts``."""
    params, variant = summary_params(counts, limit)
    return Diagnostic(
        LIMIT_DIAGNOSTICS,
        "warning",
        summary_message(counts, limit),
        first.start,
        first.end,
        first.line,
        first.column,
        None,
        counts,
        params=params,
        variant=variant,
    )


def _owned(seg: Segment, keep: set[int], summary: Diagnostic | None, at: float) -> Segment:
    """``seg`` with the kept diagnostics it owns, in its order, and ``summary`` (when
    given) before the first of them whose position in its order is past ``at``."""
    own: list[Diagnostic] = []
    for pos, d in enumerate(seg.diagnostics):
        if summary is not None and pos > at:
            own.append(summary)
            summary = None
        if id(d) in keep:
            own.append(d)
    if summary is not None:
        own.append(summary)
    if len(own) == len(seg.diagnostics) and all(
        a is b for a, b in zip(own, seg.diagnostics, strict=True)
    ):
        return seg
    return attrs.evolve(seg, diagnostics=tuple(own))
