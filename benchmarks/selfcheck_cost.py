"""What ``self_check`` adds to ``segment()`` on the same reply (docs/performance.md).

Usage: ``python benchmarks/selfcheck_cost.py [--repeats N]``

For the typical replies of ``benchmarks/run.py`` (1-4 KB of real prose and one valid
form), the same replies with the form broken (a failing Self-check, which writes the
repair instruction), and replies under 1 KB, prints the least CPU time
(``time.process_time``) over the rounds of ``segment(text)`` and of
``self_check({"role": "assistant", "content": text})`` over the whole set, and their
ratio (target: within 10%, at most 1.10). Rounds are interleaved so that a change of
load hits both alike. A script, not a test: nothing fails.

:func:`self_check_ratio` measures any list of replies, for a caller that prints the
figure in its own table.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if (ROOT / "src" / "replykit").is_dir():
    sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))


def _least(fns: list[Callable[[], object]], repeats: int) -> list[float]:
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, acc in zip(fns, times, strict=True):
            start = time.process_time()
            fn()
            acc.append(time.process_time() - start)
    return [min(acc) for acc in times]


def self_check_ratio(texts: list[str], repeats: int = 9) -> tuple[float, float, float]:
    """``(segment seconds, self_check seconds, self_check / segment)`` over ``texts``,
    each reply given to ``self_check`` as one assistant message."""
    from replykit.questionnaire.conversation.selfcheck import self_check
    from replykit.questionnaire.segmentation.segmenter import segment

    messages = [{"role": "assistant", "content": t} for t in texts]

    def run_segment() -> None:
        for text in texts:
            segment(text)

    def run_self_check() -> None:
        for message in messages:
            self_check(message)

    run_segment()
    run_self_check()
    seg, check = _least([run_segment, run_self_check], repeats)
    return seg, check, check / seg


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repeats", type=int, default=9, help="rounds per figure (least kept)")
    args = ap.parse_args()
    import run  # benchmarks/run.py: its reply sets
    from markdown_it import MarkdownIt

    docs = run.all_blocks(MarkdownIt("commonmark"))
    typical = run.messages(docs, run.KB, 4 * run.KB, None)
    broken = [t.replace("questions:", "questions: 1\nquestions:", 1) for t in typical]
    small = run.messages(docs, 200, run.KB, run.KB)
    print(f"{'replies':<34} {'n':>4} {'segment':>10} {'self_check':>11} {'ratio':>6}")
    for name, texts in (
        ("typical, 1-4 KB + form", typical),
        ("typical, form broken (fails)", broken),
        ("under 1 KB", small),
    ):
        seg, check, ratio = self_check_ratio(texts, args.repeats)
        print(f"{name:<34} {len(texts):4d} {seg * 1e3:8.1f}ms {check * 1e3:9.1f}ms {ratio:6.3f}")


if __name__ == "__main__":
    main()
