"""The ``stream`` operation of the adapter protocol: invariants, not commit points (§10).

The adapter receives a message's chunks and answers with what it committed after each
chunk and its final result (docs/fuzzing.md, "Streaming"). replykit does not compare
the adapter's commit points with its own (committing later is never wrong); it checks
that the adapter

- commits only text it has received, and never withdraws or reassigns what it
  committed: no committed range overlaps an earlier one, unless both are Markdown or
  both are the same block (``withdrawn``);
- commits nothing that the reference shows otherwise at the end: committed Markdown
  lies inside one final Markdown segment, a committed block equals the final block at
  its start on every field the adapter gives (``premature``);
- ends with the reference's result, compared as a ``segment`` answer is (``final``).

Hypothesis-free: the runner and the vector tests use it alike.
"""

from __future__ import annotations

import bisect
import itertools
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from replykit.fuzz.classify import ClassKey
from replykit.fuzz.compare import Difference, first_difference

#: The rule tag of every streaming finding (docs/protocol.md §10).
STREAM_RULE: Final = "§10"
_KEYS: Final = ("start", "end")
#: Chunks joined one pair at a time when shrinking, at most (more are only halved).
MAX_JOINS: Final = 64


def stream_text(body: Mapping[str, Any]) -> str:
    """The whole message of a ``stream`` request body (its ``chunks`` joined)."""
    chunks = body.get("chunks")
    if not isinstance(chunks, list) or not all(isinstance(c, str) for c in chunks):
        return ""
    return "".join(chunks)


def _offset(value: Any) -> int | None:
    """A code-point offset as JSON gives it: an integer, or a number with an integral
    value (``30`` equals ``30.0``, docs/fuzzing.md); ``None`` for anything else (a
    boolean, a string, ``2.5``)."""
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    return None


def _item_problem(value: Any) -> str:
    """What makes ``value`` no committed item (``""``: it is one)."""
    if not isinstance(value, Mapping):
        return "is not an object"
    if not isinstance(value.get("kind"), str):
        return "has no kind string"
    for key in _KEYS:
        if _offset(value.get(key)) is None:
            return f"{key} is not a code-point offset (an integer): {value.get(key)!r}"
    return ""


def _item(value: Any) -> Mapping[str, Any] | None:
    """A committed item as the protocol has it, its offsets as integers, or ``None``
    for a malformed one."""
    if _item_problem(value):
        return None
    start, end = _offset(value["start"]), _offset(value["end"])
    if start is value["start"] and end is value["end"]:
        return typing.cast(Mapping[str, Any], value)
    return {**value, "start": start, "end": end}


def shape_fault(body: Mapping[str, Any], actual: Mapping[str, Any]) -> str:
    """Why ``actual`` is no ``stream`` answer for ``body`` (``""``: it is one): one
    update per chunk, each ``{"committed": [items]}``, items with ``kind``, ``start``,
    ``end``; ``segments`` a list."""
    updates = actual.get("updates")
    chunks = body.get("chunks")
    if not isinstance(updates, list) or not isinstance(chunks, list):
        return "updates is not a list"
    if len(updates) != len(chunks):
        return f"{len(updates)} updates for {len(chunks)} chunks"
    for n, update in enumerate(updates):
        if not isinstance(update, Mapping) or not isinstance(update.get("committed"), list):
            return f"updates[{n}] has no committed list"
        for i, item in enumerate(update["committed"]):
            if problem := _item_problem(item):
                return f"updates[{n}].committed[{i}] {problem}"
    if not isinstance(actual.get("segments"), list):
        return "segments is not a list"
    return ""


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    if a.get("kind") == "markdown" and b.get("kind") == "markdown":
        return True
    return all(a.get(k) == b.get(k) for k in ("kind", "start", "end", "id"))


def _kinds(a: Mapping[str, Any], b: Mapping[str, Any] | None) -> str:
    return f"{a.get('kind')}>{b.get('kind') if b is not None else '-'}"


#: A finding: its role, its kinds, the first differing field and why, in one line.
Finding = tuple[str, str, Difference, str]


def commit_fault(
    body: Mapping[str, Any], actual: Mapping[str, Any], final: Sequence[Mapping[str, Any]]
) -> Finding | None:
    """The first committed item that breaks an invariant, as ``(role, kinds,
    difference, detail)``: ``withdrawn`` (beyond the text received, or overlapping an
    earlier commit it does not continue: the difference then holds the earlier
    commit's kind and this one's) or ``premature`` (the reference's final result shows
    it otherwise). ``final``: the reference's segments, in order. ``None``: none breaks
    one. Time: O(n log^2 n) in the items, whatever the adapter sends."""
    chunks = body["chunks"]
    received = 0
    taken: list[tuple[int, int, Mapping[str, Any]]] = []  # (update, index, item)
    out_of_range: Finding | None = None
    for n, update in enumerate(actual["updates"]):
        received += len(chunks[n])
        for i, raw in enumerate(update["committed"]):
            item = _item(raw)
            assert item is not None  # shape_fault checked
            start, end = item["start"], item["end"]
            if not 0 <= start < end <= received:
                diff = _bad_range(("updates", n, "committed", i), start, end, received)
                why = f"{_name(n, i, item)} is not within the {received} code points received"
                out_of_range = "withdrawn", _kinds(item, None), diff, why
                break
            taken.append((n, i, item))
        if out_of_range is not None:
            break
    k = _first_overlap([item for _, _, item in taken])
    if k is not None:
        return _overlap(taken[:k], *taken[k])
    if out_of_range is not None:
        return out_of_range
    starts = [s["start"] for s in final]
    for n, i, item in taken:
        found = _against_final(item, final, starts, ("updates", n, "committed", i))
        if found is not None:
            role, kinds, diff = found
            why = (
                f"{_name(n, i, item)} is not what the final result shows there (shown: "
                "replykit's final value, then the adapter's)"
            )
            return role, kinds, diff, why
    return None


def _first_overlap(items: list[Mapping[str, Any]]) -> int | None:
    """The index of the first item that overlaps an earlier one it does not continue
    (the last of the shortest prefix that :func:`_overlaps_any`, found by bisection);
    ``None`` when none does. O(n log^2 n), whatever the order of the ranges."""
    if not _overlaps_any(items):
        return None
    lo, hi = 0, len(items)  # items[:lo] holds no such overlap, items[:hi] does
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _overlaps_any(items[:mid]):
            hi = mid
        else:
            lo = mid
    return hi - 1


def _overlaps_any(items: list[Mapping[str, Any]]) -> bool:
    """Whether two of ``items`` overlap without one continuing the other (both Markdown,
    or the same block): one sweep in order of start, O(n log n). Each item is checked
    against those that start at or before it: the furthest-reaching Markdown range, and
    the furthest-reaching block of another identity (the best two are kept)."""
    markdown_end = -1
    best, best_key, second = -1, None, -1  # second: the furthest block not best_key's
    for item in sorted(items, key=lambda it: it["start"]):
        start, end = item["start"], item["end"]
        kind = item.get("kind")
        if kind == "markdown":
            if start < best:
                return True
            markdown_end = max(markdown_end, end)
            continue
        key = (kind, start, end, item.get("id"))
        if start < markdown_end or start < (second if key == best_key else best):
            return True
        if key == best_key:
            best = max(best, end)
        elif end > best:
            best, best_key, second = end, key, best
        else:
            second = max(second, end)
    return False


def _overlap(
    taken: list[tuple[int, int, Mapping[str, Any]]], n: int, i: int, item: Mapping[str, Any]
) -> Finding:
    """The finding for ``item`` overlapping an earlier commit it does not continue:
    the first such one in commit order (looked for once, at the fault)."""
    start, end = item["start"], item["end"]
    m, j, old = next(
        (m, j, old) for m, j, old in taken
        if old["start"] < end and start < old["end"] and not _same(old, item)
    )  # fmt: skip
    diff = Difference(("updates", n, "committed", i, "kind"), old.get("kind"), item.get("kind"))
    why = (
        f"{_name(n, i, item)} overlaps {_name(m, j, old)}, committed earlier: committed "
        "text was withdrawn or given to another segment (shown: the earlier commit's "
        "kind, then this one's)"
    )
    return "withdrawn", _kinds(old, item), diff, why


def _name(n: int, i: int, item: Mapping[str, Any]) -> str:
    return f"updates[{n}].committed[{i}] ({_span(item)})"


def _span(item: Mapping[str, Any]) -> str:
    return f"{item.get('kind')} {item['start']}-{item['end']}"


def _bad_range(where: tuple[str | int, ...], start: int, end: int, received: int) -> Difference:
    """The field of a committed range that breaks ``0 <= start < end <= received``,
    with the nearest value it could have (the code points received so far; ``None``
    when nothing was received, so no range is allowed)."""
    if received == 0:
        return Difference((*where, "start"), None, start)
    if start < 0 or start >= received:
        return Difference((*where, "start"), 0 if start < 0 else received - 1, start)
    if end > received:
        return Difference((*where, "end"), received, end)
    return Difference((*where, "end"), start + 1, end)  # empty or reversed


def _against_final(
    item: Mapping[str, Any],
    final: Sequence[Mapping[str, Any]],
    starts: Sequence[int],
    where: tuple[str | int, ...],
) -> tuple[str, str, Difference] | None:
    """How ``item`` differs from the final segment holding its start (``starts``:
    the segments' starts, in order, found by bisection); ``None``: it does not."""
    start, end = item["start"], item["end"]
    k = bisect.bisect_right(starts, start) - 1
    home = final[k] if k >= 0 and start < final[k]["end"] else None
    if home is None:
        return "premature", _kinds(item, None), Difference((*where, "start"), None, start)
    if item["kind"] == "markdown":
        if home["kind"] != "markdown" or end > home["end"]:
            over = home if home["kind"] != "markdown" else _next_block(final, home)
            moved = Difference((*where, "kind"), (over or home)["kind"], "markdown")
            return "premature", _kinds(item, over or home), moved
        # The text given must be the message's own over that range (an adapter slicing
        # by UTF-16 units shows other text once a character outside the BMP came).
        if "text" in item and isinstance(home.get("text"), str):
            text = home["text"][start - home["start"] : end - home["start"]]
            if item["text"] != text:
                wrong = Difference((*where, "text"), text, item["text"])
                return "premature", _kinds(item, home), wrong
        return None
    diff = first_difference({"segments": [home]}, {"segments": [dict(item)]})
    if diff is not None:
        path = (*where, *diff.path[2:])
        return "premature", _kinds(item, home), Difference(path, diff.expected, diff.actual)
    return None


def _next_block(final: Sequence[Mapping[str, Any]], home: Mapping[str, Any]) -> Any:
    return next((s for s in final if s["start"] >= home["end"]), None)


def stream_key(role: str, kinds: str) -> ClassKey:
    """The coarse key of a streaming finding: ``stream|§10|ROLE|KINDS|-``."""
    return ClassKey("stream", STREAM_RULE, role, kinds)


def final_body(body: Mapping[str, Any]) -> dict[str, Any]:
    """The ``segment`` request of a ``stream`` request's whole message."""
    return {
        "text": stream_text(body),
        "message_id": body.get("message_id", "message"),
        "profile": body.get("profile", "client"),
    }


def shrink_stream(
    body: Mapping[str, Any],
    holds: Callable[[Mapping[str, Any]], bool],
    shrink_text: Callable[[str, Callable[[str], bool]], str],
) -> Mapping[str, Any]:
    """A small ``stream`` body for which ``holds`` is true: chunks joined in pairs
    while the finding stays, then (at most :data:`MAX_JOINS` chunks) one pair at a
    time, then each chunk's text shrunk (``shrink_text``), then empty chunks dropped.
    Raises what ``holds`` raises."""
    chunks = list(body["chunks"])

    def with_chunks(cs: list[str]) -> dict[str, Any]:
        return {**body, "chunks": cs}

    while len(chunks) > 1:  # halve the chunks while the finding stays
        pairs = itertools.zip_longest(chunks[::2], chunks[1::2], fillvalue="")
        paired = [a + b for a, b in pairs]
        if not holds(with_chunks(paired)):
            break
        chunks = paired
    i = 0
    while i + 1 < len(chunks) <= MAX_JOINS:
        joined = [*chunks[:i], chunks[i] + chunks[i + 1], *chunks[i + 2 :]]
        if holds(with_chunks(joined)):
            chunks = joined
        else:
            i += 1
    for i in range(len(chunks)):

        def holds_at(
            t: str, before: list[str] = chunks[:i], after: list[str] = chunks[i + 1 :]
        ) -> bool:
            return holds(with_chunks([*before, t, *after]))

        chunks[i] = shrink_text(chunks[i], holds_at)
    kept = [c for c in chunks if c]
    if kept != chunks and kept and holds(with_chunks(kept)):
        chunks = kept
    return with_chunks(chunks)


__all__ = [
    "STREAM_RULE",
    "commit_fault",
    "final_body",
    "shape_fault",
    "shrink_stream",
    "stream_key",
    "stream_text",
]
