"""The pending tail between readings costs what changed, not the tail again (§10).

docs/streaming.md ("Work"): a push without a reading looks only at the items that
became visible and the Markdown item after a closed block. Counted by
``StreamSegmenter.work`` (scanned characters plus pending items built and compared),
and checked exact against the tail rebuilt from the items after every push.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import replykit.strategies as rs
from replykit import StreamSegmenter, segment
from replykit.testing.hostile import STREAM_FAMILIES, Family
from replykit.testing.streaming import cut

SIZES = (1, 10, 256)


class Rebuilt(StreamSegmenter):
    """The tail rebuilt from the reading's items after every push (but when the
    client was sent all of it) and compared item by item with the last one."""

    _grow = False


def _updates(cls: type[StreamSegmenter], chunks: list[str], **options: Any) -> list[Any]:
    seg = cls(**options)
    return [*(seg.push(c) for c in chunks), seg.finish()]


def _check_pushes(chunks: list[str], **options: Any) -> None:
    """Each push without a reading does work bounded by the items it sends."""
    seg = StreamSegmenter(**options)
    for n, chunk in enumerate(chunks):
        scanned, work = seg.scanned, seg.work
        update = seg.push(chunk)
        if seg.scanned == scanned:
            assert seg.work - work <= 4 + 2 * len(update.pending), n
    assert _updates(StreamSegmenter, chunks, **options) == _updates(Rebuilt, chunks, **options)


@pytest.mark.parametrize("family", STREAM_FAMILIES, ids=lambda f: f.name)
@pytest.mark.parametrize("size", SIZES)
def test_a_push_without_a_reading_costs_what_it_sends(family: Family, size: int) -> None:
    text = family.build(family.n // 10)
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    _check_pushes(chunks, message_id="m")


@settings(max_examples=100)
@given(
    text=st.one_of(rs.messages(), rs.xml_blocks(), rs.fenced_blocks()),
    cuts=st.lists(st.integers(0, 4_000), max_size=30),
)
def test_the_grown_tail_is_the_rebuilt_one(text: str, cuts: list[int]) -> None:
    _check_pushes(cut(text, [c % (len(text) + 1) for c in cuts]))


def test_the_grown_tail_is_the_rebuilt_one_with_a_deferred_block() -> None:
    # A block whose diagnostics the message cap may trim is final only at the end:
    # it and every later segment stay pending (deferred), and the tail grows past them.
    bad = "<questionnaire>" + '{"questions":[' + ",".join(['{"type":"x"}'] * 30) + "]}"
    text = "Intro\n\n" + bad + "</questionnaire>\n\n" + STREAM_FAMILIES[0].build(20)
    for size in SIZES:
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        _check_pushes(chunks, message_id="m")
    assert segment(text, message_id="m").segments
