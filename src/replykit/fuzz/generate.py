"""Generated requests of the fuzzer's adapter protocol (docs/fuzzing.md).

Needs Hypothesis (the ``replykit[fuzz]`` extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from replykit.argcheck import typed
from replykit.fuzz.ops import ALL_OPS, OPS, Op
from replykit.fuzz.stream_generate import stream_requests
from replykit.testing.strategies import answers, segment_requests, tool_arguments


def _with_op(op: Op, body: st.SearchStrategy[Any], key: str | None) -> st.SearchStrategy[Any]:
    if key is None:
        return body.map(lambda b: (op, b))
    return body.map(lambda b: (op, {key: b}))


@typed
def requests(ops: Sequence[Op] = OPS) -> st.SearchStrategy[tuple[Op, dict[str, Any]]]:
    """``(op, request_body)`` pairs of the adapter protocol (docs/fuzzing.md), the
    body without ``id`` and ``op``: ``segment`` -> :func:`segment_requests`;
    ``questionnaire_async`` -> ``{"arguments": tool_arguments()}``;
    ``sanitize_actions`` -> ``{"answer": answers()}``; ``stream`` ->
    :func:`~replykit.fuzz.stream_generate.stream_requests`. Raises ``ValueError`` for
    an empty or unknown ``ops``."""
    if not ops or any(op not in ALL_OPS for op in ops):
        raise ValueError(f"ops must be a non-empty subset of {ALL_OPS}")
    table: dict[Op, st.SearchStrategy[Any]] = {
        "segment": _with_op("segment", segment_requests(), None),
        "questionnaire_async": _with_op("questionnaire_async", tool_arguments(), "arguments"),
        "sanitize_actions": _with_op("sanitize_actions", answers(), "answer"),
        "stream": _with_op("stream", stream_requests(), None),
    }
    return st.one_of(*(table[op] for op in ops))


__all__ = ["requests"]
