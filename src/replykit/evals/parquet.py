"""Parquet rows as JSON-like records for ``replykit audit`` (the ``replykit[parquet]``
extra; §1.3 JSON values).

A row is read as the JSON value it stands for: ``null`` is a missing value (exactly as
a field absent from a JSON Lines record), strings, booleans, integers and finite floats
are themselves, timestamps, dates and times are ISO 8601 strings, decimals their
decimal text, structs objects, lists lists, and a map with string keys an object (else
a list of ``[key, value]`` pairs). A value no JSON value stands for (binary, a NaN or
infinite float, a duration, a map with a repeated key) makes the row an input error
naming the column, but only when the audit reads that column: other columns are never
looked at.
"""

from __future__ import annotations

import datetime
import decimal
import math
import os
from collections.abc import Iterator, Mapping
from typing import Any

from replykit.jsonout import key_text
from replykit.text import with_article

#: Rows read from a Parquet file at a time.
PARQUET_BATCH = 512
#: Columns a conversation (or a message stored as a row) is read from.
MESSAGE_COLUMNS = ("messages", "role", "content", "message_type")


class NotJson(ValueError):
    """A value of a Parquet cell that no JSON value stands for (message: what it is)."""


def _float(value: float) -> float:
    if math.isfinite(value):
        return value
    raise NotJson(
        "NaN is not a JSON number" if value != value else "an infinite float is not a JSON number"
    )


def _pairs(value: list[Any]) -> Any:
    """A map column's entries (a list of ``(key, value)`` tuples)."""
    if all(isinstance(k, str) for k, _ in value):
        out: dict[str, Any] = {}
        for key, item in value:
            if key in out:
                raise NotJson(f"a map with the key {key[:60]!s} twice is not a JSON object")
            out[key] = json_like(item)
        return out
    return [[json_like(k), json_like(v)] for k, v in value]


def json_like(value: Any) -> Any:
    """The JSON value a cell (as pyarrow's ``to_pylist`` gives it) stands for, by the
    rules of the module doc. Raises :class:`NotJson` for a value none stands for."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, Mapping):
        return {key_text(k): json_like(v) for k, v in value.items()}
    if isinstance(value, list):
        if value and all(isinstance(v, tuple) and len(v) == 2 for v in value):
            return _pairs(value)
        return [json_like(v) for v in value]
    if isinstance(value, bytes | bytearray | memoryview):
        raise NotJson("binary data (bytes) is not a JSON value")
    if isinstance(value, datetime.timedelta):
        raise NotJson("a duration is not a JSON value")
    raise NotJson(f"{with_article(type(value).__name__)} value is not a JSON value")


def read_columns(options: Mapping[str, Any]) -> frozenset[str]:
    """The top-level columns an audit with ``options`` (keyword arguments of
    :func:`~replykit.evals.record.audit_record`) reads: each named field (and the first
    part of a dotted name) and, without ``text_field``, the message columns."""
    names = [options.get(k) for k in ("text_field", "group_by", "expect_field")]
    read = {part for name in names if name for part in (name, name.split(".")[0])}
    if not options.get("text_field"):
        read.update(MESSAGE_COLUMNS)
    return frozenset(read)


def row_record(row: Mapping[str, Any], read: frozenset[str]) -> tuple[Any, str | None]:
    """The record a Parquet row stands for, and ``None``; or ``None`` and why it cannot
    be read (``column C: ...``, for a column in ``read``). A column the audit does not
    read is left out when no JSON value stands for it."""
    record: dict[str, Any] = {}
    for column, value in row.items():
        try:
            record[column] = json_like(value)
        except NotJson as exc:
            if column in read:
                return None, f"column {column}: {exc}"
    return record, None


def parquet_rows(path: str) -> Iterator[tuple[int, Any, int] | str]:
    """``(row number, raw row, bytes)`` for each row of the Parquet file ``path``
    (1-based), or one line saying why it cannot be read. Never raises."""
    try:
        import pyarrow.parquet as pq  # the optional replykit[parquet] extra
    except ImportError:
        yield "reading Parquet needs pyarrow: pip install 'replykit[parquet]'"
        return
    try:
        table = pq.ParquetFile(path)
        size = os.path.getsize(path)
        rows = max(table.metadata.num_rows, 1)
        number = 0
        for batch in table.iter_batches(batch_size=PARQUET_BATCH):
            for row in batch.to_pylist():
                number += 1
                yield number, row, size // rows
    except Exception as exc:  # pyarrow's errors have no common base that is not Exception
        yield f"not a readable Parquet file: {exc}"[:300]
