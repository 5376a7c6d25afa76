"""Streaming a long reply with forms: ``StreamSegmenter`` against the alternatives (§10).

Usage: ``python benchmarks/stream.py [--size CHARS] [--chunks 1,16,256] [--samples N]
[--clock cpu|wall]``

Builds one reply of about ``--size`` code points (default 40 000: prose, lists, code,
a fenced YAML form and an XML+JSON form every few KB) and, for each chunk size, times:

- ``stream``: pushing every chunk to a :class:`~replykit.StreamSegmenter` and
  ``finish()`` (checked equal to ``segment()``), with the readings it ran and the
  characters its scanner examined against one ``segment()``'s (the work bound of
  §10: at most 3x plus a constant per chunk); its ``x one`` is the median, over seven
  rounds, of its time over one ``segment()`` timed just before it in the same round;
- ``re-segment``: ``segment()`` of the prefix after every chunk (what a client without
  a streaming reader does);
- ``markdown-it``: markdown-it-py's ``parse()`` of the prefix after every chunk (what
  streaming Markdown renderers commonly do).

The two prefix methods are timed on ``--samples`` prefixes spread evenly over the
chunks (every chunk when there are fewer) and scaled to all chunks: the mean time per
prefix times the chunk count. Everything is relative to one ``segment()`` of the whole
reply (the median of several runs). docs/performance.md ("Streaming") has the figures.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
if (SRC / "replykit").is_dir():
    sys.path.insert(0, str(SRC))

from markdown_it import MarkdownIt  # noqa: E402

from replykit import StreamSegmenter, segment  # noqa: E402
from replykit.questionnaire.compat import resolve  # noqa: E402
from replykit.questionnaire.limits import DEFAULT_LIMITS  # noqa: E402
from replykit.questionnaire.profiles import CLIENT  # noqa: E402
from replykit.questionnaire.segmentation.segmenter import segment_counted  # noqa: E402

CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}

_FENCED = """Here is what I need before I go on:

```questionnaire
title: Deployment {n}
questions:
  - type: single_choice
    text: Which region should go first?
    options:
      - eu-west
      - us-east
    default: eu-west
  - type: free_text
    text: Anything to skip?
    default: ""
```

"""
_XML = (
    '<questionnaire>{{"title":"Check {n}","questions":[{{"id":"ok","type":"single_choice",'
    '"text":"Proceed?","options":["yes","no"],"default":"yes"}}]}}</questionnaire>\n\n'
)
_PROSE = """## Step {n}

The rollout of `api-gateway` paused at 60% because the health check on the `eu-west`
pool timed out twice; the other pools are healthy. I compared the last **three** runs
and the latency numbers below, and nothing else changed between them.

- pool `eu-west`: p99 840 ms (was 310 ms)
- pool `us-east`: p99 290 ms
- pool `ap-south`: p99 305 ms

```bash
kubectl rollout status deploy/api-gateway -n prod --timeout=120s
```

> The runbook says to pause on two consecutive failures, which is what happened.

"""


def reply(size: int) -> str:
    """About ``size`` code points of reply, a form every other section."""
    parts: list[str] = ["I looked into the deployment.\n\n"]
    n = 0
    while sum(map(len, parts)) < size:
        n += 1
        parts.append(_PROSE.format(n=n))
        if n % 4 == 1:
            parts.append(_FENCED.format(n=n))
        elif n % 4 == 3:
            parts.append("Then confirm this one: " + _XML.format(n=n))
    return "".join(parts)


def _median(fn: Callable[[], Any], clock: Callable[[], float], repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        gc.collect()
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times)


def _paired(
    one: Callable[[], Any], other: Callable[[], Any], clock: Any, rounds: int = 7
) -> tuple[float, float, float]:
    """``one`` and ``other`` timed in alternation, ``rounds`` times each: the median time
    of each and the median of their ratios round by round (the machine's speed drifts
    over minutes; a ratio of times taken moments apart does not drift with it)."""
    times: list[tuple[float, float]] = []
    for _ in range(rounds):
        pair = []
        for fn in (one, other):
            gc.collect()
            t0 = clock()
            fn()
            pair.append(clock() - t0)
        times.append((pair[0], pair[1]))
    return (
        statistics.median(a for a, _ in times),
        statistics.median(b for _, b in times),
        statistics.median(b / a for a, b in times),
    )


def _stream(chunks: list[str]) -> StreamSegmenter:
    seg = StreamSegmenter()
    for chunk in chunks:
        seg.push(chunk)
    seg.finish()
    return seg


def _prefixes(text: str, size: int, samples: int) -> tuple[list[int], int]:
    ends = [*range(size, len(text), size), len(text)]
    step = max(1, len(ends) // samples)
    return ends[::step], len(ends)


def _per_prefix(fn: Callable[[str], Any], text: str, ends: list[int], clock: Any) -> float:
    gc.collect()
    t0 = clock()
    for end in ends:
        fn(text[:end])
    return (clock() - t0) / len(ends)


def run(size: int, chunk_sizes: list[int], samples: int, clock_name: str) -> None:
    clock = CLOCKS[clock_name]
    text = reply(size)
    expected, one_scanned = segment_counted(text, "message", CLIENT, resolve(None), DEFAULT_LIMITS)
    one = _median(lambda: segment(text), clock)
    blocks = sum(s.kind != "markdown" for s in expected.segments)
    md = MarkdownIt()
    print(f"reply: {len(text)} code points, {blocks} forms; one segment(): {one * 1e3:.2f} ms "
          f"({one_scanned} characters scanned); clock: {clock_name}")  # fmt: skip
    print(f"{'chunk':>6} {'chunks':>7} {'readings':>8} {'stream ms':>10} {'x one':>7} "
          f"{'scanned x':>9} {'re-segment s':>13} {'x one':>8} {'markdown-it s':>14} "
          f"{'x one':>8}")  # fmt: skip
    for n in chunk_sizes:
        chunks = [text[i : i + n] for i in range(0, len(text), n)]
        seg = _stream(chunks)
        assert seg.finish() == expected
        _, streamed, ratio = _paired(lambda: segment(text), lambda c=chunks: _stream(c), clock)
        ends, count = _prefixes(text, n, samples)
        resegment = _per_prefix(segment, text, ends, clock) * count
        markdown = _per_prefix(md.parse, text, ends, clock) * count
        print(f"{n:>6} {len(chunks):>7} {seg.readings:>8} {streamed * 1e3:>10.1f} "
              f"{ratio:>7.2f} {seg.scanned / one_scanned:>9.2f} {resegment:>13.2f} "
              f"{resegment / one:>8.0f} {markdown:>14.2f} {markdown / one:>8.0f}")  # fmt: skip


def main() -> None:
    """Parse the options and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=40_000, help="reply size in code points")
    parser.add_argument("--chunks", default="1,16,256", help="chunk sizes, comma-separated")
    parser.add_argument("--samples", type=int, default=200, help="prefixes timed per method")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu")
    args = parser.parse_args()
    sizes = [int(s) for s in args.chunks.split(",")]
    run(args.size, sizes, args.samples, args.clock)


if __name__ == "__main__":
    main()
