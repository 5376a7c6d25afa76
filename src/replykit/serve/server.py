"""The playground's HTTP server: the standard library's ``http.server``, nothing else
(docs/serve.md).

It answers ``GET`` for the packaged page files and ``/api/examples``, and ``POST``
``/api/analyze``, ``/api/respond``, ``/api/actions`` with the pure functions of
:mod:`replykit.serve.api`. It reads no file after start-up (the assets are loaded
once, by fixed names), runs no program, and keeps no state between requests: the
message lives in the page, and in the URL fragment, which a browser never sends.

Refused requests: a body over :data:`MAX_BODY` bytes (413, not read), no
``Content-Length`` (411), not ``application/json`` (415), not UTF-8 or not strict
JSON (§1) or not an object (400), a ``Host`` header naming another host than the
loopback one the server listens on (421: a DNS-rebinding page cannot use it), any
other path (404) or method (501).
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from replykit.jsonout import dumps
from replykit.questionnaire.limits import DEFAULT_LIMITS
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.serve import api
from replykit.serve.assets import Assets, load_assets

#: Largest request body accepted, in bytes (2 MiB); a larger one gets 413 unread.
MAX_BODY = 2 * 1024 * 1024
#: The JSON endpoints: path -> handler of a decoded request object.
ENDPOINTS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "/api/analyze": api.analyze,
    "/api/respond": api.respond,
    "/api/actions": api.actions,
}
#: Sent with every response: the page runs only its own scripts and styles, so a
#: string that escaped escaping still could not run (defence in depth, §1).
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and any loopback address (``127.0.0.0/8``, ``::1``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class PlaygroundServer(ThreadingHTTPServer):
    """A threading HTTP server holding the loaded :class:`~replykit.serve.assets.Assets`
    and the ``Host`` header values it accepts (``None``: any, for a non-loopback
    ``--host``)."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], assets: Assets, quiet: bool = True) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, PlaygroundHandler)
        self.assets = assets
        self.quiet = quiet
        port = self.server_address[1]
        host = address[0]
        self.allowed_hosts: frozenset[str] | None = None
        if is_loopback(host):
            shown = f"[{host}]" if ":" in host else host
            names = {shown, "localhost", "127.0.0.1", "[::1]"}
            self.allowed_hosts = frozenset(f"{name}:{port}" for name in names)

    @property
    def url(self) -> str:
        """``http://HOST:PORT/`` of the page."""
        host, port = str(self.server_address[0]), self.server_address[1]
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"


class PlaygroundHandler(BaseHTTPRequestHandler):
    """One request (the module docstring lists what is answered and refused)."""

    server: PlaygroundServer
    server_version = "replykit-playground"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:
        """Log to stderr unless the server is quiet."""
        if not self.server.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for key, value in SECURITY_HEADERS.items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        self._send(status, dumps(value, compact=True).encode(), "application/json")

    def _error(self, status: int, message: str) -> None:
        self.close_connection = True
        self._json(status, {"error": message})

    def _host_ok(self) -> bool:
        allowed = self.server.allowed_hosts
        if allowed is None or self.headers.get("Host", "") in allowed:
            return True
        self._error(421, "this server answers only to its loopback address")
        return False

    def do_GET(self) -> None:
        """A page file, the bundled examples, or 404."""
        if not self._host_ok():
            return
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        assets = self.server.assets
        if path in assets.pages:
            body, kind = assets.pages[path]
            self._send(200, body, kind)
        elif path == "/api/examples":
            self._json(200, assets.examples)
        elif path == "/favicon.ico":
            self._send(204, b"", "image/x-icon")  # no icon; spares the console a 404
        else:
            self._error(404, "not found")

    def do_HEAD(self) -> None:
        """As GET, without the body."""
        self.do_GET()

    def _body(self) -> dict[str, Any] | None:
        """The request object, or ``None`` after sending the refusal."""
        length = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding") is not None or length is None:
            self._error(411, "a Content-Length is required")
            return None
        if not (length.isascii() and length.isdigit()):  # '²'.isdigit() is True
            self._error(400, "bad Content-Length")
            return None
        if int(length) > MAX_BODY:
            self._error(413, f"request body over {MAX_BODY} bytes")
            return None
        kind = self.headers.get("Content-Type", "").split(";", 1)[0].strip(" \t").lower()
        if kind != "application/json":
            self._error(415, "the body must be application/json")
            return None
        try:
            text = self.rfile.read(int(length)).decode("utf-8")
        except UnicodeDecodeError:
            self._error(400, "the body is not UTF-8")
            return None
        read = read_json_value(text, max_depth=DEFAULT_LIMITS.max_depth)
        if read.findings or not isinstance(read.value, dict):
            problem = read.findings[0].message if read.findings else "not a JSON object"
            self._error(400, f"the body is not a strict JSON object: {problem}")
            return None
        return read.value

    def do_POST(self) -> None:
        """One JSON endpoint (:data:`ENDPOINTS`), or a refusal."""
        if not self._host_ok():
            return
        handler = ENDPOINTS.get(self.path)
        if handler is None:
            self._error(404, "not found")
            return
        request = self._body()
        if request is None:
            return
        try:
            result = handler(request)
        except api.RequestError as exc:
            self._error(400, str(exc))
            return
        self._json(200, result)


def make_server(host: str = "127.0.0.1", port: int = 0, *, quiet: bool = True) -> PlaygroundServer:
    """A bound (not yet serving) playground server on ``host``:``port`` (``0``: a free
    port; the bound one is ``server.server_address[1]``). Loads the packaged assets
    first. Raises ``OSError`` when the address cannot be bound or the package is
    incomplete. Call ``serve_forever()`` to serve and ``server_close()`` to release."""
    return PlaygroundServer((host, port), load_assets(), quiet)
