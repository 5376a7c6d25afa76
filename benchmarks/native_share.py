"""Where a build of replykit spends its time below Python: Linux ``perf`` samples of
``segment()`` or ``self_check()`` over a message set, split by what the CPU was running
(docs/performance.md, "Compiled build").

Usage: ``python benchmarks/native_share.py [--set rich|typical|small] [--call
segment|self_check] [--seconds S] [--installed]``

cProfile sees only Python frames, so it cannot say what a compiled (mypyc) build does
inside its extension modules. This script runs the calls in a child process under
``perf record --call-graph dwarf`` (the set-up and one warm-up pass are not sampled)
and classifies every sample twice:

* by its innermost frame: the regular-expression engine (``sre_*``), libyaml and
  PyYAML's C extension, the code mypyc compiled (replykit's ``*__mypyc*`` library),
  the interpreter's loop (``_PyEval_EvalFrameDefault``: pure-Python code running),
  allocation and garbage collection, or the rest of the C runtime (str, dict, list
  operations, calls, attribute look-ups);
* by whom it works for: the nearest frame that is either compiled code or the
  interpreter's loop. "On behalf of interpreted code" is the share compiling more of
  replykit (or of its dependencies) could still change; with it, the compiled
  functions that call into interpreted code the most (``--top``).

Needs ``perf`` (linux-tools) with permission to record the child. A script, not a
test: it prints shares and exits 0 (1 when ``perf`` is missing or fails).
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The child: builds the set as run.py does, warms up, then loops until the time is up.
CHILD = r"""
import sys, time
sys.path.insert(0, {here!r})
if not {installed!r}:
    sys.path.insert(0, {src!r})
else:
    sys.argv.append("--installed")
import run as R
from markdown_it import MarkdownIt
from rich_replies import replies
from replykit import self_check
from replykit.questionnaire.segmentation.segmenter import segment
md = MarkdownIt("commonmark")
if {set_!r} == "rich":
    texts = [r.text for r in replies()]
elif {set_!r} == "typical":
    texts = R.messages(R.all_blocks(md), 1 * R.KB, 4 * R.KB, None)
else:
    texts = R.messages(R.all_blocks(md), 200, 1 * R.KB, 1 * R.KB)
if {call!r} == "self_check":
    fn, items = self_check, [[{{"role": "assistant", "content": t}}] for t in texts]
else:
    fn, items = segment, texts
for x in items:
    fn(x)
sys.stdout.write("ready\n")
sys.stdout.flush()
end = time.process_time() + {seconds!r}
while time.process_time() < end:
    for x in items:
        fn(x)
"""

Frame = tuple[str, str]  # symbol, library


def _frames(block: str) -> list[Frame]:
    """One sample of ``perf script -F ip,sym,dso``: its frames, innermost first."""
    out = []
    for line in block.strip().splitlines():
        parts = line.strip().split(None, 1)
        if len(parts) < 2:
            continue
        rest = parts[1]
        cut = rest.rfind(" (")
        sym, dso = (rest[:cut], rest[cut + 2 : -1]) if cut >= 0 else (rest, "")
        out.append((sym, dso))
    return out


def _compiled(frame: Frame) -> bool:
    return "__mypyc" in frame[1]


def _leaf_kind(frame: Frame) -> str:
    sym, dso = frame
    if "sre_" in sym:
        return "regular-expression engine"
    if "_yaml" in dso or sym.startswith("yaml_"):
        return "libyaml and PyYAML's C extension"
    if _compiled(frame):
        return "code compiled by mypyc"
    if sym == "_PyEval_EvalFrameDefault":
        return "interpreter loop (pure-Python code)"
    words = ("alloc", "Malloc", "Free", "free", "dealloc", "GC", "gc_", "arena", "new_keys")
    if any(w in sym for w in words):
        return "allocation and garbage collection"
    if "kernel" in dso:
        return "kernel"
    return "rest of the C runtime (str, dict, calls, attributes)"


def classify(blocks: list[str], top: int) -> list[str]:
    """The report's lines for the samples ``blocks``."""
    leaf: collections.Counter[str] = collections.Counter()
    behalf: collections.Counter[str] = collections.Counter()
    callers: collections.Counter[str] = collections.Counter()
    total = 0
    for block in blocks:
        frames = _frames(block)
        if not frames:
            continue
        total += 1
        leaf[_leaf_kind(frames[0])] += 1
        owner = next(
            (i for i, f in enumerate(frames) if _compiled(f) or f[0] == "_PyEval_EvalFrameDefault"),
            None,
        )
        if owner is None:
            behalf["neither"] += 1
        elif _compiled(frames[owner]):
            behalf["on behalf of compiled code"] += 1
        else:
            behalf["on behalf of interpreted code"] += 1
            caller = next((f[0] for f in frames[owner:] if _compiled(f)), None)
            callers[caller or "(no compiled caller: the pure entry points)"] += 1
    if total == 0:
        return ["no samples"]
    lines = [f"samples: {total}", "by innermost frame:"]
    lines += [f"  {100 * n / total:5.1f} %  {k}" for k, n in leaf.most_common()]
    lines.append("by whom the sample works for:")
    lines += [f"  {100 * n / total:5.1f} %  {k}" for k, n in behalf.most_common()]
    lines.append(f"interpreted code reached from (top {top}):")
    lines += [f"  {100 * n / total:5.1f} %  {k}" for k, n in callers.most_common(top)]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", dest="set_", choices=("rich", "typical", "small"), default="rich")
    ap.add_argument("--call", choices=("segment", "self_check"), default="self_check")
    ap.add_argument("--seconds", type=float, default=10.0, help="CPU seconds sampled")
    ap.add_argument("--frequency", type=int, default=400, help="samples per second")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--installed", action="store_true", help="the installed replykit")
    args = ap.parse_args(argv)
    perf = shutil.which("perf")
    if perf is None:
        print("perf is not installed (linux-tools)")
        return 1
    child = CHILD.format(
        here=str(HERE),
        src=str(HERE.parent / "src"),
        installed=args.installed,
        set_=args.set_,
        call=args.call,
        seconds=args.seconds,
    )
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        script = os.path.join(tmp, "child.py")
        Path(script).write_text(child, encoding="utf-8")
        ctl = os.path.join(tmp, "ctl")
        os.mkfifo(ctl)
        # Start disabled; enable once the child has built its set and warmed up.
        record = [perf, "record", "-q", "-D", "-1", "--control", f"fifo:{ctl}", "-F"]
        record += [str(args.frequency), "--call-graph", "dwarf,16384", "-o", data]
        proc = subprocess.Popen(
            [*record, sys.executable, script], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None
        with open(ctl, "w", encoding="ascii") as control:
            if proc.stdout.readline().strip() == "ready":
                control.write("enable\n")
                control.flush()
            proc.wait()
        if proc.returncode != 0:
            print(f"perf record failed ({proc.returncode})")
            return 1
        dump = subprocess.run(
            [perf, "script", "-i", data, "-F", "ip,sym,dso"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
    print(
        f"native_share: {args.call} over the {args.set_} set, {args.seconds:g} s CPU, "
        f"load average at the end {os.getloadavg()[0]:.1f}"
    )
    for line in classify(dump.split("\n\n"), args.top):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
