"""The stream checker (``replykit.testing.streaming``) finds each fault it names, also
where its checks only look at what changed since the last update."""

from __future__ import annotations

from replykit import segment
from replykit.questionnaire.segmentation.stream_shapes import (
    PendingBlock,
    PendingMarkdown,
    StreamUpdate,
)
from replykit.testing.streaming import _check_held, _check_pending

_FORM = "title: T\nquestions:\n  - type: free_text\n    text: x\n    default: ''\n"
TEXT = "Hi\n\n```questionnaire\n" + _FORM + "```\n\nafter\n"
FINAL = segment(TEXT, message_id="m").segments
OPENER_END = TEXT.index("\n", 4) + 1  # the fence line with its line ending


def _update(
    end: int, pending: tuple[object, ...], held: int, received: int, kept: int
) -> StreamUpdate:
    return StreamUpdate((), (), end, pending, held, received, kept)  # type: ignore[arg-type]


def _block(start: int) -> PendingBlock:
    return PendingBlock(
        "questionnaire", "fenced_yaml", "questionnaire", "m_q1", start, False, False
    )


def test_an_opener_shown_half_as_text_is_found() -> None:
    half = _update(0, (PendingMarkdown(0),), 10, 10, 0)
    held = _update(0, (PendingMarkdown(0),), 4, 10, 0)
    block = _block(4)
    shown = _update(0, (PendingMarkdown(0), block), 10, 10, 0)
    assert _check_held([half], FINAL, TEXT) == ["update 0: the opener at 4 is shown half as text"]
    assert _check_held([held], FINAL, TEXT) == []
    assert _check_held([shown], FINAL, TEXT) == []
    # Once the opener line is complete, Markdown up to it is no fault.
    whole = _update(0, (PendingMarkdown(0),), OPENER_END, OPENER_END, 0)
    assert _check_held([whole], FINAL, TEXT) == []


def test_a_kept_item_before_the_committed_end_is_found() -> None:
    first = _update(0, (PendingMarkdown(0), PendingMarkdown(4)), 20, 20, 0)
    moved = _update(3, (), 20, 20, 2)  # commits 0-3 but keeps the item at 0
    assert _check_pending([first, moved], FINAL) == [
        "update 1: pending item before the committed end"
    ]


def test_an_empty_item_where_new_items_meet_kept_ones_is_found() -> None:
    first = _update(0, (PendingMarkdown(0), PendingMarkdown(4)), 20, 20, 0)
    again = _update(0, (PendingMarkdown(4),), 20, 20, 2)
    assert _check_pending([first, again], FINAL) == ["update 1: pending item at 4 is empty"]


def test_a_new_pending_block_that_is_not_final_is_found() -> None:
    wrong = _block(5)
    first = _update(0, (PendingMarkdown(0),), 20, 20, 0)
    second = _update(0, (wrong,), 20, 20, 1)
    assert _check_pending([first, second], FINAL) == ["update 1: pending block m_q1 at 5 not final"]
