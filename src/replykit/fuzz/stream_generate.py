"""Generated ``stream`` requests of the adapter protocol (docs/fuzzing.md, §10).

A message of :func:`~replykit.testing.strategies.segment_requests` cut into chunks in
one of three ways: at every character, at random offsets, or at the offsets where
streaming clients break (inside a tag of the family, a fence opener or a comment
opener, between ``\\r`` and ``\\n``), with some random ones. Needs Hypothesis.
"""

from __future__ import annotations

import itertools
import re
from typing import Any, Final

from hypothesis import strategies as st

from replykit.testing.strategies import segment_requests

#: Constructs a cut inside which streaming clients get wrong (held-back tokens, §10).
_HARD: Final = re.compile(
    r"</?[A-Za-z-]*questionnaire[A-Za-z-]*[^>\n]{0,20}>?|[`~]{3,}[^\n]{0,20}|<!--|\r\n",
    re.IGNORECASE,
)


def hard_cuts(text: str) -> list[int]:
    """Every offset strictly inside a family tag, fence opener line, comment opener
    or ``\\r\\n`` of ``text``."""
    return sorted({i for m in _HARD.finditer(text) for i in range(m.start() + 1, m.end())})


def chunked(text: str, cuts: list[int]) -> list[str]:
    """``text`` cut at ``cuts`` (sorted, repeats dropped; empty chunks never made)."""
    points = [0, *sorted({c for c in cuts if 0 < c < len(text)}), len(text)]
    return [text[a:b] for a, b in itertools.pairwise(points)] if text else [""]


@st.composite
def stream_requests(draw: st.DrawFn) -> dict[str, Any]:
    """A ``stream`` request body ``{"chunks", "message_id", "profile"}`` (§10)."""
    body = dict(draw(segment_requests()))
    text = body.pop("text")
    how = draw(st.sampled_from(("chars", "random", "hard")))
    if how == "chars":
        chunks = list(text) or [""]
    else:
        cuts = draw(st.lists(st.integers(0, len(text)), max_size=8))
        hard = hard_cuts(text)
        if how == "hard" and hard:
            cuts += draw(st.lists(st.sampled_from(hard), min_size=1, max_size=6))
        chunks = chunked(text, cuts)
    return {"chunks": chunks, **body}


__all__ = ["chunked", "hard_cuts", "stream_requests"]
