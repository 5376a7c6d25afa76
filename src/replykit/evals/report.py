"""The audit report as text (``replykit audit --format table``): per group the pass
rate with its 95% Wilson interval, the rate of each code and near-miss kind with its
first example, then the input errors (§8). Lines are plain; the caller escapes them
(§1.4)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from replykit.textout import counted

#: Codes listed per group in the table (the JSON report lists them all).
TOP_CODES = 12


def percent(rate: float | None) -> str:
    """``12.5%``, or ``-`` for no rate."""
    return "-" if rate is None else f"{rate * 100:.1f}%"


def table_lines(summary: Mapping[str, Any]) -> Iterator[str]:
    """The text view of :meth:`~replykit.evals.tally.Tally.summary`, a line at a time."""
    errors = summary["input_errors"]
    yield (
        f"{counted(summary['records'], 'record')}, "
        f"{counted(summary['messages'], 'reply', 'replies')} audited, "
        f"{summary['passed']} passed, {counted(errors['count'], 'input error')}"
    )
    groups = summary["groups"]
    width = max([len("group"), *(len(g["group"]) for g in groups)])
    yield ""
    yield f"{'group':<{width}}  {'replies':>7}  {'pass rate':>9}  {'95% interval':<17}  lenient"
    for g in groups:
        low, high = g["wilson95"]
        interval = f"[{percent(low)}, {percent(high)}]"
        yield (
            f"{g['group']:<{width}}  {g['messages']:>7}  {percent(g['pass_rate']):>9}  "
            f"{interval:<17}  {percent(g['lenient_pass_rate'])}"
        )
    for g in groups:
        yield from _group_codes(g)
    if errors["count"]:
        yield ""
        shown = len(errors["first"])
        yield f"input errors ({errors['count']}; the first {shown}):"
        yield from (f"  {e['where']}: {e['message']}" for e in errors["first"])


def _group_codes(group: Mapping[str, Any]) -> Iterator[str]:
    codes = group["codes"]
    if not codes:
        return
    yield ""
    yield f"{group['group']}: codes (share of replies, first example)"
    width = max(len(c["code"]) for c in codes[:TOP_CODES])
    for c in codes[:TOP_CODES]:
        yield f"  {c['code']:<{width}}  {percent(c['rate']):>6}  {c['messages']:>6}  {c['first']}"
    if len(codes) > TOP_CODES:
        yield f"  ... {len(codes) - TOP_CODES} more codes (--format json lists all)"
    kinds = ", ".join(f"{n['kind']} {percent(n['rate'])}" for n in group["near_misses"])
    if kinds:
        yield f"  near-misses: {kinds}"
