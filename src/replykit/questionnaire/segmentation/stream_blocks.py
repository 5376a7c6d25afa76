"""Blocks of a streamed message: read once each, and the pending tail (§10).

A streaming segmenter does not hold the message as one string while it arrives. Each
candidate it reads is cut out of the text received (from the line ending before its
opener, so offset 0 of the piece is never a line start: §1's byte-order mark holds
only at the message's start), read by the same block readers ``segment()`` uses
(:func:`~replykit.questionnaire.segmentation.assemble.read_block`), and placed back at
its message offsets, lines and columns. :func:`pending_items` describes what is not
final yet after a reading.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import attrs

from replykit.codes.segment import ALWAYS_SHOWN
from replykit.diagnostics import Diagnostic
from replykit.questionnaire.compat import Compat
from replykit.questionnaire.info_string import fence_name
from replykit.questionnaire.limits import Limits
from replykit.questionnaire.model import Question, Segment
from replykit.questionnaire.profiles import RESPONSE_SUFFIX, Profile
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.parts import FencedPart, MarkdownRun, XmlPart
from replykit.questionnaire.segmentation.assemble import KnownKey, read_block
from replykit.questionnaire.segmentation.blocks import Block, Context
from replykit.questionnaire.segmentation.stream_preview import (
    fenced_preview,
    next_preview,
    xml_preview,
)
from replykit.questionnaire.segmentation.stream_reading import Reading, Resume
from replykit.questionnaire.segmentation.stream_shapes import (
    BlockKind,
    Pending,
    PendingBlock,
    PendingMarkdown,
    new_pending,
)
from replykit.questionnaire.segmentation.stream_tail import NEVER
from replykit.text import LineIndex
from replykit.trusted import Rebuild

LineCol = Callable[[int], tuple[int, int]]
TextOf = Callable[[int, int], str]
_TAG_NAME = re.compile(r"<\\?/?([A-Za-z0-9-]+)")


class PartReader:
    """Reads candidate parts of one message into blocks (ids ``{message_id}_q{n}``,
    §6) and describes pending ones."""

    def __init__(
        self, message_id: str, profile: Profile, compat: Compat, limits: Limits, preview: bool,
        loader: str = "auto",
    ) -> None:  # fmt: skip
        self.loader = loader  # chosen once, at the segmenter's construction (§1.2)
        self.message_id = message_id
        self.profile = profile
        self.compat = compat
        self.limits = limits
        self.preview = preview
        #: Every block read, for ``finish()`` to reuse (``segment()`` reads each the same).
        self.known: dict[KnownKey, Block] = {}
        # The unclosed fenced candidate's last preview: its opener's start, its payload's
        # start and length then, and the questions (read again: stream_preview.py).
        self._growing: tuple[int, int, int, tuple[Question, ...]] | None = None
        #: Code points of payload read for previews (all of them: about five times each
        #: unclosed payload's length, plus each closed pending block's per reading).
        self.previewed = 0

    def read(
        self, part: FencedPart | XmlPart, ordinal: int, visible: bool, text_of: TextOf,
        line_col: LineCol,
    ) -> Block:  # fmt: skip
        """The block of ``part`` (message offsets), the ``ordinal``-th candidate,
        ``visible`` prose before it (§4 preface)."""
        start = part.opener[0]
        base = start - 1 if start else 0
        end = part.closer[1] if part.closer is not None else part.payload[1]
        piece = text_of(base, end)
        ctx = Context(piece, LineIndex(piece), self.profile, self.compat, self.limits, self.loader)
        block_id = f"{self.message_id}_q{ordinal}"
        block = _placed(read_block(_moved(part, -base), block_id, visible, ctx), base, line_col)
        self.known[(block_id, part, visible)] = block
        return block

    def final(self, seg: Segment) -> PendingBlock:
        """A final block that is not committed yet, as a pending item."""
        assert seg.name is not None and seg.id is not None and seg.encoding is not None
        kind = _kind(seg.name)
        preview = None
        if self.preview:
            preview = seg.questionnaire.questions if seg.questionnaire is not None else ()
        return PendingBlock(kind, seg.encoding, seg.name, seg.id, seg.start, True, False, preview)

    def pending(
        self, part: FencedPart | XmlPart, ordinal: int, tentative: bool, text_of: TextOf
    ) -> PendingBlock:
        """A candidate of the text read that is not final (``tentative``: see
        :class:`PendingBlock`)."""
        opener = text_of(*part.opener).lstrip("\ufeff")
        block_id = f"{self.message_id}_q{ordinal}"
        if isinstance(part, FencedPart):
            m = lexemes().fence_opener.match(opener)
            name = fence_name(m.group("info")) if m is not None else ""
            name = name.lower() if self.compat.case_insensitive else name
            closed = part.closer is not None
            shape = (len(m.group("indent")), len(m.group("fence"))) if m is not None else (0, 3)
            if closed:
                preview = self._fenced(part.payload, text_of, shape, True)
            else:
                preview = self._growing_preview(part.opener[0], part.payload, text_of, shape)
            return PendingBlock(
                "questionnaire", "fenced_yaml", name, block_id, part.opener[0], closed,
                tentative, preview,
            )  # fmt: skip
        name = self.name(opener)
        preview = None
        if self.preview:
            start, end = part.opener[1], part.closer[0]
            self.previewed += end - start
            preview = xml_preview(text_of(start, end), self.limits)
        return PendingBlock(
            _kind(name), "xml_json", name, block_id, part.opener[0], True, tentative, preview
        )

    def open_tag(self, name: str, start: int, ordinal: int, after: str) -> PendingBlock:
        """An opening tag read without its closer: a tentative block (§10)."""
        name = name.lower() if self.compat.case_insensitive else name
        preview = () if self.preview else None  # JSON reads only once complete
        block_id = f"{self.message_id}_q{ordinal}"
        return PendingBlock(_kind(name), "xml_json", name, block_id, start, False, True, preview)

    def name(self, tag: str) -> str:
        """The block name of an opening tag's text, as ``segment()`` reports it."""
        m = _TAG_NAME.match(tag)
        name = m.group(1) if m is not None else ""
        return name.lower() if self.compat.case_insensitive else name

    def preview_due(self, items: tuple[Pending, ...]) -> int:
        """Where (a message offset) the complete lines must reach for the preview of
        the unclosed fenced candidate that ends ``items`` (a reading's pending items) to
        be read again (:func:`.stream_preview.next_preview`); ``NEVER`` when there is
        none or ``preview`` is off."""
        slot, last = self._growing, items[-1] if items else None
        if slot is None or not isinstance(last, PendingBlock) or last.closed:
            return NEVER
        opener, start, length, _ = slot
        return start + next_preview(length) if last.start == opener else NEVER

    def _growing_preview(
        self, opener: int, payload: tuple[int, int], text_of: TextOf, shape: tuple[int, int]
    ) -> tuple[Question, ...] | None:
        """The preview of an unclosed fenced candidate: read again only once its
        payload grew enough since the last read (linear in total), else the last one;
        a read that finds fewer questions keeps the last (a preview never shrinks)."""
        if not self.preview:
            return None
        start, end = payload
        slot = self._growing
        if slot is not None and slot[0] == opener and end - start < next_preview(slot[2]):
            return slot[3]
        questions = self._fenced(payload, text_of, shape, False)
        assert questions is not None
        if slot is not None and slot[0] == opener and len(questions) < len(slot[3]):
            questions = slot[3]
        self._growing = (opener, start, end - start, questions)
        return questions

    def _fenced(
        self, payload: tuple[int, int], text_of: TextOf, shape: tuple[int, int], closed: bool
    ) -> tuple[Question, ...] | None:
        """A fenced candidate's preview (``shape``: its opener's indentation and fence
        length); ``None`` without ``preview``."""
        if not self.preview:
            return None
        self.previewed += payload[1] - payload[0]
        indent, fence_length = shape
        return fenced_preview(
            text_of(*payload), self.limits, closed=closed, indent=indent,
            fence_length=fence_length, loader=self.loader,
        )  # fmt: skip


def _kind(name: str) -> BlockKind:
    return "questionnaire_response" if name.endswith(RESPONSE_SUFFIX) else "questionnaire"


def cap_safe(block: Block) -> bool:
    """Whether the message cap of §1 can never trim the block's diagnostics: each is
    one the cap always keeps (its first error, a near-miss, ``name.unregistered``) and
    its reader left nothing out."""
    if block.overflow is not None:
        return False
    first_error = next((d for d in block.segment.diagnostics if d.severity == "error"), None)
    return all(d is first_error or d.code in ALWAYS_SHOWN for d in block.segment.diagnostics)


def pending_items(
    reading: Reading, resume: Resume, reader: PartReader, text_of: TextOf, committed: int
) -> tuple[Pending, ...]:
    """The pending items a reading found after the resume point and the ``committed``
    end (Markdown lines may be committed past the resume point without a reading), cut
    at the first opening tag without a closer (a tentative block to the end, §10) or at
    tag-like text that may still grow into a tag (Markdown to the end: what follows
    may be its attributes); Markdown items joined."""
    items: list[Pending] = []
    at = resume.at
    floor = max(at, committed)
    ordinal = resume.ordinal
    miss = min((m.start for m in reading.misses if m.opening and m.start >= at), default=None)
    grows = (
        reading.grows if reading.grows >= floor and (miss is None or reading.grows < miss) else -1
    )
    cut = grows if grows >= 0 else miss
    for part in reading.parts:
        if cut is not None and part.start >= cut:
            break
        if isinstance(part, MarkdownRun):
            # Only Markdown that shows: none is empty before a tentative block.
            if min(part.end, cut if cut is not None else part.end) > max(part.start, floor):
                items.append(new_pending(max(part.start, floor)))
            continue
        is_open = resume.fence is not None and part.opener == resume.fence.opener
        if part.start < at and not is_open:
            continue
        if not is_open:
            ordinal += 1
        number = resume.fence.ordinal if is_open and resume.fence is not None else ordinal
        items.append(reader.pending(part, number, part.start >= reading.taint, text_of))
        end = -1 if grows < 0 else part.closer[1] if part.closer else part.payload[1]
        if part.start <= grows < end:  # the tag-like text is this candidate's payload
            grows, cut = -1, miss
    if grows >= 0:
        items.append(new_pending(grows))
    elif miss is not None:
        found = next(m for m in reading.misses if m.start == miss)
        after = text_of(miss, miss + 1) and ""
        items.append(reader.open_tag(found.name, miss, ordinal + 1, after))
    return tuple(_joined(items))


def _joined(items: list[Pending]) -> list[Pending]:
    out: list[Pending] = []
    for item in items:
        if isinstance(item, PendingMarkdown) and out and isinstance(out[-1], PendingMarkdown):
            continue
        out.append(item)
    return out


def _moved(part: FencedPart | XmlPart, delta: int) -> FencedPart | XmlPart:
    def move(span: tuple[int, int]) -> tuple[int, int]:
        return span[0] + delta, span[1] + delta

    if isinstance(part, XmlPart):
        return XmlPart(move(part.opener), move(part.closer))
    closer = move(part.closer) if part.closer is not None else None
    return FencedPart(move(part.opener), move(part.payload), closer)


def _placed(block: Block, delta: int, line_col: LineCol) -> Block:
    """``block`` read on a piece of the message starting at ``delta``, in message
    offsets, lines and columns (rebuilt as its reader built it: moving every offset
    keeps each value's invariants, trusted.py)."""

    def place(d: Diagnostic) -> Diagnostic:
        line, col = line_col(d.start + delta)
        return _DIAGNOSTIC.rebuilt(d, start=d.start + delta, end=d.end + delta, line=line,
                                   column=col)  # fmt: skip

    seg = block.segment
    diagnostics = tuple(place(d) for d in seg.diagnostics)
    seg = _SEGMENT.rebuilt(seg, start=seg.start + delta, end=seg.end + delta,
                           diagnostics=diagnostics)  # fmt: skip
    overflow = block.overflow
    if overflow is not None:
        overflow = attrs.evolve(overflow, first=place(overflow.first))
    return Block(seg, overflow)


_SEGMENT = Rebuild(Segment)
_DIAGNOSTIC = Rebuild(Diagnostic)
