"""The playground's server: what it answers, what it refuses (bodies over 2 MiB,
other hosts, other paths), that it reads no file and runs nothing while serving, and
the ``replykit serve`` command's address policy (docs/serve.md)."""

from __future__ import annotations

import builtins
import json
import socket
import subprocess
import sys
from typing import Any

import pytest

from replykit.cli import main
from replykit.serve import MAX_BODY, PlaygroundServer
from replykit.serve.assets import PAGES
from replykit.serve.server import SECURITY_HEADERS


def _request(
    server: PlaygroundServer,
    method: str,
    path: str,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP/1.1 exchange: (status, headers, body). Sends ``body`` as given, so
    a test can announce a length it never sends."""
    port = server.server_address[1]
    sent = {"Host": f"127.0.0.1:{port}", "Connection": "close", **(headers or {})}
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in sent.items())
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(head.encode() + b"\r\n" + body)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    raw_head, _, content = data.partition(b"\r\n\r\n")
    lines = raw_head.decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), fields, content


def _post(server: PlaygroundServer, path: str, value: Any, **headers: str) -> tuple[int, Any]:
    body = json.dumps(value).encode()
    sent = {"Content-Type": "application/json", "Content-Length": str(len(body)), **headers}
    status, _, content = _request(server, "POST", path, body, sent)
    return status, json.loads(content)


def test_every_page_file_is_served_with_the_security_headers(server: PlaygroundServer) -> None:
    for path, (_, kind) in PAGES.items():
        status, headers, body = _request(server, "GET", path)
        assert (status, headers["Content-Type"]) == (200, kind) and body
        for key, value in SECURITY_HEADERS.items():
            assert headers[key] == value
    status, _, body = _request(server, "GET", "/api/examples")
    assert status == 200 and json.loads(body)[0]["name"] == "task_paused"


@pytest.mark.parametrize(
    "path",
    ["/../pyproject.toml", "/static/app.js", "/examples/index.json", "/app.js/..", "/etc/passwd"],
)
def test_no_other_path_is_served(server: PlaygroundServer, path: str) -> None:
    status, _, body = _request(server, "GET", path)
    assert status == 404 and json.loads(body) == {"error": "not found"}


def test_a_body_over_two_mebibytes_is_refused_unread(server: PlaygroundServer) -> None:
    headers = {"Content-Type": "application/json", "Content-Length": str(MAX_BODY + 1)}
    status, _, body = _request(server, "POST", "/api/analyze", b"", headers)
    assert status == 413 and "2097152" in json.loads(body)["error"]
    assert MAX_BODY == 2 * 1024 * 1024


def test_a_body_of_the_limit_is_read(server: PlaygroundServer) -> None:
    padding = MAX_BODY - len(json.dumps({"text": "", "pad": ""}).encode())
    status, out = _post(server, "/api/analyze", {"text": "", "pad": " " * padding})
    assert status == 200 and out["segments"] == []


@pytest.mark.parametrize(
    ("headers", "body", "status"),
    [
        ({"Content-Type": "application/json"}, b"{}", 411),
        ({"Content-Type": "text/plain", "Content-Length": "2"}, b"{}", 415),
        ({"Content-Type": "application/json", "Content-Length": "x"}, b"{}", 400),
        # '²'.isdigit() is True and int('²') raises: only ASCII digits are a length.
        ({"Content-Type": "application/json", "Content-Length": "\u00b2"}, b"{}", 400),
        # HTTP's optional white space is space and tab, not NBSP (str.strip()).
        ({"Content-Type": "\u00a0application/json", "Content-Length": "2"}, b"{}", 415),
        ({"Content-Type": "application/json", "Content-Length": "2"}, b"\xff\xfe", 400),
        ({"Content-Type": "application/json", "Content-Length": "15"}, b'{"a":1, "a":2 }', 400),
        ({"Content-Type": "application/json", "Content-Length": "2"}, b"[]", 400),
        ({"Content-Type": "application/json", "Content-Length": "2"}, b"{}", 400),
    ],
)
def test_malformed_requests_are_refused(
    server: PlaygroundServer, headers: dict[str, str], body: bytes, status: int
) -> None:
    got, _, content = _request(server, "POST", "/api/analyze", body, headers)
    assert got == status and json.loads(content)["error"]


def test_other_hosts_methods_and_endpoints_are_refused(server: PlaygroundServer) -> None:
    port = server.server_address[1]
    status, _, _ = _request(server, "GET", "/", headers={"Host": f"evil.example:{port}"})
    assert status == 421
    status, _ = _post(server, "/api/analyze", {"text": ""}, Host="127.0.0.1.evil.example")
    assert status == 421
    for host in (f"localhost:{port}", f"[::1]:{port}"):
        assert _request(server, "GET", "/", headers={"Host": host})[0] == 200
    assert _request(server, "PUT", "/api/analyze")[0] == 501
    assert _post(server, "/api/run", {"text": ""})[0] == 404


def test_serving_reads_no_file_and_runs_nothing(
    server: PlaygroundServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"the server touched {args[:1]}")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(subprocess, "Popen", refuse)
    for path in PAGES:
        assert _request(server, "GET", path)[0] == 200
    text = (
        "Pick one:\n\n```questionnaire\ntitle: T\nquestions:\n"
        "  - type: free_text\n    text: A?\n    default: ''\n```\n"
    )
    assert _post(server, "/api/analyze", {"text": text})[0] == 200
    answers = {"text": text, "block_id": "message_q1", "answers": {"q1": "x"}}
    assert _post(server, "/api/respond", answers)[0] == 200
    assert _post(server, "/api/actions", {"answer": "{}"})[0] == 200


def test_serve_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "must be an integer from 0 to 65535, not '70000'" in capsys.readouterr().err


def test_serve_warns_before_listening_beyond_loopback(capsys: pytest.CaptureFixture[str]) -> None:
    # 192.0.2.1 (TEST-NET-1) is no address of this machine: the bind fails after the
    # warning, so nothing listens on a public interface.
    assert main(["serve", "--host", "192.0.2.1", "--port", "0"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("replykit serve: warning: listening on 192.0.2.1, not a loopback")
    assert err[1].startswith("replykit serve: error: cannot listen on 192.0.2.1:0")


def test_serve_listens_on_loopback_by_default() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "replykit.cli", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert line.startswith("replykit serve: http://127.0.0.1:") and "(Ctrl-C to stop)" in line
    assert proc.stderr is not None and "warning" not in proc.stderr.read()


def test_serve_without_markdown_it_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['markdown_it'] = None\n"
        "from replykit.cli import main\n"
        "sys.exit(main(['serve', '--port', '0']))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (
        "replykit serve: error: needs markdown-it-py, which is not installed: "
        "pip install 'replykit[html]'\n"
    )


def test_the_log_line_of_a_hostile_request_is_inert(capsys: pytest.CaptureFixture[str]) -> None:
    # The request line is the client's text: written to stderr escaped (§1.4).
    import threading

    from replykit.serve import make_server

    srv = make_server("127.0.0.1", 0, quiet=False)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        port = srv.server_address[1]
        with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
            conn.sendall(b"GET /\x1b[2J\x1b]0;pwned\x07\xe2\x80\xae HTTP/1.1\r\n\r\n")
            while conn.recv(65536):
                pass
    finally:
        srv.shutdown()
        srv.server_close()
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err
    assert "\\u001b[2J" in err
