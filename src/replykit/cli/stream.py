"""``replykit stream``: segment a message as it arrives, one JSON line per update (§10).

Reads the message from a file or standard input as it arrives (standard input, or a
pipe given as a path: each read is one chunk, decoded as UTF-8 incrementally), or the
text deltas of a captured server-sent-event stream (``--sse``, :mod:`replykit.cli.sse`),
and pushes it to a :class:`~replykit.StreamSegmenter`. docs/cli.md and
docs/streaming.md give the output.
"""

from __future__ import annotations

import argparse
import codecs
import os
import stat
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from replykit.cli.io import (
    MESSAGE_ID_RULE,
    InputError,
    check_message_id,
    dump,
    input_name,
    os_reason,
    stdin,
    write,
    write_json,
)
from replykit.cli.numbers import integer
from replykit.text import LINE_END_RE

#: Code points per chunk when reading a file (``--chunk-size`` changes it).
FILE_CHUNK = 64
_READ = 65536  # bytes per read


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Register ``stream [FILE|-] [--chunk-size N] [--sse] [--profile P] [--message-id
    ID] [--compat sage] [--preview]`` on ``subparsers``. Output: the new subparser, with
    ``func`` set to :func:`run_stream`."""
    p = subparsers.add_parser(
        "stream",
        help="segment a message as it arrives, one JSON line per update (§10)",
        description="Push a message (UTF-8) to a StreamSegmenter as it arrives and print "
        'one JSON line per update: {"event": "commit", "committed": [...], "diagnostics": '
        '[...], "committed_end": N} when something became final, {"event": "pending", '
        '"pending_kept": K, "pending": [...], "held_from": N, "received": N} when the '
        "pending tail or held_from changed (its first K items as the last pending event left them, "
        "then the items listed: each item is printed once while it stays unchanged), "
        'and last {"event": "done", "segments": [...], "diagnostics": [...]} (exactly '
        "replykit segment's result, decoded included). Committed items and segments are "
        "replykit segment's segments ({kind, start, end, text, and for blocks encoding, "
        "name, registered, valid, id, diagnostics, questionnaire|response}); "
        "diagnostics its diagnostics ({code, severity, message, start, end, line, "
        "column, path, left_out: [{code, severity, count}]}); a pending item is "
        "{kind, start} for Markdown, {kind, encoding, name, id, start, closed, "
        "tentative, preview} for a block (preview with --preview). Offsets are "
        "code-point indices. Exit 0 when read, 2 on usage or unreadable input.",
    )
    p.add_argument("file", nargs="?", default="-", help="message file, or - for stdin")
    p.add_argument(
        "--chunk-size",
        type=integer(minimum=1),
        default=None,
        metavar="N",
        help=f"push N code points at a time (default: a file in chunks of {FILE_CHUNK}; "
        "stdin and --sse as they arrive: each read, each delta)",
    )
    p.add_argument(
        "--sse",
        action="store_true",
        help="the input is a captured server-sent-event stream (OpenAI-style: the "
        "delta.content, or a legacy completion's text, of the choice with index 0; an "
        "OpenAI Responses stream's response.output_text.delta events; Anthropic-style: "
        "content_block_delta text deltas); an error event, a stream without its end "
        "event ([DONE], message_stop, response.completed) or without any data: line is "
        "an input error (exit 2)",
    )
    p.add_argument("--profile", default="client", help="client (default), self_check, product:NAME")
    p.add_argument(
        "--message-id",
        default="message",
        help=f"used in block ids ({MESSAGE_ID_RULE})",
    )
    p.add_argument("--compat", choices=("sage",), default=None, help="the §9 relaxations")
    p.add_argument("--preview", action="store_true", help="pending blocks carry their questions")
    p.set_defaults(func=run_stream)
    return p


def _decoded(handle: BinaryIO, name: str) -> Iterator[str]:
    """The text of ``handle`` as it arrives (each read decoded as far as it goes). A
    byte that is not UTF-8 is an error only once the text before it has been taken and
    more is asked for: what a reader stops before (an SSE stream's end event) is never
    judged, wherever the reads happen to end."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    seen = 0
    while True:
        try:
            data = handle.read1(_READ) if hasattr(handle, "read1") else handle.read(_READ)
        except OSError as exc:  # a read that fails after the file opened: still input
            raise InputError(f"cannot read message {name}: {os_reason(exc)}") from None
        held = len(decoder.getstate()[0])  # bytes of a character begun in the last read
        try:
            text = decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            if exc.start > held:  # the text before the bad byte first
                yield decoder.decode(data[: exc.start - held])
            byte = seen - held + exc.start
            raise InputError(f"message {name} is not UTF-8 (byte {byte})") from None
        seen += len(data)
        if text:
            yield text
        if not data:
            return


def _lines(pieces: Iterable[str]) -> Iterator[str]:
    """The lines of the text ``pieces`` (without their endings: ``\n``, ``\r\n`` or
    ``\r``, as server-sent events end lines), each as soon as it is complete. Linear:
    only a new piece is searched, and the pieces of a line still open are joined once,
    when it ends (a line of megabytes read 64 KiB at a time is not copied per read)."""
    held: list[str] = []  # the open line's pieces (a final "\r" stays in the last one)
    for piece in pieces:
        if not piece:
            continue
        at = 0
        if held and held[-1].endswith("\r"):
            # "\r" then "\n" is one line ending; "\r" then anything else was one.
            line = "".join(held)[:-1]
            held = []
            at = 1 if piece[0] == "\n" else 0
            yield line
        for m in LINE_END_RE.finditer(piece, at):
            if m.group() == "\r" and m.end() == len(piece):
                break  # "\n" may follow in the next piece
            held.append(piece[at : m.start()])
            yield "".join(held)
            held = []
            at = m.end()
        if at < len(piece):
            held.append(piece[at:])
    if held:
        yield "".join(held).removesuffix("\r")


def _rechunked(pieces: Iterable[str], size: int) -> Iterator[str]:
    """``pieces`` joined and cut again every ``size`` code points (each piece is
    sliced once: no quadratic copying of a large read)."""
    carry = ""
    source = iter(pieces)
    while True:
        try:
            piece = next(source, None)
        except InputError:
            if carry:  # the text read before a bad byte is pushed before the error
                yield carry
            raise
        if piece is None:
            break
        at = 0
        if carry:
            at = size - len(carry)
            if len(piece) < at:
                carry += piece
                continue
            yield carry + piece[:at]
        for start in range(at, len(piece) - size + 1, size):
            yield piece[start : start + size]
        tail = (len(piece) - at) % size
        carry = piece[len(piece) - tail :] if tail else ""
    if carry:
        yield carry


def _regular(handle: BinaryIO) -> bool:
    """Whether ``handle`` reads a regular file (not a pipe, FIFO or device)."""
    try:
        return stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
    except (OSError, ValueError):  # no descriptor (an in-memory stream): a whole text
        return True


def _chunks(args: argparse.Namespace, handle: BinaryIO) -> Iterator[str]:
    name = input_name(args.file)
    pieces: Iterable[str] = _decoded(handle, name)
    if args.sse:
        from replykit.cli.sse import deltas

        pieces = deltas(_lines(pieces), name)
    size = args.chunk_size
    if size is None and args.file != "-" and not args.sse and _regular(handle):
        size = FILE_CHUNK  # a pipe or FIFO given as a path is read as it arrives, as stdin
    return _rechunked(pieces, size) if size is not None else iter(pieces)


def run_stream(args: argparse.Namespace) -> int:
    """Run ``replykit stream`` on parsed arguments ``file``, ``chunk_size``, ``sse``,
    ``profile``, ``message_id``, ``compat``, ``preview``; print the updates and return
    0. Raises :class:`~replykit.cli.io.InputError` (exit 2) for a bad profile, message
    id or chunk size, an unreadable or non-UTF-8 input, or an SSE input that is broken
    (:func:`replykit.cli.sse.deltas`: data not JSON, a field of the wrong type, an
    error event, no end event, no ``data:`` line)."""
    from replykit.questionnaire.profiles import profile_from_string
    from replykit.questionnaire.segmentation.stream import StreamSegmenter

    check_message_id(args.message_id)
    try:
        profile = profile_from_string(args.profile)
    except ValueError as e:
        raise InputError(str(e)) from None
    seg = StreamSegmenter(
        message_id=args.message_id, profile=profile, compat=args.compat, preview=args.preview
    )
    try:
        handle: BinaryIO = stdin() if args.file == "-" else open(args.file, "rb")  # noqa: SIM115
    except OSError as exc:
        raise InputError(f"cannot read message {input_name(args.file)}: {os_reason(exc)}") from None
    with handle:
        # The length of the pending tail a reader of the output holds, and the
        # held_from it was last told.
        shown, held = 0, 0
        for chunk in _chunks(args, handle):
            shown, held = _print_update(seg.push(chunk).to_json(), shown, held)
    write_json({"event": "done", **seg.finish().json_fields()})
    return 0


def _print_update(update: dict[str, Any], shown: int, held: int) -> tuple[int, int]:
    """Print the update's events; ``shown``: the length of the pending tail the
    events printed so far give, ``held``: the ``held_from`` they gave; return both
    after this update (a change of ``held_from`` alone is an event too: the reader
    shows the text before it)."""
    if update["committed"] or update["diagnostics"]:
        commit = ("committed", "diagnostics", "committed_end")
        write(dump({"event": "commit", **{k: update[k] for k in commit}}))
    if update["pending"] or update["pending_kept"] != shown or update["held_from"] != held:
        keys = ("pending_kept", "pending", "held_from", "received")
        write(dump({"event": "pending", **{k: update[k] for k in keys}}))
    return int(update["pending_kept"]) + len(update["pending"]), int(update["held_from"])
