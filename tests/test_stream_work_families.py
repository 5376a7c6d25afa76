"""The §10 work bound on two families session 12's review found over it: text after
an opening tag whose closer has not come, on the tag's own line (the scanner read on,
asking whether a later tag there was inert, through the whole paragraph), and a §9
transport limit at the resume point (every reading read text a decoding may still
move, whose items the pending tail drops)."""

from __future__ import annotations

import pytest

from replykit import StreamSegmenter, segment
from replykit.testing.streaming import check_stream, stream_chunks


def _family_a(n: int, second: str) -> str:
    return "<questionnaire>" + second + "\n" + "text\n" * n + "</questionnaire>"


def _family_b(n: int) -> str:
    return (
        "&lt;questionnaire&gt;\n\n<v>\n e\n" + "    code\n" * n
        + "questionnaire</details>\n&lt;/questionnaire&gt;"
    )  # fmt: skip


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] if size else [text]


@pytest.mark.parametrize(
    "second", ["<questionnaire-response>", "<questionnaire>", " <x-questionnaire a>"]
)
@pytest.mark.parametrize("size", [0, 1, 64, 256])
def test_an_unclosed_tag_stops_its_lines_reading(second: str, size: int) -> None:
    text = _family_a(1200, second)
    assert check_stream(_chunks(text, size), message_id="m") == []


@pytest.mark.parametrize("size", [0, 64, 1000])
def test_a_transport_limit_at_the_resume_point_reads_nothing(size: int) -> None:
    text = _family_b(2000)
    assert check_stream(_chunks(text, size), message_id="m", compat="sage") == []


@pytest.mark.parametrize("compat", [None, "sage"])
@pytest.mark.parametrize("size", [16, 1500, 2000, 5000, 16_000])
def test_no_reading_runs_while_an_opening_tag_waits_for_its_closer(
    compat: str | None, size: int
) -> None:
    # Readings every 1024 new code points found the same tag again, each reading the
    # text from the resume point: with the reading its closer brings and finish(), 3.9x
    # one segment() at chunks of 5000 (found after the review, present before).
    for head in ("a <questionnaire>\n", "a &amp; <questionnaire>\n"):
        text = head + "text line\n" * 4000 + "</questionnaire>\n"
        assert check_stream(_chunks(text, size), message_id="m", compat=compat) == []
    stream = StreamSegmenter(message_id="m")
    stream.push("a <questionnaire>\n")
    readings = stream.readings
    for _ in range(400):
        stream.push("text line\n" * 10)
    assert stream.readings == readings  # the same tag: no reading
    stream.push("</questionnaire>\n")
    assert stream.readings == readings + 1  # its closer came


def test_the_work_stays_flat_as_the_payload_grows() -> None:
    # One push holding every line but the closer: the reading stops at the first tag.
    small, large = StreamSegmenter(message_id="m"), StreamSegmenter(message_id="m")
    small.push(_family_a(100, "<questionnaire-response>"))
    large.push(_family_a(10_000, "<questionnaire-response>"))
    assert small.scanned == large.scanned
    assert large.finish() == segment(_family_a(10_000, "<questionnaire-response>"), message_id="m")
    sage = StreamSegmenter(message_id="m", compat="sage")
    sage.push(_family_b(5000))
    assert sage.scanned == 0  # nothing before the limit (offset 0) to read
    assert sage.finish() == segment(_family_b(5000), message_id="m", compat="sage")


@pytest.mark.parametrize(
    "head", ["a &amp; b\n\n", "<div>\n&amp;\n\n", "- &amp;\n\n", "> &amp;\n\n"]
)
def test_past_a_transport_limit_the_reading_stops_at_the_first_tag(head: str) -> None:
    # A §9 limit before a line that starts with a tag without its closer: the reading
    # read every line after the limit, the tag's tentative block included (a fuzzer's
    # reply at 3.4x its length in one reading: over the bound of §10 with the closer's
    # reading and finish()). Now no reading reads past the start of the limit's line.
    texts = [head + _family_a(n, "<questionnaire-response>") for n in (100, 10_000)]
    small, large = (StreamSegmenter(message_id="m", compat="sage") for _ in texts)
    small.push(texts[0])
    large.push(texts[1])
    assert small.scanned == large.scanned <= 2 * len(head)
    assert large.finish() == segment(texts[1], message_id="m", compat="sage")
    for size in (16, 256):
        assert check_stream(_chunks(texts[1], size), message_id="m", compat="sage") == []


def _family_c(n: int, tail: str) -> str:
    # A paragraph that an HTML block interrupts, where a comment starting a line stays
    # unclosed: it runs to the end of the message and nothing after it is read (§3b),
    # so one segment() costs the head whatever the length of the tail.
    return "em\n<div>x\n" + "x <!-- c --> y\n" * 300 + "<!-- open\n\n" + tail * n


def _doubling(text: str, first: int) -> list[str]:
    chunks, at = [], 0
    while at < len(text):
        chunks.append(text[at : at + first])
        at, first = at + first, 2 * first
    return chunks


@pytest.mark.parametrize(
    "tail", ["line questionnaire\n", "a <questionnaire>{}</questionnaire> b\n"]
)
def test_no_reading_runs_while_a_comment_runs_to_the_end(tail: str) -> None:
    # Readings spaced as usual each read the head again (the comment was never closed):
    # 8 of them, 8x one segment(), at 50 000 tail lines in chunks that double.
    text = _family_c(50_000, tail)
    assert check_stream(_doubling(text, 6000), message_id="m") == []
    assert check_stream(_chunks(text, 1024), message_id="m") == []
    stream, pushed = StreamSegmenter(message_id="m"), [_family_c(1, tail)]
    stream.push(pushed[0])
    assert stream.readings == 1  # the first family word: the reading meets the comment
    for _ in range(200):
        # "a <questionnaire>" comes in the line still arriving, then the rest of it
        pushed += [tail * 50, tail[:10], tail[10:]]
        for chunk in pushed[-3:]:
            stream.push(chunk)
    assert stream.readings == 1  # the same comment: no reading
    pushed.append("end -->\n" + tail * 100)
    stream.push(pushed[-1])
    assert stream.readings == 2  # a "-->" may close it: read again
    assert stream.finish() == segment("".join(pushed), message_id="m")


@pytest.mark.parametrize(
    "line",
    [
        "- <questionnaire>{}</questionnaire>\n",  # each block waits for finish() (the cap)
        "1. <questionnaire>{}</questionnaire>\n",
        '* <questionnaire>{"title":"T","questions":[]}</questionnaire>\n',
        "> <questionnaire>{}</questionnaire>\n",
        "<div>\n<questionnaire>{}</questionnaire>\n",
    ],
)
@pytest.mark.parametrize(("n", "size"), [(500, 2048), (2000, 2048), (4000, 4096), (1000, 256)])
def test_a_stretch_whose_resume_point_never_moves_stays_within_the_bound(
    line: str, n: int, size: int
) -> None:
    # Every line start leaves a paragraph (or an HTML block) open in a container, so
    # no reading moves the resume point: each reads from 0 again, spaced by a factor
    # of three, and finish() reads it all once more (helper-131's family, session 18).
    chunks = _chunks(line * n, size)
    assert check_stream(chunks) == []
    run = stream_chunks(chunks)  # its ``scanned`` is the segmenter's work
    assert run.scanned <= 3 * run.one_shot, (run.scanned, run.one_shot)  # no per-chunk slack
