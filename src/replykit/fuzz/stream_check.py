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

import itertools
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


def _item(value: Any) -> Mapping[str, Any] | None:
    """A committed item as the protocol has it, or ``None`` for a malformed one."""
    if not isinstance(value, Mapping) or not isinstance(value.get("kind"), str):
        return None
    if not all(type(value.get(k)) is int for k in _KEYS):
        return None
    return value


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
        if any(_item(v) is None for v in update["committed"]):
            return f"updates[{n}].committed holds an item without kind, start and end"
    if not isinstance(actual.get("segments"), list):
        return "segments is not a list"
    return ""


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    if a.get("kind") == "markdown" and b.get("kind") == "markdown":
        return True
    return all(a.get(k) == b.get(k) for k in ("kind", "start", "end", "id"))


def _kinds(a: Mapping[str, Any], b: Mapping[str, Any] | None) -> str:
    return f"{a.get('kind')}>{b.get('kind') if b is not None else '-'}"


Finding = tuple[str, str, Difference]


def commit_fault(
    body: Mapping[str, Any], actual: Mapping[str, Any], final: Sequence[Mapping[str, Any]]
) -> Finding | None:
    """The first committed item that breaks an invariant, as ``(role, kinds,
    difference)``: ``withdrawn`` (beyond the text received, or overlapping an earlier
    commit it does not continue) or ``premature`` (the reference's final result shows
    it otherwise). ``final``: the reference's segments. ``None``: none breaks one."""
    chunks = body["chunks"]
    received = 0
    earlier: list[Mapping[str, Any]] = []
    for n, update in enumerate(actual["updates"]):
        received += len(chunks[n])
        for i, raw in enumerate(update["committed"]):
            item = _item(raw)
            assert item is not None  # shape_fault checked
            where: tuple[str | int, ...] = ("updates", n, "committed", i)
            start, end = item["start"], item["end"]
            if not 0 <= start < end <= received:
                return "withdrawn", _kinds(item, None), _bad_range(where, start, end, received)
            for old in earlier:
                if old["start"] < end and start < old["end"] and not _same(old, item):
                    diff = Difference((*where, "kind"), old.get("kind"), item.get("kind"))
                    return "withdrawn", _kinds(old, item), diff
            earlier.append(item)
    for n, update in enumerate(actual["updates"]):
        for i, item in enumerate(update["committed"]):
            found = _against_final(item, final, ("updates", n, "committed", i))
            if found is not None:
                return found
    return None


def _bad_range(where: tuple[str | int, ...], start: int, end: int, received: int) -> Difference:
    """The field of a committed range that breaks ``0 <= start < end <= received``,
    with the nearest value it could have (the code points received so far)."""
    if start < 0 or start >= received:
        return Difference((*where, "start"), 0 if start < 0 else received - 1, start)
    if end > received:
        return Difference((*where, "end"), received, end)
    return Difference((*where, "end"), start + 1, end)  # empty or reversed


def _against_final(
    item: Mapping[str, Any], final: Sequence[Mapping[str, Any]], where: tuple[str | int, ...]
) -> Finding | None:
    start, end = item["start"], item["end"]
    home = next((s for s in final if s["start"] <= start < s["end"]), None)
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
