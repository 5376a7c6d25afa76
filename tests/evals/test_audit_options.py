"""The caller's options of audit_record, audit_json and audit_lines checked once, at
the call (never one error per record); the caller's field names quoted cut in
per-record output; a line holding bytes that are not UTF-8 (surrogateescape) reported
as the command reports it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replykit import CLIENT
from replykit.cli import main
from replykit.evals import audit_json, audit_lines, audit_record

FORM = (
    'Pick:\n\n<questionnaire>{"questions":[{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}]}</questionnaire>\n'
)
RECORD = {"model": "m", "messages": [{"role": "assistant", "content": FORM}]}
LINE = json.dumps(RECORD)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"group_by": 5}, "argument 'group_by' must be str or None, not int"),
        ({"text_field": ["a"]}, "argument 'text_field' must be str or None, not list"),
        ({"expect_field": b"e"}, "argument 'expect_field' must be str or None, not bytes"),
        ({"latest": "yes"}, "argument 'latest' must be bool, not str"),
        ({"lenient": 1}, "argument 'lenient' must be bool, not int"),
        ({"expect": None}, "argument 'expect' must be str, not None"),
        ({"profile": "client"}, "argument 'profile' must be Profile, not str"),
    ],
)
def test_a_wrong_option_type_raises_at_the_call(options: dict[str, Any], message: str) -> None:
    with pytest.raises(TypeError) as record:
        audit_record(RECORD, **options)
    assert str(record.value) == f"audit_record() {message}"
    with pytest.raises(TypeError) as text:
        audit_json("   \n", **options)  # even a blank line: the options come first
    assert str(text.value) == f"audit_json() {message}"
    # audit_lines raises at the call, before a single line is read.
    with pytest.raises(TypeError) as lines:
        audit_lines(iter(()), **options)
    assert str(lines.value) == f"audit_lines() {message}"


def test_a_bad_expect_or_an_unknown_option_raises() -> None:
    with pytest.raises(ValueError) as bad:
        audit_record(RECORD, expect="often")
    assert str(bad.value) == (
        "audit_record() argument 'expect' must be one of any, form, none, not 'often'"
    )
    with pytest.raises(ValueError, match=r"^audit_lines\(\) argument 'expect'"):
        audit_lines([LINE], expect="FORM")
    with pytest.raises(TypeError) as unknown:
        audit_json(LINE, group="model")
    assert str(unknown.value) == "audit_json() got an unexpected keyword argument 'group'"


def test_good_options_still_audit_every_record() -> None:
    options: dict[str, Any] = {"group_by": "model", "latest": True, "lenient": False}
    result = audit_record(RECORD, expect="form", profile=CLIENT, **options)
    assert (result["group"], result["error"]) == ("m", None)
    assert [m["passed"] for m in result["messages"]] == [True]
    located = list(audit_lines([LINE, "", LINE], **options))
    assert [(r["where"], r["group"], r["error"]) for r in located] == [
        ("line 1", "m", None),
        ("line 3", "m", None),
    ]
    # A record's own expect value is data: that record's error, not an exception.
    wrong = audit_record({**RECORD, "e": "often"}, expect_field="e")
    assert wrong["error"] == 'expect must be one of any, form, none, not "often"'


def test_field_names_quoted_per_record_are_cut() -> None:
    name = "f" * 100_000
    missing = audit_record({"reply": "x"}, text_field=name)["error"]
    assert missing.startswith("the record has no field " + "f" * 60 + "…")
    assert len(missing) == len("the record has no field ") + 69
    group = audit_record(RECORD, group_by=name)["group"]
    assert group.startswith("(no " + "f" * 60 + "…") and len(group) == 4 + 69 + 1
    # Two long names that share their start stay apart, as group names do.
    other = audit_record({"reply": "x"}, text_field=name + "g")["error"]
    assert other != missing
    short = audit_record({"reply": "x"}, text_field="answer")["error"]
    assert short == "the record has no field answer"


def test_command_output_stays_bounded_for_a_long_text_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps({"n": i}) + "\n" for i in range(50)), "utf-8")
    name = "F" * 100_000
    argv = ["audit", str(path), "--text-field", name, "--group-by", name, "--format", "jsonl"]
    assert main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 50
    assert {len(line["error"]) for line in lines} == {len("the record has no field ") + 69}


@pytest.mark.parametrize(
    ("raw", "byte"),
    [
        (b'{"a": "\xff"}', 7),
        (b'{"a": "\xc3\xa9\xe2\x28"}', 9),  # after a 2-byte character, a cut 3-byte one
        (b"\xfe{}", 0),
    ],
)
def test_a_line_not_utf8_is_reported_as_the_command_reports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], raw: bytes, byte: int
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(raw + b"\n")
    assert main(["audit", str(path), "--format", "json"]) == 0
    (shown,) = json.loads(capsys.readouterr().out)["input_errors"]["first"]
    line = raw.decode("utf-8", "surrogateescape")
    assert shown["message"] == f"not UTF-8 (byte {byte})"
    assert audit_json(line) == {"group": "all", "error": shown["message"], "messages": []}
    # A JSON escape of a lone surrogate is JSON text, not a byte: strict JSON judges it.
    escaped = audit_json('"\\udcff"')["error"]
    assert escaped.startswith("not strict JSON at column 2: lone surrogate")
