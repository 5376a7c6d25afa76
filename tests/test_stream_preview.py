"""The opt-in preview of a pending form while it streams (§10, docs/streaming.md "Preview").

A pending fenced form's preview grows as its questions complete, not only at the
readings the form's other events cause; each preview is a prefix of the final form's
questions; and the reads of one payload add up to about five times its length
(``stream_preview.next_preview``), so a long form costs linear time, not quadratic.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import StreamSegmenter, segment
from replykit.questionnaire.compat import Compat
from replykit.questionnaire.limits import DEFAULT_LIMITS
from replykit.questionnaire.profiles import CLIENT
from replykit.questionnaire.scan.parts import FencedPart
from replykit.questionnaire.segmentation.stream_blocks import PartReader
from replykit.questionnaire.segmentation.stream_preview import PREVIEW_STEP, next_preview
from replykit.questionnaire.segmentation.stream_shapes import Pending, PendingBlock, StreamUpdate
from replykit.testing import strategies as rs
from replykit.testing.streaming import check_stream, stream_chunks

SCALE = max(1, settings.default.max_examples // 200)

QUESTION = '  - type: free_text\n    text: Question {i}?\n    default: ""\n'
HEAD = "Intro.\n\n```questionnaire\ntitle: T\nquestions:\n"


def form(n: int) -> str:
    """A message holding one valid fenced form of ``n`` free-text questions."""
    return HEAD + "".join(QUESTION.format(i=i) for i in range(n)) + "```\n\nAfter.\n"


def previews(updates: tuple[StreamUpdate, ...]) -> list[list[str]]:
    """The question texts of each distinct preview the pending form showed, in order."""
    seen: list[list[str]] = []
    tail: tuple[Pending, ...] = ()
    for update in updates:
        tail = update.tail(tail)
        for item in tail:
            if isinstance(item, PendingBlock) and item.preview is not None:
                texts = [q.text for q in item.preview]
                if not seen or seen[-1] != texts:
                    seen.append(texts)
    return seen


def test_the_preview_grows_as_questions_complete() -> None:
    text = form(4)
    chunks = [text[i : i + 16] for i in range(0, len(text), 16)]
    run = stream_chunks(chunks, preview=True)
    # A question shows once the next one starts (the last may still grow), read at
    # least 64 code points (PREVIEW_STEP) apart; then the closer commits the block.
    assert previews(run.updates) == [
        [],
        ["Question 0?", "Question 1?"],
        ["Question 0?", "Question 1?", "Question 2?"],
    ]
    assert run.result == segment(text)


def _question(i: int, style: str) -> str:
    if style == "lone_dash":  # the item's node starts on the line after its "-"
        return f"  -\n    type: free_text\n    text: Q{i}?\n    default: ''\n"
    if style == "options":  # nested block sequences inside each item
        return (
            f"  - type: single_choice\n    text: Q{i}?\n    options:\n      - a\n      - b\n"
            "    default: a\n"
        )
    return f"  - type: free_text\n    text: Q{i}?\n    default: ''\n"


def _layout(style: str, eol: str = "\n", head: str = "title: T\n", indent: str = "") -> str:
    body = head + "questions:\n" + "".join(_question(i, style) for i in range(6))
    body = "".join(indent + line for line in body.splitlines(keepends=True))
    text = f"Intro.\n\n{indent}```questionnaire\n{body}{indent}```\n\nAfter.\n"
    return text.replace("\n", eol)


LAYOUTS = {
    "lf": _layout("plain"),
    "crlf": _layout("plain", "\r\n"),
    "cr": _layout("plain", "\r"),
    "lone_dash": _layout("lone_dash"),
    "options": _layout("options"),
    # A title continued on a line that starts with "- ": no question item.
    "title_dash": _layout("plain", head="title: Plan\n  - step two\n"),
    # The opener indented: its indentation is removed from each content line.
    "indented": _layout("plain", indent="   "),
}


@pytest.mark.parametrize("size", [1, 7, 16])
@pytest.mark.parametrize("name", list(LAYOUTS))
def test_every_layout_previews_a_prefix_of_the_final_questions(name: str, size: int) -> None:
    text = LAYOUTS[name]
    final = segment(text).segments[1].questionnaire
    assert final is not None
    texts = [q.text for q in final.questions]
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    seen = previews(stream_chunks(chunks, preview=True).updates)
    counts = [len(shown) for shown in seen]
    assert counts == sorted(counts) and counts[0] == 0  # it never shrinks
    assert all(shown == texts[: len(shown)] for shown in seen)
    assert 4 <= counts[-1] <= 5  # shown before the closer commits the block


@pytest.mark.parametrize("brk", ["\u2028", "\u2029", "\x85"])
def test_a_question_ended_by_another_line_break_is_kept_whole(brk: str) -> None:
    # The YAML reader ends a line there too: the cut keeps "allow_other: true".
    payload = (
        "title: T\nquestions:\n  - type: single_choice\n    text: Q0?\n    options: [a, b]\n"
        f"    default: a\n    allow_other: true{brk}  - type: free_text\n    text: Q1?\n"
        "    default: ''\n"
    )
    text = f"Intro.\n\n```questionnaire\n{payload}```\n\nAfter.\n"
    final = segment(text).segments[1].questionnaire
    assert final is not None and final.questions[0].allow_other is True
    run = stream_chunks(list(text), preview=True)
    shown: tuple[Pending, ...] = ()
    firsts = set()
    for update in run.updates:
        shown = update.tail(shown)
        firsts |= {it.preview[0] for it in shown if isinstance(it, PendingBlock) and it.preview}
    assert firsts == {final.questions[0]}


def test_a_long_form_shows_its_questions_in_growing_steps() -> None:
    text = form(400)
    chunks = [text[i : i + 16] for i in range(0, len(text), 16)]
    seen = previews(stream_chunks(chunks, preview=True).updates)
    counts = [len(texts) for texts in seen]
    assert counts == sorted(counts) and counts[0] == 0
    # Read again each time the payload grew by a quarter: the last preview before the
    # closer holds at least four fifths of the questions, after about 30 steps.
    assert 320 <= counts[-1] < 400 and 20 <= len(counts) <= 40
    final = segment(text).segments[1].questionnaire
    assert final is not None
    assert seen[-1] == [q.text for q in final.questions[: counts[-1]]]


def test_without_preview_nothing_is_read_for_it() -> None:
    text = form(40)
    chunks = [text[i : i + 16] for i in range(0, len(text), 16)]
    plain, shown = StreamSegmenter(), StreamSegmenter(preview=True)
    for chunk in chunks:
        plain.push(chunk)
        shown.push(chunk)
    assert plain.finish() == shown.finish() == segment(text)
    # The preview's readings come on top: one per quarter of growth of the payload.
    assert plain.readings < shown.readings <= plain.readings + 16


def test_preview_reads_of_a_growing_payload_are_linear() -> None:
    # Each reading of a stream asks for the pending form again; here one every 16
    # code points of a 900-question payload (60 KB; 1000 is max_questions).
    text = form(900)
    start = text.index("title")
    reader = PartReader("m", CLIENT, Compat(), DEFAULT_LIMITS, True)
    end, stop, lengths = start, text.index("```\n\nAfter"), []
    while end < stop:  # a reading ends at a line's end
        end = min(text.index("\n", end + 16) + 1, stop)
        block = reader.pending(FencedPart((8, start), (start, end), None), 1, False, _text(text))
        assert block.preview is not None
        lengths.append(len(block.preview))
    payload = end - start
    assert lengths == sorted(lengths) and lengths[-1] >= 720
    assert reader.previewed <= 5 * payload + 4 * PREVIEW_STEP


def test_next_preview_spacing() -> None:
    assert [next_preview(n) for n in (0, 100, 256, 257, 4000)] == [64, 164, 320, 321, 5000]


def _text(text: str) -> Callable[[int, int], str]:
    return lambda a, b: text[a:b]


GENERATORS = st.one_of(
    rs.messages(),
    rs.fenced_blocks(),
    st.lists(st.one_of(rs.fenced_blocks(), rs.xml_blocks(), rs.prose()), max_size=5).map(
        "\n\n".join
    ),
)


@settings(max_examples=120 * SCALE)
@given(text=GENERATORS, size=st.integers(1, 64))
def test_previews_keep_the_guarantees_and_are_prefixes_of_the_final_questions(
    text: str, size: int
) -> None:
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    assert check_stream(chunks, preview=True) == []
    run = stream_chunks(chunks, preview=True)
    final = {s.id: s for s in run.expected.segments if s.id is not None}
    tail: tuple[Pending, ...] = ()
    for update in run.updates:
        tail = update.tail(tail)
        for item in tail:
            if not isinstance(item, PendingBlock) or not item.preview:
                continue
            done = final[item.id].questionnaire
            if done is not None:  # a hint: an invalid form may have shown some
                assert done.questions[: len(item.preview)] == item.preview
