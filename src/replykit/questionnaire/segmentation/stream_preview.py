"""The opt-in preview of a pending block: the questions complete so far (§10).

A pending payload is not validated (§10). The preview reads the payload received so
far as if its block were closed now, with the same readers ``segment()`` uses, and
keeps the questions that can no longer change: in YAML, the text before the last list
item at the indentation of the first one (the last question may still grow) is read;
JSON reads only once its text is complete. Nothing is reported while that text does
not read as a valid form: a preview is a hint, never a verdict.

An unclosed fenced payload is read again only once it grew by a quarter since it was
last read, and by at least :data:`PREVIEW_STEP` code points (:func:`next_preview`), so
all the reads of one payload add up to about five times its length, however often the
stream reads it.
"""

from __future__ import annotations

import re

from replykit.questionnaire.limits import Limits
from replykit.questionnaire.model import Question
from replykit.questionnaire.segmentation.segmenter import segment

_ITEM = re.compile(r"^( *)- ", re.MULTILINE)

#: The least growth, in code points, of an unclosed payload before its preview is read
#: again (a few short lines: one question's worth).
PREVIEW_STEP = 64


def next_preview(length: int) -> int:
    """The payload length (code points) at which a preview read at ``length`` is read
    again: a quarter more, and at least :data:`PREVIEW_STEP` more (linear in total)."""
    return length + max(length // 4, PREVIEW_STEP)


def complete_items(payload: str) -> str:
    """``payload`` up to the last YAML list item at the first item's indentation (its
    questions before it are complete); ``""`` when it holds no item yet."""
    items = list(_ITEM.finditer(payload))
    if not items:
        return ""
    indent = len(items[0].group(1))
    last = max(m.start() for m in items if len(m.group(1)) == indent)
    return payload[:last] if last > items[0].start() else ""


def preview_questions(
    encoding: str, payload: str, limits: Limits, *, closed: bool = False
) -> tuple[Question, ...]:
    """The questions complete so far in ``payload`` (the text after the opener) of a
    block in ``encoding`` (``fenced_yaml`` or ``xml_json``); ``closed``: its closer has
    been read. ``()`` when nothing reads yet."""
    if encoding == "fenced_yaml":
        payload = payload if closed else complete_items(payload)
        if not payload:
            return ()
        fence = "~~~~~~~~" if "```" in payload else "```"
        body = payload if payload.endswith(("\n", "\r")) or not payload else payload + "\n"
        text = f"x\n\n{fence}questionnaire\n{body}{fence}\n"  # prose first (§4 preface)
    else:
        text = f"<questionnaire>{payload}</questionnaire>"
    found = next((s for s in segment(text, limits=limits).segments if s.kind != "markdown"), None)
    if found is None or found.questionnaire is None:
        return ()
    return found.questionnaire.questions
