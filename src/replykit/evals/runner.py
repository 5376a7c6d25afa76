"""Auditing a stream of raw records on one core or on a process pool (§8).

:func:`audit_batches` cuts the records into batches and yields, in input order, one
:class:`BatchResult` per batch: the batch's partial :class:`~replykit.evals.tally.Tally`
and, when asked, its ``--format jsonl`` lines. :func:`audit_rows` decodes, audits,
tallies and writes a batch where it runs: with ``jobs > 1`` in a worker process, so the
main process only reads blocks of whole lines, sends their raw bytes and merges partial
tallies, whose size grows with the groups and codes, never with the records. Merged in input order
they equal one tally of every record (the same first examples). At most
``IN_FLIGHT * jobs`` batches (each at most ``BATCH`` items or about ``BATCH_BYTES`` of
input) are in flight: reading waits for the pool, so memory stays flat however many
records there are.
"""

from __future__ import annotations

import collections
import concurrent.futures
import multiprocessing
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from replykit.evals.parquet import read_columns
from replykit.evals.record import ALL, audit_record
from replykit.evals.sources import LINES_BLOCK, Item, Kind, batches, decode_record, records
from replykit.evals.tally import Tally
from replykit.jsonout import dumps

#: Items per batch sent to a worker (amortizes the cost of a round trip) ...
BATCH = 200
#: ... or fewer when they hold this many bytes of input (one block of JSON Lines): a
#: batch is a few tens of milliseconds of work, so the last one leaves little idle.
BATCH_BYTES = LINES_BLOCK
#: Batches in flight per worker.
IN_FLIGHT = 2

#: An item's fields as a tuple: pickled and unpickled several times faster than an Item.
Row = tuple[str, int | None, Kind, Any, int]


@attrs.frozen
class BatchResult:
    """What one batch gave: ``tally`` (its partial tally), ``jsonl`` (its ``--format
    jsonl`` lines, UTF-8; empty unless asked), ``records`` (records read), ``replies``
    (replies audited) and ``size`` (bytes of input the batch stands for)."""

    tally: Tally
    jsonl: bytes
    records: int
    replies: int
    size: int


def jsonl_lines(item: Item, result: Mapping[str, Any]) -> Iterator[str]:
    """The ``--format jsonl`` lines of one record's :func:`audit_record` result: one
    ``{"source", "line", "group", **message, "error": null}`` per reply (every line
    has an ``error`` key, so readers that infer a schema find the column), or one
    ``{"source", "line", "error"}`` for a record that could not be read; compact JSON
    (§1), newline-ended."""
    place = {"source": item.source, "line": item.line}
    if result["error"] is not None:
        yield dumps({**place, "error": result["error"]}, compact=True) + "\n"
        return
    for message in result["messages"]:
        line = {**place, "group": result["group"], **message, "error": None}
        yield dumps(line, compact=True) + "\n"


def audit_rows(rows: list[Row], options: Mapping[str, Any], jsonl: bool) -> BatchResult:
    """Audit a batch: each row's records (:func:`records`) decoded
    (:func:`decode_record`), audited with ``options`` (keyword arguments of
    :func:`audit_record`) and tallied at their ``file:line``; an unreadable record is an
    input error. ``jsonl``: also write the batch's lines (:func:`jsonl_lines`). Never
    raises for a row."""
    tally = Tally()
    lines: list[str] = []
    replies = size = 0
    read = read_columns(options)
    for row in rows:
        size += row[4]
        for item in records(Item(*row)):
            record, problem = decode_record(item, read)
            if problem is not None:
                result = {"group": ALL, "error": problem, "messages": []}
            else:
                result = audit_record(record, **options)
            tally.add(result, item.where)
            replies += len(result["messages"])
            if jsonl:
                lines.extend(jsonl_lines(item, result))
    text = "".join(lines).encode("utf-8", "backslashreplace")
    return BatchResult(tally, text, tally.records, replies, size)


def _rows(items: list[Item]) -> list[Row]:
    return [(i.source, i.line, i.kind, i.payload, i.size) for i in items]


def audit_batches(
    items: Iterable[Item],
    options: Mapping[str, Any],
    *,
    jobs: int = 1,
    batch: int = BATCH,
    batch_bytes: int = BATCH_BYTES,
    jsonl: bool = False,
) -> Iterator[BatchResult]:
    """The results of ``items``, a batch (``batch`` items, fewer when they hold
    ``batch_bytes`` of input) at a time, in input order (see the module doc). ``jobs``:
    worker processes (1: audit in this process); ``jsonl``: each result carries its
    batch's JSON Lines output. Raises ``ValueError`` when ``jobs`` < 1."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if jobs == 1:
        for part in batches(items, batch, batch_bytes):
            yield audit_rows(_rows(part), options, jsonl)
        return
    context = multiprocessing.get_context("fork" if "fork" in _methods() else "spawn")
    # Forked workers inherit every module imported here. The first submit starts them
    # (all at once under fork) while this process goes on reading.
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
        pending: collections.deque[concurrent.futures.Future[BatchResult]] = collections.deque()
        for part in batches(items, batch, batch_bytes):
            pending.append(pool.submit(audit_rows, _rows(part), dict(options), jsonl))
            if len(pending) >= IN_FLIGHT * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _methods() -> list[str]:
    return multiprocessing.get_all_start_methods()
