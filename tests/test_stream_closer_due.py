"""A form laid out over many lines is final as soon as its closer and the line after it
have come (§10, docs/streaming.md "Work"): the closing tag of the opening tag that
stopped the last reading makes a reading due at once, also when the spacing of readings
would wait, and the pending block says `closed` from then on."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import StreamSegmenter, segment
from replykit.questionnaire.model import Segment


def _form(questions: int, name: str = "questionnaire", closer: str = "</questionnaire>") -> str:
    body = ",\n".join(f'{{"id":"q{i}","type":"text","text":"Q{i}"}}' for i in range(questions))
    return f'<{name}>{{"title":"T","questions":[\n{body}\n]}}{closer}'


def _stream(text: str, size: int, **options: object) -> tuple[StreamSegmenter, list[int]]:
    """Push ``text`` in chunks of ``size``; for each push, the committed end after it."""
    seg = StreamSegmenter(message_id="m", **options)  # type: ignore[arg-type]
    ends = []
    for i in range(0, len(text), size):
        ends.append(seg.push(text[i : i + size]).committed_end)
    return seg, ends


def _committed_by(ends: list[int], size: int, at: int) -> int:
    """The committed end after the push that brought offset ``at - 1``."""
    return ends[(at - 1) // size]


@pytest.mark.parametrize("size", [1, 7, 16, 64, 256, 1000])
def test_a_many_line_form_is_committed_with_the_blank_line_after_its_closer(size: int) -> None:
    form = _form(100)
    text = "Intro\n\n" + form + "\n\n" + "More prose here.\n" * 300
    seg, ends = _stream(text, size)
    result = seg.finish()
    assert result == segment(text, message_id="m")
    block = next(s for s in result.segments if s.kind == "questionnaire")
    assert (block.start, block.valid) == (text.index(form), True)
    blank_end = text.index("\n\n", block.start) + 2  # the blank line that ends the paragraph
    assert _committed_by(ends, size, blank_end) >= block.end


def test_the_pending_block_is_closed_once_its_closer_line_is_complete() -> None:
    form = _form(60)
    text = "Intro\n\n" + form + "\nstill the same paragraph\n\nAfter.\n"
    seg = StreamSegmenter(message_id="m")
    closer_line_end = text.index("</questionnaire>") + len("</questionnaire>\n")
    shown: list[object] = []
    for i in range(0, closer_line_end, 5):
        shown = list(seg.push(text[i : min(i + 5, closer_line_end)]).tail(shown))  # type: ignore[arg-type]
    blocks = [p for p in shown if getattr(p, "kind", None) == "questionnaire"]
    assert [(b.start, b.closed, b.tentative) for b in blocks] == [(7, True, True)]  # type: ignore[attr-defined]
    seg.push(text[closer_line_end:])
    assert seg.finish() == segment(text, message_id="m")


@pytest.mark.parametrize(
    ("name", "closer"),
    [("Questionnaire", "</QUESTIONNAIRE>"), ("questionnaire", "<\\/questionnaire>")],
)
def test_closers_count_as_the_compat_switches_say(name: str, closer: str) -> None:
    # Under compat="sage" a closer in any case or escaped closes the tag (§9): it is
    # read at once too.
    form = _form(80, name, closer)
    text = "Intro\n\n" + form + "\n\n" + "Prose.\n" * 200
    seg, ends = _stream(text, 16, compat="sage")
    result = seg.finish()
    assert result == segment(text, message_id="m", compat="sage")
    block = next(s for s in result.segments if s.kind == "questionnaire")
    assert block.valid
    blank_end = text.index("\n\n", block.start) + 2
    assert _committed_by(ends, 16, blank_end) >= block.end


def test_a_closer_of_another_name_makes_no_reading_due() -> None:
    form = _form(80).replace("</questionnaire>", "</questionnaire-response>")
    text = "Intro\n\n" + form + "\n\n" + "Prose.\n" * 200
    seg, _ = _stream(text, 16)
    # No closer of the open tag: the tag is text (§3a) and the message is Markdown.
    result = seg.finish()
    assert result == segment(text, message_id="m")
    assert [s.kind for s in result.segments] == ["markdown"]
    assert seg.readings < 10


@settings(max_examples=120)
@given(
    questions=st.integers(1, 40),
    before=st.text(alphabet="ab \n", max_size=80),
    after=st.integers(0, 40),
    size=st.integers(1, 300),
)
def test_any_chunking_commits_a_many_line_form_once_it_is_final(
    questions: int, before: str, after: int, size: int
) -> None:
    form = _form(questions)
    text = "Intro " + before.replace("\n", " ") + "\n\n" + form + "\n\n" + "Tail line.\n" * after
    seg, ends = _stream(text, size)
    result = seg.finish()
    assert result == segment(text, message_id="m")
    block = next(s for s in result.segments if isinstance(s, Segment) and s.kind != "markdown")
    assert (block.start, block.valid) == (text.index(form), True)
    blank_end = text.index("\n\n", block.start) + 2
    assert _committed_by(ends, size, blank_end) >= block.end
