"""What an adapter leaves behind is killed, and what it writes is bounded
(docs/fuzzing.md, "Adapter processes"): a child holding stdout after its parent exited
or at the end of the run never makes the fuzzer wait for it, and an answer line over
the read cap is an ``adapter.oversized`` failure."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from replykit.fuzz import fuzz
from replykit.fuzz.process import READ_CAP

from .helpers import python_adapter

#: Only guards against a hang (the fixed fuzzer needs a few seconds, today's main
#: waits for the 300 s sleeper); never a measurement.
OUTER_TIMEOUT = 150


def _gone(pid: int) -> bool:
    """Whether ``pid`` has exited (a zombie waiting for a parent counts as exited)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except FileNotFoundError:
        return True
    return stat[stat.rindex(b")") + 2 :].split()[0] in (b"Z", b"X")


def _all_gone(pids: list[int]) -> bool:
    """Whether every pid has exited; SIGKILL is asynchronous, so look up to 200 times."""
    for _ in range(200):
        if all(_gone(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def pidfile(tmp_path: Path) -> Iterator[Path]:
    """A file the adapter appends its children's pids to; they are killed afterwards
    in any case, so that a failing test leaves no sleeper behind."""
    path = tmp_path / "pids"
    yield path
    for line in path.read_text(encoding="ascii").split() if path.exists() else ():
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(line), signal.SIGKILL)


def _run(impl: str, out: Path, *extra: str) -> tuple[int, dict[str, object]]:
    argv = [sys.executable, "-c", "import sys; from replykit.cli import main; sys.exit(main())"]
    argv += ["fuzz", "--impl", impl, "--op", "sanitize_actions", "--no-explicit", "--seed", "4"]
    argv += ["--out", str(out), *extra]
    done = subprocess.run(argv, capture_output=True, timeout=OUTER_TIMEOUT, check=False)
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return done.returncode, report


def _pids(path: Path) -> list[int]:
    return [int(p) for p in path.read_text(encoding="ascii").split()]


def test_a_shell_that_leaves_a_sleeper_holding_stdout(tmp_path: Path, pidfile: Path) -> None:
    impl = f"sh -c 'sleep 300 & echo $! >> {pidfile}; exit 0'"
    status, report = _run(impl, tmp_path / "r", "--examples", "3", "--timeout", "1")
    assert status == 1
    assert [(c["rule"], c["count"]) for c in report["classes"]] == [  # type: ignore[index, union-attr]
        ("adapter.crash", 3)
    ]
    assert report["examples_run"] == 3 and report["adapter_starts"] == 3
    pids = _pids(pidfile)
    assert len(pids) == 3 and _all_gone(pids)


def test_a_child_left_by_an_adapter_that_exits(tmp_path: Path, pidfile: Path) -> None:
    impl = " ".join(python_adapter("broken_adapter.py", "forkexit", str(pidfile)))
    status, report = _run(impl, tmp_path / "r", "--examples", "5", "--timeout", "5")
    assert status == 1
    classes = report["classes"]
    assert [(c["rule"], c["count"]) for c in classes] == [("adapter.crash", 1)]  # type: ignore[index, union-attr]
    assert "exited before answering (exit status 0)" in classes[0]["detail"]  # type: ignore[index]
    assert report["examples_run"] == 5 and report["adapter_starts"] == 2
    pids = _pids(pidfile)
    assert len(pids) == 1 and _all_gone(pids)


def test_a_child_holding_stdout_at_the_end_of_the_run(tmp_path: Path, pidfile: Path) -> None:
    impl = " ".join(python_adapter("broken_adapter.py", "fork", str(pidfile)))
    status, report = _run(impl, tmp_path / "r", "--examples", "4", "--timeout", "5")
    assert status == 0
    assert report["classes"] == [] and report["examples_run"] == 4
    pids = _pids(pidfile)
    assert len(pids) == 1 and _all_gone(pids)


@pytest.mark.parametrize("mode", ["huge", "longline"])
def test_an_answer_over_the_read_cap_is_oversized(mode: str) -> None:
    report = fuzz(
        python_adapter("broken_adapter.py", mode),
        ops=("sanitize_actions",),
        examples=5,
        explicit=False,
        seed=4,
        timeout=30,
    )
    assert [(c.rule, c.count) for c in report.classes] == [("adapter.oversized", 1)]
    assert report.classes[0].detail == f"an answer line longer than {READ_CAP} bytes"
    assert READ_CAP == 8 * 1024 * 1024
    assert report.examples_run == 5 and report.adapter_starts == 2


def test_a_stderr_flood_keeps_only_its_tail() -> None:
    """1 MB on stderr before a crash: the detail ends with the last line written and
    holds at most 400 characters of it (the fuzzer keeps the last 2000 bytes)."""
    report = fuzz(
        python_adapter("broken_adapter.py", "stderrcrash"),
        ops=("sanitize_actions",),
        examples=4,
        explicit=False,
        seed=4,
        timeout=30,
    )
    assert [(c.rule, c.count) for c in report.classes] == [("adapter.crash", 1)]
    detail = report.classes[0].detail
    assert detail.endswith("boom-marker")
    assert "(exit status 3); stderr: " in detail
    assert detail.count("x") <= 400
