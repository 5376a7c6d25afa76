"""Recall of ``replykit fuzz``: which client fault families it finds, each as a class of
its own, and how fast (docs/fuzzing.md, "A benchmark for the fuzzer").

Usage: ``python benchmarks/fuzz_recall.py [--seconds S] [--seed N] [--only NAME,...]
[--no-single] [--no-combined] [--no-reference] [--out DIR] [--json FILE]``

Runs the real command, ``python -m replykit.cli fuzz --impl ADAPTER --seconds S``
(default settings otherwise: every op, explicit examples first, seed 0 unless
``--seed``), once against each single mutant of ``examples/adapters/mutants`` (one
client fault each), once against the ``combined`` mutant (every fault at once) and once
against ``examples/adapters/replykit_adapter.py``, one run after the other. S defaults
to 60. It reads each ``report.json`` and prints, as Markdown tables
ready for docs/fuzzing.md, per family:

- single mutant: found (at least one disagreement class; adapter failures do not
  count) and the ``found_after_seconds`` of its first class;
- combined mutant: the classes that are the family's *own* (it is their only family),
  the classes that list it at all (its *spread*), and when its first own class came.

Mapping a class of the combined run to families, for each of its minimal inputs (its
``inputs`` when the report has them, else its ``input``), in this process: the
input's families are the faults without which the combined mutant agrees with replykit
(``replykit.fuzz.reference``) at the class's ``field``, compared as
``replykit.fuzz.first_difference`` compares. When no single fault is needed there (or
the field is not a place in the response), they are the single mutants that disagree
with replykit on the input, narrowed to those whose first difference is at ``field``
if any is. A class's families are the union over its inputs. A family is found *as a
class of its own* when at least one class has it as its only family; a class with two
or more families is one where faults were not kept apart (or that needs them together);
a class with none is *unattributed*.

Targets: every single mutant found within 60 s; against the combined mutant, at least
22 families as classes of their own and no family spread over more than 2 classes; 0
classes against the replykit adapter. Each is printed as met or missed; this is a
script, not a test: nothing fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
ADAPTERS = ROOT / "examples" / "adapters"
for path in (SRC, ADAPTERS):
    if path.is_dir():
        sys.path.insert(0, str(path))  # this checkout's replykit and mutants

from mutants import COMBINED, FAULTS, build, mutant  # noqa: E402

from replykit.fuzz import first_difference, reference  # noqa: E402

#: Targets of the benchmark (docs/fuzzing.md).
SINGLE_SECONDS = 60.0
COMBINED_DISTINCT = 22
MAX_SPREAD = 2


def run_fuzz(adapter: list[str], seconds: float, seed: int | None, out: Path) -> dict[str, Any]:
    """Run ``replykit fuzz`` on the adapter command ``adapter``; its report.json."""
    command = [sys.executable, "-m", "replykit.cli", "fuzz", "--impl", shlex.join(adapter)]
    command += ["--seconds", str(seconds), "--out", str(out)]
    if seed is not None:
        command += ["--seed", str(seed)]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    with open(out.with_suffix(".log"), "w", encoding="utf-8") as log:
        status = subprocess.run(command, env=env, stdout=log, stderr=log, check=False).returncode
    if status not in (0, 1):
        raise SystemExit(f"replykit fuzz exited {status}; see {out.with_suffix('.log')}")
    report: dict[str, Any] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return report


def mutant_command(name: str) -> list[str]:
    """The adapter command of the mutant ``name``."""
    return [sys.executable, str(ADAPTERS / "mutant_adapter.py"), name]


def disagreements(classes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The disagreement classes (adapter failures left out)."""
    return [c for c in classes if not c["rule"].startswith("adapter.")]


def class_inputs(found: dict[str, Any]) -> list[dict[str, Any]]:
    """The minimal inputs of a class: its ``inputs`` when the report lists several,
    else its ``input``."""
    inputs = found.get("inputs")
    return list(inputs) if isinstance(inputs, list) and inputs else [found["input"]]


Answers = dict[str, Callable[[Any], Any]]
_ABSENT = object()


def at_pointer(value: Any, pointer: str) -> Any:
    """The value at the JSON Pointer ``pointer`` (RFC 6901) in ``value``, or a marker
    when there is none."""
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return _ABSENT
    return value


def differs_at(expected: Any, actual: Any, pointer: str) -> bool:
    """Whether ``actual`` departs from ``expected`` at ``pointer``, compared as the
    fuzzer compares (the last token names the field, so a ``diagnostics`` list is a
    multiset and a ``message`` is ignored)."""
    mine, theirs = at_pointer(expected, pointer), at_pointer(actual, pointer)
    if mine is _ABSENT or theirs is _ABSENT:
        return mine is not theirs
    name = pointer.rsplit("/", 1)[-1]
    key = name if name and not name.isdigit() else "value"
    return first_difference({key: mine}, {key: theirs}) is not None


def attribute_input(
    op: str, body: dict[str, Any], field: Any, singles: Answers, without: Answers
) -> set[str]:
    """The families of one minimal input (see the module docstring): the faults
    without which the combined mutant agrees with replykit at ``field``; else the
    single mutants that disagree with replykit (those whose first difference is at
    ``field`` if any is)."""
    request = {"op": op, **body}
    expected = reference(op, body)
    if isinstance(field, str) and field.startswith("/"):
        try:
            combined = mutant(COMBINED)(request)
            needed = (
                {
                    n
                    for n, answer in without.items()
                    if not differs_at(expected, answer(request), field)
                }
                if differs_at(expected, combined, field)
                else set()
            )
        except Exception:  # a mutant that cannot answer: use the single mutants
            needed = set()
        if needed:
            return needed
    at_field, anywhere = set(), set()
    for name, answer in singles.items():
        try:
            diff = first_difference(expected, answer(request))
        except Exception:  # a mutant that cannot answer this input is not its cause
            continue
        if diff is not None:
            anywhere.add(name)
            if diff.pointer == field:
                at_field.add(name)
    return at_field or anywhere


def attribute(found: dict[str, Any], singles: Answers, without: Answers) -> set[str]:
    """The families of one class of the combined run: the union over its inputs."""
    families: set[str] = set()
    for body in class_inputs(found):
        families |= attribute_input(found["op"], body, found.get("field"), singles, without)
    return families


def _seconds(classes: list[dict[str, Any]]) -> float | None:
    return min((c["found_after_seconds"] for c in classes), default=None)


def _show(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} s"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the tables; returns 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="budget per run (60)")
    parser.add_argument("--seed", type=int, default=None, help="--seed for replykit fuzz")
    parser.add_argument("--only", default="", help="comma-separated single mutants to run")
    parser.add_argument("--no-single", action="store_true", help="skip the single mutants")
    parser.add_argument("--no-combined", action="store_true", help="skip the combined mutant")
    parser.add_argument("--no-reference", action="store_true", help="skip replykit_adapter.py")
    parser.add_argument("--out", type=Path, default=None, help="keep the reports in DIR")
    parser.add_argument("--json", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args(argv)
    names = [f.name for f in FAULTS]
    chosen = [n for n in args.only.split(",") if n] or names
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        parser.error(f"unknown mutants: {', '.join(unknown)}")
    out = args.out or Path(tempfile.mkdtemp(prefix="fuzz-recall-"))
    out.mkdir(parents=True, exist_ok=True)
    figures: dict[str, Any] = {"seconds": args.seconds, "seed": args.seed, "single": {}}

    for name in [] if args.no_single else chosen:
        report = run_fuzz(mutant_command(name), args.seconds, args.seed, out / name)
        found = disagreements(report["classes"])
        figures["single"][name] = {
            "found": bool(found),
            "seconds": _seconds(found),
            "classes": len(found),
            "failures": len(report["classes"]) - len(found),
            "examples": report["examples_run"],
        }
        progress = f"{name}: {len(found)} classes, first after {_show(_seconds(found))}"
        print(progress, file=sys.stderr, flush=True)

    own: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
    shared: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
    if not args.no_combined:
        report = run_fuzz(mutant_command(COMBINED), args.seconds, args.seed, out / COMBINED)
        singles = {f.name: mutant(f.name) for f in FAULTS}
        without = {f.name: build([g for g in FAULTS if g is not f]) for f in FAULTS}
        found = disagreements(report["classes"])
        unattributed, mixed = [], []
        for c in found:
            families = attribute(c, singles, without)
            if not families:
                unattributed.append(c)
            if len(families) > 1:
                mixed.append(sorted(families))
            for family in families:
                (own if len(families) == 1 else shared)[family].append(c)
        spread = {n: len(own[n]) + len(shared[n]) for n in names}
        figures["combined"] = {
            "classes": len(found),
            "failures": len(report["classes"]) - len(found),
            "examples": report["examples_run"],
            "distinct_families": sorted(n for n in names if own[n]),
            "spread_over_2": sorted(n for n in names if spread[n] > MAX_SPREAD),
            "max_spread": max(spread.values(), default=0),
            "max_spread_families": sorted(
                n for n in names if spread[n] and spread[n] == max(spread.values())
            ),
            "mixed": mixed,
            "unattributed": [class_inputs(c) for c in unattributed],
            "families": {
                n: {"own": len(own[n]), "shared": len(shared[n]), "seconds": _seconds(own[n])}
                for n in names
            },
        }
    if not args.no_reference:
        report = run_fuzz(
            [sys.executable, str(ADAPTERS / "replykit_adapter.py")],
            args.seconds,
            args.seed,
            out / "replykit_adapter",
        )
        figures["reference_classes"] = len(report["classes"])
        figures["reference_examples"] = report["examples_run"]

    _print(figures, names)
    print(f"\nreports in {out}", file=sys.stderr)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


def _mark(ok: bool) -> str:
    return "met" if ok else "missed"


def _print(figures: dict[str, Any], names: list[str]) -> None:
    """The figures as two Markdown tables (per family; targets)."""
    single, combined = figures["single"], figures.get("combined")
    seed = figures["seed"] or 0
    print(f"`replykit fuzz --seconds {figures['seconds']:g}` (seed {seed}, every op, explicit")
    print("examples first), against each single mutant and against the combined one:\n")
    print(
        "| Family | Mutant | Alone: found after | Combined: own classes (first after) "
        "| Combined: classes listing it |"
    )
    print("| --- | --- | --- | --- | --- |")
    for fault in FAULTS:
        s = single.get(fault.name)
        alone = "not run" if s is None else (_show(s["seconds"]) if s["found"] else "not found")
        own = spread = "not run"
        if combined is not None:
            fam = combined["families"][fault.name]
            own = f"{fam['own']} ({_show(fam['seconds'])})" if fam["own"] else "0"
            spread = str(fam["own"] + fam["shared"])
        family = fault.family.replace("|", "\\|")
        print(f"| {family} | `{fault.name}` | {alone} | {own} | {spread} |")
    print()
    print("| Target | Measured | |")
    print("| --- | --- | --- |")
    ran = [n for n in names if n in single]
    fast = [n for n in ran if single[n]["found"] and single[n]["seconds"] <= SINGLE_SECONDS]
    print(
        f"| every single mutant found within {SINGLE_SECONDS:g} s | {len(fast)} of {len(ran)} "
        f"| {_mark(len(fast) == len(ran))} |"
    )
    if combined is not None:
        distinct = len(combined["distinct_families"])
        print(
            f"| combined: at least {COMBINED_DISTINCT} families found as a class of their own "
            f"| {distinct} of {len(names)} | {_mark(distinct >= COMBINED_DISTINCT)} |"
        )
        most = combined["max_spread"]
        top = combined["max_spread_families"]
        who = ", ".join(f"`{n}`" for n in top) if len(top) <= 3 else f"{len(top)} families"
        print(
            f"| combined: no family spread over more than {MAX_SPREAD} classes "
            f"| at most {most} ({who or 'none'}) | {_mark(most <= MAX_SPREAD)} |"
        )
        print(
            f"| combined: classes (adapter failures), examples "
            f"| {combined['classes']} ({combined['failures']}), {combined['examples']} | |"
        )
        print(
            f"| combined: classes holding several families; unattributed classes "
            f"| {len(combined['mixed'])}; {len(combined['unattributed'])} | |"
        )
    if "reference_classes" in figures:
        n = figures["reference_classes"]
        print(
            f"| `replykit_adapter.py`: 0 classes | {n} in {figures['reference_examples']} "
            f"examples | {_mark(n == 0)} |"
        )


if __name__ == "__main__":
    raise SystemExit(main())
