"""Plain lines after the resume point are committed without a reading (§10).

When the complete lines after the resume point hold no family word and no fenced
candidate is open there, they can hold no block nor be part of one (a block's opener,
and an XML+JSON block's closer, holds the word; nothing before the resume point lacks
its closer): they are final Markdown, committed once 1024 code points of them wait,
and read only by the next reading that the family word makes due (docs/streaming.md,
"When replykit commits" and "Work").

- Properties: with such lines committed at every complete line (:class:`EagerPlain`,
  the rule's most eager form) and as the segmenter commits them, the §10 guarantees
  hold over every generator and vector under any chunking (``finish()`` is
  ``segment()``; every committed Markdown range lies in one final Markdown segment).
  ``tests/test_stream_fast.py`` checks that the fast path commits nothing the general
  reading (which commits such lines at every complete line) does not.
- Values: long prose after a closed form scans nothing until the next family word and
  is committed within 1024 code points; lines after an open fenced candidate or a
  tentative tag are not committed; the family word in prose makes readings resume.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inputs import VECTORS

from replykit import segment
from replykit.questionnaire.model import Segment
from replykit.questionnaire.segmentation.stream import StreamSegmenter
from replykit.questionnaire.segmentation.stream_shapes import (
    MarkdownCommit,
    PendingBlock,
    PendingMarkdown,
)
from replykit.testing import strategies as rs
from replykit.testing.streaming import check_stream, cut

CASES: list[dict[str, Any]] = VECTORS


class EagerPlain(StreamSegmenter):
    """Plain lines after the resume point committed at every complete line."""

    _plain_gap = 0


# Prose with lists, code and comments but never the family word, in long stretches.
PLAIN = st.lists(
    st.one_of(rs.prose(), rs.markdown(), st.just("- item\n- item\n\n    code\n")), max_size=8
).map("\n\n".join).filter(lambda t: "questionnaire" not in t.lower())  # fmt: skip
MESSAGES = st.lists(
    st.one_of(rs.fenced_blocks(), rs.xml_blocks(), rs.messages(), rs.inert_messages(), PLAIN),
    max_size=6,
).map("\n\n".join)  # fmt: skip


@settings(max_examples=150)
@given(
    text=st.one_of(MESSAGES, rs.hostile_payloads(), rs.prose()),
    cuts=st.lists(st.integers(0, 6_000), max_size=30),
    compat=st.sampled_from([None, None, "sage"]),
    eol=st.sampled_from(["\n", "\n", "\r\n", "\r"]),
)
def test_plain_commits_keep_the_guarantees(
    text: str, cuts: list[int], compat: str | None, eol: str
) -> None:
    text = text.replace("\n", eol)
    chunks = cut(text, [c % (len(text) + 1) for c in cuts])
    assert check_stream(chunks, segmenter=EagerPlain, compat=compat) == []
    assert check_stream(chunks, compat=compat) == []


@settings(max_examples=60)
@given(text=MESSAGES, size=st.sampled_from([1, 5, 16, 64]))
def test_plain_commits_in_chunks_of_fixed_size(text: str, size: int) -> None:
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    assert check_stream(chunks, segmenter=EagerPlain) == []


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_plain_commits_on_every_vector(case: dict[str, Any]) -> None:
    text = case["input"]
    for chunks in (list(text), [text[i : i + 7] for i in range(0, len(text), 7)]):
        assert check_stream(chunks, segmenter=EagerPlain, message_id=case["message_id"]) == []


# A valid form (a block whose diagnostics the message cap might trim stays pending).
FORM = (
    "```questionnaire\ntitle: Rollout\nquestions:\n  - type: single_choice\n"
    "    text: Which region first?\n    options:\n      - eu-west\n      - us-east\n"
    "    default: eu-west\n```\n\n"
)
PROSE = "".join(
    f"## Part {i}\n\nThe rollout paused at {i}0% and the `eu-west` pool timed out.\n"
    "- one\n- two\n\n    indented code\n\n<!-- a note -->\n\n"
    for i in range(60)
)


def _push_all(seg: StreamSegmenter, text: str, size: int = 16) -> list[Any]:
    return [seg.push(text[i : i + size]) for i in range(0, len(text), size)]


@pytest.mark.parametrize("size", [1, 16, 256])
def test_prose_after_a_closed_form_scans_nothing_until_the_family_word(size: int) -> None:
    seg = StreamSegmenter()
    _push_all(seg, "Intro.\n\n" + FORM, size)
    before = seg.scanned
    received = len("Intro.\n\n" + FORM)
    for i in range(0, len(PROSE), size):
        update = seg.push(PROSE[i : i + size])
        received += len(PROSE[i : i + size])
        assert seg.scanned == before, i
        assert update.committed_end >= received - 1024 - size - 200, i
        assert all(isinstance(c, MarkdownCommit) for c in update.committed)
        assert all(isinstance(p, PendingMarkdown) for p in update.pending)
    assert seg.committed_end > len(FORM) + len(PROSE) - 1024 - 200
    text = "Intro.\n\n" + FORM + PROSE + FORM
    _push_all(seg, FORM, size)
    assert seg.scanned > before  # the family word: read again, from the resume point
    assert seg.finish() == segment(text)


def test_prose_after_the_family_word_in_a_paragraph_is_read() -> None:
    # The word after the resume point: lines may belong to a block, so readings decide.
    text = FORM + "The questionnaire above is short.\n\n" + PROSE
    seg = StreamSegmenter()
    before = -1
    for i in range(0, len(text), 16):
        seg.push(text[i : i + 16])
        if before < 0 and i >= len(FORM) + 64:
            before = seg.scanned
    assert seg.scanned > before >= 0
    assert seg.finish() == segment(text)


def test_payload_of_an_open_fenced_candidate_is_not_committed() -> None:
    # The candidate's payload lines hold no family word but belong to the block.
    payload = "".join(f"# comment line {i} of the payload\n" for i in range(200))
    text = "Intro.\n\n```questionnaire\n" + payload
    seg = StreamSegmenter()
    updates = _push_all(seg, text)
    assert seg.committed_end == len("Intro.\n\n")
    assert any(isinstance(p, PendingBlock) for u in updates for p in u.pending)
    final = seg.finish()
    assert final == segment(text)
    assert [s.kind for s in final.segments][-1] != "markdown"


def test_lines_after_a_tentative_tag_are_not_committed() -> None:
    # A closer may still come: everything from the opening tag on may be payload.
    text = "Intro.\n\n<questionnaire>\n" + PROSE
    seg = StreamSegmenter()
    _push_all(seg, text)
    assert seg.committed_end <= len("Intro.\n\n")
    closed = text + "</questionnaire>\n\n"
    seg.push("</questionnaire>\n\n")
    final = seg.finish()
    assert final == segment(closed)
    assert any(isinstance(s, Segment) and s.kind != "markdown" for s in final.segments)


def _tail_gaps(chunks: list[str], segmenter: type[StreamSegmenter]) -> list[int]:
    """The updates whose pending tail does not start at the committed end while text
    after it is shown (the client would lose that text)."""
    seg = segmenter()
    previous: tuple[Any, ...] = ()
    gaps = []
    for n, chunk in enumerate(chunks):
        update = seg.push(chunk)
        previous = update.tail(previous)
        if update.held_from > update.committed_end and (
            not previous or previous[0].start != update.committed_end
        ):
            gaps.append(n)
    return gaps


@settings(max_examples=100)
@given(text=MESSAGES, cuts=st.lists(st.integers(0, 6_000), max_size=30))
def test_the_pending_tail_starts_at_the_committed_end(text: str, cuts: list[int]) -> None:
    chunks = cut(text, [c % (len(text) + 1) for c in cuts])
    assert _tail_gaps(chunks, StreamSegmenter) == []
    assert _tail_gaps(chunks, EagerPlain) == []


@pytest.mark.parametrize("size", [1, 16, 256])
def test_the_pending_tail_starts_at_the_committed_end_after_plain_commits(size: int) -> None:
    # The next reading starts at the resume point, before the committed end, and may
    # stop inside a paragraph that began before it (here one of 3000 code points).
    paragraph = "".join(f"line {i} of a long paragraph\n" for i in range(110))
    text = "Intro.\n\n" + FORM + paragraph + "about the questionnaire\nmore\n\n" + FORM
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    assert _tail_gaps(chunks, StreamSegmenter) == []
    assert _tail_gaps(chunks, EagerPlain) == []
