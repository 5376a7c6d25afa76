"""The audit report as one self-contained HTML page (``replykit audit --format html``).

No script, no stylesheet or font from elsewhere: the styles are inline and the charts
are inline SVG (pass rate per group with its 95% Wilson interval; the share of replies
with each of the most frequent codes, per group). Every text from the input (group
names, codes, file names) is escaped for display (§1.4) and for HTML.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from replykit.evals.report import percent
from replykit.textout import counted, escape

#: Codes shown in the code chart (the most frequent over all groups).
CHART_CODES = 8
#: Groups drawn in the charts, at most (the most replies first): every group is in the
#: tables, and a chart of thousands of groups would be thousands of times its input
#: (§1.5: the page stays within 16x the input plus 256 KiB).
CHART_GROUPS = 40
#: Colours of the groups, in order (repeating).
PALETTE = ("#3b6fb6", "#d9822b", "#4a9a5b", "#a04ca0", "#b8433d", "#5f6b7a")
_LABEL = 190  # width of the label column in the charts
_PLOT = 460  # width of the plot area
_STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1d2430}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}
.meta{color:#5f6b7a;margin:0 0 16px}table{border-collapse:collapse;margin:8px 0}
td,th{padding:3px 10px;border-bottom:1px solid #e3e6ea;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:13px}
svg text{font:12px system-ui,sans-serif;fill:#1d2430}.axis{stroke:#c9ced6}
.legend span{display:inline-block;margin-right:14px}
.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}
"""


def _text(value: object) -> str:
    return html.escape(escape(str(value)), quote=True)


def _pass_chart(groups: Sequence[Mapping[str, Any]]) -> Iterator[str]:
    row = 34
    height = row * len(groups) + 30
    width = _LABEL + _PLOT + 110
    yield f'<svg id="pass-chart" width="{width}" height="{height}" role="img">'
    yield "<title>Pass rate per group with its 95% Wilson interval</title>"
    for tick in range(0, 101, 25):
        x = _LABEL + _PLOT * tick / 100
        yield f'<line class="axis" x1="{x}" y1="0" x2="{x}" y2="{height - 20}"/>'
        yield f'<text x="{x}" y="{height - 5}" text-anchor="middle">{tick}%</text>'
    for i, g in enumerate(groups):
        y = i * row + 6
        rate = g["pass_rate"] or 0.0
        low, high = g["wilson95"]
        name, colour = _text(g["group"]), PALETTE[i % len(PALETTE)]
        yield f'<text x="{_LABEL - 8}" y="{y + 15}" text-anchor="end">{name}</text>'
        yield (
            f'<rect class="pass-bar" data-group="{name}" data-rate="{rate}" x="{_LABEL}" '
            f'y="{y}" width="{_PLOT * rate:.1f}" height="20" fill="{colour}"/>'
        )
        x1, x2, mid = _LABEL + _PLOT * low, _LABEL + _PLOT * high, y + 10
        yield (
            f'<g class="interval" data-group="{name}" data-low="{low}" data-high="{high}">'
            f'<line x1="{x1:.1f}" y1="{mid}" x2="{x2:.1f}" y2="{mid}" stroke="#1d2430"/>'
            f'<line x1="{x1:.1f}" y1="{mid - 6}" x2="{x1:.1f}" y2="{mid + 6}" stroke="#1d2430"/>'
            f'<line x1="{x2:.1f}" y1="{mid - 6}" x2="{x2:.1f}" y2="{mid + 6}" stroke="#1d2430"/>'
            "</g>"
        )
        label = f"{percent(g['pass_rate'])} of {g['messages']}"
        yield f'<text x="{_LABEL + _PLOT + 6}" y="{y + 15}">{label}</text>'
    yield "</svg>"


def top_codes(groups: Sequence[Mapping[str, Any]], limit: int = CHART_CODES) -> list[str]:
    """The ``limit`` codes found in the most replies over all groups, most first (ties
    by name)."""
    totals: dict[str, int] = {}
    for g in groups:
        for c in g["codes"]:
            totals[c["code"]] = totals.get(c["code"], 0) + c["messages"]
    return sorted(totals, key=lambda code: (-totals[code], code))[:limit]


def _code_chart(groups: Sequence[Mapping[str, Any]], codes: list[str]) -> Iterator[str]:
    bar, gap = 14, 12
    block = bar * len(groups) + gap
    height = block * len(codes) + 30
    most = max(
        [c["rate"] or 0.0 for g in groups for c in g["codes"] if c["code"] in codes] + [0.01]
    )
    scale = _PLOT / most
    yield f'<svg id="code-chart" width="{_LABEL + _PLOT + 70}" height="{height}" role="img">'
    yield "<title>Share of replies with each of the most frequent codes, per group</title>"
    for i, code in enumerate(codes):
        y0 = i * block + 4
        yield f'<text x="{_LABEL - 8}" y="{y0 + bar}" text-anchor="end">{_text(code)}</text>'
        for j, g in enumerate(groups):
            rate = next((c["rate"] for c in g["codes"] if c["code"] == code), 0.0) or 0.0
            y = y0 + j * bar
            yield (
                f'<rect class="code-bar" data-code="{_text(code)}" '
                f'data-group="{_text(g["group"])}" '
                f'data-rate="{rate}" x="{_LABEL}" y="{y}" width="{scale * rate:.1f}" '
                f'height="{bar - 2}" fill="{PALETTE[j % len(PALETTE)]}"/>'
            )
            yield f'<text x="{_LABEL + scale * rate + 4:.1f}" y="{y + 10}">{percent(rate)}</text>'
    yield "</svg>"


def _legend(groups: Sequence[Mapping[str, Any]]) -> str:
    items = "".join(
        f'<span><i style="background:{PALETTE[i % len(PALETTE)]}"></i>{_text(g["group"])}</span>'
        for i, g in enumerate(groups)
    )
    return f'<p class="legend">{items}</p>'


def _tables(summary: Mapping[str, Any]) -> Iterator[str]:
    yield "<h2>Groups</h2><table><tr><th>group</th><th>replies</th><th>passed</th>"
    yield "<th>pass rate</th><th>95% interval</th><th>lenient</th><th>near-misses</th></tr>"
    for g in summary["groups"]:
        low, high = g["wilson95"]
        kinds = ", ".join(f"{n['kind']} {percent(n['rate'])}" for n in g["near_misses"])
        yield (
            f"<tr><td>{_text(g['group'])}</td><td class=n>{g['messages']}</td>"
            f"<td class=n>{g['passed']}</td><td class=n>{percent(g['pass_rate'])}</td>"
            f"<td>{percent(low)} – {percent(high)}</td>"
            f"<td class=n>{percent(g['lenient_pass_rate'])}</td><td>{_text(kinds)}</td></tr>"
        )
    yield "</table><h2>Codes</h2><table><tr><th>group</th><th>code</th><th>replies</th>"
    yield "<th>share</th><th>first example</th></tr>"
    for g in summary["groups"]:
        for c in g["codes"]:
            yield (
                f"<tr><td>{_text(g['group'])}</td><td><code>{_text(c['code'])}</code></td>"
                f"<td class=n>{c['messages']}</td><td class=n>{percent(c['rate'])}</td>"
                f"<td><code>{_text(c['first'])}</code></td></tr>"
            )
    yield "</table>"
    errors = summary["input_errors"]
    if errors["count"]:
        yield f"<h2>Input errors ({errors['count']})</h2><table>"
        for e in errors["first"]:
            where, message = _text(e["where"]), _text(e["message"])
            yield f"<tr><td><code>{where}</code></td><td>{message}</td></tr>"
        yield "</table>"


def _charted(groups: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The groups the charts draw: at most :data:`CHART_GROUPS`, those with the most
    replies, in the summary's order."""
    if len(groups) <= CHART_GROUPS:
        return list(groups)
    ranked = sorted(range(len(groups)), key=lambda i: -int(groups[i]["messages"]))
    keep = set(ranked[:CHART_GROUPS])
    return [g for i, g in enumerate(groups) if i in keep]


def html_report(summary: Mapping[str, Any], *, title: str = "replykit audit") -> str:
    """The page for :meth:`~replykit.evals.tally.Tally.summary` ``summary``: a heading
    with the totals, the two charts (of at most :data:`CHART_GROUPS` groups, those with
    the most replies), the group and code tables, the input errors."""
    groups = summary["groups"]
    codes = top_codes(groups)
    charted = _charted(groups)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_text(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_text(title)}</h1>",
        f'<p class="meta">{counted(summary["records"], "record")}, '
        f"{counted(summary['messages'], 'reply', 'replies')}, {summary['passed']} passed, "
        f"{counted(summary['input_errors']['count'], 'input error')}</p>",
        "<h2>Pass rate per group (95% Wilson interval)</h2>",
    ]
    if len(charted) < len(groups):
        parts.append(
            f'<p class="meta">The charts draw the {len(charted)} groups with the most '
            f"replies of {len(groups)}; every group is in the tables.</p>"
        )
    parts += _pass_chart(charted)
    if codes:
        parts += ["<h2>Most frequent codes (share of replies)</h2>", _legend(charted)]
        parts += _code_chart(charted, codes)
    parts += [*_tables(summary), "</body></html>", ""]
    return "\n".join(parts)
