"""Two readings of §3b that CommonMark would not share (docs/protocol.md §3b, after the
table): a backslash before a tag's ``<`` escapes nothing, and a tag in a raw HTML
attribute value is a candidate. Both modes and the stream agree."""

from __future__ import annotations

import pytest

from replykit import StreamSegmenter, segment

FORM = '<questionnaire>{"questions":[{"type":"free_text","text":"N","default":""}]}</questionnaire>'


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("To ask, write \\" + FORM + " in your reply.", 15),
        ("\\\\" + FORM, 2),  # an escaped backslash: the "<" is plain too
        ('<a title="' + FORM + '">x</a>', 10),
        ("- a \\" + FORM, 5),
    ],
)
def test_the_tag_is_a_candidate(text: str, start: int) -> None:
    for checked in (False, True):
        result = segment(text, checked=checked)
        blocks = [s for s in result.segments if s.kind != "markdown"]
        assert [(b.start, b.valid) for b in blocks] == [(start, True)]
        if start > 0:
            assert result.segments[0].end == start  # the backslash stays Markdown
    stream = StreamSegmenter()
    for i in range(0, len(text), 4):
        stream.push(text[i : i + 4])
    assert stream.finish() == segment(text)
