"""Input and output shared by every ``replykit`` command.

Files are read as bytes and decoded as UTF-8, so ``\\r\\n`` and a lone ``\\r`` reach the
parsers unchanged; output is always valid UTF-8, whatever the locale.
"""

from __future__ import annotations

import json
import sys
from typing import Any


class InputError(Exception):
    """An input that cannot be used (exit status 2); the message is one line."""


def one_line(text: str) -> str:
    """``text`` with every run of white space folded to one space."""
    return " ".join(text.split())


def read_text(path: str, label: str = "input", *, bom: bool = False) -> str:
    """Read ``path`` (``-``: standard input) as bytes and decode UTF-8; ``bom`` drops a
    leading byte-order mark (JSON files). Raises :class:`InputError` when the file
    cannot be read or is not UTF-8."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        raise InputError(f"cannot read {label} {path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{label} {path} is not UTF-8 (byte {exc.start})") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _integer(digits: str) -> int | float:
    # Valid JSON whatever its length; Python refuses int() past 4300 digits.
    if len(digits) - digits.startswith("-") > 4300:
        return float(digits)
    return int(digits)


def read_json(path: str, label: str = "input") -> Any:
    """Read one UTF-8 JSON file (``-``: standard input; a BOM is allowed). Raises
    :class:`InputError` when unreadable, not UTF-8, not JSON (NaN/Infinity included) or
    nested too deeply to decode. An integer of more than 4300 digits (valid JSON that
    Python's ``int`` refuses) is read as a float."""
    text = read_text(path, label, bom=True)
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_integer)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{label} {path} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except ValueError as exc:
        raise InputError(f"{label} {path} is not JSON: {exc}") from None
    except RecursionError:
        raise InputError(f"{label} {path} is nested too deeply to decode") from None


def write(text: str) -> None:
    """Write text to standard output as valid UTF-8; a lone surrogate (a JSON payload may
    escape one) is shown as a ``\\\\udXXX`` escape."""
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8", "backslashreplace"))
    sys.stdout.buffer.flush()


def dump(obj: Any) -> str:
    """JSON as replykit prints it: compact (no spaces, one line: indentation would make
    every diagnostic several times the size of a short construct it reports, §1), UTF-8
    kept, trailing newline; with ``\\\\u`` escapes everywhere when a string holds a lone
    surrogate, so the output is always valid UTF-8 JSON."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(obj, ensure_ascii=True, separators=(",", ":")) + "\n"
    return text


def fail(command: str, message: str) -> int:
    """Print ``replykit COMMAND: error: MESSAGE`` (one line) to standard error; return 2."""
    print(f"replykit {command}: error: {one_line(message)}", file=sys.stderr)
    return 2
