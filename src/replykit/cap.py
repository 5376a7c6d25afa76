"""The diagnostics cap (docs/protocol.md §2.1; the limits of §1.5).

A message, a tool call, a set of answers or an answer's actions yields at most
``max_diagnostics`` diagnostics. What is left out is counted by code and severity and
summarized by one ``limit.diagnostics`` entry placed where the first left-out one stood,
so the total, summary included, stays within the cap unless the entries that must never
be hidden (the *protected* ones: verdicts) alone exceed it.

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
    ``first``, the first entry left out (where the summary is placed)."""

    counts: tuple[LeftOut, ...]
    first: T

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


class Collector(Generic[T]):
    """An append-only list that keeps at most ``limit`` entries (§1).

    The first ``limit`` entries are kept, and past them the first error if none was kept
    yet (a verdict is never lost); every other entry is only counted. Iterating gives
    the kept entries in order; :attr:`overflow` describes the rest; :attr:`has_error`
    tells whether any entry, kept or not, was an error.
    """

    def __init__(self, limit: int, code: CodeOf[T], severity: SeverityOf[T]) -> None:
        self.limit = limit
        self._code = code
        self._severity = severity
        self._kept: list[T] = []
        self._counter = _Counter()
        self._first: list[T] = []
        self._kept_error = False
        self._left_error = False

    def append(self, item: T) -> None:
        """Keep or count ``item``."""
        is_error = self._severity(item) == "error"
        if len(self._kept) < self.limit or (is_error and not self._kept_error):
            self._kept.append(item)
            self._kept_error = self._kept_error or is_error
            return
        self._left_error = self._left_error or is_error
        if not self._first:
            self._first.append(item)
        self._counter.add(self._code(item), self._severity(item))

    def extend(self, items: Iterable[T]) -> None:
        """:meth:`append` each of ``items``."""
        for item in items:
            self.append(item)

    def absorb(self, overflow: Overflow[T] | None) -> None:
        """Count what an inner collector left out as though each entry were appended
        here now, after its kept entries were. Exact when the inner limit is at least
        this one's: those kept entries then fill this collector, first error included,
        so every left-out entry would be counted here too."""
        if overflow is None:
            return
        self._left_error = self._left_error or overflow.errors > 0
        if not self._first:
            self._first.append(overflow.first)
        for c in overflow.counts:
            self._counter.add(c.code, c.severity, c.count)

    def __iter__(self) -> Iterator[T]:
        return iter(self._kept)

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def has_error(self) -> bool:
        """True when some entry appended, kept or left out, is an error."""
        return self._kept_error or self._left_error

    @property
    def overflow(self) -> Overflow[T] | None:
        """The left-out entries' counts and the first of them, or ``None``."""
        if not self._first:
            return None
        return Overflow(self._counter.counts(), self._first[0])


def cap(
    items: Sequence[T],
    limit: int,
    *,
    code: CodeOf[T],
    severity: SeverityOf[T],
    protected: Callable[[T], bool] | None = None,
    reserve: bool = False,
) -> tuple[list[T], Overflow[T] | None, int]:
    """Apply the cap of §1 to ``items`` (in their order).

    Protected entries are always kept and take the slots first; the others are kept in
    order while slots remain. When anything is left out, one slot is reserved for the
    summary, so kept entries plus the summary number at most ``limit`` (or the protected
    entries plus one, when they alone fill it).

    Returns ``(kept, overflow, index)``: the kept entries in their order, the
    :class:`Overflow` (``None`` when nothing is left out), and the position in ``kept``
    where the summary goes (before the first kept entry that came after the first one
    left out). ``reserve``: keep the summary's slot free even when ``items`` fit (a
    summary is due anyway, for entries left out upstream).
    """
    if len(items) < limit or (len(items) == limit and not reserve):
        return list(items), None, len(items)
    is_protected = protected or (lambda _item: False)
    flags = [is_protected(item) for item in items]
    room = max(0, limit - 1 - sum(flags))
    kept: list[T] = []
    counter = _Counter()
    first: T | None = None
    index = 0
    for item, keep in zip(items, flags, strict=True):
        if keep or room > 0:
            room -= 0 if keep else 1
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
) -> list[T]:
    """``items`` within the cap, with the summary built by ``summary(counts)`` where the
    first left-out entry stood; ``upstream`` counts entries a :class:`Collector` already
    left out (after every kept one, so the summary then goes last, and the last kept
    entry gives up its slot when the list is full). Unchanged when nothing is left out."""
    kept, overflow, index = cap(items, limit, code=code, severity=severity)
    counts = merge_counts(overflow.counts if overflow else (), upstream)
    if not counts:
        return kept
    if overflow is None:
        if len(kept) >= limit:
            last = kept.pop()
            counts = merge_counts((LeftOut(code(last), severity(last), 1),), counts)
        index = len(kept)
    kept.insert(index, summary(counts))
    return kept


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
