"""Write docs/img/audit-report.png: the HTML report of the bundled example, as headless
Chromium shows it (Debian's chromium and the playwright package)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "img" / "audit-report.png"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "replykit.cli",
                "audit",
                "examples/audit/replies.jsonl",
                "--group-by",
                "model",
                "--expect-field",
                "expect",
                "--lenient",
                "--format",
                "html",
                "--out",
                str(page),
            ],
            check=True,
            cwd=ROOT,
        )
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"))
            tab = browser.new_page(viewport={"width": 820, "height": 760})
            tab.goto(page.as_uri())
            OUT.parent.mkdir(exist_ok=True)
            tab.screenshot(path=str(OUT), clip={"x": 0, "y": 0, "width": 820, "height": 760})
            browser.close()


if __name__ == "__main__":
    main()
