"""Standard input is named ``<stdin>`` in every error of every command that reads it."""

from __future__ import annotations

import subprocess
import sys

import pytest

CASES = [
    (["actions", "-"], b'"{}"',
     "replykit actions: error: answer <stdin> must be an answer object, not a string "
     "(JSON text inside a string? decode it once more)"),
    (["actions", "-"], b"{,",
     "replykit actions: error: answer <stdin> is not strict JSON at line 1, column 2: "),
    (["check", "-"], b"[1,",
     "replykit check: error: conversation <stdin> is not strict JSON at line 1, column 4: "),
    (["actions", "-"], b"\xff", "replykit actions: error: answer <stdin> is not UTF-8"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "data", "start"), CASES)
def test_stdin_is_named_alike(argv: list[str], data: bytes, start: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "replykit.cli", *argv], input=data, capture_output=True, check=False
    )
    assert run.returncode == 2
    err = run.stderr.decode("utf-8").strip()
    assert err.startswith(start)
    assert " - " not in err and "answer -" not in err
