"""Auditing a stream of raw records on one core or on a process pool (§8).

:func:`audit_stream` yields, in input order, each record's location and its
:func:`~replykit.evals.record.audit_record` result. With ``jobs > 1`` batches go to a
process pool, at most ``2 * jobs`` batches in flight: reading waits for the pool, so
memory stays flat however many records there are.
"""

from __future__ import annotations

import collections
import concurrent.futures
import multiprocessing
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from replykit.evals.record import ALL, audit_record
from replykit.evals.sources import Item, batches, decode_record

#: Records per batch sent to a worker (amortizes the cost of a round trip).
BATCH = 200
#: Batches in flight per worker.
IN_FLIGHT = 2

Result = tuple[Item, dict[str, Any]]


def audit_items(items: list[Item], options: Mapping[str, Any]) -> list[Result]:
    """Audit a batch: each item's record decoded (:func:`decode_record`) and audited
    with ``options`` (keyword arguments of ``audit_record``); an unreadable record gives
    ``{"group": "all", "error": why, "messages": []}``. The items come back without
    their payload (only their place is needed). Never raises for an item."""
    out: list[Result] = []
    for item in items:
        record, problem = decode_record(item)
        if problem is not None:
            result = {"group": ALL, "error": problem, "messages": []}
        else:
            result = audit_record(record, **options)
        out.append((Item(item.source, item.line, item.kind, None, item.size), result))
    return out


def _warm() -> None:
    """Runs once in each worker, so every worker is started before reading begins."""


def audit_stream(
    items: Iterable[Item], options: Mapping[str, Any], *, jobs: int = 1, batch: int = BATCH
) -> Iterator[list[Result]]:
    """The results of ``items`` a batch at a time, in input order (see the module doc).
    ``jobs``: worker processes (1: audit in this process). Raises ``ValueError`` when
    ``jobs`` < 1."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if jobs == 1:
        for part in batches(items, batch):
            yield audit_items(part, options)
        return
    context = multiprocessing.get_context("fork" if "fork" in _methods() else "spawn")
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
        for started in [pool.submit(_warm) for _ in range(jobs)]:
            started.result()
        pending: collections.deque[concurrent.futures.Future[list[Result]]] = collections.deque()
        for part in batches(items, batch):
            pending.append(pool.submit(audit_items, part, dict(options)))
            if len(pending) >= IN_FLIGHT * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _methods() -> list[str]:
    return multiprocessing.get_all_start_methods()
