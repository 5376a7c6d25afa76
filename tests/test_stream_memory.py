"""What a streaming segmenter holds of the text (§10 "memory is linear", docs/streaming.md).

Chunks are joined into pieces of 64 as they come (``Received._join``), so a reply
pushed a character at a time is held as the text plus at most two pieces per 64 chunks, not a
string object per chunk (about 50 bytes a code point before). Counted, not timed.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import StreamSegmenter, segment
from replykit.questionnaire.segmentation.stream_input import JOINED, Received
from replykit.testing import strategies as rs


def test_a_reply_pushed_a_character_at_a_time_is_held_in_pieces() -> None:
    text = ("A line of prose with <b>tags</b> and `code`.\n" * 2000) + "The end"
    received = Received(None)
    for n, ch in enumerate(text, 1):
        received.append(ch)
        assert len(received.chunks) <= 2 * (n // JOINED) + JOINED, n  # cut at most once
    assert JOINED == 64
    assert len(received.chunks) == len(received.starts) <= 2 * (len(text) // 64) + 64
    assert received.text() == text
    assert received.slice(1000, 5000) == text[1000:5000]
    # The pieces hold the text once: no chunk is kept twice.
    assert sum(map(len, received.chunks)) == len(text)


@settings(max_examples=60)
@given(text=st.one_of(rs.messages(), rs.xml_blocks(), rs.fenced_blocks()))
def test_pieces_change_no_update(text: str) -> None:
    # Per character: many joins; the result is segment()'s and every slice is right.
    seg = StreamSegmenter()
    for ch in text:
        seg.push(ch)
    assert seg.finish() == segment(text)
    received = Received(None)
    for ch in text:
        received.append(ch)
    for a in range(0, len(text), 7):
        assert received.slice(a, a + 100) == text[a : a + 100]
