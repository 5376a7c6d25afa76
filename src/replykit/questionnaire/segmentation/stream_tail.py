"""The pending tail a client holds, kept up to date at a cost linear in what changes (§10).

After a reading the tail's items are rebuilt from the reading's (at most what the
reading read). Between readings the items the reading found do not change: only the
held text grows, which shows more of them, so an update looks only at the items that
became visible and at the one Markdown item that may follow a closed block, never at
the whole tail again (docs/streaming.md, "Work"). ``work`` counts the items built and
compared, the measure the hostile families check for linearity.
"""

from __future__ import annotations

import sys

from replykit.questionnaire.segmentation.stream_input import Received
from replykit.questionnaire.segmentation.stream_shapes import (
    Pending,
    PendingBlock,
    PendingMarkdown,
    new_pending,
)

# An offset no text reaches: the edge when no move of the held text changes the tail.
NEVER = sys.maxsize


class Tail:
    """The tail as the last update left it (``shown``: what a client holds), and the
    items it is drawn from: ``base`` (the items after the ``base_at`` first ones of
    ``shown``), ``visible`` (those of ``base`` at or after the committed end) and
    ``hi`` (how many of ``visible`` start before the held text, so are in ``shown``)."""

    def __init__(self) -> None:
        self.shown: list[Pending] = []
        self.shown_deferred = 0  # how many first items of ``shown`` are deferred ones
        self.base: list[Pending] = []
        self.visible: list[Pending] = []
        self.ordered = False  # ``visible`` starts in order: ``hi`` only grows with held
        self.hi = 0
        self.base_at = 0
        self.work = 0

    @property
    def whole(self) -> bool:
        """The client holds all of ``base`` (none of it was held back or committed)."""
        return self.hi == len(self.visible) == len(self.base)

    def can_grow(self) -> bool:
        """Whether the next update may extend the last one's (no reading since, and the
        base was built for the deferred items shown now)."""
        return bool(self.base) and (
            self.whole or (self.ordered and self.shown_deferred == self.base_at)
        )

    def rebuild(self, base: list[Pending], committed: int) -> None:
        """Take a new ``base`` (the items after the ``shown_deferred`` shown first)."""
        self.base = base
        self.visible = [it for it in base if committed <= it.start]
        self.ordered = all(
            a.start <= b.start for a, b in zip(self.visible, self.visible[1:], strict=False)
        )
        self.work += 2 * len(base)
        self.base_at = self.shown_deferred
        self.hi = 0

    def grow(self, held: int, deferred: int) -> tuple[int, list[Pending]]:
        """The items of ``visible`` that became visible (start before ``held``), and
        where they go in ``shown``; ``deferred``: how many deferred items there are."""
        at = self.base_at + self.hi
        if self.whole:
            self.work += 1
            return at, []
        hi = self.hi
        visible = self.visible
        if self.ordered:
            while hi < len(visible) and visible[hi].start < held:
                hi += 1
            new = visible[self.hi : hi]
        else:
            new = [it for it in visible if it.start < held]
            at, hi = self.base_at, len(new)
        self.work += len(new) + 1
        shown = self.base_at
        self.shown_deferred = shown + min(deferred - shown, hi)
        self.hi = hi
        return at, new

    def send(self, at: int, new: list[Pending]) -> tuple[int, tuple[Pending, ...]]:
        """Put ``new`` at ``at`` in ``shown``; return how many first items of ``shown``
        the client keeps and the items it is sent (those that differ)."""
        old = self.shown
        same = 0
        while same < len(new) and at + same < len(old) and old[at + same] == new[same]:
            same += 1
        self.work += same + 1
        kept = at + same
        del old[kept:]
        old.extend(new[same:])
        return kept, tuple(new[same:])


def rest_items(
    deferred: list[Pending], pending: tuple[Pending, ...], committed: int, shown: int
) -> list[Pending]:
    """The pending items after the ``shown`` first ``deferred`` ones a client holds: the
    other deferred items, then the last reading's ``pending`` items, Markdown items
    joined (one Markdown item at ``committed`` when there are none)."""
    if not (deferred or pending):
        return [new_pending(committed)]
    items: list[Pending] = []
    before = deferred[shown - 1] if shown else None
    for item in [*deferred[shown:], *pending]:
        last = items[-1] if items else before
        if isinstance(item, PendingMarkdown) and isinstance(last, PendingMarkdown):
            continue
        items.append(item)
    return items


def extra_start(tail: Tail, received: Received, read_to: int, committed: int) -> int:
    """Where the Markdown item after a closed pending block starts when text came
    after the last reading (which ended at ``read_to``) and is shown (before
    ``received.held``); -1: no such item."""
    base = tail.base
    last = base[-1] if base else None
    extra = max(read_to, committed)
    if (
        received.family is not None and received.size > read_to
        and isinstance(last, PendingBlock) and last.closed and extra < received.held
    ):  # fmt: skip
        return extra
    return -1


def calm(tail: Tail, plain: bool, read_to: int, committed: int) -> tuple[bool, int]:
    """What alone decides the next update's pending items while nothing is read or
    committed and no family word comes (``plain``: none came yet): the tail is the
    last one's unless ``edge < held`` turns (the Markdown item after a closed block
    appears, or ``committed < held`` turns before the first family word). Returns
    (calm, edge); calm is false when more decides (the client was not sent the whole
    tail); edge is :data:`NEVER` when no move of the held text changes the tail."""
    if plain:
        return True, committed
    base = tail.base
    last = base[-1] if base else None
    closed = isinstance(last, PendingBlock) and last.closed
    return tail.whole and bool(base), max(read_to, committed) if closed else NEVER
