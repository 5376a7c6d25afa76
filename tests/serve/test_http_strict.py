"""The playground server reads every request value by one strict rule and answers every
request, refusals included, with the documented JSON and security headers: numbers
of ASCII digits only, a strict request line, each header it reads once, ``Host``
compared case-insensitively, the query ignored on every method, a timeout on every
read, no empty reply and no traceback; the DNS-rebinding guard on every spelling of a
loopback address (docs/serve.md sections 1 and 3)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from replykit.cli import main
from replykit.serve import PlaygroundServer, make_server
from replykit.serve.assets import load_assets
from replykit.serve.server import SECURITY_HEADERS
from replykit.serve.strict import bound_loopback, host_and_port, loopback_name, number

JSON = "application/json"


def _exchange(port: int, data: bytes, half_close: bool = False) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=60) as conn:
        conn.sendall(data)
        if half_close:
            conn.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := conn.recv(65536):
            received += chunk
    return received


def _reply(received: bytes) -> tuple[int, dict[str, str], Any]:
    """(status, headers, decoded JSON body) of a raw reply; fails on anything else."""
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith("HTTP/1.0 "), received[:200]
    fields = dict(line.split(": ", 1) for line in lines[1:])
    assert fields["Content-Type"] == JSON and int(fields["Content-Length"]) == len(body)
    for key, value in SECURITY_HEADERS.items():
        assert fields[key] == value
    return int(lines[0].split()[1]), fields, json.loads(body)


def _post(port: int, length: bytes, body: bytes = b"{}", extra: bytes = b"") -> bytes:
    return (
        b"POST /api/analyze HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
        b"%sContent-Length: %s\r\n\r\n%s" % (port, extra, length, body)
    )


@pytest.fixture(scope="module")
def quick() -> Iterator[PlaygroundServer]:
    """A playground whose reads wait 2 s at most, so a stalled request is answered soon."""
    srv = PlaygroundServer(("127.0.0.1", 0), load_assets(), request_timeout=2.0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()
    thread.join(timeout=10)


def test_number_takes_ascii_digits_of_bounded_length_only() -> None:
    assert [number(t, 5) for t in ("0", "00042", "65535")] == [0, 42, 65535]
    refused = ["", "123456", "²", "٣", "１", "+1", "-1", " 1", "1 ", "1_0", "0x1", "1.0"]
    assert [number(t, 5) for t in refused] == [None] * len(refused)


@pytest.mark.parametrize(
    "length",
    [b"\xb2", "٣".encode(), b"9" * 5000, b"9" * 20, b"+2", b"-1", b"2 2", b"2,2", b"0x2", b"2.0"],
)
def test_a_bad_content_length_is_refused_with_400(quick: PlaygroundServer, length: bytes) -> None:
    port = quick.server_address[1]
    status, _, body = _reply(_exchange(port, _post(port, length)))
    assert (status, body) == (400, {"error": "bad Content-Length"})


def test_content_length_digits_are_read_to_nineteen(quick: PlaygroundServer) -> None:
    port = quick.server_address[1]
    status, _, body = _reply(_exchange(port, _post(port, b"9" * 19)))
    assert (status, body) == (413, {"error": "request body over 2097152 bytes"})
    text = b'{"text": "x"}'
    status, _, body = _reply(_exchange(port, _post(port, b"000%d" % len(text), text)))
    assert status == 200 and [(s["start"], s["end"]) for s in body["segments"]] == [(0, 1)]


@pytest.mark.parametrize(
    ("extra", "name"),
    [
        (b"Content-Length: 2\r\n", "Content-Length"),
        (b"Host: 127.0.0.1\r\n", "Host"),
        (b"Content-Type: application/json\r\n", "Content-Type"),
        (b"content-type: text/plain\r\n", "Content-Type"),
        (b"Transfer-Encoding: chunked\r\n" * 2, "Transfer-Encoding"),
    ],
)
def test_a_header_the_server_reads_may_appear_once(
    quick: PlaygroundServer, extra: bytes, name: str
) -> None:
    port = quick.server_address[1]
    status, _, body = _reply(_exchange(port, _post(port, b"2", b"{}", extra)))
    assert (status, body) == (400, {"error": f"more than one {name} header"})


def test_a_short_body_gets_408_after_the_timeout_or_400_when_the_client_stops(
    quick: PlaygroundServer,
) -> None:
    port = quick.server_address[1]
    status, _, body = _reply(_exchange(port, _post(port, b"40", b'{"text": ')))
    assert (status, body) == (408, {"error": "the request stopped arriving for 2 seconds"})
    received = _exchange(port, _post(port, b"40", b'{"text": '), half_close=True)
    status, _, body = _reply(received)
    assert (status, body) == (400, {"error": "the body is shorter than its Content-Length"})
    partial = b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: " % port
    status, _, body = _reply(_exchange(port, partial))
    assert (status, body) == (408, {"error": "the request stopped arriving for 2 seconds"})


def test_the_query_is_ignored_on_every_method(quick: PlaygroundServer) -> None:
    port = quick.server_address[1]
    text = b'{"text": "hello"}'
    plain = _reply(_exchange(port, _post(port, b"%d" % len(text), text)))
    queried = _exchange(port, _post(port, b"%d" % len(text), text).replace(b"ze ", b"ze?x=1 ", 1))
    assert b"/api/analyze?x=1 " in _post(port, b"1").replace(b"ze ", b"ze?x=1 ", 1)
    assert _reply(queried)[::2] == plain[::2] and plain[0] == 200
    get = b"GET /api/examples?x=1#y HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port
    assert _reply(_exchange(port, get))[0] == 200


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("LOCALHOST:{port}", 200),
        ("LocalHost:{port}", 200),
        ("127.0.0.1:{port}", 200),
        ("[::1]:{port}", 200),
        ("127.0.0.1:00{port}", 421),
        ("127.0.0.1", 421),
        ("127.0.0.1:+{port}", 421),
        ("127.0.0.1:{port}0", 421),
        ("127.0.0.1:²", 421),
        ("evil.example:{port}", 421),
        ("LOCALHOST.evil.example:{port}", 421),
        ("::1:{port}", 421),
        ("", 421),
    ],
)
def test_host_is_compared_case_insensitively_by_the_strict_rule(
    quick: PlaygroundServer, host: str, status: int
) -> None:
    port = quick.server_address[1]
    head = "GET /api/examples HTTP/1.1\r\nHost: " + host.format(port=port) + "\r\n\r\n"
    received = _exchange(port, head.encode("latin-1"))
    if status == 421:
        assert _reply(received)[::2] == (
            421,
            {"error": "this server answers only to its loopback address"},
        )
    else:
        assert received.startswith(b"HTTP/1.0 200 ")


def test_host_and_port_reads_name_and_port() -> None:
    assert host_and_port("LocalHost:8765") == ("localhost", 8765)
    assert host_and_port("[::1]:80") == ("[::1]", 80)
    assert host_and_port("127.0.0.1") == ("127.0.0.1", None)
    refused = ["", ":80", "[::1", "[::1]80", "a:65536", "a:", "a:1:2", "a:٣"]
    assert [host_and_port(v) for v in refused] == [None] * len(refused)
    assert [loopback_name(n) for n in ("localhost", "127.0.0.9", "[::1]")] == [True] * 3
    assert [loopback_name(n) for n in ("::1", "[127.0.0.1]", "127.1", "evil")] == [False] * 4


@pytest.mark.parametrize("method", ["PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "get"])
def test_other_methods_get_501_as_json(quick: PlaygroundServer, method: str) -> None:
    port = quick.server_address[1]
    head = f"{method} /api/analyze HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    status, fields, body = _reply(_exchange(port, head.encode()))
    assert (status, body) == (501, {"error": "method not served: only GET, HEAD and POST"})
    assert fields["Connection"] == "close"


BAD_LINE = "bad request line: not METHOD SP TARGET SP HTTP/D.D in printable ASCII"


@pytest.mark.parametrize(
    ("request_line", "status", "error"),
    [
        (b"GET /" + b"a" * 70000 + b" HTTP/1.1", 414, "request line over 65536 bytes"),
        (b"GET / HTTP/1.\xb2", 400, BAD_LINE),
        (b"GET / HTTP/01.1", 400, BAD_LINE),
        (b"GET / HTTP/1.1 ", 400, BAD_LINE),
        (b"GET  / HTTP/1.1", 400, BAD_LINE),
        (b"GET\xa0/ HTTP/1.1", 400, BAD_LINE),
        (b"GET /\xe9 HTTP/1.1", 400, BAD_LINE),
        (b"GET / http/1.1", 400, BAD_LINE),
        (b"GET /", 400, BAD_LINE),
        (b"", 400, BAD_LINE),
        (b"GET / HTTP/2.0", 505, "HTTP version not supported: only HTTP/1.x"),
    ],
)
def test_request_line_refusals_are_json(
    quick: PlaygroundServer, request_line: bytes, status: int, error: str
) -> None:
    port = quick.server_address[1]
    head = request_line + b"\r\nHost: 127.0.0.1:%d\r\n\r\n" % port
    assert _reply(_exchange(port, head))[::2] == (status, {"error": error})


@pytest.mark.parametrize(
    "headers",
    [b"".join(b"X-%d: 1\r\n" % i for i in range(101)), b"X-Long: " + b"a" * 70000 + b"\r\n"],
)
def test_header_refusals_are_json(quick: PlaygroundServer, headers: bytes) -> None:
    port = quick.server_address[1]
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s\r\n" % (port, headers)
    assert _reply(_exchange(port, head))[::2] == (
        431,
        {"error": "request header fields too large: a line over 65536 bytes or over 100 fields"},
    )


def test_an_unexpected_exception_is_a_500_json_reply() -> None:
    def broken(request: Mapping[str, Any]) -> dict[str, Any]:
        return {"ratio": len(request) // 0}

    endpoints: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {"/api/x": broken}
    srv = PlaygroundServer(("127.0.0.1", 0), load_assets(), endpoints=endpoints)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        port = srv.server_address[1]
        data = _post(port, b"2").replace(b"/api/analyze", b"/api/x")
        status, _, body = _reply(_exchange(port, data))
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(timeout=10)
    assert (status, body) == (500, {"error": "internal error: ZeroDivisionError"})


def _hostile(port: int) -> list[bytes]:
    return [
        _post(port, b"\xb2"),
        _post(port, b"9" * 5000),
        _post(port, b"2", b"{}", b"Content-Length: 2\r\n"),
        b"PUT / HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.\xb2\r\n\r\n",
        b"GET /\r\n\r\n",
        b"\r\n",
        b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(101)) + b"\r\n",
        b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n",
    ]


def test_the_command_answers_every_hostile_request_and_prints_no_traceback() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "replykit.cli", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().decode()
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        statuses = [_reply(_exchange(port, data))[0] for data in _hostile(port)]
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert statuses == [400, 400, 400, 501, 400, 400, 400, 431, 414]
    assert b"Traceback" not in err and b"Error" not in err
    assert len(err.decode().splitlines()) == len(statuses)


LOOPBACK_SPELLINGS = ["127.0.0.1", "127.1", "2130706433", "0x7f.1", "localhost", "127.0.0.2"]


@pytest.mark.parametrize("host", [*LOOPBACK_SPELLINGS, "::1", "::ffff:127.0.0.1"])
def test_every_spelling_of_a_loopback_address_is_loopback(host: str) -> None:
    assert bound_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "", "::", "192.0.2.1", "::ffff:192.0.2.1", "no such"])
def test_other_addresses_are_not_loopback(host: str) -> None:
    assert not bound_loopback(host)


@pytest.mark.parametrize("host", ["127.1", "2130706433", "::ffff:127.0.0.1"])
def test_the_rebinding_guard_holds_on_every_loopback_spelling(host: str) -> None:
    srv = make_server(host, 0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        port = srv.server_address[1]
        get = "GET /api/examples HTTP/1.1\r\nHost: {}:{}\r\n\r\n"
        evil = _exchange(port, get.format("evil.example", port).encode())
        good = _exchange(port, get.format("127.0.0.1", port).encode())
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(timeout=10)
    assert srv.guard_host
    assert _reply(evil)[0] == 421 and good.startswith(b"HTTP/1.0 200 ")


def test_serve_prints_no_loopback_warning_for_a_shorthand_address() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "replykit.cli", "serve", "--host", "2130706433", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert line.startswith("replykit serve: http://127.0.0.1:") and "warning" not in err


def test_serve_warns_for_every_interface(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "::ffff:192.0.2.1", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("replykit serve: warning: listening on ::ffff:192.0.2.1, not a loop")
