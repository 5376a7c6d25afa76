"""Hand-written ``stream`` examples the fuzzer runs first (docs/fuzzing.md, §10).

The streams of ``stream.json`` (:mod:`replykit.fuzz.stream_vectors`): tags, fences and
``\\r\\n`` split across chunks, complete-looking blocks that a later backtick run,
comment closer or outer tag withdraws, a tag that stays text, and the ``segment.json``
vectors whose prefixes show a block the whole message does not, cut where it shows;
each also once per character.
"""

from __future__ import annotations

import functools
import itertools
import json

from replykit.fuzz.examples import Example
from replykit.fuzz.stream_vectors import HANDWRITTEN, WITHDRAWN, withdrawn
from replykit.fuzz.vectors import shipped_segment_vectors


def _example(name: str, rule: str, chunks: list[str], message_id: str) -> Example:
    request = {"chunks": chunks, "message_id": message_id, "profile": "client"}
    return Example("stream", rule, name, request)


@functools.cache
def stream_examples() -> tuple[Example, ...]:
    """The ``stream`` examples, in a fixed order: each hand-written stream as cut and
    per character, then each withdrawn-block vector cut at its line ends and where the
    block first shows. Raises ``OSError`` when the package data is missing."""
    out: list[Example] = []
    for name, _, parts in HANDWRITTEN:
        out.append(_example(name, "§10", list(parts), "m"))
        out.append(_example(f"{name}-chars", "§10", list("".join(parts)), "m"))
    for case in json.loads(shipped_segment_vectors())["cases"]:
        if case["id"] not in WITHDRAWN:
            continue
        text = case["input"]
        cuts = {i + 1 for i, ch in enumerate(text) if ch == "\n"} | {withdrawn(case)}
        points = [0, *sorted(c for c in cuts if 0 < c < len(text)), len(text)]
        chunks = [text[a:b] for a, b in itertools.pairwise(points)]
        out.append(_example(f"vector-{case['id']}", case["rule"], chunks, case["message_id"]))
    return tuple(out)


__all__ = ["stream_examples"]
