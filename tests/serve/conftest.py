"""Fixtures of the playground tests: a server on a free loopback port, and headless
Chromium (Debian's ``chromium``, driven by Playwright with the system browser; no
browser is downloaded). Without the browser the browser tests fail, never skip: the
README's test command installs it."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from replykit.serve import PlaygroundServer, make_server

#: Where the browser is looked for: ``REPLYKIT_CHROMIUM``, else ``chromium`` on PATH.
CHROMIUM_ENV = "REPLYKIT_CHROMIUM"


def chromium_path() -> str:
    """The Chromium executable, or a test failure that says how to install it."""
    found = os.environ.get(CHROMIUM_ENV) or shutil.which("chromium")
    if not found:
        pytest.fail(
            "the browser tests need Debian's chromium: apt-get install -y chromium "
            f"chromium-driver (or set {CHROMIUM_ENV} to a Chromium executable)"
        )
    return found


@pytest.fixture(scope="session")
def server() -> Iterator[PlaygroundServer]:
    """The playground, serving on 127.0.0.1 and a free port for the whole session."""
    srv = make_server("127.0.0.1", 0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture()
def page(browser: Any, server: PlaygroundServer) -> Iterator[Any]:
    """A fresh page with the playground loaded and idle; page errors fail the test."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(server.url)
    settle(opened)
    yield opened
    context.close()
    assert errors == []


def settle(page: Any) -> None:
    """Wait until the page finished starting and has nothing pending (no debounce
    timer, no request in flight)."""
    page.evaluate("replykitPlayground.ready")
    page.evaluate("replykitPlayground.idle()")
