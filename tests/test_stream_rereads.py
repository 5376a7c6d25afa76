"""What a streaming reading reads again costs no new search (§10, docs/streaming.md "Work").

Readings start again at the resume point while an opening tag lacks its closer, so the
same lines are read again. Two searches of those lines used to be charged again on
every reading: the family word's index (three times the text read) and the search for
the end of a tag whose attributes may still grow (the whole text after the tag). Both
are now noted once as the text arrives (``Received.words``, ``Received.angles``). A
reading given those notes finds exactly what a reading that searches finds, and the
stream keeps the bound of §10 on the families that broke it
(``replykit.testing.hostile``'s partial-tag and growing-tag families, counted at m and
10 m in tests/test_hostile.py).
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import StreamSegmenter, segment
from replykit.questionnaire.compat import Compat, resolve
from replykit.questionnaire.limits import DEFAULT_LIMITS
from replykit.questionnaire.profiles import CLIENT
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.segmentation.assemble import segment_counted
from replykit.questionnaire.segmentation.stream_reading import Resume, read
from replykit.testing import strategies as rs
from replykit.testing.hostile.stream_families import partial_tags_after_open_tag
from replykit.testing.streaming import check_stream
from replykit.text import LINE_END_RE

_PIECES = st.lists(
    st.sampled_from([
        "\n", "\r", "\r\n", "\n\n", "<questionnaire", "<questionnaire a", "<questionn", "<!-",
        "<!--", "-->", ">", "<", "```", "```questionnaire", "~~~", "`", "\\", "&#", "a",
        "QUESTIONNAIRE", "</questionnaire>", "{}", " ",
    ]),
    max_size=40,
).map("".join)  # fmt: skip


def _complete(text: str) -> str:
    """``text`` up to the end of its last complete line (what a reading reads)."""
    ends = [m.end() for m in LINE_END_RE.finditer(text) if m.end() < len(text) or m.group() != "\r"]
    return text[: ends[-1]] if ends else ""


def _notes(text: str) -> tuple[list[int], tuple[int, int]]:
    word = lexemes().family_word_any_case
    possible = re.compile(f"(?:{word.pattern})|&#", word.flags)
    words = [m.start() for m in possible.finditer(text)]
    return words, (text.rfind("<"), text.rfind(">"))


@settings(max_examples=300)
@given(
    text=st.one_of(_PIECES, rs.messages(), rs.xml_blocks(), rs.hostile_payloads()),
    compat=st.sampled_from([None, "sage"]),
)
def test_a_reading_from_the_notes_finds_what_a_searching_reading_finds(
    text: str, compat: str | None
) -> None:
    text = _complete(text)
    mode = resolve(compat)
    words, angles = _notes(text)
    lx, chosen, end = lexemes(), mode or Compat(), len(text)
    searching = read(text, 0, Resume(0), lx, chosen, final=False, limit=end)
    noted = read(text, 0, Resume(0), lx, chosen, final=False, limit=end, words=words, angles=angles)
    for field in ("parts", "near_misses", "checkpoint", "misses", "taint", "waits_blank"):
        assert getattr(noted, field) == getattr(searching, field), field
    assert noted.scanned <= searching.scanned


def test_the_reported_partial_tag_stream_keeps_the_bound() -> None:
    # A "\" line, a blank line, an opening tag without its closer, then 1000 lines
    # with a partial tag: the report measured 152939, 104159 and 79106 characters
    # scanned at chunks of 64, 1024 and the whole text, against 3 x 23034 + 256 each.
    text = partial_tags_after_open_tag(1000)
    assert text.startswith("\\\n\n<questionnaire\n<questionn\n")
    for size in (64, 1024, len(text)):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        assert check_stream(chunks) == []
    seg = StreamSegmenter()
    seg.push(text)
    assert seg.finish() == segment(text)
    # One reading of the whole text, then finish() from the blank line, neither
    # searching the text for the words again: about 1.5 x one segment() (3.4 x before).
    _, one_shot = segment_counted(text, "message", CLIENT, None, DEFAULT_LIMITS)
    assert one_shot == 23034
    assert seg.readings == 1
    assert seg.scanned <= 1.6 * one_shot
