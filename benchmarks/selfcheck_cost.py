"""What ``self_check`` adds to ``segment()`` on the same reply (docs/performance.md).

Usage: ``python benchmarks/selfcheck_cost.py [--repeats N] [--installed]``

For the typical replies of ``benchmarks/run.py`` (1-4 KB of real prose and one valid
form), the same replies with the form broken (a failing Self-check, which writes the
repair instruction), replies under 1 KB and the rich replies
(``benchmarks/rich_replies.py``), prints the least CPU time
(``time.process_time``) over the rounds of ``segment(text)`` and of
``self_check({"role": "assistant", "content": text})`` over the whole set, and their
ratio (target: within 10%, at most 1.10), and the median of the rounds' own ratios.
Rounds are interleaved so that a change of load hits both alike. ``--installed``
measures the replykit the interpreter imports (a compiled build) instead of ``src/``.
A script, not a test: nothing fails.

:func:`self_check_ratio` measures any list of replies, for a caller that prints the
figure in its own table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if "--installed" not in sys.argv and (ROOT / "src" / "replykit").is_dir():
    sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))


def _rounds(fns: list[Callable[[], object]], repeats: int) -> list[list[float]]:
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, acc in zip(fns, times, strict=True):
            start = time.process_time()
            fn()
            acc.append(time.process_time() - start)
    return times


def self_check_ratio(texts: list[str], repeats: int = 9) -> tuple[float, float, float]:
    """``(segment seconds, self_check seconds, self_check / segment)`` over ``texts``,
    each reply given to ``self_check`` as one assistant message: the least time of each
    over the rounds."""
    seg, check, _ = self_check_rounds(texts, repeats)
    return seg, check, check / seg


def self_check_rounds(texts: list[str], repeats: int = 9) -> tuple[float, float, float]:
    """:func:`self_check_ratio`'s least times, and the median of each round's ratio."""
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
    segs, checks = _rounds([run_segment, run_self_check], repeats)
    ratios = [c / s for s, c in zip(segs, checks, strict=True)]
    return min(segs), min(checks), statistics.median(ratios)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repeats", type=int, default=9, help="rounds per figure (least kept)")
    ap.add_argument("--installed", action="store_true", help="the installed replykit")
    args = ap.parse_args()
    import run  # benchmarks/run.py: its reply sets
    from markdown_it import MarkdownIt
    from rich_replies import replies

    import replykit

    docs = run.all_blocks(MarkdownIt("commonmark"))
    typical = run.messages(docs, run.KB, 4 * run.KB, None)
    broken = [t.replace("questions:", "questions: 1\nquestions:", 1) for t in typical]
    small = run.messages(docs, 200, run.KB, run.KB)
    rich = [r.text for r in replies()]
    print(f"replykit {replykit.build_info().label()}, load average {os.getloadavg()[0]:.1f}")
    head = f"{'replies':<34} {'n':>4} {'segment':>10} {'self_check':>11} {'ratio':>6} {'median':>6}"
    print(head)
    for name, texts in (
        ("typical, 1-4 KB + form", typical),
        ("typical, form broken (fails)", broken),
        ("under 1 KB", small),
        ("rich, 1-4 KB", rich),
    ):
        seg, check, median = self_check_rounds(texts, args.repeats)
        print(
            f"{name:<34} {len(texts):4d} {seg * 1e3:8.1f}ms {check * 1e3:9.1f}ms"
            f" {check / seg:6.3f} {median:6.3f}"
        )


if __name__ == "__main__":
    main()
