"""Streaming under a §9 transport mode: nothing judged on text a decoding may still
change becomes final before ``finish()`` (docs/streaming.md, "When replykit commits")."""

from __future__ import annotations

import itertools

import pytest

from replykit import StreamSegmenter, segment
from replykit.questionnaire.compat import Compat
from replykit.questionnaire.segmentation.stream_shapes import Pending
from replykit.testing.streaming import check_stream

_ENTITIES = Compat(decode_entities=True)
_MODES = [_ENTITIES, "sage"]


def test_a_tag_like_text_before_the_limit_waits_for_finish() -> None:
    # Raw, the tag-like text runs from 0 to the ">" at 33, past the "&" at 16 where the
    # transport limit lies; decoded, "&lt;" is a "<" that ends it without a ">". Read
    # as if the message ended at 16, its attributes may still grow: nothing is final.
    text = "<questionnaire\n\n&lt;questionnaire>\n"
    stream = StreamSegmenter(message_id="m", compat=_ENTITIES)
    update = stream.push(text)
    assert update.diagnostics == ()
    assert update.committed_end == 0
    assert [item.start for item in update.pending] == [0]
    result = stream.finish()
    assert result == segment(text, message_id="m", compat=_ENTITIES)
    assert [(d.code, d.start, d.end) for d in result.diagnostics] == [
        ("near_miss.unclosed_tag", 16, 31)
    ]


def test_a_held_near_miss_is_reported_when_no_decoding_changes_the_text() -> None:
    # "&" followed by a space decodes to nothing else: the warning found before the
    # limit stands, and finish() reports it once.
    text = "<questionnaire\n\n& b>\n"
    stream = StreamSegmenter(message_id="m", compat=_ENTITIES)
    assert stream.push(text).diagnostics == ()
    result = stream.finish()
    assert result == segment(text, message_id="m", compat=_ENTITIES)
    assert [d.code for d in result.diagnostics] == [
        "near_miss.tag_attributes",
        "near_miss.unclosed_tag",
    ]


_HEADS = ["<questionnaire", "<Questionnaire", "<questionnaire a", "x <questionnaire"]
_GAPS = ["\n\n", "\n", " "]
_TAILS = ["&lt;questionnaire>\n", "& b>\n", "&#60;/questionnaire>\n", "&amp;>x\n"]


@pytest.mark.parametrize("compat", _MODES, ids=["entities", "sage"])
@pytest.mark.parametrize(("head", "gap", "tail"), list(itertools.product(_HEADS, _GAPS, _TAILS)))
def test_a_tag_across_the_limit_streams_as_one_segment_call(
    compat: Compat | str, head: str, gap: str, tail: str
) -> None:
    text = head + gap + tail
    for cut in range(len(text) + 1):
        assert check_stream([text[:cut], text[cut:]], message_id="m", compat=compat) == []
    assert check_stream(list(text), message_id="m", compat=compat) == []


def _family_escaped_first(n: int) -> str:
    # The escaped tag makes the decoding certain; decoded, segment() skips the payload.
    return "a &lt;questionnaire&gt;\n\n" + "<questionnaire\n" * n + "</questionnaire>"


@pytest.mark.parametrize("compat", _MODES, ids=["entities", "sage"])
@pytest.mark.parametrize("size", [0, 16, 256, 1024])
def test_no_reading_reads_past_the_line_of_the_limit(compat: Compat | str, size: int) -> None:
    # Readings of the raw lines after the "&" cost 141x one segment() at n = 100 in one
    # chunk and 24 000x at n = 10 000 in chunks of 256 (found by a helper session).
    for n in (18, 100, 3000):
        text = _family_escaped_first(n)
        chunks = [text[i : i + size] for i in range(0, len(text), size)] if size else [text]
        assert check_stream(chunks, message_id="m", compat=compat) == []
    stream = StreamSegmenter(message_id="m", compat=compat)
    stream.push("a &lt;questionnaire&gt;\n\n")
    readings = stream.readings
    for _ in range(200):
        stream.push("<questionnaire\n" * 10)
    assert stream.readings == readings


@pytest.mark.parametrize(
    ("text", "compat"),
    [
        # Raw, the "<" of the closer ends the tag-like text; decoded, "&gt;" ends the tag.
        ("<questionnaire\n\n&gt;</questionnaire>\n&lt;questionnaire&gt;", "sage"),
        ("<questionnaire\n\n&gt;</questionnaire>\n&lt;questionnaire&gt;",
         Compat(decode_entities=True, tag_attributes=True)),
        # A warning that ends before the limit, on a tag the decoding lengthens.
        ("<questionnaire a=\n\n&gt;&lt;questionnaire<\n", _ENTITIES),
        # A decoded "&#96;" closes the code span: no block where the raw text has one.
        ("`<questionnaire></questionnaire>&#96;\n\n&lt;questionnaire&gt;", _ENTITIES),
        # Raw, a block at 0; decoded, the block starts at 15.
        ("<questionnaire\n&lt;questionnaire></questionnaire>\n\n", "sage"),
    ],
)  # fmt: skip
def test_nothing_final_rests_on_text_past_the_limit(text: str, compat: Compat | str) -> None:
    for size in (0, 1, 7):
        chunks = [text[i : i + size] for i in range(0, len(text), size)] if size else [text]
        assert check_stream(chunks, message_id="m", compat=compat) == []
    stream = StreamSegmenter(message_id="m", compat=compat)
    update = stream.push(text)
    limit = text.index("&")
    assert all(getattr(item, "end", 0) <= limit for item in update.committed)
    assert all(d.end <= limit for d in update.diagnostics)
    assert stream.finish() == segment(text, message_id="m", compat=compat)


_FORM = '{"title":"T","questions":[{"type":"free_text","text":"Name?","default":""}]}'
_RAW = [
    "<questionnaire\n\n",
    "x <questionnaire a\n",
    "`<questionnaire>" + _FORM + "</questionnaire>",
    "<!--\n<questionnaire>" + _FORM + "</questionnaire>\n",
    "```questionnaire\ntitle: T\n",
    "> <questionnaire>" + _FORM + "</questionnaire>\n",
    "Intro\n\n<questionnaire>\n",
]
_ENTITY = [
    "&gt;",
    "&#96;\n",
    "--&gt;\n",
    "&#96;&#96;&#96;\n",
    "&lt;/questionnaire&gt;\n",
    "&amp;\n",
]
_ESCAPED = ["", "\n&lt;questionnaire&gt;\n", " &lt;questionnaire&gt; <b>\n\nz\n"]


@pytest.mark.parametrize("compat", _MODES, ids=["entities", "sage"])
@pytest.mark.parametrize("raw", _RAW)
def test_raw_text_then_entities_streams_as_one_segment_call(compat: Compat | str, raw: str) -> None:
    for entity, escaped in itertools.product(_ENTITY, _ESCAPED):
        text = raw + entity + escaped
        cuts = [[text], list(text), [text[: len(raw)], text[len(raw) :]]]
        for chunks in cuts:
            assert check_stream(chunks, message_id="m", compat=compat) == [], (text, chunks)


@pytest.mark.parametrize("compat", _MODES, ids=["entities", "sage"])
def test_no_pending_item_starts_after_the_limit(compat: Compat | str) -> None:
    for raw, entity, escaped in itertools.product(_RAW, _ENTITY, _ESCAPED):
        text = raw + entity + escaped
        limit = text.index("&")
        stream = StreamSegmenter(message_id="m", compat=compat)
        tail: tuple[Pending, ...] = ()
        for char in text:
            update = stream.push(char)
            tail = update.tail(tail)
            assert all(item.start <= limit for item in tail), (text, update)
