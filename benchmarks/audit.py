"""Speed and memory of ``replykit audit``: ``python benchmarks/audit.py [--records N]
[--large N]``

Input: the bundled example's replies (``examples/audit/replies.jsonl``, two models,
forms, faults and plain prose), repeated into JSON Lines files of ``--records``
(default 20 000) and ``--large`` (default 200 000) records, one reply each.

- replies per second on one core: the strict verdict (``--expect-field expect``, no
  ``--lenient``), audited in this process by the same code the command runs
  (decoding, auditing, tallying), best of 3;
- the speedup of ``--jobs 2`` over ``--jobs 1`` on ``--records`` records: wall time of
  the whole command (start-up included) in a child process;
- peak memory (maximum resident set size of the child, workers not included, with
  ``--jobs 1``) for ``--records`` and ``--large`` records; flat means the large run
  stays within 20% of the small one.

Figures go in docs/performance.md ("Audit").
"""

from __future__ import annotations

import argparse
import json
import resource
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


def run_child(path: Path, jobs: int) -> tuple[float, int]:
    """Wall seconds and the child's peak RSS in KiB for one ``replykit audit`` run."""
    code = (
        "import resource, sys; from replykit.cli import main; "
        f"main(['audit', {str(path)!r}, *sys.argv[1:]]); "
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)"
    )
    argv = [sys.executable, "-c", code, *OPTIONS, "--jobs", str(jobs), "--out", "/dev/null"]
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True, cwd=ROOT)
    return time.perf_counter() - start, int(done.stderr.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--large", type=int, default=200_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        small, large = Path(tmp) / "small.jsonl", Path(tmp) / "large.jsonl"
        write_input(small, args.records)
        write_input(large, args.large)
        rate = per_core(small, args.records)
        one, rss_small = run_child(small, 1)
        two, _ = run_child(small, 2)
        _, rss_large = run_child(large, 1)
    figures = {
        "replies_per_second_one_core": round(rate),
        "jobs1_seconds": round(one, 2),
        "jobs2_seconds": round(two, 2),
        "jobs2_speedup": round(one / two, 2),
        f"peak_rss_mib_{args.records}": round(rss_small / 1024, 1),
        f"peak_rss_mib_{args.large}": round(rss_large / 1024, 1),
        "peak_rss_growth": round(rss_large / rss_small - 1, 3),
        "cpu_children_seconds": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime, 1),
    }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
