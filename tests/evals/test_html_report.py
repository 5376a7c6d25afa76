"""The HTML report of the bundled example: self-contained (nothing fetched, no script),
and its charts rendered by headless Chromium with the sizes the figures call for."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from replykit.cli import main
from replykit.evals.html import CHART_GROUPS, html_report, top_codes

ROOT = Path(__file__).resolve().parents[2]
DATASET = ROOT / "examples" / "audit" / "replies.jsonl"
ARGS = ["--group-by", "model", "--expect-field", "expect", "--lenient"]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PLOT = 460


def audit(tmp_path: Path, capsys: Any) -> tuple[dict[str, Any], Path]:
    page = tmp_path / "report.html"
    assert main(["audit", str(DATASET), *ARGS, "--format", "html", "--out", str(page)]) == 0
    main(["audit", str(DATASET), *ARGS, "--format", "json"])
    return json.loads(capsys.readouterr().out), page


def test_page_is_self_contained(tmp_path: Path, capsys: Any) -> None:
    _, page = audit(tmp_path, capsys)
    text = page.read_text("utf-8")
    assert re.findall(r"<script|<link|<img|<iframe|\burl\(|https?://", text) == []
    assert text.count("<svg") == 2


def test_input_text_is_escaped() -> None:
    summary = {
        "records": 1,
        "messages": 1,
        "passed": 0,
        "input_errors": {"count": 1, "first": [{"where": "<b>f</b>:1", "message": "x\u202ey"}]},
        "groups": [
            {
                "group": "<script>alert(1)</script>",
                "messages": 1,
                "passed": 0,
                "pass_rate": 0.0,
                "wilson95": [0.0, 0.7935],
                "lenient_pass_rate": None,
                "codes": [],
                "near_misses": [],
            }
        ],
    }
    page = html_report(summary, title='"><script>')
    assert "<script" not in page and "<b>" not in page and "\u202e" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "x\\u202ey" in page


def test_charts_render_in_chromium(tmp_path: Path, capsys: Any) -> None:
    summary, page = audit(tmp_path, capsys)
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        tab = browser.new_page(viewport={"width": 900, "height": 700})
        tab.on("request", lambda r: requests.append(r.url))
        tab.goto(page.as_uri())
        bars = tab.eval_on_selector_all(
            "rect.pass-bar",
            "els => els.map(e => [e.dataset.group, e.getBoundingClientRect().width])",
        )
        intervals = tab.eval_on_selector_all(
            "g.interval", "els => els.map(e => e.getBoundingClientRect().width)"
        )
        code_bars = tab.eval_on_selector_all(
            "rect.code-bar", "els => els.map(e => [e.dataset.code, e.dataset.group])"
        )
        heading = tab.inner_text("h1")
        shot = tab.screenshot(full_page=True)
        browser.close()
    assert requests == [page.as_uri()]
    groups = summary["groups"]
    assert [g for g, _ in bars] == [g["group"] for g in groups] == ["kestrel-7b", "wren-3b"]
    for (_, width), g in zip(bars, groups, strict=True):
        assert width == pytest.approx(PLOT * g["pass_rate"], abs=0.6)
    for width, g in zip(intervals, groups, strict=True):
        low, high = g["wilson95"]
        assert width == pytest.approx(PLOT * (high - low), abs=1.5)
    codes = top_codes(groups)
    assert len(codes) == 8
    assert code_bars == [[c, g["group"]] for c in codes for g in groups]
    assert heading.startswith("replykit audit: ")
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 20_000


def test_readme_shows_the_bundled_example_s_figures(capsys: Any) -> None:
    main(["audit", str(DATASET), *ARGS, "--format", "json"])
    summary = json.loads(capsys.readouterr().out)
    readme = (ROOT / "README.md").read_text("utf-8")
    block = readme.split("<!-- audit-figures:begin -->")[1].split("<!-- audit-figures:end -->")[0]
    rows = [line.strip("|").split("|") for line in block.strip().splitlines()[2:]]
    shown = [[cell.strip() for cell in row] for row in rows]

    def pct(rate: float) -> str:
        return f"{rate * 100:.1f}%"

    expected = [
        [
            g["group"],
            str(g["messages"]),
            pct(g["pass_rate"]),
            f"{pct(g['wilson95'][0])} – {pct(g['wilson95'][1])}",
            pct(g["lenient_pass_rate"]),
            f"`{g['codes'][0]['code']}` {pct(g['codes'][0]['rate'])}",
        ]
        for g in summary["groups"]
    ]
    assert shown == expected
    assert summary["input_errors"]["count"] == 1


def test_many_groups_keep_the_page_bounded(tmp_path: Path) -> None:
    # §1.5: the charts draw the CHART_GROUPS groups with the most replies; every group
    # is in the tables; the page stays within 16x its input plus 256 KiB.
    lines = [json.dumps({"g": "big", "text": "``questionnaire\nx\n"})] * 3
    lines += [json.dumps({"g": i, "text": "x"}, separators=(",", ":")) for i in range(3000)]
    path = tmp_path / "groups.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "replykit", "audit", "--group-by", "g", "--text-field", "text",
         "--format", "html", str(path)],
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    page = proc.stdout.decode("utf-8")
    assert len(proc.stdout) <= 16 * path.stat().st_size + 256 * 1024
    assert page.count('class="pass-bar"') == CHART_GROUPS
    assert 'data-group="big"' in page  # the group with the most replies is charted
    assert "The charts draw the 40 groups with the most replies of 3001" in page
    assert page.count("<tr><td>") >= 3001  # every group in the table
