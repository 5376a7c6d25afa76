"""A closed standard output (``replykit ... | head``) ends a command quietly (exit 141)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mixed.md"


def test_a_closed_pipe_ends_quietly_with_141() -> None:
    # Standard output is a pipe whose reader is already gone: every write fails.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "replykit.cli", "segment", str(EXAMPLE)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)
    assert proc.returncode == 141
    assert proc.stderr == b""


def _run(*args: str, close: int | None = None, stdout: int | str | None = None) -> Any:
    """Run ``replykit ARGS`` with descriptor ``close`` closed in the child, or standard
    output going to the file ``stdout``."""
    target = open(stdout, "wb") if isinstance(stdout, str) else subprocess.PIPE  # noqa: SIM115
    try:
        return subprocess.run(
            [sys.executable, "-m", "replykit", *args],
            stdout=target,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
            pass_fds=(),
            preexec_fn=(lambda: os.close(close)) if close is not None else None,
        )
    finally:
        if isinstance(stdout, str):
            target.close()


@pytest.mark.parametrize("command", [["segment", "-"], ["stream", "-"], ["check", "-"]])
def test_a_closed_standard_input_is_an_unreadable_input(command: list[str]) -> None:
    proc = _run(*command, close=0)
    assert proc.returncode == 2
    (line,) = proc.stderr.decode().splitlines()
    assert line.startswith(f"replykit {command[0]}: error: cannot read ")
    assert line.endswith(" <stdin>: standard input is closed")


def test_a_closed_standard_output_is_an_error_not_a_traceback() -> None:
    proc = _run("segment", str(EXAMPLE), close=1)
    assert proc.returncode == 2
    expected = "replykit segment: error: cannot write the output: standard output is closed\n"
    assert proc.stderr.decode() == expected


@pytest.mark.parametrize("command", ["segment", "stream", "audit"])
def test_a_failed_write_is_exit_2_not_a_failed_check(command: str) -> None:
    proc = _run(command, str(EXAMPLE), stdout="/dev/full")  # a full disk (Linux)
    assert proc.returncode == 2
    expected = f"replykit {command}: error: cannot write the output: No space left on device\n"
    assert proc.stderr.decode() == expected


def test_a_closed_standard_error_prints_nothing_on_standard_output() -> None:
    proc = _run("segment", "no-such-file.md", close=2)
    assert proc.returncode == 2 and proc.stdout == b""


def test_a_read_that_fails_after_the_file_opened_is_an_input_error() -> None:
    proc = _run("stream", "/proc/self/mem")  # opens, then every read fails (Linux)
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith("replykit stream: error: cannot read message ")


def test_audit_reads_a_closed_standard_input_as_one_input_error() -> None:
    # docs/evals.md: no file-system condition stops the audit; it is one input error.
    proc = _run("audit", "-", "--format", "json", close=0)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["input_errors"]["count"] == 1
    (first,) = report["input_errors"]["first"]
    assert first["where"] == "<stdin>"
    assert first["message"] == "cannot read: standard input is closed"


def test_audit_with_standard_output_closed_is_exit_2() -> None:
    proc = _run("audit", str(EXAMPLE), close=1)
    assert proc.returncode == 2
    expected = "replykit audit: error: cannot write the output: standard output is closed\n"
    assert proc.stderr.decode() == expected


def test_audit_progress_with_standard_error_closed_stays_off_standard_output() -> None:
    proc = _run("audit", str(EXAMPLE), "--progress", "always", "--format", "json", close=2)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["records"] == 1  # the report alone, no progress line


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["segment", "--help"]])
def test_help_and_version_that_cannot_be_written_are_exit_2(args: list[str]) -> None:
    for proc in (_run(*args, stdout="/dev/full"), _run(*args, close=1)):
        assert proc.returncode == 2
        (line,) = proc.stderr.decode().splitlines()
        assert line.startswith("replykit: error: cannot write the output: ")


def test_main_returns_the_status_of_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    from replykit.cli import main

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("replykit ")
    assert main(["segment", "--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: replykit segment")
