"""``replykit audit``: audit stored replies for protocol compliance (§8, §6, §9).

:func:`add_parser` registers the subcommand; :func:`run_audit` runs it. Input is read
a few records at a time (:mod:`replykit.evals.sources`), audited and tallied per group a
batch at a time on ``--jobs`` processes (:mod:`replykit.evals.runner`), the partial
tallies merged in input order (:mod:`replykit.evals.tally`), and written as a table,
JSON, one JSON line per reply, or an HTML page.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

from replykit.cli.io import InputError, dump, fail, stdout_bytes
from replykit.cli.numbers import integer
from replykit.cli.outfile import check_out, replacing
from replykit.questionnaire.profiles import profile_from_string
from replykit.textout import counted, os_name, render

if TYPE_CHECKING:  # the audit loads its modules only when it runs
    from replykit.evals.runner import BatchResult
    from replykit.evals.tally import Tally
    from replykit.evals.walk import Unreadable

FORMATS = ("table", "json", "jsonl", "html")
#: ``--expect``'s values, as :data:`replykit.evals.compliance.EXPECTS` (tests/test_cli.py
#: checks they are equal): written here so that building the parser loads no evals module.
EXPECT_NAMES = ("any", "form", "none")


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Register ``audit`` on ``subparsers``; returns its parser (``func`` set)."""
    audit = subparsers.add_parser(
        "audit",
        help="audit stored replies for protocol compliance, per group (§8)",
        description=(
            "Audit every assistant reply of the files under PATH (.md: one reply; .json: "
            "one conversation or record; .jsonl: one per line; -: standard input, as JSON "
            "Lines; .parquet: one per row, with the replykit[parquet] extra; directories "
            "recursively, in name order) by Self-check's "
            "rules (§8) and report per group the replies, the pass rate with its 95% "
            "Wilson interval, the share of replies with each code and near-miss kind, "
            "and the first example of each. A record that cannot be read is counted as "
            "an input error with its file and line, and so is a file that cannot be read "
            "(a broken link, no permission, a directory loop); the audit goes on. The "
            "report is written to a temporary file and moved onto --out at the end. "
            "Exit 0 when the report is written, 2 on a usage error, a missing path or "
            "an --out that is one of the inputs or cannot be written."
        ),
    )
    _add_input_options(audit)
    _add_output_options(audit)
    audit.set_defaults(func=run_audit)
    return audit


def _add_input_options(audit: argparse.ArgumentParser) -> None:
    """What to read and how to judge it."""
    audit.add_argument(
        "paths", nargs="+", metavar="PATH", help="files or directories; - for standard input"
    )
    audit.add_argument(
        "--jobs",
        type=integer(minimum=0),
        default=1,
        metavar="N",
        help="worker processes (default 1; 0: one per core)",
    )
    audit.add_argument(
        "--expect",
        choices=EXPECT_NAMES,
        default="any",
        help="any (default): Self-check's rules; form: a valid form was due; "
        "none: no block and no near-miss allowed",
    )
    audit.add_argument(
        "--expect-field",
        metavar="FIELD",
        help="a record field holding any/form/none, overriding --expect",
    )
    audit.add_argument(
        "--text-field",
        metavar="FIELD",
        help="the record field holding the reply (a string) or the "
        "conversation; dotted names reach nested fields",
    )
    audit.add_argument(
        "--group-by", metavar="FIELD", help="the record field naming its group, e.g. model"
    )
    audit.add_argument(
        "--latest", action="store_true", help="only the last assistant reply of each conversation"
    )
    audit.add_argument(
        "--profile", default="self_check", help="self_check (default), client, or product:NAME (§6)"
    )
    audit.add_argument(
        "--lenient", action="store_true", help="also the verdict under compat=sage (§9)"
    )


def _add_output_options(audit: argparse.ArgumentParser) -> None:
    """What to write, where, and the progress bar."""
    audit.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="table (default), json (the summary), jsonl (one line per "
        "reply or input error), html (a self-contained page with charts)",
    )
    audit.add_argument(
        "--out", metavar="FILE", help="write the report here (default or -: standard output)"
    )
    audit.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr: auto (default) when stderr is a terminal",
    )


class _Progress:
    """Bytes read out of the total, on stderr: a tqdm bar when tqdm is installed (the
    ``replykit[audit]`` extra), else a counter line rewritten in place."""

    def __init__(self, total: int, shown: bool) -> None:
        self.shown = shown
        self.bar: Any = None
        self.done = 0
        self.total = total

    def _start(self) -> None:
        # Started at the first batch, after the pool's workers: none is forked while
        # tqdm's monitor thread runs.
        try:
            from tqdm import tqdm
        except ImportError:
            self.bar = False
            return
        self.bar = tqdm(
            total=self.total,
            unit="B",
            unit_scale=True,
            file=sys.stderr,
            desc="audit",
            dynamic_ncols=True,
        )

    def update(self, size: int, replies: int) -> None:
        self.done += size
        if self.shown and self.bar is None:
            self._start()
        if self.bar:
            self.bar.update(size)
            self.bar.set_postfix(replies=replies, refresh=False)
        elif self.shown:
            share = self.done / self.total if self.total else 1.0
            shown = counted(replies, "reply", "replies")
            print(f"\raudit: {share:6.1%} read, {shown}", end="", file=sys.stderr)

    def close(self) -> None:
        if self.bar:
            self.bar.close()
        elif self.shown:
            print(file=sys.stderr)


def _options(args: argparse.Namespace) -> dict[str, Any]:
    try:
        profile = profile_from_string(args.profile)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    return {
        "text_field": args.text_field,
        "expect": args.expect,
        "expect_field": args.expect_field,
        "group_by": args.group_by,
        "latest": args.latest,
        "profile": profile,
        "lenient": args.lenient,
    }


def _files(paths: list[str]) -> list[str | Unreadable]:
    from replykit.evals.sources import find_files
    from replykit.evals.walk import STDIN

    if paths.count(STDIN) > 1:
        raise InputError("standard input (-) can be read only once")
    try:
        return list(find_files(paths))
    except FileNotFoundError as exc:
        raise InputError(f"no such file or directory: {exc.args[0]}") from None


def _consume(
    batches: Iterator[BatchResult],
    progress: _Progress,
    emit: Callable[[bytes], None] | None,
) -> Tally:
    """Merge the batches' partial tallies in input order, writing their JSON Lines."""
    from replykit.evals.tally import Tally

    tally = Tally()
    replies = 0
    for batch in batches:
        tally.merge(batch.tally)
        replies += batch.replies
        if emit is not None:
            emit(batch.jsonl)
        progress.update(batch.size, replies)
    return tally


def _report(args: argparse.Namespace, tally: Tally) -> str:
    from replykit.evals.report import table_lines

    summary = tally.summary()
    if args.format == "json":
        return dump(summary)
    if args.format == "html":
        from replykit.evals.html import html_report

        return html_report(summary, title="replykit audit: " + ", ".join(args.paths))
    return render(table_lines(summary))


def run_audit(args: argparse.Namespace) -> int:
    """``replykit audit PATH... [--jobs N] [--expect any|form|none] [--expect-field F]
    [--text-field F] [--group-by F] [--latest] [--profile P] [--lenient]
    [--format table|json|jsonl|html] [--out FILE] [--progress auto|always|never]``.

    Output: the report (see docs/evals.md for each format); exit 0 when written, 2 on a
    usage error, a missing path or an output file that cannot be written.
    """
    from replykit.evals.walk import STDIN

    try:
        options = _options(args)
        files = _files(args.paths)
        if args.out is not None and args.out != "-":
            check_out(args.out, [f for f in files if isinstance(f, str) and f != STDIN])
    except InputError as exc:
        return fail("audit", str(exc))
    if args.out is None or args.out == "-":
        _audit(args, options, files, stdout_bytes())
        return 0
    try:
        with replacing(args.out) as out:
            _audit(args, options, files, out)
    except OSError as exc:  # the output: every input problem is an item, never raised
        return fail("audit", f"cannot write {os_name(args.out)}: {exc.strerror or exc}")
    return 0


def _audit(
    args: argparse.Namespace, options: dict[str, Any], files: list[str | Unreadable], out: IO[bytes]
) -> None:
    """Audit ``files`` and write the report to ``out``."""
    from replykit.evals.runner import audit_batches
    from replykit.evals.sources import file_size, read_items

    # A closed standard error shows no progress (print would fall back to standard output).
    shown = sys.stderr is not None and (
        args.progress == "always" or (args.progress == "auto" and sys.stderr.isatty())
    )
    jobs = args.jobs or os.cpu_count() or 1
    total = sum(file_size(f) for f in files if isinstance(f, str))
    jsonl = args.format == "jsonl"
    batches = audit_batches(read_items(files), options, jobs=jobs, jsonl=jsonl)
    progress = _Progress(total, shown)
    tally = _consume(batches, progress, _writer(out) if jsonl else None)
    progress.close()
    if not jsonl:
        _writer(out)(_report(args, tally).encode("utf-8", "backslashreplace"))


def _writer(out: IO[bytes]) -> Callable[[bytes], None]:
    def emit(data: bytes) -> None:
        out.write(data)
        out.flush()

    return emit
