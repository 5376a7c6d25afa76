"""One rule for what a record is in every input shape (JSON, JSON Lines, Parquet, the
Python API): the same input errors as ``replykit check``, figures equal to an
independent count, null as missing, groups keyed by JSON value, ``--latest`` as
Self-check picks the reply, and Parquet types read as JSON values."""

from __future__ import annotations

import datetime
import decimal
import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from replykit.cli import main
from replykit.evals import audit_json, audit_lines, audit_record, tally_results
from replykit.questionnaire.conversation.selfcheck import self_check

FORM = (
    'Pick:\n\n<questionnaire>{"questions":[{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}]}</questionnaire>\n'
)
TILDE = "Pick one:\n\n~~~questionnaire\ntitle: T\n~~~\n"
A = "assistant"
BAD_CONTENT = "messages[0].content must be a string, a list of content parts or null, not a number"
BAD_TYPE = "messages[0].message_type must be a string, not a number"
BAD_ROLE = "messages[0].role must be a string, not a number"
NO_MESSAGES = "a conversation object needs a messages list (or a role, for one message)"

#: Conversations and what ``replykit check`` says of them: an error message, or None.
SHAPES: list[tuple[Any, str | None]] = [
    ([{"role": A, "content": "<Questionnaire>{}</Questionnaire>"}], None),
    ([{"messages": [{"role": A, "content": FORM}]}], "messages[0] has no role"),
    ({"messages": [{"content": FORM}]}, "messages[0] has no role"),
    ({"messages": [{"role": None, "content": FORM}]}, "messages[0] has no role"),
    ({"messages": [{"role": 3, "content": FORM}]}, BAD_ROLE),
    ({"messages": [{"role": A}]}, None),
    ({"messages": [{"role": A, "content": None, "tool_calls": []}]}, None),
    ({"messages": [{"role": "user", "content": 3}, {"role": A, "content": FORM}]}, BAD_CONTENT),
    ({"messages": [{"role": A, "content": 3}]}, BAD_CONTENT),
    ({"messages": [{"role": A, "content": FORM, "message_type": 1}]}, BAD_TYPE),
    ({"messages": ["hi"]}, "messages[0] must be an object, not a string"),
    ({"messages": [{"role": A, "content": "   "}]}, None),
    ({"role": A, "content": TILDE}, None),
    ({"id": 3}, NO_MESSAGES),
    ({"messages": "oops"}, "messages must be a list, not a string"),
]  # fmt: skip


@pytest.mark.parametrize(("conversation", "problem"), SHAPES)
def test_audit_and_check_agree_on_what_is_malformed(conversation: Any, problem: str | None) -> None:
    try:
        checked = self_check(conversation)
        refused = None
    except TypeError as exc:
        refused = str(exc)
    assert refused == problem
    result = audit_record(conversation, latest=True)
    assert result["error"] == problem
    if problem is None:
        assert [m["index"] for m in result["messages"]] == (
            [] if checked.index is None else [checked.index]
        )
        assert [m["passed"] for m in result["messages"]] == (
            [] if checked.index is None else [checked.passed]
        )


def _count(values: list[Any]) -> tuple[int, int, int, int]:
    """An independent count: records, replies, passed, input errors (by check's rules,
    every assistant reply that is not blank)."""
    records = replies = passed = errors = 0
    for value in values:
        records += 1
        try:
            self_check(value)
        except TypeError:
            errors += 1
            continue
        messages = (
            value["messages"]
            if isinstance(value, dict) and "messages" in value
            else ([value] if isinstance(value, dict) else value)
        )
        for message in messages:
            content = message.get("content")
            if message["role"] == A and isinstance(content, str) and content.strip():
                replies += 1
                passed += content == FORM
    return records, replies, passed, errors


def test_figures_equal_an_independent_count_in_every_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    values = [c for c, _ in SHAPES] + [
        {"messages": [{"role": A, "content": FORM}, {"role": "user", "content": "x"},
                      {"role": A, "content": TILDE}]},
    ]  # fmt: skip
    expected = _count(values)
    assert expected == (16, 4, 1, 10)
    lines = tmp_path / "all.jsonl"
    lines.write_text("".join(json.dumps(v) + "\n\n" for v in values), "utf-8")
    d = tmp_path / "files"
    d.mkdir()
    for number, value in enumerate(values):
        (d / f"{number:02}.json").write_text(json.dumps(value), "utf-8")
    for path in (lines, d):
        assert main(["audit", str(path), "--format", "json"]) == 0
        summary = json.loads(capsys.readouterr().out)
        got = (summary["records"], summary["messages"], summary["passed"])
        assert (*got, summary["input_errors"]["count"]) == expected
    # The Python API over the same lines, blank ones included, counts the same.
    tally = tally_results(audit_json(line) for line in lines.read_text("utf-8").splitlines())
    summary = tally.summary()
    assert (summary["records"], summary["messages"], summary["passed"]) == expected[:3]
    assert summary["input_errors"]["count"] == expected[3]


def test_a_blank_reply_under_text_field_is_no_reply() -> None:
    for blank in ("", "   ", "\n\t\r\n"):
        result = audit_record(
            {"output": blank, "exp": "form"}, text_field="output", expect_field="exp"
        )
        assert result == {"group": "all", "error": None, "messages": []}
        assert audit_record(blank) == {"group": "all", "error": None, "messages": []}
    result = audit_record({"output": None}, text_field="output")
    assert result["error"] == "the record has no field output"


def test_null_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [
        {"model": None, "expect": None, "reply": "no form"},
        {"model": "b", "expect": "form", "reply": "no form"},
    ]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "t.parquet")
    (tmp_path / "t.jsonl").write_text(
        json.dumps({"reply": "no form"}) + "\n" + json.dumps(rows[1]) + "\n", "utf-8"
    )
    out = {}
    for name in ("t.parquet", "t.jsonl"):
        argv = [str(tmp_path / name), "--text-field", "reply", "--group-by", "model"]
        assert main(["audit", *argv, "--expect-field", "expect", "--format", "jsonl"]) == 0
        out[name] = [
            (x["group"], x["expect"], x["passed"], x["error"])
            for x in map(json.loads, capsys.readouterr().out.splitlines())
        ]
    assert (
        out["t.parquet"]
        == out["t.jsonl"]
        == [
            ("(no model)", "any", True, None),
            ("b", "form", False, None),
        ]
    )


def test_groups_keyed_by_json_value_and_kind() -> None:
    names = [
        audit_record({"m": value, "messages": []}, group_by="m")["group"]
        for value in (1, "1", True, "true", None, [1], {"a": 1}, 1.5)
    ]
    assert names == [
        "1 (number)", "1", "true (boolean)", "true", "(no m)", "[1] (array)",
        '{"a":1} (object)', "1.5 (number)",
    ]  # fmt: skip
    long_a, long_b = "x" * 60 + "a", "x" * 60 + "b"
    a = audit_record({"m": long_a, "messages": []}, group_by="m")["group"]
    b = audit_record({"m": long_b, "messages": []}, group_by="m")["group"]
    assert a.startswith("x" * 60 + "…") and b.startswith("x" * 60 + "…")
    assert (len(a), a != b) == (69, True)
    assert audit_record({"m": "x" * 60, "messages": []}, group_by="m")["group"] == "x" * 60
    result = audit_record({"e": b"x", "messages": []}, expect_field="e")
    assert result["error"] == "expect must be one of any, form, none, not a Python bytes"
    result = audit_record({"e": None, "messages": []}, expect_field="e")
    assert result["error"] is None
    result = audit_record({"e": "FORM", "messages": []}, expect_field="e")
    assert result["error"] == 'expect must be one of any, form, none, not "FORM"'


def test_latest_is_the_reply_self_check_inspects(tmp_path: Path) -> None:
    answered = [{"role": A, "content": TILDE}, {"role": "user", "content": "ok"}]
    assert audit_record(answered, latest=True)["messages"] == []
    assert self_check(answered).index is None
    assert [m["index"] for m in audit_record(answered)["messages"]] == [0]
    later = [*answered, {"role": A, "content": FORM}, {"role": A, "content": " "}]
    assert [m["index"] for m in audit_record(later, latest=True)["messages"]] == [2]


def test_audit_lines_locate_and_skip_blank_lines() -> None:
    lines = [
        ("\ufeff" + json.dumps({"messages": [{"role": A, "content": FORM}]}) + "\n", "a.jsonl"),
        ("\n", "a.jsonl"),
        ("{oops\r\n", "a.jsonl"),
        ("   \n", "b.jsonl"),
        ("{oops\n", "b.jsonl"),
    ]
    results = list(audit_lines(lines))
    assert [(r["where"], r["error"]) for r in results] == [
        ("a.jsonl:1", None),
        ("a.jsonl:3", "not strict JSON at column 2: expected a string key or '}', found 'oops'"),
        ("b.jsonl:2", "not strict JSON at column 2: expected a string key or '}', found 'oops'"),
    ]
    assert audit_json("  \r\n") is None
    assert [r["where"] for r in audit_lines(["{}", "", "[]"])] == ["line 1", "line 3"]
    summary = tally_results(audit_lines(lines)).summary()
    assert (summary["records"], summary["input_errors"]["count"]) == (3, 2)


DEC = decimal.Decimal
STR = pa.string()


def _types_table() -> pa.Table:
    when = datetime.datetime(2024, 5, 1, 12, 0, tzinfo=datetime.UTC)
    return pa.table(
        {
            "reply": [FORM, FORM, TILDE],
            "ts": pa.array([when, None, when], pa.timestamp("us", tz="UTC")),
            "day": pa.array([datetime.date(2024, 5, 1)] * 3, pa.date32()),
            "dec": pa.array([DEC("12.50"), None, DEC("1.00")], pa.decimal128(5, 2)),
            "bin": pa.array([b"x", None, b"y"], pa.binary()),
            "f": pa.array([1.5, float("nan"), None], pa.float64()),
            "dur": pa.array([datetime.timedelta(seconds=1)] * 3, pa.duration("s")),
            "meta": pa.array([[("model", "a")], [("model", "b")], None], pa.map_(STR, STR)),
            "tags": pa.array([["x"], [], None], pa.list_(pa.string())),
        }
    )  # fmt: skip


@pytest.mark.parametrize(
    ("column", "groups"),
    [
        ("ts", ["2024-05-01T12:00:00+00:00", "(no ts)", "2024-05-01T12:00:00+00:00"]),
        ("day", ["2024-05-01"] * 3),
        ("dec", ["12.50", "(no dec)", "1.00"]),
        ("bin", ["column bin: binary data (bytes) is not a JSON value", "(no bin)",
                 "column bin: binary data (bytes) is not a JSON value"]),
        ("f", ["1.5 (number)", "column f: NaN is not a JSON number", "(no f)"]),
        ("dur", ["column dur: a duration is not a JSON value"] * 3),
        ("meta.model", ["a", "b", "(no meta.model)"]),
        ("tags", ['["x"] (array)', "[] (array)", "(no tags)"]),
    ],
)  # fmt: skip
def test_parquet_types_as_json_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], column: str, groups: list[str]
) -> None:
    path = tmp_path / "types.parquet"
    pq.write_table(_types_table(), path)
    argv = [str(path), "--text-field", "reply", "--group-by", column, "--format", "jsonl"]
    assert main(["audit", *argv]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x["error"] or x["group"] for x in lines] == groups
    assert all("internal error" not in (x["error"] or "") for x in lines)


def test_parquet_columns_not_read_are_never_looked_at(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "types.parquet"
    pq.write_table(_types_table(), path)
    assert main(["audit", str(path), "--text-field", "reply", "--format", "json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["records"], summary["messages"], summary["passed"]) == (3, 3, 2)
    assert summary["input_errors"]["count"] == 0
    assert os.path.exists(path)
