"""Where ``segment()`` spends its time, stage by stage (docs/performance.md, "Speed
targets").

Usage: ``python benchmarks/stages.py [--passes N] [--clock wall|cpu] [--json FILE]
[--installed]``

Runs ``segment()`` over each message set of ``benchmarks/run.py`` (typical 1-4 KB
messages with a form, the rich replies, messages under 1 KB) ``--passes`` times
under ``cProfile`` and splits the profile's total into stages by the cumulative time
of each stage's entry points (:data:`STAGES`, one table): the scanner, the Lark parse,
the YAML read, the JSON read, the field table, and building the results. Prints ms
and % per stage and set, the load average, and the same run's time of the sets
without the profiler. cProfile charges each Python call a fixed cost, so stages made
of many small calls (the scanner) weigh more here than without it: read the shares,
not the ms, and compare runs of this script with each other only. In a compiled
build the compiled modules' functions are invisible to cProfile; run it on the pure
build.

``--json FILE`` also writes the figures as JSON (``-``: to stdout, the tables then go
to stderr). ``--installed`` profiles the replykit the interpreter imports instead of
this checkout's ``src/``. Nothing fails; it exits 0.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

# run.py puts this checkout's src/ first on the path (unless --installed) and holds the
# message sets.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from markdown_it import MarkdownIt
from rich_replies import replies as rich_replies
from run import KB, all_blocks, build_kind, load, messages, nbytes, write_json

from replykit.questionnaire.payload.yaml_loader import choose_loader
from replykit.questionnaire.segmentation.segmenter import segment

#: A function of replykit: its file under ``src/replykit/`` and its name; ``caller``
#: (same shape) counts only the calls made from that function.
Func = tuple[str, str]


@dataclass(frozen=True)
class Entry:
    file: str
    name: str
    caller: Func | None = None


@dataclass(frozen=True)
class Stage:
    """A stage: the sum of its entry points' cumulative times, less the stages named in
    ``minus`` (stages whose entry points run inside these)."""

    name: str
    entries: tuple[Entry, ...]
    minus: tuple[str, ...] = ()


SCAN = "questionnaire/scan/"
PAYLOAD = "questionnaire/payload/"
SEGMENTATION = "questionnaire/segmentation/"

#: Every stage and its entry points. An entry point that is never called (renamed, say)
#: is reported, so a stale table shows.
STAGES: tuple[Stage, ...] = (
    Stage(
        "scanner (lines, block state, inline scans, tokens)",
        (
            Entry(SCAN + "scanner.py", "__init__"),
            Entry(SCAN + "scanner.py", "run"),
            # segment() builds the look-ahead indexes itself (seeded with its pre-check).
            Entry(
                SCAN + "lookahead.py", "__init__", caller=(SEGMENTATION + "assemble.py", "_read")
            ),
        ),
    ),
    Stage("Lark (LALR parse of the tokens, parts)", (Entry(SCAN + "grammar.py", "parse"),)),
    Stage(
        "YAML (events, depth/alias/tag checks, compose)",
        (
            Entry(PAYLOAD + "nested_fence.py", "nested_fences"),
            Entry(PAYLOAD + "yaml12.py", "read_yaml"),
        ),
    ),
    Stage("JSON (strict read)", (Entry(PAYLOAD + "json_strict.py", "read_json"),)),
    Stage(
        "field validation (field table, list limits)",
        (
            Entry(PAYLOAD + "fenced_form.py", "_checked_form"),
            Entry(PAYLOAD + "fenced_plain.py", "plain_form"),
            Entry(PAYLOAD + "lenient_plain.py", "plain_request"),
            Entry(PAYLOAD + "lenient.py", "normalize_form"),
            Entry(
                PAYLOAD + "lenient.py",
                "normalize_fitting",
                caller=(PAYLOAD + "xml_form.py", "read_xml_request"),
            ),
            Entry(
                "questionnaire/limits.py",
                "form_lists",
                caller=(PAYLOAD + "xml_form.py", "read_xml_request"),
            ),
        ),
    ),
    Stage(
        "building results (blocks, placing findings, segments, cap)",
        (Entry(SEGMENTATION + "assemble.py", "_assemble"),),
        minus=(
            "YAML (events, depth/alias/tag checks, compose)",
            "JSON (strict read)",
            "field validation (field table, list limits)",
        ),
    ),
)
#: What no stage holds: argument checks, the family-word pre-check, the Context.
OTHER = "other (argument checks, pre-check, context)"

StatKey = tuple[str, int, str]


def _matches(key: StatKey, func: Func) -> bool:
    filename, _line, name = key
    return name == func[1] and filename.replace("\\", "/").endswith("/replykit/" + func[0])


def entry_time(stats: dict[StatKey, Any], entry: Entry) -> tuple[float, int]:
    """Cumulative seconds and calls of ``entry`` in a ``pstats`` table (its calls from
    ``entry.caller`` only, when given)."""
    total, calls = 0.0, 0
    for key, (_cc, nc, _tt, ct, callers) in stats.items():
        if not _matches(key, (entry.file, entry.name)):
            continue
        if entry.caller is None:
            total += ct
            calls += nc
            continue
        for caller_key, caller_stat in callers.items():
            if _matches(caller_key, entry.caller):
                total += caller_stat[3]
                calls += caller_stat[1]
    return total, calls


@dataclass
class Profile:
    """One set's profile: seconds per stage (:data:`OTHER` last), the profile's total,
    the entry points never called, and the same passes' time without the profiler."""

    name: str
    messages: int
    nbytes: int
    stages: dict[str, float]
    total: float
    uncalled: list[str]
    unprofiled: float


def profile_set(name: str, texts: list[str], passes: int, cpu: bool) -> Profile:
    def run() -> None:
        for _ in range(passes):
            for t in texts:
                segment(t)

    run()  # warm up: the grammar, caches, first-call imports
    clock = time.process_time if cpu else time.perf_counter
    t0 = clock()
    run()
    unprofiled = clock() - t0
    # CPU time of this process: other load on the machine does not count.
    prof = cProfile.Profile(time.process_time)
    prof.runcall(run)
    st = pstats.Stats(prof)
    table: dict[StatKey, Any] = st.stats
    raw: dict[str, float] = {}
    uncalled: list[str] = []
    for stage in STAGES:
        seconds = 0.0
        for entry in stage.entries:
            t, calls = entry_time(table, entry)
            seconds += t
            if calls == 0:
                uncalled.append(f"{entry.file}:{entry.name}")
        raw[stage.name] = seconds
    stages = {s.name: raw[s.name] - sum(raw[m] for m in s.minus) for s in STAGES}
    total = float(st.total_tt)
    stages[OTHER] = total - sum(stages.values())
    size = sum(map(nbytes, texts))
    return Profile(name, len(texts), size, stages, total, uncalled, unprofiled)


def show(p: Profile, passes: int, out: TextIO) -> None:
    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    say(
        f"{p.name}: {p.messages} messages, {p.nbytes / KB:.1f} KB, {passes} passes; "
        f"profiled {p.total * 1000:.1f} ms, unprofiled {p.unprofiled * 1000:.1f} ms"
    )
    say("  stage | ms | %")
    for stage, seconds in p.stages.items():
        say(f"  {stage} | {seconds * 1000:.1f} | {100 * seconds / p.total:.1f}")
    for missing in p.uncalled:
        say(f"  (entry point never called: {missing})")
    say()


def sets() -> list[tuple[str, list[str]]]:
    docs = all_blocks(MarkdownIt("commonmark"))
    return [
        ("typical 1-4 KB + form", messages(docs, 1 * KB, 4 * KB, None)),
        ("rich 1-4 KB", [r.text for r in rich_replies()]),
        ("under 1 KB incl. form", messages(docs, 200, 1 * KB, 1 * KB)),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passes", type=int, default=3, help="passes over each set (default 3)")
    ap.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall: cProfile's own clock (default); cpu: this process's CPU time, "
        "steadier under load but with more overhead per call",
    )
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON (-: stdout)")
    ap.add_argument(
        "--installed", action="store_true", help="profile the installed replykit, not src/"
    )
    args = ap.parse_args(argv)
    out = sys.stderr if args.json == "-" else sys.stdout
    start = load()
    print(
        f"segment() by stage: Python {platform.python_version()}, replykit {build_kind()} "
        f"build, YAML events {choose_loader()}, clock {args.clock}; load average at start {start}",
        file=out,
    )
    print(file=out)
    profiles = [
        profile_set(name, texts, args.passes, args.clock == "cpu") for name, texts in sets()
    ]
    for p in profiles:
        show(p, args.passes, out)
    end = load()
    print(f"load average at end {end}", file=out)
    if args.json:
        doc = {
            "python": platform.python_version(),
            "build": build_kind(),
            "yaml_events": choose_loader(),
            "passes": args.passes,
            "clock": args.clock,
            "load_start": start,
            "load_end": end,
            "sets": [
                {
                    "name": p.name,
                    "messages": p.messages,
                    "nbytes": p.nbytes,
                    "profiled_ms": p.total * 1000,
                    "unprofiled_ms": p.unprofiled * 1000,
                    "stages_ms": {k: v * 1000 for k, v in p.stages.items()},
                    "uncalled": p.uncalled,
                }
                for p in profiles
            ],
        }
        write_json(doc, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
