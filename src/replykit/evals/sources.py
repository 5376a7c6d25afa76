"""Stored replies streamed from files for ``replykit audit`` (§8 conversations as
stored, §1.3 strict JSON).

Files by name: ``.md``/``.markdown``/``.txt`` hold one reply each; ``.json`` one JSON
value (a conversation, a message, an eval record); ``.jsonl``/``.ndjson`` one value per
non-blank line (line ends ``\n``, ``\r\n`` and a lone ``\r``, §1), as is standard
input (``-``, named ``<stdin>``); ``.parquet`` one record per row (the
``replykit[parquet]`` extra, :mod:`replykit.evals.parquet`). A directory is walked as
:mod:`replykit.evals.walk` says, taking files of those kinds and skipping the rest. A
file that cannot be read, whatever the reason, is one input error; nothing raises.
Records are read a few at a time and handed on raw (JSON Lines as blocks of whole
lines: whoever audits them splits and decodes them, a worker process rather than the
reader), so memory does not grow with the number of records.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any, Literal

import attrs

from replykit.evals.parquet import parquet_rows, row_record
from replykit.evals.walk import STDIN, Unreadable
from replykit.evals.walk import find_files as walk_files
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.text import json_lines_line_col
from replykit.textout import os_name

TEXT_SUFFIXES = (".md", ".markdown", ".txt")
JSON_SUFFIXES = (".json",)
LINES_SUFFIXES = (".jsonl", ".ndjson")
PARQUET_SUFFIXES = (".parquet",)
SUFFIXES = TEXT_SUFFIXES + JSON_SUFFIXES + LINES_SUFFIXES + PARQUET_SUFFIXES
#: What standard input is called in messages and reports.
STDIN_NAME = "<stdin>"
#: Bytes of whole lines read from a JSON Lines file at a time (one ``lines`` item);
#: a line longer than this is read whole, as one item.
LINES_BLOCK = 1 << 16

Kind = Literal["text", "json", "lines", "line", "value", "row", "error"]


@attrs.frozen
class Item:
    """One raw record: ``source`` (the file), ``line`` (1-based line of a JSON Lines
    file or row of a Parquet file; ``None`` for a whole file), ``kind`` and
    ``payload``: ``text`` a reply string, ``json`` a JSON text to decode, ``lines`` the
    bytes of whole JSON Lines lines from ``line`` on (:func:`records` splits them),
    ``line`` the bytes of one such line (its line break and a leading byte order mark
    removed) to decode as UTF-8 and then JSON, ``value`` a decoded value, ``row`` a
    Parquet row as pyarrow gives it, its maps tagged (read by
    :func:`~replykit.evals.parquet.row_record`), ``error`` the reason the record could
    not be read; ``size``: bytes of input it stands for (for
    progress)."""

    source: str = attrs.field(converter=os_name)  # a file name as output names it
    line: int | None
    kind: Kind
    payload: Any
    size: int = 0

    @property
    def where(self) -> str:
        """``file:line``, or ``file`` for a whole file."""
        return self.source if self.line is None else f"{self.source}:{self.line}"


def find_files(paths: Iterable[str]) -> Iterator[str | Unreadable]:
    """The files to read (:func:`replykit.evals.walk.find_files` with the kinds above):
    paths, and :class:`~replykit.evals.walk.Unreadable` entries for what a directory
    walk cannot read. Raises ``FileNotFoundError`` for a path that does not exist."""
    return walk_files(paths, SUFFIXES)


def file_size(path: str) -> int:
    """Bytes of the regular file ``path`` (for progress); 0 for anything else or a
    path that cannot be examined. Never raises."""
    try:
        return os.path.getsize(path) if os.path.isfile(path) else 0
    except OSError:
        return 0


def _decode(data: bytes) -> str:
    """UTF-8 text of ``data``; raises ``ValueError`` naming the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 (byte {exc.start})") from None


def _whole(path: str, kind: Kind) -> Iterator[Item]:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        text = _decode(data).removeprefix("\ufeff")
    except (OSError, ValueError) as exc:
        yield Item(path, None, "error", _reason(exc))
        return
    yield Item(path, None, kind, text, len(data))


def _breaks(block: bytes) -> int:
    """Lines ended in ``block`` (a block ends with a line end, or at the end of input):
    a JSON Lines line ends at LF only (docs/protocol-responses.md section 3.1)."""
    return block.count(b"\n")


def _stdin() -> IO[bytes]:
    """Standard input as bytes; ``OSError`` when it is closed (read as an unreadable
    file is: an error item)."""
    if sys.stdin is None:
        raise OSError(errno.EBADF, "standard input is closed")
    return sys.stdin.buffer


def _lines(path: str, hint: int) -> Iterator[Item]:
    name = STDIN_NAME if path == STDIN else path
    try:
        handle: IO[bytes] = _stdin() if path == STDIN else open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        yield Item(name, None, "error", _reason(exc))
        return
    number = 1
    try:
        while lines := handle.readlines(hint):
            block = b"".join(lines)
            yield Item(name, number, "lines", block, len(block))
            number += _breaks(block)
    except OSError as exc:  # a file gone bad while read: the lines before it stand
        yield Item(name, number, "error", _reason(exc))
    finally:
        if path != STDIN:
            handle.close()


def records(item: Item) -> Iterator[Item]:
    """The records an item stands for: a ``lines`` item gives a ``line`` item for each
    of its lines that is not blank (numbered from the item's ``line``; a line ends at
    LF, a CR before it or alone inside it is JSON white space, docs/protocol-responses.md
    section 3.1; the line break and the byte order mark of a file's first line removed;
    the ``size`` of each its share of the bytes); any other item is one record, itself."""
    if item.kind != "lines":
        yield item
        return
    number = item.line or 1
    for raw in item.payload.split(b"\n"):
        line = raw.removeprefix(b"\xef\xbb\xbf") if number == 1 else raw
        line = line.removesuffix(b"\r")
        if line.strip(b" \t\r\n"):
            yield Item(item.source, number, "line", line, len(raw) + 1)
        number += 1


def _parquet(path: str) -> Iterator[Item]:
    for row in parquet_rows(path):
        if isinstance(row, str):
            yield Item(path, None, "error", row)
        else:
            number, value, size = row
            yield Item(path, number, "row", value, size)


def _reason(exc: Exception) -> str:
    if isinstance(exc, OSError):
        return f"cannot read: {exc.strerror or exc}"
    return str(exc)


def read_items(files: Iterable[str | Unreadable], *, block: int = LINES_BLOCK) -> Iterator[Item]:
    """The raw records of ``files`` (as :func:`find_files` gives them), streamed; ``-``
    is standard input, read as JSON Lines; a file of another kind, one that cannot be
    read or is not UTF-8, and an ``Unreadable`` entry are ``error`` items.
    ``block``: bytes of whole lines per ``lines`` item of a JSON Lines file (at least
    one line each; the numbering of lines does not depend on it). Raises
    ``ValueError`` when ``block`` < 1; never raises for a file's content."""
    if block < 1:
        raise ValueError(f"block must be at least 1, got {block}")
    return _read_items(files, block)


def _read_items(files: Iterable[str | Unreadable], block: int) -> Iterator[Item]:
    for path in files:
        if isinstance(path, Unreadable):
            yield Item(path.path, None, "error", path.reason)
            continue
        name = path.lower()
        if path == STDIN or name.endswith(LINES_SUFFIXES):
            yield from _lines(path, block)
        elif name.endswith(JSON_SUFFIXES):
            yield from _whole(path, "json")
        elif name.endswith(TEXT_SUFFIXES):
            yield from _whole(path, "text")
        elif name.endswith(PARQUET_SUFFIXES):
            yield from _parquet(path)
        else:
            kinds = ", ".join(SUFFIXES)
            yield Item(path, None, "error", f"not a file kind audit reads ({kinds})")


def batches(items: Iterable[Item], size: int, max_bytes: int | None = None) -> Iterator[list[Item]]:
    """``items`` in lists of at most ``size`` items, in order; with ``max_bytes`` a list
    also ends at the item that brings its ``size`` total to ``max_bytes`` or more."""
    batch: list[Item] = []
    held = 0
    for item in items:
        batch.append(item)
        held += item.size
        if len(batch) == size or (max_bytes is not None and held >= max_bytes):
            yield batch
            batch = []
            held = 0
    if batch:
        yield batch


def decode_record(item: Item, columns: frozenset[str] | None = None) -> tuple[Any, str | None]:
    """The record an item holds, and ``None``; or ``None`` and why it cannot be read
    (an ``error`` item, a line that is not UTF-8, named by its first bad byte, JSON
    text that is not strict JSON, §1.3, named by 1-based line and column inside the
    text, or a Parquet row with a value no JSON value stands for in one of the columns
    ``columns``, every column when ``None``)."""
    if item.kind == "error":
        return None, str(item.payload)
    if item.kind == "row":
        wanted = columns if columns is not None else frozenset(item.payload)
        return row_record(item.payload, wanted)
    if item.kind == "line":
        try:
            text = _decode(item.payload)
        except ValueError as exc:
            return None, str(exc)
    elif item.kind == "json":
        text = item.payload
    else:
        return item.payload, None
    read = read_json_value(text)
    if not read.findings:
        return read.value, None
    first = min(read.findings, key=lambda f: f.start or 0)
    line, column = json_lines_line_col(text, first.start or 0)
    message = first.message.removeprefix("JSON syntax error: ")
    at = f"column {column}" if item.line is not None else f"line {line}, column {column}"
    return None, f"not strict JSON at {at}: {message}"
