"""The streaming segmenter's fast path against its general reading (§10).

The fast path skips work the general reading does: a chunk that completes no line
reads nothing; a reading runs only when new lines may open or close a block, after
1024 new code points, or when a blank line ends the paragraph that held the last one
back; a checkpoint that copies the scanner's state is taken at most every 128 code
points; an update that repeats the last one's pending tail is not computed again.
The general reading (:class:`General`) reads after every chunk that completes a line,
takes every checkpoint and computes every update in full. For any chunking:

- without the quick update alone, the updates are identical;
- the fast path commits nothing the general reading does not: after every chunk its
  commits (Markdown ranges joined, blocks) are a prefix of the general reading's, and
  so are its committed diagnostics; both ``finish()`` alike.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit.questionnaire.model import Segment
from replykit.questionnaire.segmentation.stream import StreamSegmenter
from replykit.questionnaire.segmentation.stream_shapes import MarkdownCommit, StreamUpdate
from replykit.testing import strategies as rs
from replykit.testing.streaming import cut

VECTORS = json.loads((Path(__file__).parent / "vectors" / "segment.json").read_text("utf-8"))
CASES: list[dict[str, Any]] = VECTORS["cases"]

GENERATORS = st.one_of(
    rs.messages(), rs.markdown(), rs.inert_messages(), rs.fenced_blocks(), rs.xml_blocks(),
    rs.hostile_payloads(),
    st.lists(st.one_of(rs.fenced_blocks(), rs.xml_blocks(), rs.prose()), max_size=6).map(
        "\n\n".join
    ),
)  # fmt: skip


class FullUpdates(StreamSegmenter):
    """The fast path with every update computed in full."""

    _quick = False


class General(StreamSegmenter):
    """The general reading: every line-completing chunk read, every checkpoint taken."""

    _every_line = True
    _gap = 0
    _quick = False


Flat = list[tuple[int, int] | Segment]


def _flatten(updates: list[StreamUpdate]) -> list[Flat]:
    """After each update, everything committed so far: Markdown as joined ranges."""
    out: list[Flat] = []
    flat: Flat = []
    for update in updates:
        for item in update.committed:
            last = flat[-1] if flat else None
            if isinstance(item, MarkdownCommit):
                if isinstance(last, tuple) and last[1] == item.start:
                    flat[-1] = (last[0], item.end)
                else:
                    flat.append((item.start, item.end))
            else:
                flat.append(item)
        out.append(list(flat))
    return out


def _is_prefix(fast: Flat, general: Flat) -> bool:
    """``fast`` is a beginning of ``general``: equal items, its last Markdown range
    possibly shorter."""
    if len(fast) > len(general):
        return False
    for i, (a, b) in enumerate(zip(fast, general, strict=False)):
        last = i == len(fast) - 1
        if isinstance(a, tuple) and isinstance(b, tuple) and last:
            if a[0] != b[0] or a[1] > b[1]:
                return False
        elif a != b:
            return False
    return True


def _run(cls: type[StreamSegmenter], chunks: list[str], **options: Any) -> tuple[Any, ...]:
    seg = cls(**options)
    updates = [seg.push(c) for c in chunks]
    return updates, seg.finish()


def _compare(chunks: list[str], **options: Any) -> None:
    fast, fast_result = _run(StreamSegmenter, chunks, **options)
    full, full_result = _run(FullUpdates, chunks, **options)
    assert fast == full
    assert fast_result == full_result
    general, general_result = _run(General, chunks, **options)
    assert fast_result == general_result
    said: Counter[Any] = Counter()
    told: Counter[Any] = Counter()
    for n, (a, b, fa, ga) in enumerate(
        zip(fast, general, _flatten(fast), _flatten(general), strict=True)
    ):
        assert a.committed_end <= b.committed_end, n
        assert _is_prefix(fa, ga), n
        said.update(a.diagnostics)
        told.update(b.diagnostics)
        assert not said - told, n


@settings(max_examples=120)
@given(
    text=GENERATORS,
    cuts=st.lists(st.integers(0, 4_000), max_size=30),
    compat=st.sampled_from([None, None, "sage"]),
)
def test_fast_path_commits_what_the_general_reading_does(
    text: str, cuts: list[int], compat: str | None
) -> None:
    _compare(cut(text, [c % (len(text) + 1) for c in cuts]), compat=compat)


@settings(max_examples=40)
@given(text=GENERATORS, size=st.sampled_from([1, 3, 16, 64]))
def test_fast_path_in_chunks_of_fixed_size(text: str, size: int) -> None:
    _compare([text[i : i + size] for i in range(0, len(text), size)])


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_fast_path_on_every_vector(case: dict[str, Any]) -> None:
    text = case["input"]
    _compare([text[i : i + 7] for i in range(0, len(text), 7)], message_id=case["message_id"])


def test_general_reading_commits_earlier_on_a_long_reply() -> None:
    # The fast path waits for 1024 code points of prose (or a line that may open or
    # close a block) before it reads; the general reading commits each paragraph.
    text = "".join(f"Paragraph {i} about the questionnaire results.\n\n" for i in range(40))
    chunks = [text[i : i + 16] for i in range(0, len(text), 16)]
    fast, _ = _run(StreamSegmenter, chunks)
    general, _ = _run(General, chunks)
    assert sum(u.committed_end < g.committed_end for u, g in zip(fast, general, strict=True))
    _compare(chunks)
