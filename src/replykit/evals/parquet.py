"""Parquet rows as JSON-like records for ``replykit audit`` (the ``replykit[parquet]``
extra; §1.3 JSON values).

A row is read as the JSON value it stands for: ``null`` is a missing value (exactly as
a field absent from a JSON Lines record: a column or a struct field holding null is
left out of the record, as Parquet has no other way to say a field is absent),
strings, booleans, integers and finite floats are themselves, timestamps, dates and
times are ISO 8601 strings, decimals their decimal text, structs objects, lists lists,
and a map with string keys an object (an empty one ``{}``; other maps a list of
``[key, value]`` pairs), decided by the column's Arrow type, not by the shape of the
cell (pyarrow gives an empty map and an empty list alike as ``[]``). A value no JSON
value stands for (binary, a NaN or infinite float, a duration, a map with a repeated
key) makes the row an input error naming the column, but only when the audit reads
that column: other columns are never looked at."""

from __future__ import annotations

import datetime
import decimal
import math
import os
from collections.abc import Iterator, Mapping
from typing import Any

from replykit.evals.record import cut_name
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


class MapCell(tuple[tuple[str, Any], ...]):
    """A cell of a map column with string keys: its ``(key, value)`` entries, tagged
    while the column's Arrow type is known (:func:`tag_maps`) so that an empty map
    reads as ``{}``, not as the ``[]`` of an empty list."""

    __slots__ = ()


def _pairs(value: MapCell) -> dict[str, Any]:
    """The object a map cell with string keys stands for."""
    out: dict[str, Any] = {}
    for key, item in value:
        if key in out:
            raise NotJson(f"a map with the key {key[:60]!s} twice is not a JSON object")
        out[key] = json_like(item)
    return out


def json_like(value: Any) -> Any:
    """The JSON value a cell (as pyarrow's ``to_pylist`` gives it, maps tagged by
    :func:`tag_maps`) stands for, by the rules of the module doc; a struct's null fields
    are left out. Raises :class:`NotJson` for a value none stands for."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, MapCell):
        return _pairs(value)
    if isinstance(value, Mapping):  # a struct (maps are tagged): null fields are absent
        return {key_text(k): json_like(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [json_like(v) for v in value]
    if isinstance(value, bytes | bytearray | memoryview):
        raise NotJson("binary data (bytes) is not a JSON value")
    if isinstance(value, datetime.timedelta):
        raise NotJson("a duration is not a JSON value")
    raise NotJson(f"{with_article(type(value).__name__)} value is not a JSON value")


def _inner(kind: Any) -> list[Any]:
    """The Arrow types directly inside the Arrow type ``kind`` (none for a scalar)."""
    import pyarrow.types as pat  # only called once pyarrow has read a file

    if pat.is_map(kind):
        return [kind.key_type, kind.item_type]
    if pat.is_struct(kind):
        return [field.type for field in kind]
    # Lists of every kind and dictionaries hold value_type, extension types storage_type.
    return [getattr(kind, a) for a in ("value_type", "storage_type") if hasattr(kind, a)]


def has_map(kind: Any) -> bool:
    """True when the Arrow type ``kind`` is a map or holds one at any depth."""
    import pyarrow.types as pat

    return pat.is_map(kind) or any(has_map(inner) for inner in _inner(kind))


def tag_maps(value: Any, kind: Any) -> Any:
    """``value``, a cell of Arrow type ``kind`` as ``to_pylist`` gives it, with every map
    in it (at any depth) made a :class:`MapCell` when its keys are strings, else a list
    of ``[key, value]`` lists. Other values are returned as they are."""
    import pyarrow.types as pat

    if value is None:
        return None
    if pat.is_map(kind):
        pairs = [(tag_maps(k, kind.key_type), tag_maps(v, kind.item_type)) for k, v in value]
        key = kind.key_type
        # string_view is newer than the oldest pyarrow the extra takes.
        view = getattr(pat, "is_string_view", lambda _: False)
        text_keys = pat.is_string(key) or pat.is_large_string(key) or view(key)
        return MapCell(pairs) if text_keys else [list(pair) for pair in pairs]
    if pat.is_struct(kind) and isinstance(value, Mapping):
        types = {field.name: field.type for field in kind}
        return {k: tag_maps(v, types[k]) if k in types else v for k, v in value.items()}
    inner = _inner(kind)
    if isinstance(value, list) and inner:
        return [tag_maps(v, inner[0]) for v in value]
    return tag_maps(value, inner[0]) if inner else value


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
    """The record a Parquet row stands for (``row`` as :func:`parquet_rows` gives it,
    maps tagged), and ``None``; or ``None`` and why it cannot be read (``column C:
    ...``, for a column in ``read``; a long name cut as a group name is). A column
    holding null is left out (a missing field), as is a column the audit does not read
    when no JSON value stands for it."""
    record: dict[str, Any] = {}
    for column, value in row.items():
        if value is None:  # null: the field is absent, as in a JSON Lines record
            continue
        try:
            record[column] = json_like(value)
        except NotJson as exc:
            if column in read:
                return None, f"column {cut_name(column)}: {exc}"
    return record, None


def parquet_rows(path: str) -> Iterator[tuple[int, Any, int] | str]:
    """``(row number, raw row, bytes)`` for each row of the Parquet file ``path``
    (1-based; the row as ``to_pylist`` gives it, its maps tagged by :func:`tag_maps`),
    or one line saying why it cannot be read. Never raises."""
    try:
        import pyarrow.parquet as pq  # the optional replykit[parquet] extra
    except ImportError:
        yield "reading Parquet needs pyarrow: pip install 'replykit[parquet]'"
        return
    try:
        table = pq.ParquetFile(path)
        size = os.path.getsize(path)
        rows = max(table.metadata.num_rows, 1)
        # Maps are tagged while their type is known (most tables have none).
        maps = {f.name: f.type for f in table.schema_arrow if has_map(f.type)}
        number = 0
        for batch in table.iter_batches(batch_size=PARQUET_BATCH):
            for row in batch.to_pylist():
                number += 1
                for name, kind in maps.items():
                    row[name] = tag_maps(row.get(name), kind)
                yield number, row, size // rows
    except Exception as exc:  # pyarrow's errors have no common base that is not Exception
        yield f"not a readable Parquet file: {exc}"[:300]
