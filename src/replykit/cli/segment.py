"""``replykit segment``: split a message into Markdown and questionnaire segments.

Needs only the core of replykit (already loaded with the package), so the command
starts as fast as ``import replykit`` allows.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator

from replykit.cli.io import (
    MESSAGE_ID_RULE,
    InputError,
    check_message_id,
    input_name,
    label,
    labelled,
    read_text,
    write_json,
    write_lines,
)
from replykit.questionnaire.model import Segmentation
from replykit.questionnaire.profiles import profile_from_string
from replykit.questionnaire.segmentation.segmenter import segment
from replykit.text import LineIndex
from replykit.textout import render


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Register ``segment [FILE] [--profile P] [--message-id ID] [--format json|text]
    [--compat sage]`` on the main parser's ``subparsers``. Output: the new subparser,
    with ``func`` set to :func:`run_segment`."""
    p = subparsers.add_parser(
        "segment",
        help="split a message into Markdown and questionnaire segments",
        description="Read one assistant message (UTF-8) and print its segments and "
        "diagnostics. JSON: {segments: [{kind, start, end, text, and for blocks encoding, "
        "name, registered, valid, id, diagnostics, questionnaire|response}], diagnostics: "
        "[{code, severity, message, start, end, line, column, path, and for the cap's "
        "summary left_out: [{code, severity, count}]}], and with --compat sage decoded "
        "(the text the offsets index) when decoding changed it}; offsets are "
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
        help=f"message id used in block ids ({MESSAGE_ID_RULE})",
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
    p.set_defaults(func=run_segment)
    return p


#: Appended to the file name in the text view when ``--compat sage`` decoded the file's
#: transport encoding: its lines and columns are the decoded text's, not the file's.
DECODED_MARK = " (decoded)"


def segment_text(name: str, text: str, result: Segmentation) -> str:
    """The ``--format text`` listing of ``result`` for the file ``name``: one line per
    segment (``NAME:FIRST-LAST: kind ...``, 1-based lines), the form's title and
    questions or the response's answers under it, then one
    ``NAME:LINE:COLUMN: severity code message`` line per diagnostic. Every value is
    escaped (:func:`~replykit.textout.render`, §1): none can add a line or send a
    control character. A long ``name`` is printed whole once and shortened in the
    per-line labels (:func:`~replykit.cli.io.labelled`, §1.5)."""
    return render(labelled(name, segment_lines(label(name), text, result)))


def segment_lines(name: str, text: str, result: Segmentation) -> Iterator[str]:
    """The lines of :func:`segment_text`, one at a time and not yet escaped (a large
    listing is never held whole)."""
    lines = LineIndex(text)
    for seg in result.segments:
        first = lines.line_col(seg.start)[0]
        last = lines.line_col(max(seg.start, seg.end - 1))[0]
        head = f"{name}:{first}-{last}: {seg.kind}"
        if seg.kind != "markdown":
            state = "valid" if seg.valid else ("invalid" if seg.registered else "unregistered")
            head += f" {seg.encoding} {seg.name} {seg.id} {state}"
        yield head
        if seg.questionnaire is not None:
            form = seg.questionnaire
            yield f"  title: {form.title}"
            for q in form.questions:
                opts = ", ".join(o.label for o in q.options)
                yield f"  {q.id} [{q.type}] {q.text}" + (f" ({opts})" if opts else "")
        if seg.response is not None:
            for a in seg.response.answers:
                yield f"  {a.question_id}: {json.dumps(a.answer, ensure_ascii=False)}"
    for d in result.diagnostics:
        where = f" at {d.path}" if d.path else ""
        yield f"{name}:{d.line}:{d.column}: {d.severity} {d.code} {d.message}{where}"


def run_segment(args: argparse.Namespace) -> int:
    """Run ``replykit segment`` on parsed arguments ``file``, ``profile``,
    ``message_id``, ``format``, ``compat``; print the segmentation (JSON or text) and
    return 0. Raises :class:`~replykit.cli.io.InputError` (exit 2) for a bad profile,
    a too long message id, or a file that cannot be read or is not UTF-8."""
    check_message_id(args.message_id)
    try:
        profile = profile_from_string(args.profile)
    except ValueError as e:
        raise InputError(str(e)) from None
    text = read_text(args.file, "message")
    result = segment(text, message_id=args.message_id, profile=profile, compat=args.compat)
    if args.format == "json":
        write_json(result.json_fields())  # a large output is never held whole
    else:
        name = input_name(args.file)
        shown = label(name)
        if result.decoded is not None:
            # Lines and columns index the decoded text, not the file (§9).
            shown += DECODED_MARK
        write_lines(labelled(name, segment_lines(shown, result.decoded or text, result)))
    return 0
