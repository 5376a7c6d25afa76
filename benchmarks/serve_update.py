"""Update time of the playground for a 10 KB message: ``python benchmarks/serve_update.py
[--runs N] [--size BYTES] [--chromium PATH]``

Starts the playground on a free loopback port, opens it in headless Chromium (Debian's
``chromium`` through Playwright, the ``test`` extra), puts a message of ``--size``
UTF-8 bytes (default 10 240: ``examples/mixed.md`` repeated, two forms and a code
example each time, so several forms render) in the editor, and runs the page's own
update ``--runs`` times (default 30): the request to ``/api/analyze`` (segments,
diagnostics, rendered forms, Self-check) and drawing every panel, timed inside the
page. The debounce delay after a keystroke is not part of it. It also times the
server's part alone (``replykit.serve.api.analyze``, in process).

Target (docs/serve.md "Speed"): the median update under 100 ms.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

from replykit import segment
from replykit.serve import api, make_server

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 100.0


def message(size: int) -> str:
    """``examples/mixed.md`` repeated up to ``size`` UTF-8 bytes (cut on a line)."""
    base = (ROOT / "examples" / "mixed.md").read_text(encoding="utf-8")
    text = ""
    while len((text + base).encode("utf-8")) <= size:
        text += base + "\n"
    filler = "A plain paragraph to bring the message to its size.\n"
    while len((text + filler).encode("utf-8")) <= size:
        text += filler
    return text


def server_side(text: str, runs: int) -> list[float]:
    """Milliseconds of ``api.analyze`` on ``text``, ``runs`` times."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        api.analyze({"text": text})
        times.append((time.perf_counter() - started) * 1000)
    return times


def in_browser(text: str, runs: int, chromium: str) -> list[float]:
    """Milliseconds of the page's update (request and drawing), ``runs`` times."""
    from playwright.sync_api import sync_playwright

    server = make_server("127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(server.url)
            page.evaluate("replykitPlayground.ready")
            page.evaluate("replykitPlayground.idle()")
            page.evaluate("text => { document.getElementById('editor').value = text; }", text)
            page.evaluate("replykitPlayground.update()")  # warm-up
            times = [float(page.evaluate("replykitPlayground.update()")) for _ in range(runs)]
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return times


def _line(name: str, times: list[float]) -> str:
    return (
        f"{name:<28} median {statistics.median(times):7.1f} ms   "
        f"min {min(times):7.1f} ms   max {max(times):7.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--size", type=int, default=10 * 1024)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    text = message(args.size)
    size = len(text.encode("utf-8"))
    forms = sum(1 for s in segment(text).segments if s.questionnaire is not None)
    print(f"message: {size} bytes, {len(text)} code points, {forms} forms")
    print(_line("server (api.analyze)", server_side(text, args.runs)))
    browser = in_browser(text, args.runs, args.chromium)
    print(_line("page update (request+draw)", browser))
    median = statistics.median(browser)
    verdict = "within" if median < TARGET_MS else "OVER"
    print(f"target: median under {TARGET_MS:.0f} ms: {verdict}")
    return 0 if median < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
