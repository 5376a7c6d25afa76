"""Parquet rows read as the JSON Lines records they came from: a null cell (a column
or a struct field) is an absent field, so a table mixing conversations and
one-message records audits every row; a map cell is an object by the column's type,
an empty one included. And a null ``messages`` beside ``role``/``content`` from the
Python API (Hugging Face ``datasets`` fills absent fields with None) is the one
message."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from replykit.cli import main
from replykit.evals import audit_record
from replykit.evals.parquet import MapCell, parquet_rows, row_record

FORM = (
    'Pick:\n\n<questionnaire>{"questions":[{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}]}</questionnaire>\n'
)
TILDE = "Pick one:\n\n~~~questionnaire\ntitle: T\n~~~\n"
A = "assistant"
NO_MESSAGES = "a conversation object needs a messages list (or a role, for one message)"

#: JSON Lines records: conversations and one-message records, fields absent here and there.
MIXED: list[dict[str, Any]] = [
    {"model": "a", "messages": [{"role": "user", "content": "go"}, {"role": A, "content": FORM}]},
    {"model": "a", "role": A, "content": TILDE},
    {"model": "b", "role": A, "content": FORM},
    {"model": "b", "content": FORM},
    {"model": "b", "messages": [{"role": A, "content": TILDE, "name": "bot"}]},
    {"role": A, "content": "  "},
]  # fmt: skip


def audit_lines_of(capsys: pytest.CaptureFixture[str], path: Path, *argv: str) -> list[Any]:
    assert main(["audit", str(path), *argv, "--format", "jsonl"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def verdicts(lines: list[Any]) -> list[tuple[Any, ...]]:
    return [(x["line"], x.get("group"), x.get("index"), x.get("passed"), x["error"]) for x in lines]


def test_a_table_mixing_conversations_and_messages_reads_as_json_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every column of every record, null where a record lacks the field.
    names = dict.fromkeys(k for record in MIXED for k in record)
    table = pa.table({name: [record.get(name) for record in MIXED] for name in names})
    assert [table.column(n).null_count for n in ("messages", "role", "content")] == [4, 3, 2]
    pq.write_table(table, tmp_path / "t.parquet")
    (tmp_path / "t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in MIXED), "utf-8")
    got = {
        name: verdicts(audit_lines_of(capsys, tmp_path / name, "--group-by", "model"))
        for name in ("t.parquet", "t.jsonl")
    }
    assert got["t.parquet"] == got["t.jsonl"] == [
        (1, "a", 1, True, None),
        (2, "a", 0, False, None),
        (3, "b", 0, True, None),
        (4, None, None, None, NO_MESSAGES),
        (5, "b", 0, False, None),
    ]  # fmt: skip


def test_null_messages_beside_a_message_is_the_message() -> None:
    # As datasets gives a row of a file mixing both shapes.
    row = {"messages": None, "role": A, "content": FORM, "model": None}
    result = audit_record(row, group_by="model", latest=True)
    assert result == audit_record({"role": A, "content": FORM}, group_by="model", latest=True)
    assert (result["group"], [m["passed"] for m in result["messages"]]) == ("(no model)", [True])
    assert audit_record({"messages": None})["error"] == NO_MESSAGES
    under = audit_record({"c": {"messages": None, "role": A, "content": TILDE}}, text_field="c")
    assert [m["passed"] for m in under["messages"]] == [False]
    # A messages value that is there and wrong stays an error.
    assert audit_record({"messages": 3, "role": A})["error"] == (
        "messages must be a list, not a number"
    )


def _maps_table() -> pa.Table:
    text_map = pa.map_(pa.string(), pa.int64())
    return pa.table(
        {
            "reply": [FORM] * 4,
            "meta": pa.array([[], [("k", 1)], None, [("k", None)]], text_map),
            "nested": pa.array([[[]], [[("k", 1)]], [], None], pa.list_(text_map)),
            "by_id": pa.array([[], [(1, "x")], None, None], pa.map_(pa.int64(), pa.string())),
            "s": pa.array(
                [{"m": {}, "n": None}, {"m": None, "n": 1}, None, {"m": [("a", 2)], "n": 0}],
                pa.struct([("m", text_map), ("n", pa.int64())]),
            ),
        }
    )


@pytest.mark.parametrize(
    ("column", "groups"),
    [
        ("meta", ["{} (object)", '{"k":1} (object)', "(no meta)", '{"k":null} (object)']),
        ("nested", ["[{}] (array)", '[{"k":1}] (array)', "[] (array)", "(no nested)"]),
        ("by_id", ["[] (array)", '[[1,"x"]] (array)', "(no by_id)", "(no by_id)"]),
        ("s", ['{"m":{}} (object)', '{"n":1} (object)', "(no s)",
               '{"m":{"a":2},"n":0} (object)']),
    ],
)  # fmt: skip
def test_maps_decoded_by_their_arrow_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], column: str, groups: list[str]
) -> None:
    path = tmp_path / "maps.parquet"
    pq.write_table(_maps_table(), path)
    lines = audit_lines_of(capsys, path, "--text-field", "reply", "--group-by", column)
    assert [x["group"] for x in lines] == groups


def test_an_empty_map_groups_with_the_json_lines_empty_object(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pq.write_table(_maps_table().select(["reply", "meta"]), tmp_path / "m.parquet")
    records = [{"reply": FORM, "meta": {}}, {"reply": FORM, "meta": {"k": 1}}]
    (tmp_path / "m.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    argv = ["--text-field", "reply", "--group-by", "meta"]
    from_parquet = [x["group"] for x in audit_lines_of(capsys, tmp_path / "m.parquet", *argv)]
    from_lines = [x["group"] for x in audit_lines_of(capsys, tmp_path / "m.jsonl", *argv)]
    assert from_parquet[:2] == from_lines == ["{} (object)", '{"k":1} (object)']


def test_tagged_rows_pickle_and_a_repeated_key_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "dup.parquet"
    kind = pa.map_(pa.string(), pa.string())
    pq.write_table(pa.table({"m": pa.array([[("a", "x"), ("a", "y")], []], kind)}), path)
    rows = [row[1] for row in parquet_rows(str(path)) if not isinstance(row, str)]
    assert isinstance(rows[1]["m"], MapCell)
    again = pickle.loads(pickle.dumps(rows))  # rows travel to worker processes
    assert isinstance(again[1]["m"], MapCell) and again == rows
    assert row_record(again[0], frozenset({"m"})) == (
        None,
        "column m: a map with the key a twice is not a JSON object",
    )
    assert row_record(again[0], frozenset()) == ({}, None)  # a column not read
    assert row_record(again[1], frozenset({"m"})) == ({"m": {}}, None)
