"""Hostile inputs: is ``segment()`` linear, and how does it compare with markdown-it-py?

Usage: ``python benchmarks/pathological.py [--quick] [--family NAME ...] [--clock cpu|wall]``

The JSON families of :mod:`replykit.testing.hostile` (tool arguments, actions answers, answers
for ``respond``, conversations for ``check``) are timed the same way on the library call
behind their command (:func:`replykit.testing.hostile.run_case`), with the linearity target only
(markdown-it-py reads no JSON).

For every family of :mod:`replykit.testing.hostile` it builds the message at ``n``
and ``10 * n``, and prints the median time of
``replykit.questionnaire.segmentation.segmenter.segment`` at both
sizes and their ratio (target <= 12: linear), markdown-it-py's time
(``MarkdownIt("commonmark").parse``) on the same 10n input and replykit's ratio to it
(target <= 3; the block-nesting families are exempt), and the outcome: whether the
valid form at the end was found valid, and the diagnostics by code.

Times are medians of several runs, by default in CPU time of the measuring process
(``--clock wall`` for ``time.perf_counter``). Each measurement runs in a child process
with a timeout, so a super-linear family or a crash (``RecursionError``, a dead
interpreter) is reported instead of hanging the run.
``--quick`` runs each family at ``n / 10`` and ``n`` with one repeat.
"""

from __future__ import annotations

import argparse
import collections
import gc
import multiprocessing as mp
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
if (SRC / "replykit").is_dir():
    sys.path.insert(0, str(SRC))
sys.path.insert(0, str(HERE))

from replykit.testing.hostile import (  # noqa: E402
    BY_NAME,
    FAMILIES,
    JSON_BY_NAME,
    JSON_FAMILIES,
    Family,
    JsonFamily,
    run_case,
)

#: ``cpu`` (the default) is the measuring process's CPU time, which other load on a
#: shared machine does not inflate; ``wall`` is ``time.perf_counter``.
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
LINEAR_TARGET = 12.0
MARKDOWN_IT_TARGET = 3.0


def _median(fn: Any, text: Any, repeats: int, budget: float, clock: Any) -> float:
    times: list[float] = []
    while True:
        gc.collect()
        t0 = clock()
        fn(text)
        times.append(clock() - t0)
        if len(times) >= repeats or sum(times) > budget:
            return statistics.median(times)


def _measure(name: str, n: int, repeats: int, clock_name: str, conn: Any) -> None:
    """Child process: build the input, time both parsers, report the outcome."""
    out: dict[str, Any] = {"n": n}
    clock = CLOCKS[clock_name]
    try:
        from markdown_it import MarkdownIt

        from replykit.questionnaire.segmentation.segmenter import segment

        text = BY_NAME[name].build(n)
        out["bytes"] = len(text.encode("utf-8"))
        result = segment(text)
        assert "".join(s.text for s in result.segments) == text
        blocks = [s for s in result.segments if s.kind != "markdown"]
        out["last_valid"] = bool(blocks) and blocks[-1].valid
        out["blocks"] = len(blocks)
        codes = collections.Counter(d.code for d in result.diagnostics)
        out["codes"] = dict(codes.most_common(4))
        out["replykit"] = _median(segment, text, repeats, budget=5.0, clock=clock)
        md = MarkdownIt("commonmark")
        out["markdown_it"] = _median(md.parse, text, repeats, budget=5.0, clock=clock)
    except BaseException as exc:  # report every crash, RecursionError included
        out["error"] = f"{type(exc).__name__}: {str(exc)[:120]}"
    conn.send(out)
    conn.close()


def _measure_json(name: str, n: int, repeats: int, clock_name: str, conn: Any) -> None:
    """Child process: build a JSON family's case and time the call behind its command."""
    out: dict[str, Any] = {"n": n}
    try:
        family = JSON_BY_NAME[name]
        case = family.build(n)
        out["bytes"] = len((case.json + case.message).encode("utf-8"))
        out["replykit"] = _median(
            lambda c: run_case(family, c), case, repeats, budget=5.0, clock=CLOCKS[clock_name]
        )
        out["last_valid"] = True
    except BaseException as exc:  # report every crash
        out["error"] = f"{type(exc).__name__}: {str(exc)[:120]}"
    conn.send(out)
    conn.close()


def measure(name: str, n: int, repeats: int, clock: str, timeout: float) -> dict[str, Any]:
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    target = _measure_json if name in JSON_BY_NAME else _measure
    proc = ctx.Process(target=target, args=(name, n, repeats, clock, child))
    proc.start()
    child.close()
    if parent.poll(timeout):
        out: dict[str, Any] = parent.recv()
    else:
        out = {"n": n, "error": f"timeout after {timeout:g} s"}
        proc.kill()
    proc.join()
    if proc.exitcode not in (0, None) and "error" not in out:
        out["error"] = f"child exited with code {proc.exitcode}"
    return out


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x * 1000:.1f}"


def report(fam: Family | JsonFamily, small: dict[str, Any], big: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    t1, t10 = small.get("replykit"), big.get("replykit")
    growth = t10 / t1 if t1 and t10 else None
    md10 = big.get("markdown_it")
    vs_md = t10 / md10 if t10 and md10 else None
    if growth is not None and growth > LINEAR_TARGET:
        problems.append(f"super-linear: x{growth:.1f} from n={small['n']} to {big['n']}")
    deep = isinstance(fam, JsonFamily) or fam.deep
    if vs_md is not None and vs_md > MARKDOWN_IT_TARGET and not deep:
        problems.append(f"{vs_md:.1f}x markdown-it-py at 10n")
    for res in (small, big):
        if "error" in res:
            problems.append(f"n={res['n']}: {res['error']}")
        elif not res.get("last_valid"):
            problems.append(f"n={res['n']}: the final form is not valid")
    if isinstance(fam, JsonFamily):
        md_col = "n/a (JSON)"
    elif fam.deep:
        md_col = "exempt"
    elif vs_md is None:
        md_col = "-"
    else:
        md_col = f"{vs_md:.2f} {'ok' if vs_md <= MARKDOWN_IT_TARGET else 'MISSED'}"
    lin_col = (
        "-" if growth is None else (f"{growth:.1f} {'ok' if growth <= LINEAR_TARGET else 'MISSED'}")
    )
    codes = ", ".join(f"{c}x{k}" for c, k in big.get("codes", {}).items()) or "none"
    cells = [
        fam.name,
        f"{small['n']}/{big['n']}",
        f"{big.get('bytes', 0) / 1024:.0f} KB",
        _ms(t1),
        _ms(t10),
        lin_col,
        _ms(md10),
        md_col,
        "yes" if big.get("last_valid") else "NO",
        codes,
    ]
    print(" | ".join(cells), flush=True)
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="sizes n/10 and n, one repeat")
    names = sorted({*BY_NAME, *JSON_BY_NAME})
    ap.add_argument("--family", action="append", choices=names, help="only these")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per measurement")
    args = ap.parse_args(argv)
    repeats = 1 if args.quick else args.repeats
    every: dict[str, Family | JsonFamily] = {**BY_NAME, **JSON_BY_NAME}
    chosen = [every[n] for n in args.family] if args.family else [*FAMILIES, *JSON_FAMILIES]

    print(f"clock: {args.clock}, repeats: {repeats}, timeout: {args.timeout:g} s")
    print(
        "family | n/10n | bytes at 10n | replykit n (ms) | replykit 10n (ms) | "
        f"10n/n (<= {LINEAR_TARGET:g}) | markdown-it 10n (ms) | "
        f"replykit/markdown-it (<= {MARKDOWN_IT_TARGET:g}) | final form valid | "
        "diagnostics at 10n"
    )
    problems: dict[str, list[str]] = {}
    for fam in chosen:
        n = max(1, fam.n // 10) if args.quick else fam.n
        small = measure(fam.name, n, repeats, args.clock, args.timeout)
        big = measure(fam.name, 10 * n, repeats, args.clock, args.timeout)
        found = report(fam, small, big)
        if found:
            problems[fam.name] = found
    print()
    if not problems:
        print("every family: linear, within target, final form valid")
    for name, found in problems.items():
        print(f"{name}: " + "; ".join(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
