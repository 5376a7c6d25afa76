"""``replykit fuzz``: fuzz another implementation against replykit (docs/fuzzing.md).

The main CLI registers the subcommand with :func:`add_parser`. The fuzzer and
Hypothesis (the ``replykit[fuzz]`` extra) are imported when the command runs; without
Hypothesis the command exits 2 with one line naming the extra.
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys
from typing import TYPE_CHECKING, Any, cast

from replykit.cli.io import fail, note, os_reason
from replykit.cli.numbers import integer, positive_number
from replykit.dirs import make_directory
from replykit.textout import escape, os_name

if TYPE_CHECKING:  # the fuzz loop loads only when the command runs
    from replykit.fuzz.accept import Acceptance
    from replykit.fuzz.example import Example
    from replykit.fuzz.ops import Op
    from replykit.fuzz.results import FuzzReport

#: The ops ``--op`` names, as :data:`replykit.fuzz.ops.ALL_OPS` (tests/test_cli.py checks
#: they are equal): written here so that building the parser loads no fuzz module.
OP_NAMES = ("segment", "questionnaire_async", "sanitize_actions", "stream")

FUZZ_DESCRIPTION = (
    "Fuzz another implementation of the protocols against replykit. COMMAND is run "
    "(split like a shell command line, no shell) as an adapter that reads one JSON "
    "request per line on stdin and writes one JSON response per line on stdout "
    "(docs/fuzzing.md). Generated messages, tool arguments and answers are sent to "
    "both; every disagreement on the fields the adapter produces (what a user sees "
    "first) is shrunk to a 1-minimal input and classed by op, rule (a section of "
    "docs/protocol.md), role of the field, segment kinds, replykit's diagnostic code and "
    "the constructs of the minimal input; crashes, hangs and non-JSON output are classes "
    "of their own. Writes DIR/report.json and DIR/report.txt and shows progress on "
    "stderr. Exit 1 when any disagreement or adapter failure was found that --accept "
    "does not accept, 0 otherwise, 2 on a usage error, an unreadable accept or explicit "
    "file, an adapter that cannot start or supports none of the requested ops (nothing "
    "was tested), or no Hypothesis (install it with: pip install "
    "'replykit[fuzz]')."
)


def _profile(text: str) -> str:
    from replykit.questionnaire.profiles import profile_from_string

    try:
        profile_from_string(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Register ``fuzz --impl COMMAND [--op segment|questionnaire_async|sanitize_actions|
    stream|all]
    [--examples N | --seconds S] [--seed N] [--timeout S] [--out DIR]
    [--no-explicit | --explicit FILE] [--profile NAME]... [--accept FILE]``
    on the main parser's ``subparsers``. Output: the new subparser, with ``func`` set to
    :func:`run_fuzz` (docs/fuzzing.md).
    """
    parser = subparsers.add_parser(
        "fuzz",
        help="fuzz another implementation (an adapter command) against replykit "
        "(needs the replykit[fuzz] extra)",
        description=FUZZ_DESCRIPTION,
    )
    _add_target(parser)
    _add_budget(parser)
    _add_output(parser)
    parser.set_defaults(func=run_fuzz)

    return parser


def _add_target(parser: argparse.ArgumentParser) -> None:
    """The adapter and the operations to fuzz (``--impl``, ``--op``)."""
    parser.add_argument(
        "--impl",
        required=True,
        metavar="COMMAND",
        help='adapter command line, e.g. "node examples/adapters/node_adapter.mjs"',
    )
    parser.add_argument(
        "--op",
        choices=(*OP_NAMES, "all"),
        default="all",
        help="operation to fuzz (default all: every op but stream; stream checks the "
        "invariants of §10 on the adapter's commits, docs/fuzzing.md)",
    )


def _add_budget(parser: argparse.ArgumentParser) -> None:
    """How much to run: ``--examples`` or ``--seconds``, ``--seed``, ``--timeout``."""
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--examples",
        type=integer(minimum=0),
        metavar="N",
        help="generated examples to run after the explicit ones (default 500)",
    )
    budget.add_argument(
        "--seconds",
        type=positive_number,
        metavar="S",
        help="run for S seconds of wall time instead: the whole run (accepted, explicit "
        "and generated examples, shrinking) starts no request after S seconds, so it "
        "ends within S plus one request's --timeout (+10 s for a restarted adapter)",
    )
    parser.add_argument("--seed", type=integer(), default=0, help="Hypothesis seed (default 0)")
    parser.add_argument(
        "--timeout",
        type=positive_number,
        default=10.0,
        metavar="S",
        help="seconds to wait for each answer before the adapter counts as hung (default 10)",
    )


def _add_output(parser: argparse.ArgumentParser) -> None:
    """What to draw and report: ``--out``, ``--no-explicit`` or ``--explicit``,
    ``--profile``, ``--accept``."""
    parser.add_argument(
        "--out", default="fuzz-report", metavar="DIR", help="report directory (default fuzz-report)"
    )
    first = parser.add_mutually_exclusive_group()
    first.add_argument(
        "--no-explicit",
        action="store_true",
        help="skip the hand-written examples that otherwise run first",
    )
    first.add_argument(
        "--explicit",
        metavar="FILE",
        help="run these inputs first instead of the hand-written examples: a JSON list "
        'of {"op": ..., "input": {...}} objects, an earlier report.json (the minimal '
        "inputs of its classes), or any file replykit vectors export writes (its cases)",
    )
    parser.add_argument(
        "--profile",
        action="append",
        type=_profile,
        default=[],
        metavar="NAME",
        help="a profile your implementation has (client, self_check or product:NAME; "
        "repeatable): only these are drawn (default: all; docs/protocol.md §6)",
    )
    parser.add_argument(
        "--accept",
        metavar="FILE",
        help="classes accepted as known: an earlier report.json, a JSON list of class "
        "keys or examples, or one key per line (docs/fuzzing.md, Triage); they are "
        "counted, not reported, and do not make the exit status 1; a key or pattern "
        "that can match no class key is a usage error",
    )


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def run_fuzz(args: argparse.Namespace) -> int:
    """Run ``replykit fuzz``. Input: parsed arguments ``impl``, ``op``, ``examples``,
    ``seconds``, ``seed``, ``timeout``, ``out``, ``no_explicit``, ``explicit`` (a path or
    ``None``), ``profile`` (a list), ``accept`` (a path or ``None``). Output: exit status
    1 when the report has a class that is not accepted, 0 when not, 2 when the command
    line is empty or unparsable, the adapter answered ``unsupported`` for every
    requested op (the report is written; nothing was tested), the accept or explicit
    file cannot be read, Hypothesis is not installed (the line names the
    ``replykit[fuzz]`` extra), the adapter cannot start or the report cannot be written
    (one line on stderr)."""
    from replykit.fuzz.ops import OPS

    try:
        from replykit.fuzz.adapter import AdapterStartError
        from replykit.fuzz.runner import fuzz
    except ImportError as exc:
        from replykit.testing import FUZZ_EXTRA, is_missing_hypothesis

        if not is_missing_hypothesis(exc):
            raise
        return fail("fuzz", f"needs Hypothesis, which is not installed: {FUZZ_EXTRA}")
    try:
        command = tuple(shlex.split(args.impl))
    except ValueError as exc:
        return fail("fuzz", f"--impl: {exc}")
    if not command:
        return fail("fuzz", "--impl is empty")
    ops: tuple[Op, ...] = OPS if args.op == "all" else (cast("Op", args.op),)
    files = _read_files(args)
    if isinstance(files, str):
        return fail("fuzz", files)
    accept, explicit = files
    problem = _out_problem(args.out)  # refuse an unwritable --out before the run
    if problem is not None:
        return fail("fuzz", f"cannot write the report: {problem}")
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
            explicit=explicit,
            progress=sys.stderr,
            profiles=tuple(args.profile),
            accept=accept,
        )
    except AdapterStartError as exc:
        return fail("fuzz", str(exc))
    finally:
        signal.signal(signal.SIGTERM, previous)
    return _finish(report, args.out)


def _finish(report: FuzzReport, out: str) -> int:
    """Write the report into ``out`` and give the exit status of :func:`run_fuzz`
    (2, with one line, when it cannot be written or nothing was tested)."""
    from replykit.fuzz.report import write_report

    try:
        json_path, text_path = write_report(report, out)
    except OSError as exc:
        return fail("fuzz", f"cannot write the report to {os_name(out)}: {os_reason(exc)}")
    if set(report.ops) <= set(report.unsupported_ops):
        tested = ", ".join(report.ops)
        return fail(
            "fuzz",
            f"the adapter supports none of the requested ops ({tested}): nothing was "
            f"tested; report in {text_path}",
        )
    note(escape(_summary(report, json_path, text_path)))
    return 1 if report.classes else 0


def _read_files(args: argparse.Namespace) -> tuple[Acceptance, bool | tuple[Example, ...]] | str:
    """The ``--accept`` classes and what ``--explicit`` / ``--no-explicit`` run first,
    or the error line when a file cannot be read."""
    from replykit.fuzz.accept import NO_ACCEPT, AcceptError, load_accept
    from replykit.fuzz.example import load_examples

    try:
        accept = NO_ACCEPT if args.accept is None else load_accept(args.accept)
    except (OSError, AcceptError) as exc:
        return f"--accept {os_name(args.accept)}: {_reason(exc)}"
    try:
        explicit = not args.no_explicit if args.explicit is None else load_examples(args.explicit)
    except (OSError, ValueError) as exc:
        return f"--explicit {os_name(args.explicit)}: {_reason(exc)}"
    return accept, explicit


def _reason(exc: Exception) -> str:
    """An OS error's reason without ``[Errno N]`` and the repeated path; else its text."""
    return os_reason(exc) if isinstance(exc, OSError) else str(exc)


def _out_problem(out: str) -> str | None:
    """Why the report directory ``out`` cannot be written (it is created), or ``None``."""
    if not out:
        return "--out needs a directory name"
    try:
        make_directory(out)
        if not os.access(out, os.W_OK):
            return f"{os_name(out)} is not writable"
    except OSError as exc:
        return f"{os_name(out)}: {os_reason(exc)}"
    return None


def _summary(report: FuzzReport, json_path: str, text_path: str) -> str:
    """The one stderr line after a run: classes, adapter failures, accepted, where."""
    failures = sum(1 for c in report.classes if c.is_failure)
    accepted = f", {len(report.accepted)} accepted" if report.accepted else ""
    return (
        f"replykit fuzz: {len(report.classes) - failures} disagreement class(es), "
        f"{failures} adapter failure class(es){accepted}; report in {text_path} and "
        f"{json_path}"
    )
