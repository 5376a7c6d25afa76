"""What a streaming segmenter reports after each chunk (§10; docs/streaming.md).

A :class:`StreamUpdate` holds what became final with the chunk (``committed``: blocks
as :class:`~replykit.questionnaire.model.Segment`, Markdown as :class:`MarkdownCommit`
ranges), the diagnostics that became final with it, and the pending tail after the
committed text: :class:`PendingMarkdown` and :class:`PendingBlock` items, then the
text held back at the end. Offsets are code-point indices into the message (§1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, cast

import attrs

from replykit.argcheck import type_name, typed
from replykit.diagnostics import Diagnostic
from replykit.questionnaire.model import Encoding, Question, Segment

BlockKind = Literal["questionnaire", "questionnaire_response"]


@typed
@attrs.frozen
class MarkdownCommit:
    """Markdown that became final: ``text == message[start:end]``.

    A commit whose ``start`` is the previous commit's ``end`` continues the same final
    Markdown segment (§2 never has two Markdown segments in a row): a client appends
    it. Committed Markdown is never withdrawn nor given to another segment (§10).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    start: int
    end: int
    text: str

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "markdown", "start", "end", "text"}``."""
        return {"kind": "markdown", "start": self.start, "end": self.end, "text": self.text}


@typed
@attrs.frozen
class PendingMarkdown:
    """Markdown still open from ``start`` to the next pending item (or to where the
    held-back text starts): it may still change, a client renders it provisionally.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    start: int

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "markdown", "start"}``."""
        return {"kind": "markdown", "start": self.start}


@typed
@attrs.frozen
class PendingBlock:
    """A candidate block not yet final, from ``start`` to the next pending item (or to
    where the held-back text starts) (§10).

    ``kind``, ``encoding`` (``fenced_yaml`` or ``xml_json``) and ``name`` as the block's
    segment will have them; ``id``: its id (§6), final unless ``tentative``;
    ``closed``: its closing fence or tag has been read; ``tentative``: it may still turn
    out to be no block (an XML+JSON block without its closer, or whose paragraph may
    still make it inert; then its text ends up Markdown) or to have another id.
    A fenced candidate is never tentative: it exists even unclosed (§3a). ``preview``:
    with ``preview=True``, the questions complete so far (``()`` when none reads yet),
    else ``None``; not validated as the final block will be.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    kind: BlockKind
    encoding: Encoding
    name: str
    id: str
    start: int
    closed: bool
    tentative: bool
    preview: tuple[Question, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "encoding", "name", "id", "start", "closed", "tentative"}`` plus
        ``preview`` (a list of questions) when asked for."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "encoding": self.encoding,
            "name": self.name,
            "id": self.id,
            "start": self.start,
            "closed": self.closed,
            "tentative": self.tentative,
        }
        if self.preview is not None:
            out["preview"] = [q.to_json() for q in self.preview]
        return out


Pending = PendingMarkdown | PendingBlock
Committed = Segment | MarkdownCommit


@typed
@attrs.frozen(slots=False)  # filled by item stores on every push (new_update), not slot setters
class StreamUpdate:
    """What one ``push()`` of a :class:`~replykit.StreamSegmenter` reports (§10).

    ``committed``: what became final with this chunk, in message order (blocks as
    :class:`~replykit.questionnaire.model.Segment`, exactly as ``finish()`` will return
    them; Markdown as :class:`MarkdownCommit`); ``diagnostics``: the diagnostics that
    became final with it (a committed block's, near-misses whose construct is final),
    ordered by offset; ``committed_end``: the end of everything committed so far;
    ``pending`` and ``pending_kept``: the pending tail (the items from ``committed_end``
    on, in order) is its first ``pending_kept`` items as the previous update's tail had
    them, then ``pending`` (:meth:`tail`); each item is sent once while it stays
    unchanged, so all updates of a message together hold items linear in its size;
    ``held_from``: where the text held back at the end starts (a partial tag, comment
    or fence opener, a final ``\\r``; ``received`` when none is); ``received``: code
    points received so far.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    committed: tuple[Committed, ...]
    diagnostics: tuple[Diagnostic, ...]
    committed_end: int
    pending: tuple[Pending, ...]
    held_from: int
    received: int
    pending_kept: int = 0

    def tail(self, previous: Sequence[Pending] = ()) -> tuple[Pending, ...]:
        """The whole pending tail, given the previous update's (``()`` or ``[]`` for
        the first; a tuple or a list): ``previous[:pending_kept] + pending``, a tuple.
        Raises ``TypeError`` naming ``previous`` when it is no sequence (``None``, a
        string) and ``ValueError`` when it holds fewer than ``pending_kept`` items
        (it is not the previous update's tail)."""
        if not isinstance(previous, tuple | list):  # as documented: a range is no tail
            raise TypeError(
                "tail() argument 'previous' must be the previous tail (a tuple or list of "
                f"pending items), not {type_name(previous)}"
            )
        if len(previous) < self.pending_kept:
            raise ValueError(
                f"tail() argument 'previous' has {len(previous)} items, fewer than "
                f"pending_kept ({self.pending_kept}): pass the previous update's tail"
            )
        return tuple(previous[: self.pending_kept]) + self.pending

    def to_json(self) -> dict[str, Any]:
        """``{"committed", "diagnostics", "committed_end", "pending_kept", "pending",
        "held_from", "received"}`` with each item's ``to_json()``."""
        return {
            "committed": [c.to_json() for c in self.committed],
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "committed_end": self.committed_end,
            "pending_kept": self.pending_kept,
            "pending": [p.to_json() for p in self.pending],
            "held_from": self.held_from,
            "received": self.received,
        }


# The segmenter builds these once per chunk from values its own code typed (mypy checks
# the builders below), so the hot path skips argcheck's per-call check of the public
# constructors; the properties rebuild every update with the checked constructor
# (``replykit.testing.streaming.check_stream``). An update is built on every push: it
# keeps its fields in its instance dictionary (no slots), filled by plain item stores,
# with no call per field (``tests/test_stream_fast.py`` checks each equals the checked
# constructor's; the segmenter's push() does the same inline).
new_object = object.__new__
_COMMIT = cast(Any, MarkdownCommit.__init__).__wrapped__
_PENDING = cast(Any, PendingMarkdown.__init__).__wrapped__


def new_update(
    committed: tuple[Committed, ...],
    diagnostics: tuple[Diagnostic, ...],
    committed_end: int,
    pending: tuple[Pending, ...],
    held_from: int,
    received: int,
    pending_kept: int,
) -> StreamUpdate:
    """``StreamUpdate(...)`` without the per-call type check (same fields, same order)."""
    update = new_object(StreamUpdate)
    fields = update.__dict__
    fields["committed"] = committed
    fields["diagnostics"] = diagnostics
    fields["committed_end"] = committed_end
    fields["pending"] = pending
    fields["held_from"] = held_from
    fields["received"] = received
    fields["pending_kept"] = pending_kept
    return update


def new_commit(start: int, end: int, text: str) -> MarkdownCommit:
    """``MarkdownCommit(start, end, text)`` without the per-call type check."""
    commit = new_object(MarkdownCommit)
    _COMMIT(commit, start, end, text)
    return commit


def new_pending(start: int) -> PendingMarkdown:
    """``PendingMarkdown(start)`` without the per-call type check."""
    item = new_object(PendingMarkdown)
    _PENDING(item, start)
    return item
