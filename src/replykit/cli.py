"""The ``replykit`` command line.

Subcommands:
  segment   split a message into Markdown and questionnaire blocks (§2-§6, §8)
  check     Self-check a conversation's latest assistant reply (§8)
  respond   build the response to a form in a message (§7)
  tool      run the questionnaire_async tool on arguments (§7)
  schema    print a JSON Schema: tool arguments, form or response payload, actions
  actions   sanitize an answer's action buttons (seed 004, §12)
  fuzz      compare another implementation with replykit (issue 6)
  vectors   export the conformance vectors

Exit status: 0 when the input was read (problems in it are reported as diagnostics),
2 on a usage error or an unreadable or undecodable input (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from replykit import __version__
from replykit.cli_io import InputError, dump, fail, read_text, write
from replykit.limits import MAX_MESSAGE_ID
from replykit.model import Segmentation
from replykit.payload.yaml_loader import choose_loader
from replykit.profiles import profile_from_string
from replykit.segmenter import segment
from replykit.text import LineIndex
from replykit.textout import escape, render


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise InputError(f"{self.prog}: error: {message}")


def _segment_text(name: str, text: str, result: Segmentation) -> str:
    # render() escapes every line (§1): no value can add a line or send a control.
    lines = LineIndex(text)
    out = []
    for seg in result.segments:
        first = lines.line_col(seg.start)[0]
        last = lines.line_col(max(seg.start, seg.end - 1))[0]
        head = f"{name}:{first}-{last}: {seg.kind}"
        if seg.kind != "markdown":
            state = "valid" if seg.valid else ("invalid" if seg.registered else "unregistered")
            head += f" {seg.encoding} {seg.name} {seg.id} {state}"
        out.append(head)
        if seg.questionnaire is not None:
            form = seg.questionnaire
            out.append(f"  title: {form.title}")
            for q in form.questions:
                opts = ", ".join(o.label for o in q.options)
                out.append(f"  {q.id} [{q.type}] {q.text}" + (f" ({opts})" if opts else ""))
        if seg.response is not None:
            for a in seg.response.answers:
                out.append(f"  {a.question_id}: {json.dumps(a.answer, ensure_ascii=False)}")
    for d in result.diagnostics:
        where = f" at {d.path}" if d.path else ""
        out.append(f"{name}:{d.line}:{d.column}: {d.severity} {d.code} {d.message}{where}")
    return render(out)


def check_message_id(message_id: str) -> None:
    """Raise :class:`InputError` for a ``--message-id`` longer than ``segment()`` takes."""
    if len(message_id) > MAX_MESSAGE_ID:
        raise InputError(f"--message-id is longer than {MAX_MESSAGE_ID} characters")


def _cmd_segment(args: argparse.Namespace) -> int:
    check_message_id(args.message_id)
    try:
        profile = profile_from_string(args.profile)
    except ValueError as e:
        raise InputError(str(e)) from None
    text = read_text(args.file, "message")
    result = segment(text, message_id=args.message_id, profile=profile, compat=args.compat)
    if args.format == "json":
        write(dump(result.to_json()))
    else:
        write(
            _segment_text(
                "<stdin>" if args.file == "-" else args.file, result.decoded or text, result
            )
        )
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand (usage errors raise InputError)."""
    parser = _Parser(
        prog="replykit",
        description="Reference parser for the Inline Questionnaire and answer-actions protocols.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"replykit {__version__}",
        help="print the version (replykit X.Y.Z) and exit 0",
    )
    sub: argparse._SubParsersAction[argparse.ArgumentParser] = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser
    )
    p = sub.add_parser(
        "segment",
        help="split a message into Markdown and questionnaire segments",
        description="Read one assistant message (UTF-8) and print its segments and "
        "diagnostics. JSON: {segments: [{kind, start, end, text, and for blocks encoding, "
        "name, registered, valid, id, diagnostics, questionnaire|response}], diagnostics: "
        "[{code, severity, message, start, end, line, column, path}]}; offsets are "
        "code-point indices. Exit 0 when read, 2 on usage or unreadable input.",
    )
    p.add_argument("file", nargs="?", default="-", help="message file, or - for stdin")
    p.add_argument(
        "--profile",
        default="client",
        help="registered names: client (default), self_check, or product:NAME",
    )
    p.add_argument(
        "--message-id",
        default="message",
        help=f"message id used in block ids (at most {MAX_MESSAGE_ID} characters)",
    )
    p.add_argument(
        "--format",
        choices=("json", "text"),
        default="json",
        help="json (default) or text: one line per segment and diagnostic, values escaped",
    )
    p.add_argument(
        "--compat",
        choices=("sage",),
        default=None,
        help="read a stored Sage conversation message with the §9 relaxations",
    )
    p.set_defaults(func=_cmd_segment)
    # Subcommands of the other protocols register themselves; imported here so that
    # ``replykit segment`` does not pay for them.
    from replykit import conversation_cli
    from replykit.actions import cli as actions_cli
    from replykit.fuzz import cli as fuzz_cli

    conversation_cli.add_parser(sub)
    actions_cli.add_parser(sub)
    fuzz_cli.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``replykit`` command; returns the exit status (2 for a bad
    input or a bad ``REPLYKIT_YAML_LOADER``, docs/cli.md "Environment")."""
    try:
        args = build_parser().parse_args(argv)
    except InputError as e:
        print(escape(str(e)), file=sys.stderr)
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


if __name__ == "__main__":
    raise SystemExit(main())
