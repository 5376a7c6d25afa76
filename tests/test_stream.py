"""``StreamSegmenter`` on hand-written streams: exact commits, pending items, held-back
text and errors (§10; docs/streaming.md). The properties are in
``test_stream_properties.py``."""

from __future__ import annotations

from typing import Any

import pytest

from replykit import (
    MarkdownCommit,
    PendingBlock,
    PendingMarkdown,
    Segment,
    StreamSegmenter,
    StreamUpdate,
    segment,
)
from replykit.testing import streaming
from replykit.testing.streaming import check_stream, cut

FORM = (
    "```questionnaire\ntitle: T\nquestions:\n"
    '  - type: free_text\n    text: Why?\n    default: ""\n'
    '  - type: free_text\n    text: How?\n    default: ""\n```\n'
)
XML = (
    '<questionnaire>{"title":"T","questions":[{"id":"a","type":"free_text",'
    '"text":"Q","default":""}]}</questionnaire>'
)
TEXT = "Intro.\n\n" + FORM + "\nMiddle.\n\n" + XML + "\n\nEnd.\n"


def _pushes(text: str, size: int, **options: Any) -> tuple[list[StreamUpdate], StreamSegmenter]:
    seg = StreamSegmenter(message_id="m", **options)
    return [seg.push(text[i : i + size]) for i in range(0, len(text), size)], seg


def _joined(items: list[MarkdownCommit | Segment]) -> list[MarkdownCommit | Segment]:
    """Adjacent Markdown commits joined, as a client appends them."""
    out: list[MarkdownCommit | Segment] = []
    for item in items:
        last = out[-1] if out else None
        if isinstance(item, MarkdownCommit) and isinstance(last, MarkdownCommit):
            assert last.end == item.start
            out[-1] = MarkdownCommit(last.start, item.end, last.text + item.text)
        else:
            out.append(item)
    return out


def test_commits_in_order_and_finish_equals_segment() -> None:
    updates, seg = _pushes(TEXT, 20)
    committed = _joined([c for u in updates for c in u.committed])
    final = segment(TEXT, message_id="m")
    assert seg.finish() == final
    assert committed == [
        MarkdownCommit(0, 8, "Intro.\n\n"),
        final.segments[1],
        MarkdownCommit(151, 161, "\nMiddle.\n\n"),
        final.segments[3],
        MarkdownCommit(273, 275, "\n\n"),
    ]
    assert (final.segments[1].id, final.segments[3].id) == ("m_q1", "m_q2")
    # Each block is committed with the chunk that completes its closer's line.
    blocks = [i for i, u in enumerate(updates) for c in u.committed if isinstance(c, Segment)]
    assert blocks == [151 // 20, 275 // 20]
    assert streaming.tails(updates)[-1] == (PendingMarkdown(275),)


def test_pending_fence_has_its_final_id_and_a_preview() -> None:
    seg = StreamSegmenter(message_id="m", preview=True)
    seg.push("Intro.\n\n")
    second = FORM.index("  - type", FORM.index("Why?"))
    update = seg.push(FORM[: FORM.index("\n", second) + 1])
    assert update.pending == (
        PendingBlock(
            "questionnaire", "fenced_yaml", "questionnaire", "m_q1", 8, False, False,
            preview=update.pending[0].preview,  # type: ignore[union-attr]
        ),
    )  # fmt: skip
    preview = update.pending[0].preview  # type: ignore[union-attr]
    assert preview is not None and [q.text for q in preview] == ["Why?"]
    assert StreamSegmenter().push("x").pending == (PendingMarkdown(0),)


def test_tentative_tag_without_closer() -> None:
    seg = StreamSegmenter(message_id="m")
    assert seg.push("Intro.\n\n").committed == (MarkdownCommit(0, 8, "Intro.\n\n"),)
    update = seg.push(XML[:40] + "\n")
    assert update.committed == ()
    block = update.pending[-1]
    assert isinstance(block, PendingBlock)
    assert (block.id, block.start, block.tentative, block.closed) == ("m_q1", 8, True, False)
    done = seg.push(XML[40:] + "\n\nEnd.\n")
    whole = "Intro.\n\n" + XML[:40] + "\n" + XML[40:] + "\n\nEnd.\n"
    final = segment(whole, message_id="m").segments[1]
    assert done.committed[0] == final and final.id == "m_q1" and final.valid


@pytest.mark.parametrize(
    ("chunk", "held"),
    [
        ("Text <questionn", 5),  # may still become a family tag
        ("Text </question", 5),
        ("Text <!-", 5),  # may still open a comment
        ("Text\r", 4),  # "\n" may follow
        ("Intro\n``", 6),  # may still open a fence
        ("Text <b>", 8),  # a tag already ended: nothing held
        ("Intro\n`x", 8),  # no fence opener: released
    ],
)
def test_partial_tokens_are_held_back_whole(chunk: str, held: int) -> None:
    update = StreamSegmenter().push(chunk)
    assert (update.held_from, update.received) == (held, len(chunk))


def test_held_text_is_released_when_it_is_no_token() -> None:
    seg = StreamSegmenter()
    assert seg.push("a <questionn").held_from == 2
    assert seg.push("aire-ish words> b").held_from == len("a <questionnaire-ish words> b")


def test_sage_commits_nothing_while_the_message_may_be_one_json_string() -> None:
    text = '"Intro.\\n\\n' + XML.replace('"', '\\"') + '\\n"'
    seg = StreamSegmenter(compat="sage")
    updates = [seg.push(c) for c in cut(text, range(0, len(text), 7))]
    assert all(u.committed == () and u.committed_end == 0 for u in updates)
    assert seg.finish() == segment(text, compat="sage")
    plain = StreamSegmenter(compat="sage")
    assert plain.push("Intro.\n\nMore.\n").committed_end == 14  # no JSON string


def test_no_commit_before_the_reply_can_no_longer_change() -> None:
    # A later backtick run makes the tag code: the tag is never committed before.
    text = "``\n<questionnaire>{}</questionnaire>\n`` end\n"
    updates, seg = _pushes(text, 1)
    assert all(not isinstance(c, Segment) for u in updates for c in u.committed)
    assert [s.kind for s in seg.finish().segments] == ["markdown"]


def test_errors() -> None:
    seg = StreamSegmenter()
    with pytest.raises(TypeError, match="chunk"):
        seg.push(b"x")  # type: ignore[arg-type]
    seg.finish()
    with pytest.raises(ValueError, match="finish"):
        seg.push("x")
    with pytest.raises(ValueError, match="message_id"):
        StreamSegmenter(message_id="x" * 129)
    with pytest.raises(ValueError):
        StreamSegmenter(compat="nope")


def test_update_json_shape() -> None:
    seg = StreamSegmenter(message_id="m")
    out = seg.push("Intro.\n\n```questionnaire\n").to_json()
    assert out == {
        "committed": [{"kind": "markdown", "start": 0, "end": 8, "text": "Intro.\n\n"}],
        "diagnostics": [],
        "committed_end": 8,
        "pending_kept": 0,
        "pending": [{
            "kind": "questionnaire", "encoding": "fenced_yaml", "name": "questionnaire",
            "id": "m_q1", "start": 8, "closed": False, "tentative": False,
        }],
        "held_from": 25,
        "received": 25,
    }  # fmt: skip


class _Eager(StreamSegmenter):
    """A faulty segmenter: commits everything it receives as Markdown at once."""

    def push(self, chunk: str) -> StreamUpdate:
        update = super().push(chunk)
        start = getattr(self, "_eager", 0)
        self._eager = update.received
        return StreamUpdate(
            (MarkdownCommit(start, update.received, chunk),), (), update.received, (),
            update.received, update.received,
        )  # fmt: skip


def test_the_checker_finds_a_premature_commit() -> None:
    assert check_stream(cut(TEXT, [30, 90])) == []
    faults = check_stream(cut(TEXT, [30, 90]), segmenter=_Eager)
    assert any("not final" in f for f in faults), faults


@pytest.mark.parametrize("closed", [False, True])
def test_finish_reads_from_the_resume_point_and_keeps_unclosed_tag_warnings(
    closed: bool,
) -> None:
    # A tag that opens no block (attributes, §3a) lets the resume point pass it; its
    # unclosed-tag warning waits for finish(), which reads only the tail and looks for
    # its closer in the whole text.
    head = 'Intro <questionnaire id="a"> here.\n\n' + "Some prose.\n\n" * 100
    tail = "</questionnaire> at last.\n" if closed else "No closer.\n"
    text = head + FORM + "\n" + tail
    updates, seg = _pushes(text, 16)
    assert updates[-1].committed_end > len(head)  # the reading moved past the tag
    assert not any(d.code == "near_miss.unclosed_tag" for u in updates for d in u.diagnostics)
    one = segment(text, message_id="m")
    scanned_before = seg.scanned
    assert seg.finish() == one
    assert seg.scanned - scanned_before < len(text) - len(head)  # the tail only
    codes = [d.code for d in one.diagnostics]
    assert ("near_miss.unclosed_tag" in codes) is not closed
    assert "near_miss.tag_attributes" in codes


@pytest.mark.parametrize("size", [1, 16, 256])
def test_counted_work_of_a_long_reply_is_near_one_reading(size: int) -> None:
    # Readings re-read little and finish() reads only the tail: all of it together
    # scans at most 1.5x what one segment() scans (the bound of §10 is 3x; finish()
    # reading the whole text again made it 2x and more).
    text = "".join(
        f"## Part {i}\n\nProse about the rollout, `code`, and **more**.\n\n- item\n- item\n\n"
        + (FORM if i % 3 == 0 else "Confirm: " + XML + "\n\n")
        for i in range(60)
    )
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    run = streaming.stream_chunks(chunks, message_id="m")
    assert run.result == run.expected
    assert run.scanned <= 1.5 * run.one_shot, (run.scanned, run.one_shot)


def test_the_checker_finds_an_update_of_the_wrong_type() -> None:
    from replykit.questionnaire.segmentation.stream_shapes import new_commit, new_update

    good = new_update((new_commit(0, 2, "hi"),), (), 2, (), 2, 2, 0)
    assert streaming._typed([good]) == []
    bad = new_update((new_commit(0, 2, None),), (), 2, (), 2, 2, 0)  # type: ignore[arg-type]
    assert streaming._typed([bad]) == [
        "update 0 has a field of the wrong type: MarkdownCommit() argument 'text' must be "
        "str, not None"
    ]
