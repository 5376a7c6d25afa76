"""What a streaming reading of the line still arriving needs, and the pending items a
§9 transport decoding leaves in final coordinates (§10, docs/streaming.md "Pending").

A complete opening tag of the family in the line still arriving is read at once (its
tentative block shows before the line ends), once per tag and spaced as every
reading is. Under ``compat`` no pending item starts where a transport decoding may
still move every offset.
"""

from __future__ import annotations

import bisect
import re

from replykit.questionnaire.compat import Compat
from replykit.questionnaire.segmentation.stream_input import Received
from replykit.questionnaire.segmentation.stream_marks import WORD_BACK, LineNotes, possible_word
from replykit.questionnaire.segmentation.stream_shapes import Pending, PendingMarkdown, new_pending

_ANGLE = re.compile("[<>]")
# A reading of at most this many code points may always run (a constant per chunk).
SHORT_READING = 128


def spaced(old: int, new: int) -> bool:
    """Whether a reading that reads again ``old`` code points read before and ``new``
    ones may run: it reads again at most what is new, or it is short (docs/streaming.md,
    "Work": readings together read at most about twice the text; the segmenter counts
    ``old`` twice when the last reading did not move the resume point)."""
    return old <= new or old + new <= SHORT_READING


def line_notes(received: Received) -> tuple[list[int], list[int]]:
    """Where the possible family words and the ``<`` and ``>`` of the line still
    arriving (from ``received.complete``) start, in order: each of its characters is
    searched once however many readings ask (``received.notes``; a word that a chunk
    boundary cut is found when it ends: the last characters searched are searched
    again, counted in ``received.searched``)."""
    notes = received.notes
    if notes.at != received.complete:  # a new line: its own notes
        notes = received.notes = LineNotes(received.complete)
    if notes.to < received.size:
        back = max(notes.at, notes.to - WORD_BACK)
        text = received.slice(back, received.size)
        received.searched += len(text)
        for m in possible_word().finditer(text):
            if back + m.end() > notes.to:  # not found before: it ends in the new text
                notes.words.append(back + m.start())
        start = notes.to - back
        notes.angles.extend(back + m.start() for m in _ANGLE.finditer(text, start))
        notes.to = received.size
    return notes.words, notes.angles


def notes(received: Received, text: str, base: int) -> tuple[list[int], tuple[int, int]]:
    """``received``'s words and angles (its notes of the complete lines) for a reading
    of ``text``, the message from ``base``; when ``text`` runs into the line still
    arriving, the words from ``base`` on (no more copied) and that line's own, and the
    last ``<`` or ``>`` in ``text`` (the reading uses the later of the two angles)."""
    complete, end = received.complete, base + len(text)
    if end <= complete:
        return received.words, received.angles
    found, angles = line_notes(received)  # searched once as readings ask
    before = received.words[bisect.bisect_left(received.words, base) :]
    last = bisect.bisect_left(angles, end)  # only "<" and ">" inside the text read count
    if last == 0:
        return [*before, *found], received.angles
    return [*before, *found], (angles[last - 1], angles[last - 1])


def closer_came(
    closers: list[tuple[int, str, bool]], index: int, key: str, compat: Compat
) -> tuple[bool, int]:
    """Whether one of ``closers[index:]`` (``Received.closers``) closes an opening tag
    whose name compares as ``key`` (§3a; any case and ``<\\/N>`` only under §9's
    ``case_insensitive`` and ``escaped_closers``), and the index to look from next
    time: each closer is looked at once."""
    while index < len(closers):
        _, name, escaped = closers[index]
        index += 1
        if (name.lower() if compat.case_insensitive else name) == key and (
            compat.escaped_closers or not escaped
        ):
            return True, index
    return False, index


def before_limit(items: tuple[Pending, ...], limit: int | None) -> tuple[Pending, ...]:
    """The pending ``items`` in the final result's coordinates: none starts at or after
    the §9 transport ``limit`` (a decoding may still move every offset from there: 0
    while the message may be one JSON string); the text from there is one pending
    Markdown item."""
    if limit is None or not items or items[-1].start < limit:
        return items
    kept = [item for item in items if item.start < limit]
    if not (kept and isinstance(kept[-1], PendingMarkdown)):
        kept.append(new_pending(limit))
    return tuple(kept)


__all__ = ["SHORT_READING", "before_limit", "closer_came", "line_notes", "notes", "spaced"]
