"""A closed standard output (``replykit ... | head``) ends a command quietly (exit 141)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
