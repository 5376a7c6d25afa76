"""Speed and memory of ``replykit audit``: ``python benchmarks/audit.py [--records N]
[--large N] [--repeat N]``

Input: the bundled example's replies (``examples/audit/replies.jsonl``, two models,
forms, faults and plain prose), repeated into JSON Lines files of ``--records``
(default 20 000) and ``--large`` (default 200 000) records, one reply each.

- replies per second on one core: the strict verdict (``--expect-field expect``, no
  ``--lenient``), audited in this process by the same code the command runs
  (decoding, auditing, tallying), best of 3;
- the speedup of ``--jobs 2`` over ``--jobs 1`` on ``--records`` records: wall time of
  the whole command (start-up included) in a child process, ``--repeat`` pairs run one
  after the other (each pair's ratio, and their median);
- the main process's share in a ``--jobs 2`` run, which the machine's load does not
  change: its CPU seconds after start-up (reading, sending batches, merging partial
  tallies) over the workers' CPU seconds; the speedup on two idle cores is at most
  about ``2 / (1 + share)``, less the start-up both runs share;
- the load average (1 minute) before and after, to read the timings by;
- peak memory (maximum resident set size of the child, workers not included, with
  ``--jobs 1``) for ``--records`` and ``--large`` records; flat means the large run
  stays within 20% of the small one.

Figures go in docs/performance.md ("Audit").
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATASET = ROOT / "examples" / "audit" / "replies.jsonl"
OPTIONS = ["--group-by", "model", "--expect-field", "expect", "--format", "json"]


def write_input(path: Path, records: int) -> None:
    lines = [line for line in DATASET.read_text("utf-8").splitlines() if line.endswith("}")]
    with path.open("w", encoding="utf-8") as out:
        for i in range(records):
            out.write(lines[i % len(lines)] + "\n")


def per_core(path: Path, records: int) -> float:
    from replykit.evals.runner import audit_batches
    from replykit.evals.sources import read_items
    from replykit.evals.tally import Tally

    options = {"group_by": "model", "expect_field": "expect"}
    best = float("inf")
    replies = 0
    for _ in range(3):
        start = time.perf_counter()
        tally = Tally()
        for batch in audit_batches(read_items([str(path)]), options, jobs=1):
            tally.merge(batch.tally)
        best = min(best, time.perf_counter() - start)
        replies = tally.summary()["messages"]
    assert replies == records
    return replies / best


#: The child: runs the command, then prints its peak RSS (KiB), CPU seconds at start-up
#: and at the end, and its workers' CPU seconds.
CHILD = """
import resource, sys, time
from replykit.cli import main
started = time.process_time()
main(["audit", *sys.argv[1:]])
workers = resource.getrusage(resource.RUSAGE_CHILDREN)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, started, time.process_time(),
      workers.ru_utime + workers.ru_stime, file=sys.stderr)
"""


def run_child(path: Path, jobs: int) -> dict[str, float]:
    """Wall seconds, peak RSS in KiB, main CPU seconds after start-up and the workers'
    CPU seconds of one ``replykit audit`` run in a child process."""
    argv = [sys.executable, "-c", CHILD, str(path), *OPTIONS, "--jobs", str(jobs)]
    start = time.perf_counter()
    done = subprocess.run([*argv, "--out", "/dev/null"], capture_output=True, text=True,
                          check=True, cwd=ROOT)  # fmt: skip
    wall = time.perf_counter() - start
    rss, started, ended, workers = map(float, done.stderr.split()[-4:])
    return {"wall": wall, "rss": rss, "main_cpu": ended - started, "workers_cpu": workers}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--large", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=1, help="--jobs 1/--jobs 2 pairs")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        small, large = Path(tmp) / "small.jsonl", Path(tmp) / "large.jsonl"
        write_input(small, args.records)
        write_input(large, args.large)
        rate = per_core(small, args.records)
        pairs = [(run_child(small, 1), run_child(small, 2)) for _ in range(args.repeat)]
        rss_large = run_child(large, 1)["rss"]
    one = pairs[0][0]
    speedups = [a["wall"] / b["wall"] for a, b in pairs]
    shares = [b["main_cpu"] / b["workers_cpu"] for _, b in pairs]
    figures = {
        "load_average_before": round(load_before, 2),
        "replies_per_second_one_core": round(rate),
        "jobs1_seconds": [round(a["wall"], 2) for a, _ in pairs],
        "jobs2_seconds": [round(b["wall"], 2) for _, b in pairs],
        "jobs2_speedups": [round(x, 2) for x in speedups],
        "jobs2_speedup_median": round(statistics.median(speedups), 2),
        "jobs2_main_cpu_share": [round(x, 4) for x in shares],
        "jobs2_speedup_bound": round(2 / (1 + statistics.median(shares)), 2),
        f"peak_rss_mib_{args.records}": round(one["rss"] / 1024, 1),
        f"peak_rss_mib_{args.large}": round(rss_large / 1024, 1),
        "peak_rss_growth": round(rss_large / one["rss"] - 1, 3),
        "cpu_children_seconds": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime, 1),
        "load_average_after": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
