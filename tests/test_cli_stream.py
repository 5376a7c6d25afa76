"""``replykit stream``: one JSON line per update, from a file, stdin or a captured SSE
stream of each style (docs/cli.md; §10)."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import segment
from replykit.cli.sse import delta_text, deltas, events, reported_error
from replykit.cli.stream import _lines, _rechunked

EXAMPLES = Path(__file__).parent.parent / "examples"
REPLY = (EXAMPLES / "stream_reply.md").read_text("utf-8")


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "replykit.cli", "stream", *args],
        input=stdin, capture_output=True, timeout=60, check=False,
    )  # fmt: skip


def _events(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]


def _check(events: list[dict[str, Any]], text: str, **options: Any) -> None:
    """The done event is segment()'s result; the commits tile a prefix of it."""
    assert events[-1]["event"] == "done"
    expected = segment(text, **options).to_json()
    assert {k: v for k, v in events[-1].items() if k != "event"} == expected
    end = 0
    finals = {(s["start"], s["kind"]): s for s in expected["segments"]}
    for event in events[:-1]:
        assert event["event"] in ("commit", "pending")
        for item in event.get("committed", []):
            assert item["start"] == end
            if item["kind"] != "markdown":
                assert item == finals[(item["start"], item["kind"])]
            end = item["end"]
    assert end > 0


@pytest.mark.parametrize("name", ["stream_openai.sse", "stream_anthropic.sse"])
def test_captured_sse_streams(name: str) -> None:
    events = _events(run("--sse", str(EXAMPLES / name)))
    _check(events, REPLY)
    blocks = [i for e in events for i in e.get("committed", []) if i["kind"] != "markdown"]
    assert [(b["id"], b["valid"]) for b in blocks] == [("message_q1", True)]
    pending = [p for e in events for p in e.get("pending", []) if p["kind"] != "markdown"]
    assert pending and all(p["id"] == "message_q1" and not p["tentative"] for p in pending)


@pytest.mark.parametrize("size", ["1", "7", "4096"])
def test_file_in_chunks_and_stdin(size: str) -> None:
    _check(_events(run("--chunk-size", size, str(EXAMPLES / "stream_reply.md"))), REPLY)
    _check(_events(run("--message-id", "m", stdin=REPLY.encode())), REPLY, message_id="m")


def test_errors_exit_2_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sse"
    bad.write_text('data: {"choices": [{"delta": {"content": "x"}}]}\n\ndata: {nope\n\n')
    latin = tmp_path / "latin.md"
    latin.write_bytes(b"caf\xe9")
    for proc, words in [
        (run("--chunk-size", "0", str(EXAMPLES / "stream_reply.md")), "--chunk-size"),
        (run("--sse", str(bad)), "line 3"),
        (run(str(latin)), "not UTF-8 (byte 3)"),
        (run(str(tmp_path / "missing.md")), "cannot read"),
    ]:
        assert proc.returncode == 2
        err = proc.stderr.decode()
        assert words in err and err.count("\n") == 1, err


def test_sse_reading() -> None:
    lines = ["event: x", "data: a", "data:b", ": comment", "", "data: [DONE]", ""]
    assert list(events(lines)) == [(2, "a\nb"), (6, "[DONE]")]
    assert list(_lines(["a\r", "\nb\n", "c"])) == ["a", "b", "c"]
    assert delta_text({"choices": [{"delta": {"content": "hi"}}]}) == "hi"
    assert delta_text({"choices": [{"delta": {"role": "assistant"}}]}) is None
    anthropic = {"type": "content_block_delta", "delta": {"type": "text_delta", "text": "yo"}}
    assert delta_text(anthropic) == "yo"
    assert (
        delta_text({"type": "content_block_delta", "delta": {"type": "input_json_delta"}}) is None
    )
    stream = [
        'data: {"type": "message_stop"}',
        "",
        'data: {"choices": [{"delta": {"content": "late"}}]}',
    ]
    assert list(deltas(stream, "s")) == []
    assert list(_rechunked(["abc", "de", "f"], 2)) == ["ab", "cd", "ef"]


def test_released_held_text_is_an_event(tmp_path: Path) -> None:
    # A partial tag held back at the end is released as text when it turns out not to
    # be one: held_from moves while the pending items stay the same, and the reader of
    # the output is told (docs/cli.md).
    path = tmp_path / "held.md"
    path.write_text("ab <questionnx y z more words and more", "utf-8")
    events = _events(run(str(path), "--chunk-size", "13"))
    pending = [(e["pending_kept"], len(e["pending"]), e["held_from"]) for e in events[:-1]]
    assert pending == [(0, 1, 3), (1, 0, 26), (1, 0, 38)]
    assert events[-1]["segments"][0]["end"] == 38


@given(
    st.lists(st.sampled_from(["a", "bc", "\r", "\n", "\r\n", "data: x"]), max_size=12).map("".join),
    st.lists(st.integers(0, 40), max_size=5),
)
def test_sse_lines_are_the_same_however_the_text_is_cut(text: str, cuts: list[int]) -> None:
    ends = sorted({min(c, len(text)) for c in cuts})
    pieces = [text[a:b] for a, b in zip([0, *ends], [*ends, len(text)], strict=True)]
    expected = re.split(r"\r\n|\r|\n", text)
    if expected[-1] == "":
        expected.pop()
    assert list(_lines(pieces)) == expected


def test_sse_lines_read_one_long_line_in_linear_work() -> None:
    # A line of 16 MB read 64 KiB at a time is joined once (it was copied per read).
    (line,) = _lines(["a" * 65_536] * 256)
    assert len(line) == 16 * 2**20


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ({"choices": [{"delta": {"content": "x"}}], "error": None}, None),
        ({"choices": [{"delta": {"content": "x"}}], "error": {}}, None),
        ({"error": ""}, None),
        ({"error": {"type": "server_error", "message": "boom"}}, "server_error: boom"),
        ({"error": {"code": 429}}, "429"),
        ({"error": "overloaded"}, "overloaded"),
        ({"type": "error", "error": None}, "an error without a message"),
        ({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
         "overloaded_error: Overloaded"),
    ],
)  # fmt: skip
def test_only_an_error_with_content_is_reported(value: dict[str, Any], said: str | None) -> None:
    assert reported_error(value) == said


def test_bytes_after_the_sse_end_event_are_never_judged(tmp_path: Path) -> None:
    # Whatever the reads: in the same read as "[DONE]" (a small file) or far after it.
    head = b'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\n'
    for tail in (b"\xff\n", b": " + b"x" * 70_000 + b"\n\xff\n"):
        path = tmp_path / "s.sse"
        path.write_bytes(head + tail)
        proc = subprocess.run(
            [sys.executable, "-m", "replykit", "stream", "--sse", str(path)],
            capture_output=True, timeout=60, check=False,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout.splitlines()[-1])["event"] == "done"


def test_the_text_before_a_bad_byte_is_streamed_then_the_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.md"
    path.write_bytes(b"Hello there\n\n\xff more\n")
    proc = subprocess.run(
        [sys.executable, "-m", "replykit", "stream", str(path)],
        capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.decode().endswith("is not UTF-8 (byte 13)\n")
    first = json.loads(proc.stdout.splitlines()[0])
    assert first["event"] == "commit" and first["committed"][0]["text"] == "Hello there\n\n"


def test_a_fifo_given_as_a_path_is_read_as_it_arrives(tmp_path: Path) -> None:
    # A pipe named on the command line streams like stdin: an update comes while the
    # producer still holds the pipe open (a regular file is read in chunks of 64).
    fifo = tmp_path / "reply.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "replykit", "stream", str(fifo)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        with open(fifo, "wb", buffering=0) as writer:
            writer.write(b"Intro\n\n<questionnaire>")
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, "no update while the pipe is open"
            assert proc.stdout is not None
            first = json.loads(proc.stdout.readline())
            assert first["event"] == "commit"
            assert first["committed"][0]["text"] == "Intro\n\n"
            writer.write(b'{"title":"T","questions":[]}</questionnaire>\n')
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    done = json.loads(out.splitlines()[-1])
    assert done["event"] == "done" and done["segments"][1]["kind"] == "questionnaire"
