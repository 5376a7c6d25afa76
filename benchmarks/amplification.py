"""Output amplification and peak memory of every command on every hostile family (§1).

Usage: ``python benchmarks/amplification.py [--target BYTES] [--family NAME ...]
[--command NAME ...] [--src DIR]``

For every family of :mod:`replykit.testing.hostile` (the message families and the JSON families)
it grows the size parameter until the family's own input reaches ``--target`` UTF-8
bytes (default 512 KiB, never past 2 MiB), builds the input of every command with
:func:`replykit.testing.hostile.command_input` (``segment`` as JSON and as text, ``check``,
``respond``, ``tool``, ``actions --lint``), runs ``python -m replykit.cli`` on it in a
child process and reports the input bytes (the files read plus the message id), the
output bytes on standard output, their ratio, and the child's peak resident memory
(``ru_maxrss`` from ``os.wait4``). Targets (§1): output at most 16x the input plus 256
KiB (a family's ``exempt`` commands, whose output §1 itself keeps above it, are marked
``exempt``: docs/performance.md gives their arithmetic), peak memory at most 50x the
input plus 100 MiB. ``--src`` runs another replykit
source tree in the children (for example the main branch, for before/after figures);
the families always come from this tree.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
if (SRC / "replykit").is_dir():
    sys.path.insert(0, str(SRC))

from replykit.testing.hostile import (  # noqa: E402
    BY_NAME,
    COMMANDS,
    FAMILIES,
    JSON_BY_NAME,
    JSON_FAMILIES,
    CommandInput,
    Family,
    JsonFamily,
    command_input,
)

KIB = 1024
MIB = 1024 * KIB
OUTPUT_FACTOR, OUTPUT_SLACK = 16, 256 * KIB
MEMORY_FACTOR, MEMORY_SLACK = 50, 100 * MIB


def own_size(family: Family | JsonFamily, n: int) -> int:
    """UTF-8 bytes of the input the family is made for."""
    if isinstance(family, Family):
        return len(family.build(n).encode("utf-8"))
    return len(family.build(n).json.encode("utf-8"))


def grow(family: Family | JsonFamily, target: int) -> int:
    """The smallest ``n`` (doubling from ``family.n``) whose own input reaches
    ``target`` bytes, or the last one under 2 MiB."""
    n = family.n
    for _ in range(40):
        if own_size(family, n) >= target or own_size(family, n * 2) > 2 * MIB:
            break
        n *= 2
    return n


def run(inp: CommandInput, src: Path, timeout: float) -> dict[str, Any]:
    """Run one command in a child process; count its output and read its peak memory."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = list(inp.argv)
        for key, text in inp.files.items():
            path = Path(tmp) / f"{key}.txt"
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            argv = [a.replace("{" + key + "}", str(path)) for a in argv]
        env = {**os.environ, "PYTHONPATH": str(src)}
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "replykit.cli", *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        assert proc.stdout is not None and proc.stderr is not None
        out = 0
        timed_out = False
        while True:
            chunk = proc.stdout.read(1 << 20)
            if not chunk:
                break
            out += len(chunk)
            if time.perf_counter() - start > timeout:
                proc.kill()
                timed_out = True
                break
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    return {
        "out": out,
        "rss": usage.ru_maxrss * KIB,  # kilobytes on Linux
        "exit": "timeout" if timed_out else proc.returncode,
        "seconds": time.perf_counter() - start,
        "stderr": err.decode("utf-8", "replace").strip()[:100],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", type=int, default=512 * KIB, help="own input size, bytes")
    ap.add_argument("--family", action="append", help="only these families")
    ap.add_argument("--command", action="append", choices=sorted(COMMANDS), help="only these")
    ap.add_argument("--src", type=Path, default=SRC, help="replykit source tree to run")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per run")
    args = ap.parse_args(argv)
    every: list[Family | JsonFamily] = [*FAMILIES, *JSON_FAMILIES]
    names = {**BY_NAME, **JSON_BY_NAME}
    chosen = [names[n] for n in args.family] if args.family else every
    commands = args.command or list(COMMANDS)

    print(f"source: {args.src}")
    print(
        "family | command | input | output | output/input | output ok | peak memory | "
        "memory ok | exit | seconds"
    )
    worst: dict[str, tuple[float, str, int, int, int]] = {}
    misses: list[str] = []
    for family in chosen:
        n = grow(family, args.target)
        for command in commands:
            inp = command_input(command, family, n)
            res = run(inp, args.src, args.timeout)
            ratio = res["out"] / max(inp.size, 1)
            out_ok = res["out"] <= OUTPUT_FACTOR * inp.size + OUTPUT_SLACK
            exempt = command in family.exempt  # documented in docs/performance.md
            mem_ok = res["rss"] <= MEMORY_FACTOR * inp.size + MEMORY_SLACK
            cells = [
                family.name,
                command,
                f"{inp.size / KIB:.0f} KiB",
                f"{res['out'] / KIB:.0f} KiB",
                f"{ratio:.2f}",
                "ok" if out_ok else ("exempt" if exempt else "MISSED"),
                f"{res['rss'] / MIB:.0f} MiB",
                "ok" if mem_ok else "MISSED",
                str(res["exit"]),
                f"{res['seconds']:.1f}",
            ]
            print(" | ".join(cells), flush=True)
            if not ((out_ok or exempt) and mem_ok):
                misses.append(f"{family.name} {command}")
            best = worst.get(command)
            # Tiny inputs (a message family's fixed part) fall under the 256 KiB slack.
            if inp.size >= 64 * KIB and (best is None or ratio > best[0]):
                worst[command] = (ratio, family.name, inp.size, res["out"], res["rss"])
    print()
    print("command | worst family (input >= 64 KiB) | input | output | output/input | peak memory")
    for command, (ratio, name, size, out, rss) in worst.items():
        print(
            f"{command} | {name} | {size / KIB:.0f} KiB | {out / KIB:.0f} KiB | "
            f"{ratio:.2f} | {rss / MIB:.0f} MiB"
        )
    print()
    print("every run within both targets" if not misses else "missed: " + "; ".join(misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
