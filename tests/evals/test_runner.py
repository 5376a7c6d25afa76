"""The audit runner: workers decode, audit and tally their batch and send back a
partial tally; merged in input order the partial tallies equal one tally of every
record, and the main process of a ``--jobs 2`` run does no per-record work."""

from __future__ import annotations

import json
import os
import pickle
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from replykit.evals import runner, sources
from replykit.evals.record import audit_record
from replykit.evals.sources import Item, decode_record
from replykit.evals.tally import MAX_ERRORS_SHOWN, Tally

FORM = (
    'Pick:\n\n<questionnaire>{"questions":[{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}]}</questionnaire>\n'
)
TILDE = "Pick one:\n\n~~~questionnaire\ntitle: T\n~~~\n"
CASE = FORM.replace("<questionnaire>", "<Questionnaire>").replace("</q", "</Q")
OPTIONS = {"group_by": "model", "latest": True}


def line_of(number: int) -> bytes:
    """Line ``number`` of a JSON Lines file: conversations of three groups, one broken
    record in 13, one not UTF-8 in 29, and a code (``near_miss.case``) that group
    ``m2`` first shows late."""
    if number % 13 == 0:
        return b'{"model": "m1", "messages": ['
    if number % 29 == 0:
        return b'{"model": "m0", "messages": "\xff"}'
    reply = CASE if number in (410, 433) else [FORM, TILDE, "plain"][number % 3]
    messages = [{"role": "assistant", "content": TILDE}, {"role": "assistant", "content": reply}]
    return json.dumps({"model": f"m{number % 3}", "messages": messages}).encode()


def items(count: int) -> Iterator[Item]:
    for number in range(1, count + 1):
        yield Item("f.jsonl", number, "line", line_of(number), len(line_of(number)) + 1)


def one_tally(count: int) -> Tally:
    """The tally of every record, one at a time, in this process."""
    tally = Tally()
    for item in items(count):
        record, problem = decode_record(item)
        result = (
            {"group": "all", "error": problem, "messages": []}
            if problem is not None
            else audit_record(record, **OPTIONS)
        )
        tally.add(result, item.where)
    return tally


def merged(
    count: int, given: Iterable[Item] | None = None, **kwargs: Any
) -> tuple[Tally, int, int, int]:
    tally = Tally()
    records = replies = size = 0
    source = items(count) if given is None else given
    for batch in runner.audit_batches(source, OPTIONS, **kwargs):
        tally.merge(batch.tally)
        records, replies, size = records + batch.records, replies + batch.replies, size + batch.size
    return tally, records, replies, size


@pytest.mark.parametrize("batch", [1, 7, 200, 1000])
def test_partial_tallies_merged_in_order_equal_one_tally(batch: int) -> None:
    whole = one_tally(500)
    tally, records, replies, size = merged(500, batch=batch)
    assert tally.summary() == whole.summary()
    assert (records, replies) == (500, whole.summary()["messages"])
    assert size == sum(item.size for item in items(500))
    summary = tally.summary()
    # More errors than are shown: the first ones in input order are kept.
    assert summary["input_errors"]["count"] == 38 + 17 - 1
    shown = [e["where"] for e in summary["input_errors"]["first"]]
    assert len(shown) == MAX_ERRORS_SHOWN
    assert shown[:4] == ["f.jsonl:13", "f.jsonl:26", "f.jsonl:29", "f.jsonl:39"]
    m2 = {c["code"]: c["first"] for c in summary["groups"][2]["codes"]}
    assert m2["near_miss.case"] == "f.jsonl:410 message 1 at 3:1"


def test_two_jobs_merge_to_the_same_tally() -> None:
    assert merged(700, jobs=2, batch=30)[0].summary() == one_tally(700).summary()


def test_jsonl_lines_of_a_batch_in_input_order() -> None:
    batch = next(runner.audit_batches(items(30), OPTIONS, batch=30, jsonl=True))
    lines = [json.loads(line) for line in batch.jsonl.decode("utf-8").splitlines()]
    assert [x["line"] for x in lines] == list(range(1, 31))
    assert lines[12] == {
        "source": "f.jsonl",
        "line": 13,
        "error": "not strict JSON at column 30: expected a value, found the end of the text",
    }
    assert lines[0]["group"] == "m1" and lines[0]["codes"] == ["near_miss.tilde"]
    assert next(runner.audit_batches(items(30), OPTIONS, batch=30)).jsonl == b""


def repeated(count: int) -> Iterator[Item]:
    """``count`` readable records, lines 3 to 5 of :func:`line_of` in turn."""
    for number in range(1, count + 1):
        yield Item("f.jsonl", number, "line", line_of(3 + number % 3), 100)


def test_a_batch_result_does_not_grow_with_its_records() -> None:
    small = next(runner.audit_batches(repeated(60), OPTIONS, batch=60))
    large = next(runner.audit_batches(repeated(600), OPTIONS, batch=600))
    assert (small.replies, large.replies) == (60, 600)
    # Counts only: a few more digits, however many records the batch holds.
    assert len(pickle.dumps(large)) - len(pickle.dumps(small)) < 40


class Watched(bytes):
    """A JSON Lines line that notes, in the file ``log``, the process that decodes it."""

    log: str

    def decode(self, encoding: str = "utf-8", errors: str = "strict") -> str:
        with open(self.log, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} decode\n")
        return bytes(self).decode(encoding, errors)


class WatchedRecord(Mapping[str, Any]):
    """A decoded record that notes, in the file ``log``, the process that reads it."""

    def __init__(self, data: dict[str, Any], log: str) -> None:
        self.data, self.log = data, log

    def __getitem__(self, key: str) -> Any:
        with open(self.log, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} read\n")
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


def watched(count: int, log: Path) -> Iterator[Item]:
    """:func:`items`, each line (or, every other line, its decoded record) watched."""
    for item in items(count):
        if item.line is not None and item.line % 2 and item.line % 13 and item.line % 29:
            value = WatchedRecord(json.loads(item.payload), str(log))
            yield Item(item.source, item.line, "value", value, item.size)
            continue
        line = Watched(item.payload)
        line.log = str(log)
        yield Item(item.source, item.line, item.kind, line, item.size)


def readers(log: Path) -> dict[str, set[int]]:
    """The processes that decoded lines and read records, from the log."""
    found: dict[str, set[int]] = {"decode": set(), "read": set()}
    for entry in log.read_text(encoding="utf-8").splitlines():
        pid, what = entry.split()
        found[what].add(int(pid))
    log.unlink()
    return found


def test_the_main_process_does_no_per_record_work(tmp_path: Path) -> None:
    # The inputs note which process decodes a line or reads a record: with two jobs,
    # only the workers do (the main process sends raw rows and merges tallies).
    log = tmp_path / "readers.log"
    two = merged(300, watched(300, log), jobs=2, batch=40)[0].summary()
    found = readers(log)
    assert found["decode"] and found["read"]
    assert os.getpid() not in found["decode"] | found["read"], found
    one = merged(300, watched(300, log), jobs=1, batch=40)[0].summary()
    assert readers(log) == {"decode": {os.getpid()}, "read": {os.getpid()}}
    assert one == two == one_tally(300).summary()


@pytest.mark.parametrize("block", [8, 1 << 16])
def test_blocks_of_lines_give_numbered_records(block: int, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(b'\xef\xbb\xbf"a"\r\n\n  \t\n"b"\n\xff\n\r\n"c"')
    blocks = list(sources.read_items([str(path)], block=block))
    assert {b.kind for b in blocks} == {"lines"}
    assert sum(b.size for b in blocks) == path.stat().st_size
    found = [(r.line, r.kind, r.payload) for b in blocks for r in sources.records(b)]
    assert found == [(1, "line", b'"a"'), (4, "line", b'"b"'), (5, "line", b"\xff"),
                     (7, "line", b'"c"')]  # fmt: skip
    assert [sources.decode_record(r) for b in blocks for r in sources.records(b)] == [
        ("a", None), ("b", None), (None, "not UTF-8 (byte 0)"), ("c", None)
    ]  # fmt: skip
    assert (len(blocks) > 1) == (block < 100)  # lines numbered across blocks
    with pytest.raises(ValueError, match="block must be at least 1"):
        sources.read_items([str(path)], block=0)


def test_batches_end_at_a_count_or_a_size() -> None:
    made = [Item("f", n, "text", "x", 30) for n in range(10)]
    assert [len(b) for b in sources.batches(made, 3)] == [3, 3, 3, 1]
    assert [len(b) for b in sources.batches(made, 200, 100)] == [4, 4, 2]
    assert [len(b) for b in sources.batches(made, 3, 100)] == [3, 3, 3, 1]


def test_bytes_read_ahead_are_bounded(tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    line = json.dumps({"messages": [{"role": "assistant", "content": "plain " * 40}]})
    path.write_bytes((line.encode() + b"\n") * 6000)
    pulled = 0

    def counted() -> Iterator[Item]:
        nonlocal pulled
        for item in sources.read_items([str(path)]):
            pulled += item.size
            yield item

    done = 0
    most_ahead = 0
    for batch in runner.audit_batches(counted(), {}, jobs=2):
        done += batch.size
        most_ahead = max(most_ahead, pulled - done)
    assert done == path.stat().st_size > 20 * runner.BATCH_BYTES
    # At most IN_FLIGHT * jobs batches, each about BATCH_BYTES, wait in the pool.
    assert most_ahead <= runner.IN_FLIGHT * 2 * (runner.BATCH_BYTES + len(line) + 1)
