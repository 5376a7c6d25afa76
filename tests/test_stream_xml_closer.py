"""A one-line XML+JSON block's closer read without the scanner equals the full reading (§10).

``read_xml_closer`` (``segmentation/stream_closer.py``) answers the reading a streaming
segmenter runs when the closer of a tentative block has come. Wherever it answers, its
:class:`Reading` must be the full reading's (``stream_reading.read``) in every field the
segmenter uses (parts, near-misses, checkpoint, tags without a closer, taint,
``waits_blank``), and it scans no more. Checked from every resume point a first
reading finds when it stops at an opening tag without its closer (the reading the
segmenter runs when the tag comes, to the tag's end or to a line end), to every later
line end, over every generator, the conformance vectors and the benchmark reply; plus
values: where it answers and where it leaves the reading to the scanner.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inputs import VECTORS, benchmark_reply, compare_direct, line_ends, reading_fields

from replykit.questionnaire.compat import Compat
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.segmentation.stream_closer import read_xml_closer
from replykit.questionnaire.segmentation.stream_reading import Miss, Resume, read
from replykit.testing import strategies as rs
from replykit.testing.streaming import check_stream, cut

STRICT = Compat()

# Lines holding a tag, with prose before it that may or may not let the path answer.
# (Half of each drawn from what the path accepts, so that it is tried often.)
_PROSE = st.one_of(
    st.sampled_from(["Then confirm this one: ", "Pick one ", "请确认：", "Wait -- it's (50%) "]),
    st.sampled_from([
        "", "  Indented ", "- Item ", "# Head ", "Use `code ", "See [link ", "A & B ", "Star *x ",
        "x\\", "1. Step ", "Tab\there ", "ok <b> ", "Under_score ", "Bang! ", "=== ",
    ]),
)  # fmt: skip
_PAYLOAD = st.one_of(
    st.sampled_from(['{"title":"x","questions":[]}', "{}"]),
    st.sampled_from(['{"a":"<b>"}', "{\n}", "x", '{"a":"`"}']),
)
_AFTER = st.one_of(
    st.sampled_from(["\n", "\n\n", "\n  \n"]),
    st.sampled_from(["", " tail", "\nMore.\n", "\n\nMore.\n", "\n===\n"]),
)
_TAGS = st.one_of(
    st.just("questionnaire"),
    st.sampled_from(["questionnaire-response", "x-questionnaire", "Questionnaire", "x-y"]),
)
_LINE = st.builds(
    lambda prose, name, payload, after: f"{prose}<{name}>{payload}</{name}>{after}",
    _PROSE, _TAGS, _PAYLOAD, _AFTER,
)  # fmt: skip
MESSAGES = st.one_of(
    rs.messages(), rs.xml_blocks(), rs.prose(), rs.inert_messages(), rs.hostile_payloads(),
    st.lists(st.one_of(_LINE, rs.prose(), rs.xml_blocks()), min_size=1, max_size=4).map(
        "\n\n".join
    ),
    st.lists(_LINE, min_size=1, max_size=3).map("\n".join),
)  # fmt: skip


def _tag_ends(text: str) -> list[int]:
    return [m.end() for m in lexemes().tag_like.finditer(text) if m.group("rest")]


def _resumes(text: str) -> list[tuple[Resume, Miss]]:
    """Every resume point and opening tag without its closer that a first reading of
    the text up to a tag's end or a line end finds."""
    found: list[tuple[Resume, Miss]] = []
    for k in sorted(set(line_ends(text) + _tag_ends(text))):
        reading = read(text[:k], 0, Resume(0), lexemes(), STRICT, final=False, limit=k)
        cp = reading.checkpoint
        tag = next((m for m in reading.misses if m.opening), None)
        if cp is not None and tag is not None and cp.fence is None and cp.at > 0:
            found.append((Resume(cp.at, cp.state, cp.visible, 1), tag))
    return found


def _check(text: str) -> int:
    """Compare both readings from every resume point to every later line end; how many
    times the direct reading answered."""
    starts = [(resume, tag.start, tag) for resume, tag in _resumes(text)]
    return compare_direct(text, starts, read_xml_closer, STRICT)


# Messages of block lines after prose, separated by blank lines or none, where the path
# is tried at nearly every line.
LINES = st.builds(
    lambda head, lines, seps: head + "".join(s + x for s, x in zip(seps, lines, strict=False)),
    st.sampled_from(["Intro.\n\n", "Intro.\n", "- item\n\n", "```\n", "<!--\n\n", "> q\n\n"]),
    st.lists(_LINE, min_size=1, max_size=4),
    st.lists(st.sampled_from(["", "\n", "\n\n"]), min_size=4, max_size=4),
)  # fmt: skip


@settings(max_examples=300)
@given(text=st.one_of(MESSAGES, LINES), crlf=st.booleans())
def test_direct_xml_closer_reads_what_the_scanner_reads(text: str, crlf: bool) -> None:
    _check(text.replace("\n", "\r\n") if crlf else text)


@settings(max_examples=300)
@given(text=LINES)
def test_direct_xml_closer_on_block_lines(text: str) -> None:
    _check(text)


def test_direct_xml_closer_on_the_vectors_and_the_benchmark_reply() -> None:
    # _check compares the two readings wherever the direct one answers.
    for case in VECTORS:
        _check(case["input"])
    text = benchmark_reply(6_000)
    assert _check(text) >= 2
    assert _check(text.replace("\n", "\r\n")) == 0  # "\r": the scanner reads it


BEFORE = "Intro.\n\n"
BLOCK = 'Then confirm: <questionnaire>{"title":"x"}</questionnaire>'


@pytest.mark.parametrize(
    ("line", "answers", "answered"),
    [
        # (the line, whether the path answers at its last line end, at how many it does)
        (BLOCK + "\n\n", True, 2),  # a blank line after it: final
        (BLOCK + "\n", True, 1),  # the closer's line only: the paragraph stays open
        (BLOCK + "\n \t\n\n", True, 3),  # blank lines of spaces and tabs
        ("请确认：<questionnaire>{}</questionnaire>\n\n", True, 2),  # prose in any letters
        (BLOCK + " Thanks.\n\n", False, 0),  # text after the closer: the scanner reads it
        (BLOCK + "\n\nMore.\n", False, 2),  # a line after the blank ones: not at its end
        ("Use `x <questionnaire>{}</questionnaire>\n\n", False, 0),  # a backtick before it
        ("- Pick: <questionnaire>{}</questionnaire>\n\n", False, 0),  # a list item
        ('Then: <questionnaire>{"a":"<b>"}</questionnaire>\n\n', False, 0),  # "<" in the payload
        ("Then: <questionnaire>{\n}</questionnaire>\n\n", False, 0),  # a payload over lines
    ],
)
def test_where_the_direct_xml_closer_answers(line: str, answers: bool, answered: int) -> None:
    text = BEFORE + line
    found = [(r, t) for r, t in _resumes(text) if r.at == len(BEFORE)]
    assert found and all(f == found[0] for f in found)  # one resume point, however found
    resume, tag = found[0]
    end = line_ends(text)[-1]
    direct = read_xml_closer(text[len(BEFORE) - 1 : end], resume, tag)
    assert (direct is not None) is answers
    assert _check(text) == answered


@settings(max_examples=150)
@given(
    text=st.one_of(LINES, st.lists(_LINE, min_size=1, max_size=4).map("\n\n".join)), data=st.data()
)
def test_streams_of_block_lines_keep_the_guarantees(text: str, data: st.DataObject) -> None:
    # The segmenter takes both direct paths wherever they answer: the §10 guarantees
    # and the work bound hold for chunks of 1, 3 and 16 and for random cuts.
    for size in (1, 3, 16):
        assert check_stream([text[i : i + size] for i in range(0, len(text), size)]) == []
    points = data.draw(st.lists(st.integers(0, len(text)), max_size=20))
    assert check_stream(cut(text, points)) == []


def _tag_readings(text: str) -> int:
    """Compare the reading the segmenter runs when an opening tag comes in the line
    still arriving (the text to the tag's end, nothing after it a checkpoint) with the
    same reading that scans the tag's line too; how many times the reading stopped
    before the tag's line (it scanned less)."""
    stopped = 0
    for k in _tag_ends(text):
        line = max(text.rfind("\n", 0, k), text.rfind("\r", 0, k)) + 1
        args = (text[:k], 0, Resume(0), lexemes(), STRICT)
        fast = read(*args, final=False, limit=line)
        every = read(*args, final=False, limit=line, tag_lines=False)
        assert reading_fields(fast) == reading_fields(every), k
        stopped += fast.scanned < every.scanned - (k - line)
    return stopped


@settings(max_examples=300)
@given(text=st.one_of(MESSAGES, LINES), crlf=st.booleans())
def test_a_tag_line_of_plain_prose_reads_as_the_scanner_reads_it(text: str, crlf: bool) -> None:
    _tag_readings(text.replace("\n", "\r\n") if crlf else text)


def test_the_reading_stops_before_a_plain_tag_line() -> None:
    assert _tag_readings("Intro.\n\nThen confirm: <questionnaire>") == 1
    assert _tag_readings("Intro.\nThen confirm: <questionnaire>") == 0  # a continuation line
    assert _tag_readings("Intro.\n\nUse `x <questionnaire>") == 0  # a backtick before it
    assert _tag_readings(benchmark_reply(6_000)) >= 2
