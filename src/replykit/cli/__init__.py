"""The ``replykit`` command line: :func:`main` and the parser tree, one module per group.

Subcommands, in ``--help`` order, and the module that registers and runs them:

  segment          split a message into Markdown and questionnaire blocks (§2-§6, §8)
                   (:mod:`replykit.cli.segment`)
  stream           segment a message as it arrives, one JSON line per update (§10)
                   (:mod:`replykit.cli.stream`)
  check, respond   Self-check a conversation (§8); build the response to a form (§7)
                   (:mod:`replykit.cli.conversation`)
  audit            audit stored replies for protocol compliance, per group (§8)
                   (:mod:`replykit.cli.audit`)
  tool, schema     run the questionnaire_async tool (§7); print a JSON Schema
                   (:mod:`replykit.cli.tool`)
  actions          sanitize an answer's action buttons (§12) (:mod:`replykit.cli.actions`)
  fuzz             compare another implementation with replykit (docs/fuzzing.md;
                   needs the ``replykit[fuzz]`` extra) (:mod:`replykit.cli.fuzz`)
  vectors          export the conformance vectors (:mod:`replykit.cli.vectors`)
  serve            the local playground page (docs/serve.md) (:mod:`replykit.cli.serve`)

Building the parser tree imports only these small modules; each command imports what
it runs when it runs, so ``replykit segment`` loads neither the answer-actions package
nor the fuzzer nor Hypothesis. Shared input and output: :mod:`replykit.cli.io`.

Exit status: 0 when the input was read (problems in it are reported as diagnostics),
1 where a command reports a failed check, 2 on a usage error or an unreadable or
undecodable input (one line on stderr).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from replykit import __version__
from replykit.argcheck import typed
from replykit.cli import actions, audit, conversation, fuzz, segment, serve, stream, tool, vectors
from replykit.cli.io import InputError, check_message_id, fail, note, os_reason, write
from replykit.questionnaire.payload.yaml_loader import choose_loader
from replykit.textout import escape, quoted

#: The command-group modules, in ``--help`` order; each has ``add_parser(subparsers)``.
GROUPS = (segment, stream, conversation, audit, tool, actions, fuzz, vectors, serve)


class _Version(argparse.Action):
    """``--version``: the version and which build is installed (:func:`replykit.build_info`),
    looked up only when asked for, so other commands do not pay for it."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> NoReturn:
        from replykit.build import build_info

        write(f"replykit {__version__} ({build_info().label()})\n")  # OSError: main says it
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """A parser whose usage errors raise :class:`InputError` naming its own command
    (``replykit respond: error: ...``), unknown arguments included: a subcommand takes
    every argument after its name, so what it leaves over is its own error, not the
    top-level parser's."""

    def error(self, message: str) -> NoReturn:
        raise InputError(f"{self.prog}: error: {message}")

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse drops a failed write of --help silently (exit 0 with nothing shown):
        # standard output goes through write(), whose OSError main() reports (exit 2).
        if not message:
            return
        if file is not None and file is sys.stderr:
            note(message.rstrip("\n"))
        else:  # standard output (None: it is closed, and write() says so)
            write(message)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse quotes a wrong choice with repr() ("\\x1b"); quoted as every other
        # usage error quotes input (docs/cli.md: escaped as in the text output, "\\u001b").
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(map(repr, action.choices))
            shown = quoted(value) if isinstance(value, str) else repr(value)
            message = f"invalid choice: {shown} (choose from {choices})"
            raise argparse.ArgumentError(action, message)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and self.prog != "replykit":
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand, each with ``func`` set to its runner
    (usage errors raise :class:`~replykit.cli.io.InputError`). Imports no command's
    implementation."""
    parser = _Parser(
        prog="replykit",
        description="Reference parser for the Inline Questionnaire and answer-actions protocols.",
    )
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        help="print the version and the build (replykit X.Y.Z (pure Python) or "
        "replykit X.Y.Z (compiled (N of M scanner and payload modules))) and exit 0",
    )
    sub: argparse._SubParsersAction[argparse.ArgumentParser] = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser
    )
    for group in GROUPS:
        group.add_parser(sub)
    return parser


@typed
def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``replykit`` command; returns the exit status, never raises
    ``SystemExit`` (0 after ``--help`` or ``--version``; 2 for a bad input, a bad
    ``REPLYKIT_YAML_LOADER`` (docs/cli.md "Environment") or output that cannot be
    written; 141 when the reader of standard output went away, as a shell pipeline's
    ``| head`` does)."""
    try:
        args = build_parser().parse_args(argv)
    except InputError as e:
        note(escape(str(e)))
        return 2
    except SystemExit as e:  # --help and --version: printed, exit 0
        return e.code if isinstance(e.code, int) else 0
    except OSError as e:  # --help or --version could not be written
        _quiet_stdout()
        note(f"replykit: error: cannot write the output: {escape(os_reason(e))}")
        return 2
    try:
        choose_loader()  # a bad REPLYKIT_YAML_LOADER is a usage error, before any reading
    except ValueError as e:
        return fail(args.command, str(e))
    try:
        status: int = args.func(args)
        return status
    except InputError as e:  # one line, as every command prints it
        return fail(args.command, str(e))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader closed the pipe: stop quietly, and keep the interpreter's final
        # flush from raising again on the closed descriptor.
        _quiet_stdout()
        return 141
    except OSError as e:
        # Standard output is closed or a write failed (a full disk): a usage-level error
        # (2), never a command's "check failed" (1), and no traceback (docs/cli.md).
        _quiet_stdout()
        return fail(args.command, f"cannot write the output: {os_reason(e)}")


def _quiet_stdout() -> None:
    """Point standard output at the null device, so the interpreter's final flush of
    what could not be written raises nothing more."""
    if sys.stdout is None:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        sys.stdout = None


__all__ = ["GROUPS", "InputError", "build_parser", "check_message_id", "main"]
