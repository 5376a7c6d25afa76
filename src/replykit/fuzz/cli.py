"""``replykit fuzz`` and ``replykit vectors export`` (issue 6 items 2 and 3).

The main CLI registers both subcommands with :func:`add_parser`; each sets
``func`` to the function that runs it and returns the exit status.
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys
from pathlib import Path
from typing import Any, cast

from replykit.cli_io import fail
from replykit.fuzz.adapter import AdapterStartError
from replykit.fuzz.report import write_report
from replykit.fuzz.runner import fuzz
from replykit.fuzz.vectors import export
from replykit.strategies import OPS, Op
from replykit.textout import escape

FUZZ_DESCRIPTION = (
    "Fuzz another implementation of the protocols against replykit. COMMAND is run "
    "(split like a shell command line, no shell) as an adapter that reads one JSON "
    "request per line on stdin and writes one JSON response per line on stdout "
    "(docs/fuzzing.md). Generated messages, tool arguments and answers are sent to "
    "both; every disagreement on the fields the adapter produces is shrunk to a "
    "1-minimal input and classed by op and rule (a § of PROTOCOL-DECISIONS or a seed "
    "heading); crashes, hangs and non-JSON output are classes of their own. Writes "
    "DIR/report.json and DIR/report.txt and shows progress on stderr. Exit 1 when any "
    "disagreement or adapter failure was found, 0 otherwise, 2 on a usage error or an "
    "adapter that cannot start."
)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0: {text!r}")
    return value


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Register ``fuzz`` and ``vectors`` on the main parser's ``subparsers``.

    ``fuzz --impl COMMAND [--op segment|questionnaire_async|sanitize_actions|all]
    [--examples N | --seconds S] [--seed N] [--timeout S] [--out DIR] [--no-explicit]``
    and ``vectors export DIR``. Output: the ``fuzz`` subparser (``func`` set on both).
    Source rule: issue 6.
    """
    parser = subparsers.add_parser(
        "fuzz",
        help="fuzz another implementation (an adapter command) against replykit",
        description=FUZZ_DESCRIPTION,
    )
    parser.add_argument(
        "--impl",
        required=True,
        metavar="COMMAND",
        help='adapter command line, e.g. "node examples/adapters/node_adapter.mjs"',
    )
    parser.add_argument(
        "--op",
        choices=(*OPS, "all"),
        default="all",
        help="operation to fuzz (default all)",
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--examples",
        type=_count,
        metavar="N",
        help="generated examples to run after the explicit ones (default 500)",
    )
    budget.add_argument(
        "--seconds",
        type=_positive_float,
        metavar="S",
        help="run generated examples for S seconds of wall time instead",
    )
    parser.add_argument("--seed", type=int, default=0, help="Hypothesis seed (default 0)")
    parser.add_argument(
        "--timeout",
        type=_positive_float,
        default=10.0,
        metavar="S",
        help="seconds to wait for each answer before the adapter counts as hung (default 10)",
    )
    parser.add_argument(
        "--out", default="fuzz-report", metavar="DIR", help="report directory (default fuzz-report)"
    )
    parser.add_argument(
        "--no-explicit",
        action="store_true",
        help="skip the hand-written examples that otherwise run first",
    )
    parser.set_defaults(func=run_fuzz)

    vectors = subparsers.add_parser(
        "vectors",
        help="export the conformance vectors as language-neutral JSON",
        description="Conformance vectors for other implementations (docs/fuzzing.md).",
    )
    actions = vectors.add_subparsers(dest="vectors_command", required=True)
    exp = actions.add_parser(
        "export",
        help="write the vector files and a README into DIR",
        description=(
            "Write segment.json (the test suite's vectors), segment_generated.json, "
            "questionnaire_async.json and sanitize_actions.json (edge cases with "
            "replykit's answers, each tagged with its rule) and README.md into DIR. "
            "Exit 0, or 2 when DIR cannot be written."
        ),
    )
    exp.add_argument("dir", metavar="DIR", help="output directory (created if missing)")
    exp.set_defaults(func=run_vectors)
    return parser


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def run_fuzz(args: argparse.Namespace) -> int:
    """Run ``replykit fuzz``. Input: parsed arguments ``impl``, ``op``, ``examples``,
    ``seconds``, ``seed``, ``timeout``, ``out``, ``no_explicit``. Output: exit status 1
    when the report has a class, 0 when not, 2 when the command line is empty or
    unparsable, the adapter cannot start or the report cannot be written (one line on
    stderr)."""
    try:
        command = tuple(shlex.split(args.impl))
    except ValueError as exc:
        return fail("fuzz", f"--impl: {exc}")
    if not command:
        return fail("fuzz", "--impl is empty")
    ops: tuple[Op, ...] = OPS if args.op == "all" else (cast(Op, args.op),)
    try:  # refuse an unwritable --out before the run, not after it
        Path(args.out).mkdir(parents=True, exist_ok=True)
        if not os.access(args.out, os.W_OK):
            raise PermissionError(f"{args.out} is not writable")
    except OSError as exc:
        return fail("fuzz", f"cannot write the report: {exc}")
    # SIGTERM (a timeout, a cancelled job) ends the run like Ctrl-C, so the adapter's
    # process group is killed on the way out instead of being left running.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        report = fuzz(
            command,
            ops=ops,
            examples=args.examples,
            seconds=args.seconds,
            seed=args.seed,
            timeout=args.timeout,
            explicit=not args.no_explicit,
            progress=sys.stderr,
        )
    except AdapterStartError as exc:
        return fail("fuzz", str(exc))
    finally:
        signal.signal(signal.SIGTERM, previous)
    try:
        json_path, text_path = write_report(report, args.out)
    except OSError as exc:
        return fail("fuzz", f"cannot write the report: {exc}")
    failures = sum(1 for c in report.classes if c.is_failure)
    summary = (
        f"replykit fuzz: {len(report.classes) - failures} disagreement class(es), "
        f"{failures} adapter failure class(es); report in {text_path} and {json_path}"
    )
    print(escape(summary), file=sys.stderr)
    return 1 if report.classes else 0


def run_vectors(args: argparse.Namespace) -> int:
    """Run ``replykit vectors export DIR``: exit 0, or 2 with one line on stderr when
    the files cannot be written."""
    try:
        paths = export(args.dir)
    except OSError as exc:
        return fail("vectors", str(exc))
    for path in paths:
        print(escape(path))
    return 0
