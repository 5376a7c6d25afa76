"""A fenced candidate's closing fence read without the scanner equals the full reading (§10).

``read_closer`` (``segmentation/stream_closer.py``) answers a streaming reading that
resumes inside a top-level fenced candidate without a scanner. Wherever it answers, its
:class:`Reading` must be the full reading's (``stream_reading.read``) in every field the
segmenter uses: the parts, near-misses, checkpoint (state included), tags without a
closer, taint and ``waits_blank``; and it scans no more. Checked from every resume
point inside a fenced candidate that a reading of the message's complete lines finds,
to every later line end, over every generator, the conformance vectors, the corpus and
the benchmark reply, with every line ending; plus values: where it answers and where it
leaves the reading to the scanner. The segmenter-level updates are compared with the
reading of every line alone by tests/test_stream_fast.py (the runs and this path
change no update).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inputs import VECTORS, benchmark_reply, compare_direct, line_ends

from replykit.questionnaire.compat import Compat, resolve
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.segmentation.stream_closer import read_closer
from replykit.questionnaire.segmentation.stream_reading import OpenFence, Resume, read
from replykit.testing import strategies as rs
from replykit.testing.streaming import check_stream, cut

STRICT = Compat()
SAGE = resolve("sage")
assert SAGE is not None

# Fenced candidates with every kind of line that may or may not close them.
_LINES = st.sampled_from([
    "title: x", "questions: []", "```", "~~~", "````", "   ```", "    ```", "``` ", "```\t",
    "```questionnaire", "~~~~~~", "``", "- a: <b>", "<questionnaire>", "", "  ", "text",
    "```  x", "\t```",
])  # fmt: skip
_FENCED = st.builds(
    lambda opener, lines, after: "\n".join([opener, *lines]) + "\n" + after,
    st.sampled_from(["```", "~~~", "````", "  ```"]).map(lambda fence: fence + "questionnaire"),
    st.lists(_LINES, max_size=8),
    st.sampled_from(["", "\n", "\n\n", "  \n", "More text.\n", "\n- item\n"]),
)  # fmt: skip
MESSAGES = st.one_of(
    rs.messages(), rs.markdown(), rs.prose(), rs.inert_messages(), rs.fenced_blocks(),
    rs.xml_blocks(), rs.hostile_payloads(),
    st.lists(st.one_of(_FENCED, rs.fenced_blocks(), rs.prose()), max_size=4).map("\n\n".join),
)  # fmt: skip


def _resumes(text: str, compat: Compat) -> list[Resume]:
    """Every resume point inside a fenced candidate that a first reading of the text's
    complete lines up to a line end finds."""
    found: list[Resume] = []
    for k in line_ends(text):
        reading = read(text[:k], 0, Resume(0), lexemes(), compat, final=False, limit=k)
        cp = reading.checkpoint
        if cp is not None and cp.fence is not None and cp.at > 0:
            fence = OpenFence(cp.fence[0], cp.fence[1], 1, cp.visible)
            found.append(Resume(cp.at, cp.state, cp.visible, 1, fence))
    return found


def _check(text: str, compat: Compat = STRICT) -> int:
    """Compare both readings from every resume point to every later line end; how many
    times the direct reading answered."""
    starts = [(resume, resume.at, None) for resume in _resumes(text, compat)]
    return compare_direct(
        text, starts, lambda piece, resume, _: read_closer(piece, resume, lexemes()), compat
    )


@settings(max_examples=300)
@given(text=MESSAGES, eol=st.sampled_from(["\n", "\n", "\r\n", "\r"]), sage=st.booleans())
def test_direct_closer_reads_what_the_scanner_reads(text: str, eol: str, sage: bool) -> None:
    _check(text.replace("\n", eol), SAGE if sage else STRICT)


@pytest.mark.parametrize("case", VECTORS, ids=lambda c: c["id"])
def test_direct_closer_on_every_vector(case: dict[str, Any]) -> None:
    _check(case["input"])


def test_direct_closer_on_the_benchmark_reply() -> None:
    text = benchmark_reply(6_000)
    assert _check(text) >= 2
    assert _check(text.replace("\n", "\r\n")) >= 2


OPENER = "Intro.\n\n```questionnaire\ntitle: x\n"


@pytest.mark.parametrize(
    ("rest", "answers"),
    [
        ("```\n", True),  # the closer is the last complete line
        ("```\n\n  \n", True),  # blank lines after it
        ("questions: []\n   ```  \n", True),  # payload lines, an indented closer
        ("```questionnaire\n```\n", True),  # a fence with an info string is payload
        ("````\n", True),  # a longer fence closes
        ("~~~\n```\n", True),  # another character is payload
        ("```\nMore.\n", False),  # text after the closer: the scanner reads it
        ("a: <b>\n```\n", False),  # a "<" may start a tag
        ("questions: []\n", False),  # no closer yet
        ("    ```\n", False),  # four spaces: payload, no closer yet
    ],
)
def test_where_the_direct_closer_answers(rest: str, answers: bool) -> None:
    text = OPENER + rest
    resumes = [r for r in _resumes(text, STRICT) if r.at == len(OPENER)]
    assert len(resumes) == 1
    direct = read_closer(text[len(OPENER) - 1 :], resumes[0], lexemes())
    assert (direct is not None) is answers
    _check(text)


@settings(max_examples=150)
@given(
    text=st.lists(st.one_of(_FENCED, rs.fenced_blocks(), rs.prose()), min_size=1, max_size=4).map(
        "\n\n".join
    ),
    size=st.sampled_from([1, 3, 16, 256]),
    cuts=st.lists(st.integers(0, 2_000), max_size=20),
)
def test_streams_with_direct_closers_keep_the_guarantees(
    text: str, size: int, cuts: list[int]
) -> None:
    # The segmenter takes the direct path wherever it answers: the §10 guarantees
    # (finish() is segment(), commits never withdrawn, ids final) and the work bound
    # hold for fixed chunk sizes and random cuts.
    fixed = [text[i : i + size] for i in range(0, len(text), size)]
    assert check_stream(fixed) == []
    assert check_stream(cut(text, [c % (len(text) + 1) for c in cuts])) == []
