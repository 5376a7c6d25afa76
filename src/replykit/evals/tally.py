"""Aggregating audited records: per-group pass rates with Wilson intervals, the rate
of every code and near-miss kind, and the first example of each (§8).

A :class:`Tally` holds counts only (its size grows with the number of groups and codes,
never with the number of records), is picklable, and two tallies merge: a process pool
or a distributed engine tallies each partition and merges the partial tallies
(:func:`tally_results`, :func:`merge_tallies`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from replykit.argcheck import typed

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054
#: A tally keeps the first this many input errors with their location (all are counted).
MAX_ERRORS_SHOWN = 20
NEAR_MISS = "near_miss."


def wilson(passed: int, total: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``passed`` successes in ``total`` trials.

    Output: ``(low, high)``, both in ``[0, 1]``; ``(0.0, 1.0)`` when ``total`` is 0
    (nothing is known). Raises ``ValueError`` unless ``0 <= passed <= total``.
    """
    if not 0 <= passed <= total:
        raise ValueError(f"need 0 <= passed <= total, got {passed} of {total}")
    if total == 0:
        return 0.0, 1.0
    p = passed / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@attrs.define
class GroupTally:
    """Counts of one group: ``messages`` audited, ``passed``, ``lenient_passed`` (of
    ``lenient_messages`` read leniently too), ``codes`` (messages with each code) and
    ``first`` (the location of each code's first message)."""

    messages: int = 0
    passed: int = 0
    lenient_messages: int = 0
    lenient_passed: int = 0
    codes: Counter[str] = attrs.field(factory=Counter)
    first: dict[str, str] = attrs.field(factory=dict)

    def add(self, message: Mapping[str, Any], where: str) -> None:
        """Count one ``messages`` item of :func:`~replykit.evals.record.audit_record`;
        ``where`` locates the record (``file:line``)."""
        self.messages += 1
        self.passed += bool(message["passed"])
        if "lenient_passed" in message:
            self.lenient_messages += 1
            self.lenient_passed += bool(message["lenient_passed"])
        index = message.get("index")
        at = where if index is None else f"{where} message {index}"
        for code, (line, column) in zip(message["codes"], message["positions"], strict=True):
            self.codes[code] += 1
            if code not in self.first:
                self.first[code] = at if line is None else f"{at} at {line}:{column}"

    def merge(self, other: GroupTally) -> None:
        """Add ``other``'s counts; its first examples fill codes this one has none of."""
        self.messages += other.messages
        self.passed += other.passed
        self.lenient_messages += other.lenient_messages
        self.lenient_passed += other.lenient_passed
        self.codes.update(other.codes)
        for code, where in other.first.items():
            self.first.setdefault(code, where)


@attrs.define
class Tally:
    """Counts of a whole audit: ``records`` read, ``groups`` by name, ``input_errors``
    (records that could not be read, all counted) and the first
    :data:`MAX_ERRORS_SHOWN` of them as ``(where, message)``."""

    records: int = 0
    groups: dict[str, GroupTally] = attrs.field(factory=dict)
    input_errors: int = 0
    errors: list[tuple[str, str]] = attrs.field(factory=list)

    def add(self, result: Mapping[str, Any], where: str) -> None:
        """Count one :func:`~replykit.evals.record.audit_record` result read at
        ``where`` (``file:line``, or any label)."""
        self.records += 1
        if result["error"] is not None:
            self.error(where, result["error"])
            return
        group = self.groups.setdefault(result["group"], GroupTally())
        for message in result["messages"]:
            group.add(message, where)

    def error(self, where: str, message: str) -> None:
        """Count an input error (a record or file that could not be read)."""
        self.input_errors += 1
        if len(self.errors) < MAX_ERRORS_SHOWN:
            self.errors.append((where, message))

    def merge(self, other: Tally) -> Tally:
        """Add ``other`` into this tally (in place) and return it."""
        self.records += other.records
        for name, group in other.groups.items():
            self.groups.setdefault(name, GroupTally()).merge(group)
        self.input_errors += other.input_errors
        room = MAX_ERRORS_SHOWN - len(self.errors)
        self.errors.extend(other.errors[: max(room, 0)])
        return self

    def summary(self) -> dict[str, Any]:
        """The report as JSON data: ``{"records", "messages", "passed",
        "input_errors": {"count", "first": [{"where", "message"}]}, "groups": [...]}``;
        each group ``{"group", "messages", "passed", "pass_rate", "wilson95": [low,
        high], "lenient_pass_rate" (null unless read leniently), "codes": [{"code",
        "messages", "rate", "first"}], "near_misses": [{"kind", "messages", "rate"}]}``,
        groups by name, codes most frequent first. Rates are fractions of the group's
        messages, rounded to 4 decimals (``null`` for a group with no message)."""
        groups = [_group_summary(name, self.groups[name]) for name in sorted(self.groups)]
        return {
            "records": self.records,
            "messages": sum(g.messages for g in self.groups.values()),
            "passed": sum(g.passed for g in self.groups.values()),
            "input_errors": {
                "count": self.input_errors,
                "first": [{"where": w, "message": m} for w, m in self.errors],
            },
            "groups": groups,
        }


def _rate(count: int, total: int) -> float | None:
    return round(count / total, 4) if total else None


def _group_summary(name: str, group: GroupTally) -> dict[str, Any]:
    n = group.messages
    ordered = sorted(group.codes.items(), key=lambda item: (-item[1], item[0]))
    low, high = wilson(group.passed, n)
    return {
        "group": name,
        "messages": n,
        "passed": group.passed,
        "pass_rate": _rate(group.passed, n),
        "wilson95": [round(low, 4), round(high, 4)],
        "lenient_pass_rate": _rate(group.lenient_passed, group.lenient_messages),
        "codes": [
            {"code": code, "messages": count, "rate": _rate(count, n), "first": group.first[code]}
            for code, count in ordered
        ],
        "near_misses": [
            {"kind": code[len(NEAR_MISS) :], "messages": count, "rate": _rate(count, n)}
            for code, count in ordered
            if code.startswith(NEAR_MISS)
        ],
    }


@typed
def tally_results(results: Iterable[Mapping[str, Any] | None]) -> Tally:
    """A tally of :func:`~replykit.evals.record.audit_record` results (one partition);
    each is located by its ``"where"`` key when it has one, else by its position
    (``record N``, 1-based); ``None`` (a blank line, no record) is skipped. Raises
    ``TypeError`` naming the item for an item that is neither."""
    tally = Tally()
    for number, result in enumerate(results, start=1):
        if result is None:
            continue
        if not isinstance(result, Mapping):
            raise TypeError(
                f"tally_results() argument 'results' item {number - 1} must be an "
                f"audit_record result (a mapping) or None, not {type(result).__name__}"
            )
        tally.add(result, str(result.get("where", f"record {number}")))
    return tally


@typed
def merge_tallies(tallies: Iterable[Tally]) -> Tally:
    """One tally of several (partial tallies of partitions, in order). Raises
    ``TypeError`` naming the item for an item that is no :class:`Tally`."""
    total = Tally()
    for index, tally in enumerate(tallies):
        if not isinstance(tally, Tally):
            raise TypeError(
                f"merge_tallies() argument 'tallies' item {index} must be Tally, "
                f"not {type(tally).__name__}"
            )
        total.merge(tally)
    return total
