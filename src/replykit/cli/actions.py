"""``replykit actions``: sanitize an answer's actions from the command line (§12).

The main CLI registers the subcommand with :func:`add_parser` and calls :func:`run`.
The answer-actions package is imported when the command runs, not when the parser
tree is built.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from replykit.cli.io import (
    InputError,
    dump,
    fail,
    input_name,
    one_stdin,
    read_json,
    require_shape,
    write,
)
from replykit.jsonout import dumps
from replykit.textout import CONTINUATION, render, value_lines

if TYPE_CHECKING:
    from replykit.actions.context import ActionContext
    from replykit.actions.model import ActionDiagnostic, AnswerAction


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Register ``actions ANSWER.json [--context CONTEXT.json] [--lint] [--format json|text]``.

    Input: the ``subparsers`` object of the main parser. Output: the new subparser,
    with ``func=run`` set as a default (§12; the context shape in docs/actions.md).
    """
    parser = subparsers.add_parser(
        "actions",
        help="sanitize the answer actions of an answer JSON file (seed 004)",
        description=(
            "Print the kept actions, the client-added entries, the ids that need "
            "confirmation and a diagnostic for every dropped action or removed field. "
            "Exit 0 (drops are diagnostics), 2 when a file cannot be read or is not strict "
            "JSON (a duplicate key, NaN, 1e400 or a lone surrogate is an error) or the "
            "answer is a JSON string."
        ),
    )
    parser.add_argument(
        "answer", metavar="ANSWER.json", help="answer JSON file, or - for standard input"
    )
    parser.add_argument(
        "--context",
        metavar="CONTEXT.json",
        help='host context: {"hasFullDetails", "charts", "question", "locale"} (docs/actions.md)',
    )
    parser.add_argument(
        "--lint",
        action="store_true",
        help="add producer warnings (§12; seed 004 '11. 对接检查清单') as lint",
    )
    parser.add_argument(
        "--format", choices=("json", "text"), default="json", help="output format (default json)"
    )
    parser.set_defaults(func=run)
    return parser


def build_report(answer: Any, context: ActionContext, with_lint: bool) -> dict[str, Any]:
    """The CLI's JSON: ``{"actions", "added", "confirm", "diagnostics"[, "lint"]}``.

    ``actions``: kept actions in order; ``added``: client-added entries; ``confirm``:
    ids (of both) that need confirmation, display order; ``diagnostics`` and ``lint``:
    ``[{"code", "path", "message"}]``. Raises ``TypeError`` for a ``str`` answer (as
    :func:`~replykit.actions.sanitize`), nothing else (§12).
    """
    from replykit.actions import lint, needs_confirmation, sanitize, with_defaults

    action_set = with_defaults(sanitize(answer), context)
    report: dict[str, Any] = {
        "actions": [a.to_json() for a in action_set.actions],
        "added": [a.to_json() for a in action_set.added],
        "confirm": [a.id for a in action_set.all_actions if needs_confirmation(a)],
        "diagnostics": [d.to_json() for d in action_set.diagnostics],
    }
    if with_lint:
        report["lint"] = [d.to_json() for d in lint(answer)]
    return report


def _action_lines(action: AnswerAction, confirm: bool, head: str) -> list[str]:
    # The id and the label are JSON strings (docs/actions.md section 11): a quote or a
    # backslash inside is escaped, so no id or label can end early and pass its two
    # spaces, ``[confirm]`` or ``prompt:`` off as another column; render() then escapes
    # controls and bidi characters (§1.4). A prompt is a protocol value and keeps its
    # line breaks, so it comes last (nothing follows it to imitate) and continues on
    # marked lines.
    line = f"{head}{dumps(action.id)}  {action.type}  {dumps(action.label)}"
    if action.chartType is not None:
        line += f"  chartType: {action.chartType}"
    if confirm:
        line += "  [confirm]"
    if action.prompt is None:
        return [line]
    first, *rest = value_lines(action.prompt)
    margin = " " * (len(head) + 2) + CONTINUATION
    return [f"{line}  prompt: {first}", *(margin + more for more in rest)]


def _diagnostic_line(diagnostic: ActionDiagnostic) -> str:
    return f"  {diagnostic.code}  {diagnostic.path or '-'}  {diagnostic.message}"


def format_text(answer: Any, context: ActionContext, with_lint: bool) -> str:
    """The ``--format text`` listing: one section per key of :func:`build_report`.

    Every value is escaped (docs/protocol.md §1.4): an id, label or message holding
    a line break or a control character stays on its line. Ids and labels are written
    as JSON strings (``"pay"``), so one holding two spaces, ``[confirm]`` or
    ``prompt:`` cannot pass for another column or flag (docs/actions.md section 11).
    Input: as :func:`build_report`; output: the text, one ``\n`` after each line;
    raises ``TypeError`` for a ``str`` answer only. A multi-line prompt ends
    its action's line and continues on lines marked ``| `` (no section line starts
    with spaces and ``|``).
    """
    from replykit.actions import lint, needs_confirmation, sanitize, with_defaults

    action_set = with_defaults(sanitize(answer), context)
    lines = [f"actions ({len(action_set.actions)}, from {action_set.source or 'nowhere'}):"]
    for i, a in enumerate(action_set.actions, start=1):
        lines += _action_lines(a, needs_confirmation(a), f"  {i}. ")
    if not action_set.actions:
        lines.append("  (none)")
    lines.append(f"added ({len(action_set.added)}):")
    for a in action_set.added:
        lines += _action_lines(a, needs_confirmation(a), "  + ")
    if not action_set.added:
        lines.append("  (none)")
    lines.append(f"diagnostics ({len(action_set.diagnostics)}):")
    lines += [_diagnostic_line(d) for d in action_set.diagnostics] or ["  (none)"]
    if with_lint:
        warnings = lint(answer)
        lines.append(f"lint ({len(warnings)}):")
        lines += [_diagnostic_line(d) for d in warnings] or ["  (none)"]
    return render(lines)


def run(args: argparse.Namespace) -> int:
    """Run ``replykit actions``; returns the exit status.

    Input: parsed arguments ``answer`` (path or ``-``), ``context`` (path or ``None``),
    ``lint`` (bool), ``format`` (``json``/``text``). Prints the report to stdout.
    Exit 0 whenever both files decode (dropped actions are diagnostics, not failures);
    2 with a one-line ``replykit actions: error: ...`` on stderr when a file cannot be
    read or decoded, the answer is a JSON string (JSON text encoded twice), or the
    context does not have the documented shape.
    Rule: §12; the context shape in docs/actions.md.
    """
    from replykit.actions import ActionContext, ContextError, parse_context

    try:
        one_stdin(ANSWER=args.answer, __context=args.context)
        answer = read_json(args.answer, "answer")
        if isinstance(answer, str):  # any other non-object answer has no actions
            require_shape(answer, f"answer {input_name(args.answer)}", (dict,), "an answer object")
        context = ActionContext()
        if args.context is not None:
            context = parse_context(read_json(args.context, "context"))
    except (InputError, ContextError) as exc:
        return fail("actions", str(exc))
    if args.format == "text":
        write(format_text(answer, context, bool(args.lint)))
        return 0
    report = build_report(answer, context, bool(args.lint))
    write(dump(report))
    return 0
