"""Take the README's screenshots of the playground: ``python examples/playground_screenshots.py
[--out docs/img] [--chromium PATH]``.

Starts the playground on a free loopback port, drives headless Chromium (Debian's
``chromium`` through Playwright, the ``test`` extra) and writes three PNG files:
``playground-form.png`` (the mixed example, a form filled in and its response text),
``playground-invalid.png`` (invalid blocks, a diagnostic clicked, Self-check failing),
``playground-actions.png`` (answer actions, a ``business.execute`` button waiting for
confirmation).
"""

from __future__ import annotations

import argparse
import shutil
import threading
from pathlib import Path
from typing import Any

from replykit.serve import make_server

ROOT = Path(__file__).resolve().parents[1]


def _settle(page: Any) -> None:
    page.evaluate("replykitPlayground.ready")
    page.evaluate("replykitPlayground.idle()")


def _pick(page: Any, name: str) -> None:
    page.select_option("#example", name)
    _settle(page)


def shoot(page: Any, out: Path) -> None:
    """Write the three screenshots into ``out``."""
    _pick(page, "mixed")
    form = "#rendered form[data-replykit-block='message_q1']"
    page.check(f"{form} input[type=radio][value='Roll back to 2.4.0']")
    page.check(f"{form} input[type=checkbox][value='us-east']")
    page.fill(f"{form} textarea", "The eu-west pool runs the canary.")
    _settle(page)
    clip = {"x": 0, "y": 0, "width": 1360, "height": 1720}  # down to the response text
    page.screenshot(path=str(out / "playground-form.png"), full_page=True, clip=clip)
    _pick(page, "invalid")
    page.click("#diagnostics li:nth-child(1)")
    page.screenshot(path=str(out / "playground-invalid.png"))
    _pick(page, "actions")
    page.click("#action-buttons button[data-action-id='create-order']")
    _settle(page)
    page.locator("#actions-panel").screenshot(path=str(out / "playground-actions.png"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    server = make_server("127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium)
            page = browser.new_page(viewport={"width": 1360, "height": 860})
            page.goto(server.url)
            _settle(page)
            shoot(page, args.out)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
