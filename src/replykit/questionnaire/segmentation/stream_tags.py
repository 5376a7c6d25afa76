"""What a streaming reading of the line still arriving needs, and the pending items a
§9 transport decoding leaves in final coordinates (§10, docs/streaming.md "Pending").

A complete opening tag of the family in the line still arriving is read at once (its
tentative block shows before the line ends), once per tag and spaced as every
reading is. Under ``compat`` no pending item starts where a transport decoding may
still move every offset.
"""

from __future__ import annotations

import bisect

from replykit.questionnaire.compat import Compat
from replykit.questionnaire.segmentation.stream_input import Received, possible_word
from replykit.questionnaire.segmentation.stream_shapes import Pending, PendingMarkdown, new_pending

# A reading of at most this many code points may always run (a constant per chunk).
SHORT_READING = 128
# What a reading for an opening tag in the line still arriving reads after the tag, at
# most (a constant per chunk: see tag_reading_end).
TAG_AFTER = 64


def tag_reading_end(received: Received) -> int:
    """Where a reading for the opening tag that came in the line still arriving ends:
    at the tag's end, or past what came after it that may change what the tag is (a
    backtick run, which may close a code span opened before it; a ``-->``, which may
    close a comment; a closing tag, ``</`` or ``<\\/`` to its ``>``) when that lies
    within :data:`TAG_AFTER` code points of it. Text after the tag is the tentative
    block's, so a long line after it is not read for it (the work of §10: read again
    by the line's later readings, it would cost a multiple of its length; the block
    stays tentative until then: docs/streaming.md, "Pending")."""
    end, size = received.tag_end, received.size
    rest = received.slice(end, min(size, end + TAG_AFTER))
    received.searched += len(rest)
    comment = rest.rfind("-->")
    last = max(rest.rfind("`"), comment + 2 if comment >= 0 else -1, rest.rfind("</"),
               rest.rfind("<\\/"))  # fmt: skip
    if last < 0:
        return end
    if rest[last] == "`":  # the whole run (a run's length decides what it closes)
        stop = len(rest) - len(rest[last:].lstrip("`")) - 1
    else:
        stop = rest.find(">", last)
    return end if stop < 0 else end + stop + 1


def spaced(old: int, new: int) -> bool:
    """Whether a reading that reads again ``old`` code points read before and ``new``
    ones may run: it reads again at most what is new, or it is short (docs/streaming.md,
    "Work": readings together read at most about twice the text)."""
    return old <= new or old + new <= SHORT_READING


def notes(received: Received, text: str, base: int) -> tuple[list[int], tuple[int, int]]:
    """``received``'s words and angles (its notes of the complete lines) for a reading
    of ``text``, the message from ``base``; when ``text`` runs into the line still
    arriving, the words from ``base`` on (no more copied) and that line's own."""
    complete = received.complete
    if base + len(text) <= complete:
        return received.words, received.angles
    line, angles = text[complete - base :], received.angles
    found = [complete + m.start() for m in possible_word().finditer(line)]
    lt, gt = line.rfind("<"), line.rfind(">")
    before = received.words[bisect.bisect_left(received.words, base) :]
    return [*before, *found], (
        complete + lt if lt >= 0 else angles[0],
        complete + gt if gt >= 0 else angles[1],
    )


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


__all__ = ["SHORT_READING", "before_limit", "closer_came", "notes", "spaced"]
