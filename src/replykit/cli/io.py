"""Input and output shared by every ``replykit`` command.

Files are read as bytes and decoded as UTF-8, so ``\\r\\n`` and a lone ``\\r`` reach the
parsers unchanged; output is always valid UTF-8, whatever the locale.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, BinaryIO

from replykit.jsonout import dumps
from replykit.questionnaire.limits import (
    DEFAULT_LIMITS,
    MAX_MESSAGE_ID,
    form_id_problem,
    message_id_problem,
)
from replykit.questionnaire.payload.describe import json_type
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.surrogates import first_lone_surrogate
from replykit.text import LineIndex
from replykit.textout import escape, os_name, render

#: How every command names standard input (``-`` on the command line) in its output
#: and its error messages.
STDIN_NAME = "<stdin>"


def input_name(path: str) -> str:
    """``path`` as output and messages name it: :data:`STDIN_NAME` for ``-``, a byte
    that is not UTF-8 as ``\\xNN`` (:func:`~replykit.textout.os_name`)."""
    return STDIN_NAME if path == "-" else os_name(path)


#: The most UTF-8 bytes of a file name a text view repeats on each line, escaped (§1.5:
#: the output bound holds for any path length).
MAX_LABEL = 40


def label(name: str) -> str:
    """The file name a text view puts on each line, escaped (§1.4): ``name``, or when
    it takes more than :data:`MAX_LABEL` UTF-8 bytes, ``…`` and as many of its last
    characters as fit in them."""
    shown = escape(name)
    if len(shown.encode("utf-8")) <= MAX_LABEL:
        return shown
    budget, cut = MAX_LABEL - len("\u2026".encode()), len(shown)
    while cut > 0 and len(shown[cut - 1 :].encode("utf-8")) <= budget:
        cut -= 1
    return "\u2026" + shown[cut:]


def labelled(name: str, lines: Iterable[str]) -> Iterator[str]:
    """``lines`` (each starting with ``label(name)``) after, when the label shortened
    the name, one line ``file: NAME`` naming it whole, so a long path is printed once
    (§1.5)."""
    if label(name) != escape(name):
        yield f"file: {name}"
    yield from lines


#: What every command's ``--message-id`` help says of the id it takes (§6, §1.1).
MESSAGE_ID_RULE = f"1 to {MAX_MESSAGE_ID} characters, not blank (§1.1)"


class InputError(Exception):
    """An input that cannot be used (exit status 2); the message is one line."""


def check_message_id(message_id: str) -> None:
    """Raise :class:`InputError` for a ``--message-id`` that ``segment()`` refuses
    (:func:`~replykit.questionnaire.limits.message_id_problem`, §6): empty or only white
    space, longer than ``MAX_MESSAGE_ID`` code points (every block id repeats it, §1
    bounded output), or not UTF-8 (an undecodable byte reaches Python as a surrogate)."""
    if first_lone_surrogate(message_id) is not None:
        raise InputError("--message-id is not valid UTF-8")
    problem = message_id_problem(message_id)
    if problem is not None:
        raise InputError(f"--message-id {problem}")


def check_form_id(option: str, form_id: str) -> None:
    """Raise :class:`InputError` for an id option naming a form (``respond --id``) that
    the library would refuse (:func:`~replykit.questionnaire.limits.form_id_problem`,
    §6), or that is not UTF-8, before any input is read."""
    if first_lone_surrogate(form_id) is not None:
        raise InputError(f"{option} is not valid UTF-8")
    problem = form_id_problem(form_id)
    if problem is not None:
        raise InputError(f"{option} {problem}")


def os_reason(exc: OSError) -> str:
    """The reason of ``exc`` without Python's ``[Errno N]`` and the repeated path:
    ``No such file or directory``."""
    return exc.strerror or str(exc)


def one_stdin(**inputs: str | None) -> None:
    """Refuse two inputs that both name standard input (``-``): the second would read
    nothing and fail with a misleading error. ``inputs`` maps each input's name as the
    user writes it (``ANSWER``, ``--context``; ``_`` for ``-``) to its path. Raises
    :class:`InputError` ``ANSWER and --context cannot both read standard input``."""
    names = [name.replace("_", "-") for name, path in inputs.items() if path == "-"]
    if len(names) > 1:
        raise InputError(f"{' and '.join(names)} cannot both read standard input")


def stdin() -> BinaryIO:
    """Standard input as bytes. Raises ``OSError`` when it is closed (the process was
    started without one: ``sys.stdin`` is ``None``)."""
    if sys.stdin is None:
        raise OSError(errno.EBADF, "standard input is closed")
    return sys.stdin.buffer


def stdout_bytes() -> BinaryIO:
    """Standard output as bytes. Raises ``OSError`` when it is closed (``sys.stdout`` is
    ``None``), as :func:`write` does."""
    if sys.stdout is None:
        raise OSError(errno.EBADF, "standard output is closed")
    return sys.stdout.buffer


def note(text: str) -> None:
    """Print ``text`` (one line, escaped by the caller) to standard error; nothing when
    standard error is closed (a note is never moved to standard output)."""
    if sys.stderr is not None:
        print(text, file=sys.stderr)


def read_text(path: str, label: str = "input", *, bom: bool = False) -> str:
    """Read ``path`` (``-``: standard input) as bytes and decode UTF-8; ``bom`` drops a
    leading byte-order mark (JSON files). Raises :class:`InputError` when the file
    cannot be read or is not UTF-8."""
    try:
        if path == "-":
            data = stdin().read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        raise InputError(f"cannot read {label} {input_name(path)}: {os_reason(exc)}") from None
    try:
        return data.decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{label} {input_name(path)} is not UTF-8 (byte {exc.start})") from None


def parse_json(text: str, where: str) -> Any:
    """Read one JSON text as strictly as a payload (§1) and return its value.

    Input: the text; ``where`` names it in messages (``answers a.json``). Raises
    :class:`InputError` ``WHERE is not strict JSON at line L, column C: MESSAGE`` (1-based,
    code points) for the first problem of
    :func:`~replykit.questionnaire.payload.json_strict.read_json_value`: a syntax error, nesting
    deeper
    than 64 levels, ``NaN``/``Infinity``, a duplicate key, a number with more than 4300
    digits or beyond a 64-bit float's range, a lone surrogate. 64-bit integers are fine.
    """
    read = read_json_value(text, max_depth=DEFAULT_LIMITS.max_depth)
    if not read.findings:
        return read.value
    first = min(read.findings, key=lambda f: f.start or 0)
    line, column = LineIndex(text).line_col(first.start or 0)
    message = first.message.removeprefix("JSON syntax error: ")
    more = len(read.findings) - 1
    tail = f" ({more} more problem{'s' if more > 1 else ''})" if more else ""
    raise InputError(f"{where} is not strict JSON at line {line}, column {column}: {message}{tail}")


def require_shape(value: Any, what: str, shapes: tuple[type, ...], expected: str) -> None:
    """Raise :class:`InputError` ``WHAT must be EXPECTED, not TYPE`` when ``value`` (a
    decoded JSON value) is none of ``shapes``; for a string the message adds that it may
    be JSON text encoded twice (§1: every JSON value gets a clear answer)."""
    if isinstance(value, shapes):
        return
    twice = " (JSON text inside a string? decode it once more)" if isinstance(value, str) else ""
    raise InputError(f"{what} must be {expected}, not {_a(json_type(value))}{twice}")


def _a(type_name: str) -> str:
    if type_name == "null":
        return type_name
    return ("an " if type_name[0] in "aeiou" else "a ") + type_name


def read_json(path: str, label: str = "input") -> Any:
    """Read one UTF-8 JSON file (``-``: standard input; a leading BOM is allowed) with
    :func:`parse_json`. Raises :class:`InputError` when it is unreadable, not UTF-8 or
    not strict JSON."""
    return parse_json(read_text(path, label, bom=True), f"{label} {input_name(path)}")


def write(text: str) -> None:
    """Write text to standard output as valid UTF-8; a lone surrogate (a value may hold
    one) is shown as a ``\\udXXX`` escape. Raises ``OSError`` when standard output is
    closed or the write fails (``BrokenPipeError`` when its reader went away)."""
    out = sys.stdout
    if out is None:
        raise OSError(errno.EBADF, "standard output is closed")
    out.flush()
    out.buffer.write(text.encode("utf-8", "backslashreplace"))
    out.buffer.flush()


def dump(obj: Any) -> str:
    """JSON as replykit prints it (§1): strict RFC 8259 by
    :func:`~replykit.jsonout.dumps`, compact (no spaces, one line: indentation would make
    every diagnostic several times the size of a short construct it reports), UTF-8 kept
    (a lone surrogate as a ``\\udXXX`` escape), trailing newline."""
    return dumps(obj, compact=True) + "\n"


#: Items of a list that :func:`write_json` converts and encodes at a time.
_BATCH = 1000


def _json_value(value: Any) -> Any:
    return value.to_json() if hasattr(value, "to_json") else value


def write_json(fields: Mapping[str, Any]) -> None:
    """Write ``dump(fields)`` to standard output, the same bytes, piece by piece: a list
    or tuple value (of JSON values, or of objects with a ``to_json()`` method such as
    :class:`~replykit.questionnaire.model.Segment`) is converted and encoded :data:`_BATCH` items
    at a
    time, so neither every item's JSON value nor the whole text is held at once (§1:
    memory near the input's size when the output is large)."""
    write("{")
    for i, (key, value) in enumerate(fields.items()):
        write(("," if i else "") + dumps(key) + ":")
        if isinstance(value, list | tuple):
            write("[")
            for at in range(0, len(value), _BATCH):
                batch = [_json_value(item) for item in value[at : at + _BATCH]]
                write(("," if at else "") + dumps(batch, compact=True)[1:-1])
            write("]")
        else:
            write(dumps(_json_value(value), compact=True))
    write("}\n")


def write_lines(lines: Iterable[str]) -> None:
    """Write the text view of ``lines`` (:func:`~replykit.textout.render`: each escaped,
    ``\\n`` after each), :data:`_BATCH` lines at a time, never the whole view at once."""
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) == _BATCH:
            write(render(batch))
            batch.clear()
    if batch:
        write(render(batch))


def fail(command: str, message: str) -> int:
    """Print ``replykit COMMAND: error: MESSAGE`` to standard error and return 2. The
    message is escaped (:func:`~replykit.textout.escape`, §1): one line whatever input
    it quotes, with no control, bidi or format character."""
    if sys.stderr is not None:  # closed: the status alone says it (never stdout)
        print(f"replykit {command}: error: {escape(message)}", file=sys.stderr)
    return 2
