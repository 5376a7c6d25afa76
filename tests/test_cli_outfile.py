"""``audit --out``: a regular file is replaced whole; a device or a named pipe is written
directly and stays what it was; ``-`` is standard output; an empty name is refused
(docs/cli.md)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

RECORD = '{"role": "assistant", "content": "hi"}\n'


def _audit(*args: str) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "replykit", "audit", *args],
        capture_output=True,
        timeout=120,
        check=False,
    )


def test_a_named_pipe_is_written_through_not_replaced(tmp_path: Path) -> None:
    source = tmp_path / "r.jsonl"
    source.write_text(RECORD)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    proc = _audit(str(source), "--format", "json", "--out", str(fifo))
    reader.join(timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still the pipe
    assert json.loads(got[0])["records"] == 1


def test_a_device_is_written_through_not_replaced(tmp_path: Path) -> None:
    source = tmp_path / "r.jsonl"
    source.write_text(RECORD)
    proc = _audit(str(source), "--out", "/dev/null")
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert proc.stdout == b""


def test_dash_is_standard_output_and_an_empty_name_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "r.jsonl"
    source.write_text(RECORD)
    proc = _audit(str(source), "--format", "json", "--out", "-")
    assert proc.returncode == 0 and json.loads(proc.stdout)["records"] == 1
    assert not (Path.cwd() / "-").exists()
    proc = _audit(str(source), "--out", "")
    assert proc.returncode == 2
    assert proc.stderr.decode() == (
        "replykit audit: error: --out needs a file name (or - for standard output)\n"
    )


def test_a_regular_file_is_replaced_whole(tmp_path: Path) -> None:
    source = tmp_path / "r.jsonl"
    source.write_text(RECORD)
    out = tmp_path / "report.json"
    out.write_text("old")
    proc = _audit(str(source), "--format", "json", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["records"] == 1
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_an_output_directory_that_is_a_file_is_named_so(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    for args, head in (
        (["vectors", "export", str(afile)], f"replykit vectors: error: cannot write {afile}"),
        (["fuzz", "--impl", "cat", "--out", str(afile)], "replykit fuzz: error: cannot write"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "replykit", *args],
            capture_output=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 2
        line = proc.stderr.decode()
        assert line.startswith(head) and line.endswith(": Not a directory\n"), line
        assert afile.read_text() == "x"
