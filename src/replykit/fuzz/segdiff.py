"""Comparing two ``segment`` answers as a user sees them first (docs/fuzzing.md).

A client shows a valid block as a card and everything else (Markdown, an unregistered
block, a registered but invalid block) as text (docs/protocol.md §2). Two
answers that show the same cards differ only in *representation*: a harmless
difference (an unclosed fence one side reports as an invalid block and the other as
Markdown) must not hide, or be counted with, a difference a user sees. So
:func:`segment_difference` looks in three stages and reports the first difference of
the first stage that has one:

1. ``view``: the cards, left to right: where each starts and ends, its kind, encoding,
   name, registration, id and form (the fields the adapter gives). A card one side
   has and the other does not is a difference here; a card whose id moved because one
   side counted an earlier block that the other did not is reported as that block
   (stage ``blocks``, field ``kind`` or ``end``): the cause, not its consequence.
2. ``blocks``: every block, shown or not (boundaries, kind, name, registration,
   validity, id, diagnostics, form).
3. ``rest``: everything else :func:`~replykit.fuzz.compare.first_difference` compares
   (Markdown texts, the message's diagnostics).

An adapter block without ``valid`` is shown as replykit shows a block at the same
place (a field the adapter leaves out is not compared), else as a card; one with
``registered: false`` is text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

import attrs

from replykit.fuzz.compare import Difference, first_difference, value_difference

Stage = Literal["view", "blocks", "rest"]
#: Card fields compared in the view stage, in this order, when the adapter gives them.
VIEW_FIELDS: Final = ("kind", "encoding", "name", "registered", "id", "questionnaire", "response")


@attrs.frozen
class SegmentDifference:
    """The first difference of two ``segment`` answers.

    ``stage``: ``view``, ``blocks`` or ``rest`` (module docstring); ``field``: the
    segment field that differs (``kind``, ``end``, ``valid``, ``id`` ...; ``None`` for a
    difference outside one segment); ``expected_index``/``actual_index``: the segment of
    each side at that place (``None`` when that side has none there);
    ``difference``: the field's path in replykit's answer and both values.
    """

    stage: Stage
    field: str | None
    expected_index: int | None
    actual_index: int | None
    difference: Difference


def _segments(response: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    raw = response.get("segments")
    if not isinstance(raw, list):
        return []
    return [s if isinstance(s, Mapping) else {} for s in raw]


def _is_block(seg: Mapping[str, Any]) -> bool:
    return seg.get("kind") not in (None, "markdown")


def _span(seg: Mapping[str, Any]) -> tuple[Any, Any]:
    return seg.get("start"), seg.get("end")


def _live_expected(seg: Mapping[str, Any]) -> bool:
    return _is_block(seg) and seg.get("valid") is True


def _live_actual(seg: Mapping[str, Any], borrowed: Mapping[tuple[Any, Any], bool]) -> bool:
    if not _is_block(seg) or seg.get("registered") is False:
        return False
    valid = seg.get("valid")
    if isinstance(valid, bool):
        return valid
    return borrowed.get(_span(seg), True)


def _covering(segs: Sequence[Mapping[str, Any]], offset: Any) -> int | None:
    """The index of the segment that holds ``offset`` (the first that starts there)."""
    if not isinstance(offset, int):
        return None
    for i, seg in enumerate(segs):
        start, end = _span(seg)
        if isinstance(start, int) and isinstance(end, int) and start <= offset < end:
            return i
        if start == offset:
            return i
    return None


def _make(
    stage: Stage,
    field: str | None,
    e_segs: Sequence[Mapping[str, Any]],
    a_segs: Sequence[Mapping[str, Any]],
    ei: int | None,
    ai: int | None,
) -> SegmentDifference:
    e = e_segs[ei] if ei is not None else {}
    a = a_segs[ai] if ai is not None else {}
    index = ei if ei is not None else len(e_segs)
    path: tuple[str | int, ...] = ("segments", index) + ((field,) if field else ())
    diff = Difference(path, e.get(field) if field else None, a.get(field) if field else None)
    return SegmentDifference(stage, field, ei, ai, diff)


def _unmatched(
    stage: Stage,
    e_segs: Sequence[Mapping[str, Any]],
    a_segs: Sequence[Mapping[str, Any]],
    ei: int | None,
    ai: int | None,
    expected_side: bool,
) -> SegmentDifference:
    """One side has a block (card) at a place where the other has not: name the field
    that tells them apart at that place."""
    if expected_side:
        assert ei is not None
        ai = _covering(a_segs, e_segs[ei].get("start"))
    else:
        assert ai is not None
        ei = _covering(e_segs, a_segs[ai].get("start"))
    e = e_segs[ei] if ei is not None else {}
    a = a_segs[ai] if ai is not None else {}
    field = "kind"
    if _is_block(e) and _is_block(a) and e.get("start") == a.get("start"):
        if e.get("end") != a.get("end"):
            field = "end"
        elif "registered" in a and e.get("registered") != a.get("registered"):
            field = "registered"
        else:
            field = "valid"
    return _make(stage, field, e_segs, a_segs, ei, ai)


def _walk(
    stage: Stage,
    e_segs: Sequence[Mapping[str, Any]],
    a_segs: Sequence[Mapping[str, Any]],
    e_items: list[int],
    a_items: list[int],
) -> SegmentDifference | None:
    i = j = 0
    while i < len(e_items) or j < len(a_items):
        ei = e_items[i] if i < len(e_items) else None
        ai = a_items[j] if j < len(a_items) else None
        e = e_segs[ei] if ei is not None else None
        a = a_segs[ai] if ai is not None else None
        if e is not None and a is not None and e.get("start") == a.get("start"):
            if e.get("end") != a.get("end"):
                return _make(stage, "end", e_segs, a_segs, ei, ai)
            if stage == "view":
                for field in VIEW_FIELDS:
                    if field in a and value_difference(e.get(field), a[field], ()) is not None:
                        return _make(stage, field, e_segs, a_segs, ei, ai)
            else:
                found = value_difference(e, a, ("segments", ei if ei is not None else 0))
                if found is not None:
                    part = found.path[2] if len(found.path) > 2 else None
                    name = part if isinstance(part, str) else None
                    return SegmentDifference(stage, name, ei, ai, found)
            i += 1
            j += 1
            continue
        e_start = e.get("start") if e is not None else None
        a_start = a.get("start") if a is not None else None
        if a is None or (
            e is not None and isinstance(e_start, int) and isinstance(a_start, int)
            and e_start < a_start
        ):  # fmt: skip
            return _unmatched(stage, e_segs, a_segs, ei, None, True)
        return _unmatched(stage, e_segs, a_segs, None, ai, False)
    return None


def _utf16_to_code_points(text: str) -> dict[int, int]:
    """Each code point boundary of ``text`` by its offset in UTF-16 code units."""
    out, units = {0: 0}, 0
    for i, ch in enumerate(text):
        units += 2 if ord(ch) > 0xFFFF else 1
        out[units] = i + 1
    return out


def _converted(item: Mapping[str, Any], table: Mapping[int, int]) -> dict[str, Any] | None:
    out = dict(item)
    for field in ("start", "end"):
        value = item.get(field)
        if isinstance(value, int) and not isinstance(value, bool):
            if value not in table:
                return None
            out[field] = table[value]
    return out


def code_point_offsets(text: str, actual: Mapping[str, Any]) -> dict[str, Any] | None:
    """An adapter's ``segment`` answer ``actual`` with its offsets turned from UTF-16 code
    units into code points (docs/protocol.md §1), when it counts in UTF-16: its last
    segment ends at the length of ``text`` in UTF-16 code units, which differs from its
    length in code points, and every ``start``/``end`` of its segments and diagnostics is
    a code point boundary in UTF-16 units. Else ``None``. Linear; never raises."""
    segs = _segments(actual)
    ends = [s.get("end") for s in segs]
    table = _utf16_to_code_points(text)
    units = max(table)
    if units == len(text) or not ends or ends[-1] != units:
        return None
    out_segs = []
    for seg in segs:
        converted = _converted(seg, table)
        if converted is None:
            return None
        out_segs.append(converted)
    result: dict[str, Any] = {**actual, "segments": out_segs}
    diags = actual.get("diagnostics")
    if isinstance(diags, list):
        out_diags: list[Any] = []
        for d in diags:
            converted = _converted(d, table) if isinstance(d, Mapping) else None
            out_diags.append(converted if converted is not None else d)
        result["diagnostics"] = out_diags
    return result


def _cause_of_moved_id(
    card: SegmentDifference,
    block: SegmentDifference | None,
    e_segs: Sequence[Mapping[str, Any]],
    a_segs: Sequence[Mapping[str, Any]],
) -> SegmentDifference:
    """A card whose id moved because one side counts an earlier block the other does
    not: the difference is that block (stage ``blocks``), the cause a user would fix;
    any other card difference stays as found."""
    if card.field != "id" or block is None or block.field not in ("kind", "end"):
        return card
    at = card.expected_index
    where = e_segs[at].get("start") if at is not None else None
    if block.expected_index is not None:
        there = e_segs[block.expected_index].get("start")
    elif block.actual_index is not None:
        there = a_segs[block.actual_index].get("start")
    else:
        there = None
    if isinstance(where, int) and isinstance(there, int) and there < where:
        return block
    return card


def segment_difference(
    expected: Mapping[str, Any], actual: Mapping[str, Any]
) -> SegmentDifference | None:
    """The first difference between replykit's ``segment`` answer ``expected`` and an
    adapter's ``actual`` (both ``{"segments": [...], "diagnostics"?: [...]}``), looked
    for in the stages of the module docstring, or ``None`` when they agree on every
    compared field. Never raises."""
    e_segs, a_segs = _segments(expected), _segments(actual)
    borrowed = {_span(s): _live_expected(s) for s in e_segs if _is_block(s)}
    e_cards = [i for i, s in enumerate(e_segs) if _live_expected(s)]
    a_cards = [i for i, s in enumerate(a_segs) if _live_actual(s, borrowed)]
    found = _walk("view", e_segs, a_segs, e_cards, a_cards)
    e_blocks = [i for i, s in enumerate(e_segs) if _is_block(s)]
    a_blocks = [i for i, s in enumerate(a_segs) if _is_block(s)]
    if found is not None:
        blocks = _walk("blocks", e_segs, a_segs, e_blocks, a_blocks)
        return _cause_of_moved_id(found, blocks, e_segs, a_segs)
    found = _walk("blocks", e_segs, a_segs, e_blocks, a_blocks)
    if found is not None:
        return found
    rest = first_difference(expected, actual)
    if rest is None:
        return None
    path = rest.path
    if len(path) >= 2 and path[0] == "segments" and isinstance(path[1], int):
        index = path[1]
        field = path[2] if len(path) > 2 and isinstance(path[2], str) else None
        ei = index if index < len(e_segs) else None
        ai = index if index < len(a_segs) else None
        return SegmentDifference("rest", field, ei, ai, rest)
    return SegmentDifference("rest", None, None, None, rest)


__all__ = [
    "VIEW_FIELDS",
    "SegmentDifference",
    "Stage",
    "code_point_offsets",
    "segment_difference",
]
