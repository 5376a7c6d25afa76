"""Streaming under a §9 transport mode: nothing judged on text a decoding may still
change becomes final before ``finish()`` (docs/streaming.md, "When replykit commits")."""

from __future__ import annotations

import itertools

import pytest

from replykit import StreamSegmenter, segment
from replykit.questionnaire.compat import Compat
from replykit.testing.streaming import check_stream

_ENTITIES = Compat(decode_entities=True)
_MODES = [_ENTITIES, "sage"]


def test_a_near_miss_that_runs_past_the_limit_waits_for_finish() -> None:
    # The tag-like text runs from 0 to the ">" at 33, past the "&" at 16 where the
    # transport limit lies: decoded, "&lt;" is a "<" that ends it without a ">".
    text = "<questionnaire\n\n&lt;questionnaire>\n"
    stream = StreamSegmenter(message_id="m", compat=_ENTITIES)
    update = stream.push(text)
    assert update.diagnostics == ()
    assert update.committed_end == 16
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
