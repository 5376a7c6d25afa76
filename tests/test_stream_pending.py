"""What the pending tail shows while a form streams (§10, docs/streaming.md "Pending").

- A one-line XML+JSON form is a tentative block from the chunk that completes its
  opening tag, before its line ends (it was pending Markdown until the line ended).
- A partial opening tag with attributes is held back whole, in every mode.
- Under ``compat="sage"`` every pending item is in the final result's coordinates:
  while the message may be one JSON string nothing tentative is shown.
- No empty pending Markdown item stands before a tentative block.
- No block is shown after tag-like text whose attributes may still grow: under
  ``compat="sage"`` a tag's attributes may run over lines, so what follows may be its.
- The testing helpers take the options in the forms ``StreamSegmenter`` takes.
"""

from __future__ import annotations

import collections
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import StreamSegmenter, segment
from replykit.questionnaire.segmentation.stream_shapes import PendingBlock, PendingMarkdown
from replykit.testing import strategies as rs
from replykit.testing.streaming import check_stream, cut, stream_chunks, tails

X = (
    '<questionnaire>{"title":"T","questions":[{"type":"free_text","text":"Q?",'
    '"default":""}]}</questionnaire>'
)
ONE_LINE = "Intro\n\n" + X + "\n\nDone.\n"


Shape = list[tuple[str, int, bool | None]]


def _shape(tail: tuple[object, ...]) -> Shape:
    return [(type(p).__name__, p.start, getattr(p, "tentative", None)) for p in tail]  # type: ignore[attr-defined]


def _tails(text: str, size: int, **options: object) -> list[tuple[int, Shape]]:
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    run = stream_chunks(chunks, **options)
    return [(u.received, _shape(t)) for u, t in zip(run.updates, tails(run.updates), strict=True)]


def test_a_one_line_form_is_tentative_once_its_opening_tag_is_complete() -> None:
    # At chunks of 8 the tag "<questionnaire>" is complete at 24 (7 + 15 < 24): from
    # there to its line's end the tail is the tentative block, not pending Markdown.
    seen = _tails(ONE_LINE, 8)
    assert seen[2] == (24, [("PendingBlock", 7, True)])
    for received, shape in seen[2:13]:
        assert shape == [("PendingBlock", 7, True)], received
    assert seen[-1] == (119, [("PendingMarkdown", 113, None)])
    for size in range(1, 17):
        for received, shape in _tails(ONE_LINE, size):
            if 22 <= received < 111:  # the tag is complete, the closer not yet
                assert shape == [("PendingBlock", 7, True)], (size, received)


def test_the_tag_alone_in_a_chunk_and_with_attributes_under_sage() -> None:
    seg = StreamSegmenter(compat="sage")
    seg.push("Intro\n\n")
    update = seg.push('<questionnaire timeout_seconds="30">{"title"')
    block = update.pending[-1]
    assert isinstance(block, PendingBlock)
    assert (block.start, block.tentative, block.closed, block.id) == (7, True, False, "message_q1")


def test_a_tag_completed_in_its_line_costs_one_reading() -> None:
    seg = StreamSegmenter()
    readings = []
    for i in range(0, len(ONE_LINE), 8):
        seg.push(ONE_LINE[i : i + 8])
        readings.append(seg.readings)
    # One reading for the tag (at 24), one when the form's line ends, one at the end.
    assert readings[2] == 1
    assert readings[-1] == 3
    assert seg.finish() == segment(ONE_LINE)


@pytest.mark.parametrize("mode", [None, "sage"])
def test_a_partial_opening_tag_with_attributes_is_held_whole(mode: str | None) -> None:
    full = 'abc <questionnaire timeout_seconds="30">{"questions":[]}</questionnaire>'
    for end in (5, 18, 19, 20, 37, 39):
        update = StreamSegmenter(compat=mode).push(full[:end])
        assert update.held_from == 4, end
    assert StreamSegmenter(compat=mode).push(full[:40]).held_from == 40
    seg = StreamSegmenter(compat=mode)
    for ch in full[:39]:
        update = seg.push(ch)
    assert update.held_from == 4
    # Not a family name: released at once.
    assert StreamSegmenter(compat=mode).push('abc <div class="x').held_from == 17


def test_sage_json_string_messages_show_nothing_tentative() -> None:
    text = json.dumps("Intro\n\n" + X) + "\n"
    for chunks in ([text], list(text), ["  \n" + text]):
        assert check_stream(chunks, compat="sage") == []
    seg = StreamSegmenter(compat="sage")
    assert seg.push(text).pending == (PendingMarkdown(0),)
    result = seg.finish()
    assert [(s.kind, s.start) for s in result.segments] == [("markdown", 0), ("questionnaire", 7)]
    # After the first "&" an entity decoding may move every offset: nothing from there.
    entities = "Intro &amp; more\n\n" + X + "\n\nok\n"
    assert StreamSegmenter(compat="sage").push(entities).pending == (PendingMarkdown(0),)
    assert check_stream([entities], compat="sage") == []


def test_the_cli_stream_pending_events_use_the_final_coordinates() -> None:
    text = json.dumps("Intro\n\n" + X) + "\n"  # as `print` writes it: the line completes
    out = subprocess.run(
        [sys.executable, "-m", "replykit.cli", "stream", "--compat", "sage", "-"],
        input=text, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    events = [json.loads(line) for line in out.splitlines()]
    starts = [p["start"] for e in events if e["event"] == "pending" for p in e["pending"]]
    assert starts == [0]
    assert events[-1]["segments"][1]["start"] == 7


def test_no_empty_markdown_before_a_tentative_block() -> None:
    pending = StreamSegmenter().push('abc\n\n<questionnaire>\n{"title":').pending
    assert _shape(pending) == [("PendingBlock", 5, True)]


@settings(max_examples=150)
@given(
    text=st.one_of(rs.messages(), rs.xml_blocks(), rs.fenced_blocks()),
    cuts=st.lists(st.integers(0, 4_000), max_size=20),
    mode=st.sampled_from([None, "sage"]),
)
def test_the_guarantees_hold_with_tags_read_before_their_line_ends(
    text: str, cuts: list[int], mode: str | None
) -> None:
    # check_stream also checks that no pending item but the last is empty.
    chunks = cut(text, [c % (len(text) + 1) for c in cuts])
    assert check_stream(chunks, compat=mode) == []


def test_the_helpers_take_profile_and_compat_names() -> None:
    block = "<questionnaire>{}</questionnaire>"
    for profile in ("client", "self_check", "product:acme"):
        assert check_stream([block], profile=profile) == []
        run = stream_chunks([block], profile=profile, compat="sage")
        assert run.result == run.expected == segment(block, profile=profile, compat="sage")
    with pytest.raises(ValueError, match="unknown profile 'nope'"):
        check_stream([block], profile="nope")
    with pytest.raises(TypeError, match="profile"):
        check_stream([block], profile=5)


def test_tail_takes_a_tuple_or_a_list_and_names_a_bad_argument() -> None:
    seg = StreamSegmenter()
    first = seg.push("Intro\n\n<questionnaire>")
    assert first.tail([]) == first.tail(()) == first.tail() == _tail_of(first)
    second = seg.push('{"title":')
    held = list(first.tail([]))
    assert second.tail(held) == second.tail(tuple(held))
    assert isinstance(second.tail(held), tuple)
    for bad in (None, "ab", 5, range(7), collections.UserList([None]), b"ab"):
        with pytest.raises(TypeError, match=r"^tail\(\) argument 'previous' must be"):
            first.tail(bad)  # type: ignore[arg-type]
    assert second.pending_kept == 1
    with pytest.raises(ValueError, match=r"has 0 items, fewer than pending_kept \(1\)"):
        second.tail([])


def _tail_of(update: object) -> tuple[object, ...]:
    return update.pending  # type: ignore[attr-defined, no-any-return]


def test_no_block_is_shown_after_a_tag_that_may_still_grow() -> None:
    # Found by the long property run: the fenced form after "<questionnaire" was shown
    # as a tentative block m_q1, while that text became the attributes of the tag, the
    # opening tag of the XML+JSON block m_q1 at 6 (its ">" the block quote's marker).
    fenced = "```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: Q\n"
    text = "Hello\n<questionnaire\n\nIntro\n\n" + fenced + '    default: ""\n```\n\n'
    text += "> <questionnaire>[[]]</questionnaire>"
    stream = StreamSegmenter(message_id="m", compat="sage")
    update = stream.push(text)
    assert update.pending == (PendingMarkdown(0),)
    final = stream.finish()
    assert final == segment(text, message_id="m", compat="sage")
    assert [(s.kind, s.id, s.start) for s in final.segments] == [
        ("markdown", None, 0),
        ("questionnaire", "m_q1", 6),
    ]
    for size in (0, 1, 7, 64):
        chunks = [text[i : i + size] for i in range(0, len(text), size)] if size else [text]
        assert check_stream(chunks, message_id="m", compat="sage") == []
