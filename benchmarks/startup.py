"""Start-up cost of the ``replykit`` command: ``python benchmarks/startup.py [--runs N]
[--src DIR] [--importtime]``

Runs, interleaved, ``N`` times each (default 30) in fresh child processes:

- ``python -c pass`` (the interpreter alone);
- ``python -c "import replykit.questionnaire.segmentation.segmenter"`` (the interpreter
  and the parser);
- ``python -m replykit.cli segment FILE`` and ``... segment --format text FILE`` on a
  message of about 2 KB (``examples/mixed.md`` and plain paragraphs).

It prints the minimum and median wall time of each, the median CPU time (user and
system) and the ratio of ``segment`` to the sum of the first two (target: at most 2,
docs/performance.md "Start-up"). With ``--importtime`` it also prints the modules that
``replykit segment`` imports, largest cumulative import time first (``python -X
importtime``). ``--src`` runs another replykit source tree in the children (for example
the main branch, for before/after figures).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TARGET = 2.0


def message(size: int = 2048) -> str:
    """``examples/mixed.md`` followed by plain paragraphs up to ``size`` UTF-8 bytes."""
    text = (ROOT / "examples" / "mixed.md").read_text(encoding="utf-8")
    filler = "\nA plain paragraph after the form, to bring the message to its size.\n"
    while len(text.encode("utf-8")) < size:
        text += filler
    return text


def measure(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """``(wall seconds, CPU seconds)`` of one run of ``argv`` in a child process; CPU
    time (user and system, from ``RUSAGE_CHILDREN``) is what other load on a shared
    machine inflates least."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True, timeout=120)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def import_times(argv: list[str], env: dict[str, str]) -> list[tuple[int, str]]:
    """``(cumulative microseconds, module)`` of every import of ``argv``, slowest first;
    a module's name keeps the indentation ``-X importtime`` gives it (one space at the
    top level, two more per level of nesting)."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", *argv[1:]],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
        timeout=120,
    )
    rows: list[tuple[int, str]] = []
    for line in proc.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    return sorted(rows, reverse=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--runs", type=int, default=30, help="runs of each command (default 30)")
    ap.add_argument("--src", type=Path, default=None, help="replykit source tree to run")
    ap.add_argument("--importtime", action="store_true", help="list the slowest imports")
    args = ap.parse_args(argv)
    env = dict(os.environ)
    if args.src is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(args.src), env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "message.md"
        path.write_text(message(), encoding="utf-8")
        py = sys.executable
        commands = {
            "python -c pass": [py, "-c", "pass"],
            "import replykit.questionnaire.segmentation.segmenter": [
                py,
                "-c",
                "import replykit.questionnaire.segmentation.segmenter",
            ],
            "replykit segment": [py, "-m", "replykit.cli", "segment", str(path)],
            "replykit segment --format text": [
                *(py, "-m", "replykit.cli", "segment", "--format", "text", str(path))
            ],
        }
        for command in commands.values():  # warm the bytecode caches
            measure(command, env)
        walls: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                elapsed, cpu = measure(command, env)
                walls[name].append(elapsed)
                cpus[name].append(cpu)
        print(f"source: {args.src or 'installed replykit'}; message: {path.stat().st_size} B")
        print("command | wall min ms | wall median ms | CPU median ms")
        for name in commands:
            w, c = walls[name], cpus[name]
            print(
                f"{name} | {min(w) * 1e3:.1f} | {statistics.median(w) * 1e3:.1f} | "
                f"{statistics.median(c) * 1e3:.1f}"
            )
        for label, times, pick in (
            ("wall min", walls, min),
            ("wall median", walls, statistics.median),
            ("CPU median", cpus, statistics.median),
        ):
            base = pick(times["python -c pass"]) + pick(
                times["import replykit.questionnaire.segmentation.segmenter"]
            )
            ratio = pick(times["replykit segment"]) / base
            verdict = "ok" if ratio <= TARGET else "OVER"
            print(f"segment / (pass + import segmenter), {label}: {ratio:.2f} {verdict}")
        if args.importtime:
            rows = import_times(commands["replykit segment"], env)
            top_level = [(m, name) for m, name in rows if not name.startswith("  ")]
            total = sum(m for m, _ in top_level)
            print(f"imports of replykit segment: {len(rows)} modules, {total / 1e3:.1f} ms")
            print("cumulative ms | module")
            for micros, module in rows[:25]:
                print(f"{micros / 1e3:.1f} | {module}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
