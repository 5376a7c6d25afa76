"""What a streaming segmenter holds back and what its readings cost, in the shapes a
review found (§10; docs/streaming.md "Pending" and "Work"): a leading U+FEFF before a
fence opener, a family name of any length, a tag across a line ending under §9, a
one-line form cut before its closer, long lines ending in "\\r"."""

from __future__ import annotations

import pytest

from replykit import StreamSegmenter, segment
from replykit.testing.streaming import check_stream

FENCED = "```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: N?\n```\n"


@pytest.mark.parametrize("first", ["\ufeff```q", "\ufeff``", "\ufeff  ```q", "\ufeff"])
def test_a_fence_opener_after_a_leading_bom_is_held(first: str) -> None:
    update = StreamSegmenter(message_id="m").push(first)
    assert (update.held_from, update.received) == (0, len(first))


def test_a_bom_line_that_opens_no_fence_is_not_held() -> None:
    update = StreamSegmenter(message_id="m").push("\ufeffx```")
    assert update.held_from == update.received == 5


@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_bom_then_fence_properties(size: int) -> None:
    text = "\ufeff" + FENCED
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    assert check_stream(chunks, message_id="m") == []


@pytest.mark.parametrize("length", [1, 49, 51, 400])
def test_a_long_family_name_with_attributes_is_held_under_sage(length: int) -> None:
    name = "a" * length + "-questionnaire"
    head = "Hi\n\n<" + name + ' title="x'
    update = StreamSegmenter(message_id="m", compat="sage").push(head)
    assert update.held_from == 4
    rest = 'y">{"title":"T","questions":[{"type":"text","text":"N?"}]}</' + name + ">\n"
    chunks = [head, rest]
    assert check_stream(chunks, message_id="m", compat="sage") == []


def test_a_tag_across_a_line_ending_is_held_under_sage_only() -> None:
    sage = StreamSegmenter(message_id="m", compat="sage").push("Hi\n\n<questionnaire\n")
    strict = StreamSegmenter(message_id="m").push("Hi\n\n<questionnaire\n")
    assert (sage.held_from, strict.held_from) == (4, 19)
    text = 'Hi\n\n<questionnaire\ntitle="x">{"title":"T","questions":[]}</questionnaire>\n'
    assert [s.kind for s in segment(text, compat="sage").segments][1] == "questionnaire"
    chunks = ["Hi\n\n<questionnaire\n", text[19:]]
    assert check_stream(chunks, message_id="m", compat="sage") == []


@pytest.mark.parametrize(
    "chunks",
    [
        ["<questionnaire>" + "x" * 20_000, "</questionnaire>\n"],
        ["<questionnaire>" + "x" * 20_000 + "`", "</questionnaire>\n"],
        ["<div><!--<e-questionnaire>" + "x" * 20_000, "-->"],
        ["<questionnaire`\n\n" + "x" * 20_000, "questionnaire\r\\"],
        ["<questionnaire`\n\n" + "x" * 20_000, "questionnaire\r\n\\"],
    ],
    ids=["closer-later", "backtick-far", "comment", "cr-line", "crlf-line"],
)
def test_work_bound_on_long_lines(chunks: list[str]) -> None:
    # check_stream includes the bound: 3 x one segment() + 256 per chunk.
    assert check_stream(chunks, message_id="m") == []


def test_a_tag_reading_reads_what_may_change_the_tag() -> None:
    # A backtick or closer within 64 code points after the tag is read with it.
    inert = StreamSegmenter().push("a `b <questionnaire>{} c` d").tail(())
    assert [type(item).__name__ for item in inert] == ["PendingMarkdown"]
    closed = StreamSegmenter().push("a <questionnaire>{}</questionnaire> d").tail(())
    assert [(type(i).__name__, getattr(i, "closed", None)) for i in closed] == [
        ("PendingMarkdown", None),
        ("PendingBlock", True),
    ]
