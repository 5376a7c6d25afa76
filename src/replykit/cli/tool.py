"""``replykit tool`` and ``replykit schema``: the tool-call variant (§7) and the JSON
Schemas.

:func:`add_parser` registers both subcommands; each sets ``func`` to its runner
(:func:`run_tool`, :func:`run_schema`). ``schema actions`` imports the answer-actions
package when it runs, so the other commands do not load it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from replykit.cli.io import InputError, dump, fail, read_json, require_shape, write
from replykit.questionnaire.conversation.schemas import form_schema, response_schema
from replykit.questionnaire.conversation.texts import LOCALES
from replykit.questionnaire.conversation.tool import (
    TOOL_NAME,
    call_questionnaire_async,
    tool_schema,
)


def _action_schema() -> dict[str, Any]:
    # The answer-actions package is loaded only for this schema.
    from replykit.actions.schema import action_schema

    return action_schema()


#: ``replykit schema WHICH``: the schema each name prints.
SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    "tool": tool_schema,
    "form": form_schema,
    "response": response_schema,
    "actions": _action_schema,
}


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """Register ``tool`` and ``schema`` on ``subparsers``.

    Input: the ``subparsers`` object of the main parser. Output: the two new
    subparsers, in that order, each with ``func`` set to its runner.
    """
    tool = subparsers.add_parser(
        "tool",
        help="run the questionnaire_async tool on call arguments (§7)",
        description=(
            "Print the tool result for ARGS.json (the tool-call arguments object). Exit "
            "0 on success, 1 on validation errors, 2 when ARGS is unreadable, not strict "
            "JSON (a duplicate key, NaN, 1e400 or a lone surrogate is an error) or not an "
            "object."
        ),
    )
    tool.add_argument("name", choices=(TOOL_NAME,), metavar=f"{{{TOOL_NAME}}}", help="tool name")
    tool.add_argument("arguments", metavar="ARGS.json", help="file, or - for stdin")
    tool.add_argument("--locale", choices=LOCALES, default="zh", help="message language")
    tool.set_defaults(func=run_tool)

    schema = subparsers.add_parser(
        "schema",
        help="print a JSON Schema (tool, form, response, actions)",
        description=(
            "Print a JSON Schema (draft 2020-12). tool: the questionnaire_async "
            "arguments, usable as an LLM tool definition; form: the XML+JSON request "
            "payload (the JSON inside <questionnaire>...</questionnaire>); response: the "
            "response payload (inside <questionnaire-response>...</questionnaire-response>); "
            "actions: a sanitized answer-actions list. Exit 0."
        ),
    )
    schema.add_argument(
        "which",
        choices=tuple(SCHEMAS),
        metavar="{" + ",".join(SCHEMAS) + "}",
        help="tool, form (request payload), response (response payload) or actions",
    )
    schema.set_defaults(func=run_schema)
    return tool, schema


def run_tool(args: argparse.Namespace) -> int:
    """``replykit tool questionnaire_async ARGS.json [--locale zh|en]`` (§7).

    Prints the tool result (the seed's success or error object). Exit 0 on success, 1
    on validation errors, 2 when ARGS cannot be read or is not a JSON object.
    """
    try:
        arguments = read_json(args.arguments, "arguments")
        require_shape(arguments, "the tool-call arguments", (dict,), "a JSON object")
    except InputError as exc:
        return fail("tool", str(exc))
    result = call_questionnaire_async(arguments, locale=args.locale)
    write(dump(result))
    return 0 if result["success"] else 1


def run_schema(args: argparse.Namespace) -> int:
    """``replykit schema tool|form|response|actions``: print the schema :data:`SCHEMAS`
    names as JSON (:func:`~replykit.questionnaire.conversation.tool.tool_schema`,
    :func:`~replykit.questionnaire.conversation.schemas.form_schema`,
    :func:`~replykit.questionnaire.conversation.schemas.response_schema`,
    :func:`~replykit.actions.action_schema`); exit 0."""
    write(dump(SCHEMAS[args.which]()))
    return 0
