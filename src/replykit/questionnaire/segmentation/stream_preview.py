"""The opt-in preview of a pending block: the questions complete so far (§10).

A pending payload is not validated (§10). The preview reads the payload received so
far as if its block were closed now, with the readers ``segment()`` uses, and keeps
the questions that can no longer change. A fenced payload is read as its block's
content (the opener's indentation removed from each line, CommonMark 4.5); while the
block is unclosed, only the content before the line of the last item of its
``questions`` block sequence is read (the last question may still grow), the items
found by reading the content as YAML, so any line ending, indentation or item style
counts as the final reading counts it. JSON reads only once its text is complete.
Nothing is reported while that text does not read as a valid form: a preview is a
hint, never a verdict.

An unclosed fenced payload is read again only once it grew by a quarter since it was
last read, and by at least :data:`PREVIEW_STEP` code points (:func:`next_preview`), so
all the reads of one payload add up to about five times its length, however often the
stream reads it.
"""

from __future__ import annotations

from replykit.questionnaire.limits import Limits
from replykit.questionnaire.model import Question
from replykit.questionnaire.payload.fenced_form import read_fenced_form
from replykit.questionnaire.payload.yaml_items import item_starts
from replykit.questionnaire.segmentation.blocks import fenced_content
from replykit.questionnaire.segmentation.segmenter import segment

# Every character a YAML event source may end a line with (YAML 1.1's too): the cut
# is at the start of the dash's line as the reader saw it.
_BREAKS = "\r\n\x85\u2028\u2029"

#: The least growth, in code points, of an unclosed payload before its preview is read
#: again (a few short lines: one question's worth).
PREVIEW_STEP = 64


def next_preview(length: int) -> int:
    """The payload length (code points) at which a preview read at ``length`` is read
    again: a quarter more, and at least :data:`PREVIEW_STEP` more (linear in total)."""
    return length + max(length // 4, PREVIEW_STEP)


def complete_questions(content: str, loader: str | None = None) -> str:
    """``content`` (a fenced block's content so far, complete lines) up to the start of
    the line holding the ``-`` of the last item of its top-level ``questions`` block
    sequence: the questions before it are complete. ``""`` when there are fewer than
    two items, or the last is no block sequence item (a flow sequence, a comment after
    its ``-``). ``loader``: as for :func:`~replykit.questionnaire.payload.yaml12.read_yaml`."""
    starts = item_starts(content, "questions", loader)
    if len(starts) < 2:
        return ""
    dash = len(content[: starts[-1]].rstrip(" \t" + _BREAKS)) - 1
    if dash < 0 or content[dash] != "-":
        return ""
    return content[: max(content.rfind(c, 0, dash) for c in _BREAKS) + 1]


def fenced_preview(
    payload: str, limits: Limits, *, closed: bool, indent: int = 0, fence_length: int = 3,
    loader: str | None = None,
) -> tuple[Question, ...]:  # fmt: skip
    """The questions complete so far of a fenced form whose payload lines (the text
    after its opener's line, complete lines) are ``payload``; ``indent``: its opener's
    indentation, ``fence_length`` its fence's; ``closed``: its closer was read (all the
    content is read). ``()`` when nothing reads as a valid form yet."""
    content = fenced_content(payload, 0, len(payload), indent)[0]
    if not closed:
        content = complete_questions(content, loader)
    if not content:
        return ()
    form = read_fenced_form(content, fence_length=fence_length, loader=loader, limits=limits)
    return () if form.value is None else form.value.questions


def xml_preview(payload: str, limits: Limits) -> tuple[Question, ...]:
    """The questions of a closed XML+JSON form whose payload (between its tags) is
    ``payload``; ``()`` when it does not read as a valid form."""
    text = f"<questionnaire>{payload}</questionnaire>"
    found = next((s for s in segment(text, limits=limits).segments if s.kind != "markdown"), None)
    if found is None or found.questionnaire is None:
        return ()
    return found.questionnaire.questions
