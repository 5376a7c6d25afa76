"""The line starts of the text a streaming segmenter received, noted only when asked.

``Received.line_starts`` finds the line endings (§1: ``\\r\\n``, ``\\r``, ``\\n``) of the
lines completed since it was last asked. Asked after any chunk, or only at the end, it
holds the start of every complete line: a final ``\\r`` ends its line only once the
next character (or the end of the message) shows it is not the first half of ``\\r\\n``.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from replykit.questionnaire.compat import resolve
from replykit.questionnaire.segmentation.stream_input import Received
from replykit.testing import strategies as rs
from replykit.testing.streaming import cut
from replykit.text import LINE_END_RE

# Text thick with every line ending, and real messages with each.
_TEXTS = st.one_of(
    st.text(alphabet="ab \r\n<q`", max_size=60),
    st.tuples(rs.messages(), st.sampled_from(["\n", "\r\n", "\r"])).map(
        lambda m: m[0].replace("\n", m[1])
    ),
)


def _complete_line_starts(text: str, ended: bool) -> list[int]:
    """Where each complete line of ``text`` starts (``ended``: the message ended)."""
    ends = [m.end() for m in LINE_END_RE.finditer(text)]
    if text.endswith("\r") and not ended:
        ends.pop()  # "\n" may still follow
    return [0, *ends]


@settings(max_examples=200)
@given(
    text=_TEXTS,
    cuts=st.lists(st.integers(0, 4_000), max_size=20),
    asked=st.sets(st.integers(0, 25)),
    compat=st.sampled_from([None, "sage"]),
)
@example(text="a\r", cuts=[], asked=set(), compat=None)
@example(text="a\r\nb\rc\n", cuts=[2, 5], asked={0}, compat=None)
def test_line_starts_asked_after_any_chunk_are_those_of_the_text(
    text: str, cuts: list[int], asked: set[int], compat: str | None
) -> None:
    chunks = cut(text, [c % (len(text) + 1) for c in cuts])
    received = Received(resolve(compat))
    so_far = ""
    for n, chunk in enumerate(chunks):
        received.append(chunk)
        so_far += chunk
        if n in asked:
            assert received.line_starts == _complete_line_starts(so_far, False), n
            assert received.line_starts[-1] == received.complete
    assert received.line_starts == _complete_line_starts(text, False)
    received.close()
    assert received.line_starts == _complete_line_starts(text, True)


def test_line_starts_of_lines_completed_in_one_chunk_or_many() -> None:
    received = Received(None)
    for chunk in ["one\ntwo", "\r", "\nthree\rfour", "\r", "five\n\n"]:
        received.append(chunk)
    assert received.line_starts == [0, 4, 9, 15, 20, 25, 26]
    assert received.line_col(16) == (4, 2)  # the "o" of "four"
    assert received.blank_line(25) is True
    assert received.blank_line(20) is False


@settings(max_examples=200)
@given(
    text=st.text(alphabet="-> \n\r<a", max_size=80),
    cuts=st.lists(st.integers(0, 4_000), max_size=20),
    moves=st.lists(st.integers(0, 9), min_size=20, max_size=20),
)
@example(text="a -", cuts=[], moves=[0] * 20)
@example(text="a --\n>", cuts=[4], moves=[0] * 20)
@example(text="<-->", cuts=[4], moves=[0] * 20)  # asked again after finding it
def test_a_comment_closer_is_found_wherever_it_lies_since_an_offset(
    text: str, cuts: list[int], moves: list[int]
) -> None:
    # ``comment_closed(since, end)``: a "-->" from two before ``since`` (it may straddle
    # it) to ``end``, in the complete lines or the line still arriving, asked with
    # ``since`` and ``end`` never moving back, as the segmenter asks (§3b, §10).
    chunks = cut(text, [c % (len(text) + 1) for c in cuts])
    received, so_far, since = Received(None), "", 0
    for n, chunk in enumerate(chunks):
        received.append(chunk)
        so_far += chunk
        since = min(since + moves[n % len(moves)], len(so_far))
        expected = "-->" in so_far[max(since - 2, 0) :]
        assert received.comment_closed(since, len(so_far)) is expected, (n, since)
