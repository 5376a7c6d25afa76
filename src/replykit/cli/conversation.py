"""``replykit check`` and ``replykit respond``: the conversation side (§7, §8).

:func:`add_parser` registers both subcommands; each sets ``func`` to its runner
(:func:`run_check`, :func:`run_respond`), which returns the exit status.

Exit statuses: 0 success; 1 the input was read but fails (Self-check failed, answers
that do not fit the form); 2 usage error or an input that cannot be read, is not
UTF-8 or not strict JSON (§1: duplicate keys, NaN, numbers out of range, lone
surrogates are refused with their line and column), or has the wrong shape (one line
on standard error, never a traceback). Files are read as bytes and decoded as UTF-8,
so ``\\r\\n`` and a lone ``\\r`` in a message reach the parser unchanged; ``-`` is
standard input.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from replykit.cli.io import (
    MESSAGE_ID_RULE,
    InputError,
    check_form_id,
    check_message_id,
    dump,
    fail,
    input_name,
    label,
    labelled,
    one_stdin,
    read_json,
    read_text,
    require_shape,
    write,
    write_json,
    write_lines,
)
from replykit.questionnaire.conversation.responses import AnswersError, build_response
from replykit.questionnaire.conversation.selfcheck import SelfCheckResult, self_check
from replykit.questionnaire.conversation.stored import ConversationError, read_conversations
from replykit.questionnaire.conversation.texts import LOCALES
from replykit.questionnaire.model import Segment
from replykit.questionnaire.profiles import profile_from_string
from replykit.questionnaire.segmentation.segmenter import segment
from replykit.text import with_article
from replykit.textout import CONTINUATION, render, value_lines


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """Register ``check`` and ``respond`` on ``subparsers``.

    Input: the ``subparsers`` object of the main parser. Output: the two new
    subparsers, in that order, each with ``func`` set to its runner.
    """
    return _add_check(subparsers), _add_respond(subparsers)


def _add_check(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """The ``check`` subparser added to ``subparsers``: its arguments, help and runner."""
    check = subparsers.add_parser(
        "check",
        help="Self-check the latest assistant reply of a conversation (§8)",
        description=(
            "Read CONVERSATION.json, a JSON list of {role, content, message_type?} or an "
            "object with such a messages list (content: a string, null, or a list of "
            "content parts whose text/output_text parts are joined), and print "
            '{"passed", "index", "diagnostics", "repair_prompt"} (each diagnostic {code, '
            "severity, message, start, end, line, column, path, and for the cap's summary "
            "left_out: [{code, severity, count}]}). A JSON Lines file "
            "holds one conversation per line (a line with one message object is a "
            "conversation of that message) and prints one JSON line per conversation "
            'with its "line". Exit 0 when every conversation passes, 1 when one fails, '
            "2 on usage or an unreadable conversation (read as strict JSON: a duplicate key, "
            "NaN or a lone surrogate is an error)."
        ),
    )
    check.add_argument(
        "conversation", metavar="CONVERSATION.json", help="JSON or JSON Lines file, or - for stdin"
    )
    check.add_argument(
        "--format",
        choices=("json", "text"),
        default="json",
        help="json (default; one line per conversation for JSON Lines) or text: FILE: "
        "message N LINE:COL lines, then the repair prompt",
    )
    check.add_argument("--locale", choices=LOCALES, default="zh", help="message language")
    check.add_argument(
        "--jsonl",
        action="store_true",
        help="read the file as JSON Lines even when it is a single JSON value (one line)",
    )
    check.set_defaults(func=run_check)
    return check


def _add_respond(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """The ``respond`` subparser added to ``subparsers``: its arguments, help and runner."""
    respond = subparsers.add_parser(
        "respond",
        help="build the response to a questionnaire of a message (§7)",
        description=(
            "Answer the first valid questionnaire of the message (or the block --id "
            "names) and print {agent_text, display_text, answers}. ANSWERS.json maps a "
            "question id to a string (single choice, free text), a list of strings "
            '(multi choice) or {"value": ..., "other_text": ...}; questions left out '
            "take their default. Exit 1 when the answers do not fit the form (prints "
            "{diagnostics: [{code, severity, message, path, details}]}), 2 on usage."
        ),
    )
    respond.add_argument("--message", required=True, metavar="FILE", help="message file or -")
    respond.add_argument(
        "--message-id",
        required=True,
        metavar="ID",
        help=f"the message's id ({MESSAGE_ID_RULE}; block ids are ID_q1, ID_q2, ...)",
    )
    respond.add_argument(
        "--id",
        metavar="BLOCK_ID",
        help="block id, e.g. ID_q2 (a message id of 1 to 128 characters, not blank, then "
        "_q and the block's number; §6)",
    )
    respond.add_argument(
        "--answers",
        required=True,
        metavar="ANSWERS.json",
        help="JSON object from question id to answer, or - for stdin",
    )
    respond.add_argument(
        "--profile", default="client", help="client (default), self_check, or product:NAME"
    )
    respond.add_argument(
        "--locale", choices=LOCALES, default="zh", help="display-text defaults (§7)"
    )
    respond.set_defaults(func=run_respond)
    return respond


def _check_text(result: SelfCheckResult, path: str) -> str:
    return render(_check_lines(result, path))


def _check_lines(result: SelfCheckResult, path: str) -> Iterator[str]:
    """The text view of one result, a line at a time (rendered by the caller)."""
    where = "no assistant reply to check" if result.index is None else f"message {result.index}"
    yield f"{path}: {'passed' if result.passed else 'failed'} ({where})"
    for d in result.diagnostics:
        at = f" at {d.path}" if d.path else ""
        # The position is inside the checked message, not the conversation file.
        where_in = f"message {result.index} {d.line}:{d.column}"
        yield f"{path}: {where_in}: {d.severity} {d.code} {d.message}{at}"
    if result.repair_prompt is not None:
        # A protocol value (§1): its lines kept, each marked so none passes for a view line.
        # Prefixed as every line of the conversation, so a search by FILE:LINE keeps it.
        yield f"{path}: repair prompt:"
        yield from (f"{path}:   {CONTINUATION}{line}" for line in value_lines(result.repair_prompt))


def run_check(args: argparse.Namespace) -> int:
    """``replykit check CONVERSATION.json [--format json|text] [--locale zh|en] [--jsonl]``
    (§8).

    The file is one JSON value (a list of messages, an object with a ``messages`` list,
    or one message object) or JSON Lines of them
    (:func:`~replykit.questionnaire.conversation.stored.read_conversations`). For one value it
    prints the
    :class:`~replykit.questionnaire.conversation.selfcheck.SelfCheckResult` as JSON ``{"passed",
    "index",
    "diagnostics", "repair_prompt"}`` or as text lines (``FILE: message I L:C:
    severity code message``). For JSON Lines it prints one compact JSON line per
    conversation, ``{"line", "passed", "index", "diagnostics", "repair_prompt"}``
    (``line``: 1-based line of the input), or text lines prefixed ``FILE:LINE:``.
    Exit 0 when every conversation passes, 1 when one fails, 2 (nothing on stdout)
    when the file cannot be read, is not strict JSON (the line and column named), or
    a conversation does not have the shape above (the message named).
    """
    name = input_name(args.conversation)
    try:
        results, passed = _check_all(args)
    except InputError as exc:
        return fail("check", str(exc))
    _write_results(results, name, args.format)
    return 0 if passed else 1


#: One checked conversation: its 1-based line (``None`` for a single JSON value) and
#: its result, or the result's compact JSON text when that is all the output needs.
_Kept = tuple[int | None, SelfCheckResult | str]


def _check_all(args: argparse.Namespace) -> tuple[list[_Kept], bool]:
    """Every conversation of the file checked, in order, and whether all passed;
    :class:`InputError` when the file or a conversation cannot be read (§8)."""
    # Nothing is printed before every conversation has been read (exit 2 prints nothing),
    # so each result is kept (as its JSON text, equal texts shared) and each conversation
    # is let go once checked: memory stays near the input's size (§1).
    results: list[_Kept] = []
    shared: dict[str, str] = {}
    passed = True
    text = read_text(args.conversation, "conversation")  # read_conversations skips one BOM
    try:
        stored = read_conversations(text, json_lines=True if args.jsonl else None)
    except ConversationError as exc:
        raise InputError(f"conversation {input_name(args.conversation)} is {exc}") from None
    del text
    pending = list(reversed(stored))
    del stored
    while pending:
        conversation = pending.pop()
        at = "" if conversation.line is None else f" (line {conversation.line})"
        try:
            require_shape(
                conversation.value,
                "a conversation",
                (list, dict),
                "an array of messages or an object",
            )
            result = self_check(conversation.value, locale=args.locale)
        except (TypeError, InputError) as exc:
            raise InputError(f"the conversation{at} is malformed: {exc}") from None
        passed = passed and result.passed
        if args.format == "text" or conversation.line is None:
            results.append((conversation.line, result))
        else:
            shown = dump(result.to_json())
            results.append((conversation.line, shared.setdefault(shown, shown)))
    return results, passed


def _write_results(results: list[_Kept], name: str, view: str) -> None:
    """Print the kept results as ``view`` (``text`` or ``json``): one JSON value for a
    single conversation, one JSON line per conversation of JSON Lines."""
    # Written a batch at a time: the output is never held whole.
    if view == "text":
        short = label(name)
        lines = (
            view_line
            for line, kept in results
            if isinstance(kept, SelfCheckResult)
            for view_line in _check_lines(kept, short if line is None else f"{short}:{line}")
        )
        write_lines(labelled(name, lines))
    elif len(results) == 1 and isinstance(results[0][1], SelfCheckResult):
        write_json(results[0][1].json_fields())  # one conversation: diagnostics in batches
    else:
        out: list[str] = []
        for i, (line, kept) in enumerate(results, 1):
            if isinstance(kept, str):
                out.append(f'{{"line":{line},' + kept[1:])  # dump({"line": line, **result})
            if i % 1000 == 0 or i == len(results):
                write("".join(out))
                out.clear()


def _pick_form(
    segments: tuple[Segment, ...], block_id: str | None, path: str, profile: str
) -> Segment:
    forms = [s for s in segments if s.kind == "questionnaire"]
    if block_id is None:
        for s in forms:
            if s.valid:
                return s
        raise InputError(f"message {path} has no valid questionnaire")
    for s in forms:
        if s.id == block_id:
            if not s.registered:
                # Valid or not is the profile's business here: say which it is (§6).
                namespace = (s.name or "").removesuffix("-questionnaire")
                kind = with_article(str(s.name))
                raise InputError(
                    f"block {block_id} of {path} is {kind} block, which profile "
                    f"{profile} does not register (--profile product:{namespace} does)"
                )
            if not s.valid:
                raise InputError(f"block {block_id} of {path} is not a valid questionnaire")
            return s
    raise InputError(f"message {path} has no questionnaire with id {block_id}")


def run_respond(args: argparse.Namespace) -> int:
    """``replykit respond --message FILE --message-id ID [--id BLOCK_ID] --answers
    ANSWERS.json [--profile P] [--locale zh|en]`` (§7).

    The form is the first valid questionnaire of the message under the profile
    (``client`` default), or the block ``--id`` names; the response name is that
    block's name. Prints ``{"agent_text", "display_text", "answers"}`` and exits 0;
    exit 1 with ``{"diagnostics": [{code, severity, path, message, details}]}`` when
    the answers do not fit the form; 2 on usage (unreadable files, answers not a JSON
    object, no such valid form, a bad profile).
    """
    try:
        try:
            profile = profile_from_string(args.profile)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        check_message_id(args.message_id)
        if args.id is not None:
            check_form_id("--id", args.id)
        one_stdin(__message=args.message, __answers=args.answers)
        text = read_text(args.message, "message")
        answers = read_json(args.answers, "answers")
        require_shape(answers, "the answers", (dict,), "a JSON object from question id to answer")
        seg = _pick_form(
            segment(text, message_id=args.message_id, profile=profile).segments,
            args.id,
            input_name(args.message),
            args.profile,
        )
    except InputError as exc:
        return fail("respond", str(exc))
    assert seg.questionnaire is not None and seg.name is not None and seg.id is not None
    try:
        built = build_response(
            seg.questionnaire,
            answers,
            name=seg.name,
            questionnaire_id=seg.id,
            locale=args.locale,
        )
    except AnswersError as exc:
        write(
            dump(
                {
                    "diagnostics": [
                        {
                            "code": f.code,
                            "severity": f.severity,
                            "path": f.details.get("path"),
                            "message": f.message,
                            "details": dict(f.details),
                        }
                        for f in exc.findings
                    ]
                }
            )
        )
        return 1
    write(dump(built.to_json()))
    return 0
