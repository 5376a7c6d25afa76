"""The diagnostics cap (docs/protocol.md §2.1; the limits of §1.5).

A message, a tool call, a set of answers or an answer's actions yields at most
``max_diagnostics`` diagnostics. What is left out is counted by code and severity and
summarized by one ``limit.diagnostics`` entry placed where the first left-out one stood,
so the total, summary included, stays within the cap unless the entries that must never
be hidden (the *protected* ones: verdicts) alone reach or exceed it.

Two tools, generic over the diagnostic type (``Finding``, ``Diagnostic``,
``ActionDiagnostic``, ``ToolError``), which is read through two key functions (code and
severity):

- :class:`Collector`: a list that a reader appends to; past ``limit`` entries it only
  counts, so a payload with 10^5 bad items never holds 10^5 findings in memory. It
  always keeps the first error, so a verdict is never lost.
- :func:`cap`: the exact rule applied to a finished list: protected entries first, then
  the others in order, one slot reserved for the summary.
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Generic, TypeVar

import attrs

from replykit.codes import Locale
from replykit.codes.limits import LIMIT_DIAGNOSTICS as SUMMARY
from replykit.diagnostics import LeftOut, Severity

#: The code of the summary entry.
LIMIT_DIAGNOSTICS = SUMMARY.name

T = TypeVar("T")
CodeOf = Callable[[T], str]
SeverityOf = Callable[[T], "Severity | None"]


@attrs.frozen
class Overflow(Generic[T]):
    """What a cap left out: ``counts`` by code and severity (first-seen order) and
    ``first``, the first entry left out (where the summary is placed); ``before``: how
    many kept entries come before ``first`` in the entries' own order (where the summary
    stands among them)."""

    counts: tuple[LeftOut, ...]
    first: T
    before: int = 0

    @property
    def total(self) -> int:
        """How many entries were left out."""
        return sum(c.count for c in self.counts)

    @property
    def errors(self) -> int:
        """How many of them are errors."""
        return sum(c.count for c in self.counts if c.severity == "error")


def merge_counts(*groups: Iterable[LeftOut]) -> tuple[LeftOut, ...]:
    """Sum several count lists by ``(code, severity)``, keeping first-seen order."""
    totals: dict[tuple[str, Severity | None], int] = {}
    for group in groups:
        for c in group:
            key = (c.code, c.severity)
            totals[key] = totals.get(key, 0) + c.count
    return tuple(LeftOut(code, sev, n) for (code, sev), n in totals.items())


class _Counter:
    def __init__(self) -> None:
        self.totals: dict[tuple[str, Severity | None], int] = {}

    def add(self, code: str, severity: Severity | None, n: int = 1) -> None:
        key = (code, severity)
        self.totals[key] = self.totals.get(key, 0) + n

    def counts(self) -> tuple[LeftOut, ...]:
        return tuple(LeftOut(code, sev, n) for (code, sev), n in self.totals.items())


#: Where an entry without an offset sorts: after every entry with one.
_UNPLACED = sys.maxsize


class Collector(Generic[T]):
    """An append-only list that keeps ``limit`` entries and its first error (§2.1).

    Kept: the ``limit`` first entries in offset order (``start``, a key function: an
    entry's offset, ``None`` for one without; without it every offset is equal), ties
    in the order of appending, and beside them the first error appended when it is not
    among them (a verdict is never lost). Every other entry is only counted. Exact for
    collectors inside collectors (:meth:`absorb`) and for the message's cap: an entry
    left out has ``limit`` kept ones before it. So a reader whose
    entries come out of offset order (a whole-payload finding after the syntax ones)
    keeps those the message's cap would keep, in bounded memory. Iterating gives the
    kept entries in the order of appending; :attr:`overflow` describes the rest (its
    ``first``: the first left out in offset order); :attr:`has_error` tells whether
    any entry, kept or not, was an error.
    """

    def __init__(
        self,
        limit: int,
        code: CodeOf[T],
        severity: SeverityOf[T],
        start: Callable[[T], int | None] | None = None,
    ) -> None:
        self.limit = limit
        self._code = code
        self._severity = severity
        self._start = start
        self._seq = 0
        # The ``limit`` first entries by key, as a max-heap on it; the first error aside
        # when the heap let it go (it is kept whatever its key).
        self._heap: list[tuple[int, int, int, T]] = []
        self._error_seq: int | None = None
        self._aside: tuple[int, T] | None = None
        self._counter = _Counter()
        self._first: tuple[tuple[int, int], T] | None = None
        self._left_error = False

    def _key(self, item: T) -> int:
        at = None if self._start is None else self._start(item)
        return 0 if self._start is None else (_UNPLACED if at is None else at)

    def append(self, item: T) -> None:
        """Keep or count ``item``."""
        # Even positions for appended entries; an odd one stands between two (absorb).
        seq, self._seq = self._seq, self._seq + 2
        at = self._key(item)
        if self._error_seq is None and self._severity(item) == "error":
            self._error_seq = seq
        entry = (-at, -seq, seq, item)
        if len(self._heap) < self.limit:
            heapq.heappush(self._heap, entry)
            return
        if (at, seq) < (-self._heap[0][0], self._heap[0][2]):
            entry = heapq.heapreplace(self._heap, entry)
        if entry[2] == self._error_seq:
            self._aside = (entry[2], entry[3])  # a verdict is never lost
        else:
            self._left_out(-entry[0], entry[2], entry[3])

    def _left_out(self, at: int, seq: int, item: T) -> None:
        self._left_error = self._left_error or self._severity(item) == "error"
        if self._first is None or (at, seq) < self._first[0]:
            self._first = ((at, seq), item)
        self._counter.add(self._code(item), self._severity(item))

    def extend(self, items: Iterable[T]) -> None:
        """:meth:`append` each of ``items``."""
        for item in items:
            self.append(item)

    def absorb(self, overflow: Overflow[T] | None, kept: int) -> None:
        """Count what an inner collector left out as though each entry were appended
        here in its place. ``kept``: how many entries were appended last, the inner
        collector's kept ones in their order. Exact when the inner limit is at least
        this one's and it keeps in the same order: each entry it left out has ``limit``
        kept ones before it, so it would be left out here too; its first stands where
        the inner collector's ``before`` says among those ``kept``."""
        if overflow is None:
            return
        seq = self._seq - 2 * kept + 2 * overflow.before - 1
        self._left_error = self._left_error or overflow.errors > 0
        at = self._key(overflow.first)
        if self._first is None or (at, seq) < self._first[0]:
            self._first = ((at, seq), overflow.first)
        for c in overflow.counts:
            self._counter.add(c.code, c.severity, c.count)

    def _kept(self) -> list[tuple[int, T]]:
        kept = [(seq, item) for _a, _s, seq, item in self._heap]
        if self._aside is not None:
            kept.append(self._aside)
        kept.sort(key=lambda pair: pair[0])
        return kept

    def __iter__(self) -> Iterator[T]:
        return iter([item for _seq, item in self._kept()])

    def __len__(self) -> int:
        return len(self._heap) + (self._aside is not None)

    @property
    def has_error(self) -> bool:
        """True when some entry appended, kept or left out, is an error."""
        return self._error_seq is not None or self._left_error

    @property
    def overflow(self) -> Overflow[T] | None:
        """The left-out entries' counts and the first of them, or ``None``."""
        if self._first is None:
            return None
        (_at, seq), first = self._first
        before = sum(1 for kept_seq, _item in self._kept() if kept_seq < seq)
        return Overflow(self._counter.counts(), first, before)


def cap(
    items: Sequence[T],
    limit: int,
    *,
    code: CodeOf[T],
    severity: SeverityOf[T],
    protected: Callable[[T], bool] | None = None,
    reserve: bool = False,
    preferred: Callable[[T], bool] | None = None,
) -> tuple[list[T], Overflow[T] | None, int]:
    """Apply the cap of §1 to ``items`` (in their order).

    Protected entries are always kept and take the slots first; then ``preferred``
    entries (verdicts that must not be hidden behind lesser entries, yet count within
    the cap), in order, while slots remain; then the others, in order. When anything is
    left out, one slot is reserved for the summary, so kept entries plus the summary
    number at most ``limit`` (or the protected entries plus one, when they alone fill it).

    Returns ``(kept, overflow, index)``: the kept entries in their order, the
    :class:`Overflow` (``None`` when nothing is left out), and the position in ``kept``
    where the summary goes (before the first kept entry that came after the first one
    left out). ``reserve``: keep the summary's slot free even when ``items`` fit (a
    summary is due anyway, for entries left out upstream).
    """
    if len(items) < limit or (len(items) == limit and not reserve):
        return list(items), None, len(items)
    is_protected = protected or (lambda _item: False)
    is_preferred = preferred or (lambda _item: False)
    flags = [is_protected(item) for item in items]
    rank = [not keep and is_preferred(item) for item, keep in zip(items, flags, strict=True)]
    room = max(0, limit - 1 - sum(flags))
    first_room = min(room, sum(rank))  # slots the preferred entries take first
    room -= first_room
    kept: list[T] = []
    counter = _Counter()
    first: T | None = None
    index = 0
    for item, keep, ahead in zip(items, flags, rank, strict=True):
        if keep or (ahead and first_room > 0) or (not ahead and room > 0):
            if ahead:
                first_room -= 1
            elif not keep:
                room -= 1
            kept.append(item)
            continue
        if first is None:
            first, index = item, len(kept)
        counter.add(code(item), severity(item))
    if first is None:
        return kept, None, len(kept)
    return kept, Overflow(counter.counts(), first), index


def finish(
    items: Sequence[T],
    limit: int,
    *,
    code: CodeOf[T],
    severity: SeverityOf[T],
    summary: Callable[[tuple[LeftOut, ...]], T],
    upstream: Sequence[LeftOut] = (),
    preferred: Callable[[T], bool] | None = None,
) -> list[T]:
    """``items`` within the cap, with the summary built by ``summary(counts)`` where the
    first left-out entry stood; ``upstream`` counts entries a :class:`Collector` already
    left out (after every kept one, so the summary then goes last, and the last kept
    entry gives up its slot when the list is full); ``preferred`` as :func:`cap`. The
    first verdict is always kept (§1: the first error is never hidden): the first
    ``preferred`` entry when ``preferred`` is given and one is, else the first entry, so
    an entry ``preferred`` ranks lower never holds the protected slot ahead of a verdict
    (docs/actions.md section 4). With a limit of 1 the list holds it and the summary.
    Unchanged when nothing is left out."""
    first = _first_verdict(items, preferred)
    kept, overflow, index = cap(
        items, limit, code=code, severity=severity, preferred=preferred,
        protected=lambda item: item is first,
    )  # fmt: skip
    counts = merge_counts(overflow.counts if overflow else (), upstream)
    if not counts:
        return kept
    if overflow is None:
        if len(kept) >= limit and len(kept) > 1:
            last = kept.pop()
            counts = merge_counts((LeftOut(code(last), severity(last), 1),), counts)
        index = len(kept)
    kept.insert(index, summary(counts))
    return kept


def _first_verdict(items: Sequence[T], preferred: Callable[[T], bool] | None) -> T | None:
    """The entry :func:`finish` never leaves out: the first ``preferred`` one when
    ``preferred`` is given and some entry is, else the first entry (``None`` for none)."""
    if preferred is not None:
        for item in items:
            if preferred(item):
                return item
    return items[0] if items else None


def summary_params(counts: Sequence[LeftOut], limit: int) -> tuple[dict[str, object], str | None]:
    """The parameters and variant of a ``limit.diagnostics`` summary (its code's
    templates in :mod:`replykit.codes.limits`): ``total``, ``limit``, ``left_out``."""
    total = sum(c.count for c in counts)
    return {"total": total, "limit": limit, "left_out": tuple(counts)}, (
        "one" if total == 1 else None
    )


def summary_message(counts: Sequence[LeftOut], limit: int, locale: Locale = "en") -> str:
    """The message of a ``limit.diagnostics`` summary: how many entries are left out,
    the limit, and the count of each code (with its severity), in ``en`` or ``zh``."""
    params, variant = summary_params(counts, limit)
    return SUMMARY.render(params, variant, locale)
