"""The audit runner: workers decode, audit and tally their batch and send back a
partial tally; merged in input order the partial tallies equal one tally of every
record, and the main process of a ``--jobs 2`` run does no per-record work."""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator
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


def merged(count: int, **kwargs: Any) -> tuple[Tally, int, int, int]:
    tally = Tally()
    records = replies = size = 0
    for batch in runner.audit_batches(items(count), OPTIONS, **kwargs):
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


def test_the_main_process_does_no_per_record_work(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"decode": 0, "audit": 0, "add": 0}

    def counted(name: str, function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1  # in a forked worker this counts in the worker's copy
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(runner, "decode_record", counted("decode", runner.decode_record))
    monkeypatch.setattr(runner, "audit_record", counted("audit", runner.audit_record))
    monkeypatch.setattr(Tally, "add", counted("add", Tally.add))
    two = merged(300, jobs=2, batch=40)[0].summary()
    assert calls == {"decode": 0, "audit": 0, "add": 0}
    one = merged(300, jobs=1, batch=40)[0].summary()
    assert calls == {"decode": 300, "audit": 300 - 23 - 10, "add": 300}
    assert one == two


@pytest.mark.parametrize("block", [8, 1 << 16])
def test_blocks_of_lines_give_numbered_records(
    block: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sources, "LINES_BLOCK", block)
    path = tmp_path / "r.jsonl"
    path.write_bytes(b'\xef\xbb\xbf"a"\r\n\n  \t\n"b"\n\xff\n\r\n"c"')
    blocks = list(sources.read_items([str(path)]))
    assert {b.kind for b in blocks} == {"lines"}
    assert sum(b.size for b in blocks) == path.stat().st_size
    found = [(r.line, r.kind, r.payload) for b in blocks for r in sources.records(b)]
    assert found == [(1, "line", b'"a"'), (4, "line", b'"b"'), (5, "line", b"\xff"),
                     (7, "line", b'"c"')]  # fmt: skip
    assert [sources.decode_record(r) for b in blocks for r in sources.records(b)] == [
        ("a", None), ("b", None), (None, "not UTF-8 (byte 0)"), ("c", None)
    ]  # fmt: skip
    assert (len(blocks) > 1) == (block < 100)  # lines numbered across blocks


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
