"""The audit report as text (``replykit audit --format table``): per group the pass
rate with its 95% Wilson interval, the rate of each code and near-miss kind with its
first example, then the input errors (§8). Lines are plain; the caller escapes them
(§1.4); the padded columns are escaped here already (escaping is idempotent) and
aligned by display width."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

from replykit.textout import counted, escape

#: Codes listed per group in the table (the JSON report lists them all).
TOP_CODES = 12


def percent(rate: float | None) -> str:
    """``12.5%``, or ``-`` for no rate."""
    return "-" if rate is None else f"{rate * 100:.1f}%"


def width(text: str) -> int:
    """Terminal columns of ``text`` as printed (escaped, §1.4): 2 for an East Asian
    wide or full-width character, 0 for a combining mark, else 1."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in escape(text)
    )


def pad(text: str, columns: int) -> str:
    """``text`` escaped (§1.4) and padded with spaces to ``columns`` display columns."""
    return escape(text) + " " * max(columns - width(text), 0)


def table_lines(summary: Mapping[str, Any]) -> Iterator[str]:
    """The text view of :meth:`~replykit.evals.tally.Tally.summary`, a line at a time."""
    errors = summary["input_errors"]
    yield (
        f"{counted(summary['records'], 'record')}, "
        f"{counted(summary['messages'], 'reply', 'replies')} audited, "
        f"{summary['passed']} passed, {counted(errors['count'], 'input error')}"
    )
    groups = summary["groups"]
    columns = max([len("group"), *(width(g["group"]) for g in groups)])
    yield ""
    head = f"{'replies':>7}  {'pass rate':>9}  {'95% interval':<17}  lenient"
    yield f"{pad('group', columns)}  {head}"
    for g in groups:
        low, high = g["wilson95"]
        interval = f"[{percent(low)}, {percent(high)}]"
        yield (
            f"{pad(g['group'], columns)}  {g['messages']:>7}  {percent(g['pass_rate']):>9}  "
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
    columns = max(width(c["code"]) for c in codes[:TOP_CODES])
    for c in codes[:TOP_CODES]:
        rate = percent(c["rate"])
        yield f"  {pad(c['code'], columns)}  {rate:>6}  {c['messages']:>6}  {c['first']}"
    if len(codes) > TOP_CODES:
        yield f"  ... {len(codes) - TOP_CODES} more codes (--format json lists all)"
    kinds = ", ".join(f"{n['kind']} {percent(n['rate'])}" for n in group["near_misses"])
    if kinds:
        yield f"  near-misses: {kinds}"
