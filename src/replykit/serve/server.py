"""The playground's HTTP server: the standard library's ``http.server``, nothing else
(docs/serve.md).

It answers ``GET`` for the packaged page files and ``/api/examples``, and ``POST``
``/api/analyze``, ``/api/respond``, ``/api/actions`` with the pure functions of
:mod:`replykit.serve.api`. It reads no file after start-up (the assets are loaded
once, by fixed names), runs no program, and keeps no state between requests: the
message lives in the page, and in the URL fragment, which a browser never sends.

Every value it reads from a request follows one strict rule
(:mod:`replykit.serve.strict`). Refused requests, each answered ``{"error": ...}``
with :data:`SECURITY_HEADERS`: a bad request line, a repeated header it reads, a bad
``Content-Length``, a body shorter than announced, not UTF-8 or not strict JSON (§1)
or not an object (400); a request that stops arriving for :data:`REQUEST_TIMEOUT`
seconds (408); no ``Content-Length`` (411); a body over :data:`MAX_BODY` bytes (413,
not read); a request line over 64 KiB (414); not ``application/json`` (415); a
``Host`` header naming another host than the loopback one the server listens on
(421: a DNS-rebinding page cannot use it); too many or too long header lines (431);
any other path (404), method (501) or HTTP version (505); anything unexpected (500).
"""

from __future__ import annotations

import socket
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from replykit.jsonout import dumps
from replykit.questionnaire.limits import DEFAULT_LIMITS
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.serve import api
from replykit.serve.assets import Assets, load_assets
from replykit.serve.strict import (
    MAX_LENGTH_DIGITS,
    READ_HEADERS,
    bound_loopback,
    duplicated,
    host_and_port,
    loopback_name,
    number,
    request_line_ok,
)
from replykit.textout import escape

#: Largest request body accepted, in bytes (2 MiB); a larger one gets 413 unread.
MAX_BODY = 2 * 1024 * 1024
#: Seconds each read of a request (request line, headers, body) may wait; a client
#: that stops sending gets 408 (or, before a whole request line, is disconnected).
REQUEST_TIMEOUT = 10.0
#: The message of each refusal ``http.server`` decides itself (``send_error``).
REFUSALS = {
    400: "bad request line: not METHOD SP TARGET SP HTTP/D.D in printable ASCII",
    414: "request line over 65536 bytes",
    431: "request header fields too large: a line over 65536 bytes or over 100 fields",
    501: "method not served: only GET, HEAD and POST",
    505: "HTTP version not supported: only HTTP/1.x",
}
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


class PlaygroundServer(ThreadingHTTPServer):
    """A threading HTTP server holding the loaded :class:`~replykit.serve.assets.Assets`.

    ``guard_host`` is true when it listens on a loopback address, however ``--host``
    spelled it (:func:`~replykit.serve.strict.bound_loopback` of the bound address):
    then only a ``Host`` of ``localhost`` or a loopback address literal with its port
    is answered (421 otherwise). ``request_timeout``: seconds each read of a request
    may wait (408 after). ``endpoints``: path -> handler of the JSON endpoints,
    :data:`ENDPOINTS` unless given."""

    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        assets: Assets,
        quiet: bool = True,
        *,
        request_timeout: float = REQUEST_TIMEOUT,
        endpoints: Mapping[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = ENDPOINTS,
    ) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, PlaygroundHandler)
        self.assets = assets
        self.quiet = quiet
        self.request_timeout = request_timeout
        self.endpoints = endpoints
        self.guard_host = bound_loopback(str(self.server_address[0]))

    @property
    def url(self) -> str:
        """``http://HOST:PORT/`` of the page."""
        host, port = str(self.server_address[0]), self.server_address[1]
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One line on stderr (none when quiet) for a connection that failed after its
        answer was sent (the client went away), never a traceback."""
        if not self.quiet and sys.stderr is not None:
            error = sys.exc_info()[1]
            line = f"{client_address[0]} connection failed: {error!r}"
            sys.stderr.write(escape(line) + "\n")  # one inert line (§1.4)


class PlaygroundHandler(BaseHTTPRequestHandler):
    """One request (the module docstring lists what is answered and refused)."""

    server: PlaygroundServer
    server_version = "replykit-playground"
    sys_version = ""
    raw_requestline: bytes
    _answered = False

    def setup(self) -> None:
        """Every read of the connection waits at most the server's ``request_timeout``."""
        super().setup()
        self.connection.settimeout(self.server.request_timeout)

    def log_message(self, format: str, *args: Any) -> None:
        """Log to stderr unless the server is quiet."""
        if not self.server.quiet and sys.stderr is not None:
            # The request line is the client's text: one inert line (§1.4).
            sys.stderr.write(escape(f"{self.address_string()} {format % args}") + "\n")

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self._answered = True
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for key, value in SECURITY_HEADERS.items():
            self.send_header(key, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        self._send(status, dumps(value, compact=True).encode(), "application/json")

    def _error(self, status: int, message: str) -> None:
        self.close_connection = True
        self._json(status, {"error": message})

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The refusals ``http.server`` makes itself (a request line over 64 KiB, too
        many or too long header lines, an unsupported method or HTTP version), sent as
        every other refusal: ``{"error": ...}`` with :data:`SECURITY_HEADERS`. The
        message is this server's (:data:`REFUSALS`), never text of the request."""
        if self.request_version in ("", "HTTP/0.9"):
            self.request_version = "HTTP/1.0"  # a reply with a status line and headers
        message = REFUSALS.get(code, self.responses.get(code, ("refused",))[0])
        if code == 408:
            message = f"the request stopped arriving for {self.server.request_timeout:g} seconds"
        self._error(code, message)

    def parse_request(self) -> bool:
        """The request line and headers under the strict rule of
        :mod:`replykit.serve.strict`: a bad request line or a repeated header that the
        server reads gets 400, headers that stop arriving get 408."""
        self._answered = False
        if not request_line_ok(self.raw_requestline):
            self.command, self.request_version, self.close_connection = "", "HTTP/1.0", True
            self.requestline = self.raw_requestline.decode("latin-1").rstrip("\r\n")[:200]
            self.send_error(400)
            return False
        try:
            if not super().parse_request():
                return False
        except TimeoutError:
            self.send_error(408)
            return False
        counts = Counter(name.lower() for name in self.headers)
        repeated = duplicated(READ_HEADERS, counts)
        if repeated is not None:
            self._error(400, f"more than one {repeated} header")
            return False
        return True

    def _host_ok(self) -> bool:
        if not self.server.guard_host:
            return True
        found = host_and_port(self.headers.get("Host", ""))
        port = self.server.server_address[1]
        if found is not None and loopback_name(found[0]) and found[1] in (port, _no_port(port)):
            return True
        self._error(421, "this server answers only to its loopback address")
        return False

    def _guarded(self, answer: Callable[[], None]) -> None:
        """Run ``answer``; an unexpected exception before anything was sent becomes a
        500 ``{"error"}`` naming its type, never an empty reply."""
        try:
            if self._host_ok():
                answer()
        except Exception as exc:
            if self._answered:
                raise
            self.log_error("internal error: %r", exc)
            self._error(500, f"internal error: {type(exc).__name__}")

    def do_GET(self) -> None:
        """A page file, the bundled examples, or 404."""
        self._guarded(self._get)

    def do_HEAD(self) -> None:
        """As GET, without the body."""
        self._guarded(self._get)

    def do_POST(self) -> None:
        """One JSON endpoint (:data:`ENDPOINTS`), or a refusal."""
        self._guarded(self._post)

    def _get(self) -> None:
        path = route(self.path)
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

    def _body(self) -> dict[str, Any] | None:
        """The request object, or ``None`` after sending the refusal."""
        if (
            self.headers.get("Transfer-Encoding") is not None
            or "Content-Length" not in self.headers
        ):
            self._error(411, "a Content-Length is required")
            return None
        length = number(self.headers["Content-Length"], MAX_LENGTH_DIGITS)
        if length is None:
            self._error(400, "bad Content-Length")
            return None
        if length > MAX_BODY:
            self._error(413, f"request body over {MAX_BODY} bytes")
            return None
        kind = self.headers.get("Content-Type", "").split(";", 1)[0].strip(" \t").lower()
        if kind != "application/json":
            self._error(415, "the body must be application/json")
            return None
        try:
            data = self.rfile.read(length)
        except TimeoutError:
            self.send_error(408)
            return None
        if len(data) < length:
            self._error(400, "the body is shorter than its Content-Length")
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            self._error(400, "the body is not UTF-8")
            return None
        read = read_json_value(text, max_depth=DEFAULT_LIMITS.max_depth)
        if read.findings or not isinstance(read.value, dict):
            problem = read.findings[0].message if read.findings else "not a JSON object"
            self._error(400, f"the body is not a strict JSON object: {problem}")
            return None
        return read.value

    def _post(self) -> None:
        handler = self.server.endpoints.get(route(self.path))
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


def _no_port(port: int) -> int | None:
    # A Host without a port names the default port 80 (RFC 9110, Host and :authority).
    return None if port == 80 else port


def route(target: str) -> str:
    """The path of a request target: without its query and fragment, for every method."""
    return target.split("?", 1)[0].split("#", 1)[0]


def make_server(host: str = "127.0.0.1", port: int = 0, *, quiet: bool = True) -> PlaygroundServer:
    """A bound (not yet serving) playground server on ``host``:``port`` (``0``: a free
    port; the bound one is ``server.server_address[1]``). Loads the packaged assets
    first. Raises ``OSError`` when the address cannot be bound or the package is
    incomplete. Call ``serve_forever()`` to serve and ``server_close()`` to release."""
    return PlaygroundServer((host, port), load_assets(), quiet)
