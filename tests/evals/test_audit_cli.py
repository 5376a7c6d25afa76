"""``replykit audit``: every input kind, bad records counted with file and line, the
report formats, a process pool with the same results, bounded work in flight."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from replykit.cli import main
from replykit.evals import runner
from replykit.evals.sources import Item

FORM = (
    'Pick:\n\n<questionnaire>{"questions":[{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}]}</questionnaire>\n'
)
TILDE = "Pick one:\n\n~~~questionnaire\ntitle: T\n~~~\n"
CASE = FORM.replace("<questionnaire>", "<Questionnaire>").replace("</q", "</Q")


def chat(reply: Any, model: str) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "go"},
                                         {"role": "assistant", "content": reply}]}  # fmt: skip


def write_jsonl(path: Path, lines: list[Any]) -> None:
    path.write_bytes(b"".join(
        (x if isinstance(x, bytes) else json.dumps(x).encode()) + b"\n" for x in lines
    ))  # fmt: skip


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "runs"
    (root / "nested" / "deeper").mkdir(parents=True)
    write_jsonl(root / "a.jsonl", [
        chat(FORM, "kestrel"),                                           # 1
        chat([{"type": "text", "text": TILDE}], "kestrel"),              # 2 Anthropic blocks
        b'{"model": "wren", "messages": [',                              # 3 broken
        b"",                                                             # 4 blank: skipped
        {"role": "assistant", "content": CASE, "model": "wren"},         # 5 one message
        b'{"model": "wren", "messages": "\xff"}',                        # 6 not UTF-8
        {"model": "wren", "messages": 3},                                # 7 wrong shape
    ])  # fmt: skip
    (root / "nested" / "b.json").write_text(json.dumps(chat(FORM, "wren")), "utf-8")
    (root / "nested" / "deeper" / "c.md").write_text(TILDE, "utf-8")
    (root / "nested" / "notes.csv").write_text("skipped,in,a,directory\n", "utf-8")
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["audit", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_summary_of_every_kind(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(tree), "--group-by", "model", "--format", "json")
    assert (status, err) == (0, "")
    summary = json.loads(out)
    assert (summary["records"], summary["messages"], summary["passed"]) == (8, 5, 2)
    errors = summary["input_errors"]
    assert errors["count"] == 3
    assert [(e["where"][len(str(tree)) + 1 :], e["message"]) for e in errors["first"]] == [
        ("a.jsonl:3", "not strict JSON at column 32: expected a value, found the end of the text"),
        ("a.jsonl:6", "not UTF-8 (byte 31)"),
        ("a.jsonl:7", "messages must be a list, not a number"),
    ]  # fmt: skip
    groups = {g["group"]: g for g in summary["groups"]}
    assert {k: (g["messages"], g["passed"]) for k, g in groups.items()} == {
        "(no model)": (1, 0),
        "kestrel": (2, 1),
        "wren": (2, 1),
    }
    tilde = groups["kestrel"]["codes"][0]
    assert (tilde["code"], tilde["rate"]) == ("near_miss.tilde", 0.5)
    assert tilde["first"] == f"{tree}/a.jsonl:2 message 1 at 3:1"
    assert groups["(no model)"]["codes"][0]["first"] == f"{tree}/nested/deeper/c.md at 3:1"
    assert groups["wren"]["near_misses"] == [{"kind": "case", "messages": 1, "rate": 0.5}]


def test_jsonl_one_line_per_reply_or_error(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, str(tree / "a.jsonl"), "--format", "jsonl", "--lenient")
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 0
    assert [(x["line"], x.get("passed"), x.get("lenient_passed"), x["error"] is not None)
            for x in lines] == [
        (1, True, True, False), (2, False, False, False), (3, None, None, True),
        (5, False, True, False), (6, None, None, True), (7, None, None, True),
    ]  # fmt: skip
    assert lines[1] == {
        "source": str(tree / "a.jsonl"), "line": 2, "group": "all", "index": 1,
        "passed": False, "expect": "any", "codes": ["near_miss.tilde"],
        "positions": [[3, 1]], "near_misses": ["tilde"], "blocks": 0, "forms": 0,
        "lenient_passed": False, "error": None,
    }  # fmt: skip


def test_eval_records_with_text_and_expect_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "eval.jsonl"
    write_jsonl(path, [
        {"out": {"reply": FORM}, "due": "form"},
        {"out": {"reply": "No form here."}, "due": "form"},
        {"out": {"reply": FORM}, "due": "none"},
        {"out": {"reply": "No form here."}},
    ])  # fmt: skip
    _, out, _ = run(capsys, str(path), "--text-field", "out.reply",
                         "--expect-field", "due", "--format", "jsonl")  # fmt: skip
    verdicts = [(x["expect"], x["passed"], x["codes"]) for x in map(json.loads, out.splitlines())]
    assert verdicts == [
        ("form", True, []),
        ("form", False, ["expect.form_missing"]),
        ("none", False, ["expect.block_present"]),
        ("any", True, []),
    ]


def test_latest_and_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.json"
    yiii = FORM.replace("questionnaire>", "yiii-questionnaire>")
    convo = {"messages": [{"role": "assistant", "content": TILDE},
                          {"role": "assistant", "content": yiii}]}  # fmt: skip
    path.write_text(json.dumps(convo), "utf-8")
    _, out, _ = run(capsys, str(path), "--latest", "--format", "jsonl")
    assert [(x["index"], x["passed"]) for x in map(json.loads, out.splitlines())] == [(1, True)]
    _, out, _ = run(capsys, str(path), "--latest", "--profile", "client", "--format", "jsonl")
    assert json.loads(out)["codes"] == ["name.unregistered"]


def test_parquet_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "replies.parquet"
    table = pa.table({"model": ["a", "a", "b"], "reply": [FORM, TILDE, "plain text"]})
    pq.write_table(table, path)
    status, out, _ = run(capsys, str(path), "--text-field", "reply", "--group-by", "model",
                         "--format", "jsonl")  # fmt: skip
    rows = [(x["line"], x["group"], x["passed"]) for x in map(json.loads, out.splitlines())]
    assert (status, rows) == (0, [(1, "a", True), (2, "a", False), (3, "b", True)])
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 not really")
    _, out, _ = run(capsys, str(tmp_path / "bad.parquet"), "--format", "json")
    error = json.loads(out)["input_errors"]["first"][0]["message"]
    assert error.startswith("not a readable Parquet file: ")


def test_table(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, str(tree), "--group-by", "model")
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == "8 records, 5 replies audited, 2 passed, 3 input errors"
    assert lines[2].split() == ["group", "replies", "pass", "rate", "95%", "interval", "lenient"]
    assert lines[4].split() == ["kestrel", "2", "50.0%", "[9.4%,", "90.5%]", "-"]
    assert "input errors (3; the first 3):" in lines


def test_other_file_kinds_named_are_input_errors(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, str(tree / "nested" / "notes.csv"), "--format", "json")
    summary = json.loads(out)
    assert summary["input_errors"]["first"][0]["message"].startswith("not a file kind audit")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["/nonexistent/x.jsonl"], "no such file or directory: /nonexistent/x.jsonl"),
        (["--profile", "bogus", "."], "unknown profile 'bogus'"),
        (["--jobs", "-1", "."], "argument --jobs: must be an integer of at least 0, not '-1'"),
        (["--out", "/nonexistent/dir/r.html", "."], "cannot write /nonexistent/dir/r.html"),
    ],
)
def test_usage_errors_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith(f"replykit audit: error: {message}")


def test_out_file_and_progress(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r.json"
    status, out, err = run(capsys, str(tree), "--format", "json", "--out", str(report),
                           "--progress", "always")  # fmt: skip
    assert (status, out) == (0, "")
    assert json.loads(report.read_text("utf-8"))["records"] == 8
    assert "audit: 100%" in err and "replies=5" in err
    _, _, quiet = run(capsys, str(tree), "--progress", "never")
    assert quiet == ""


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    """Several batches of conversations from four groups, with broken, non-UTF-8 and
    wrongly shaped records in every batch (more than are shown), a code first seen in
    the last batch of one group, a Markdown reply and a conversation file."""
    root = tmp_path / "runs"
    root.mkdir()
    replies = [FORM, TILDE, "plain", FORM.replace("single_choice", "pick_one")]
    for name, count in (("a.jsonl", 650), ("b.jsonl", 260)):
        lines: list[Any] = []
        for i in range(count):
            if i % 37 == 5:
                lines.append(b'{"model": "m1", "messages": [')
            elif i % 53 == 7:
                lines.append(b'{"model": "m2", "messages": "\xff"}')
            elif i % 61 == 9:
                lines.append({"model": "m3", "messages": 3})
            else:
                last = CASE if (name, i) == ("a.jsonl", 620) else replies[i % 4]
                convo = chat(last, f"m{i % 4}")
                convo["messages"][1:1] = [{"role": "assistant", "content": TILDE},
                                          {"role": "user", "content": "and?"}]  # fmt: skip
                lines.append(convo)
        write_jsonl(root / name, lines)
    (root / "c.md").write_text(TILDE, "utf-8")
    (root / "d.json").write_text(json.dumps(chat(CASE, "m0")), "utf-8")
    return root


@pytest.mark.parametrize("form", ["table", "json", "jsonl", "html"])
def test_two_jobs_give_the_same_report(
    runs: Path, form: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(runs), "--group-by", "model", "--latest", "--format", form]
    one = run(capsys, *argv)
    two = run(capsys, *argv, "--jobs", "2")
    assert two == one
    assert one[0] == 0
    if form == "json":
        summary = json.loads(one[1])
        assert (summary["records"], summary["input_errors"]["count"]) == (912, 58)
        first = summary["input_errors"]["first"]
        assert [e["where"][len(str(runs)) + 1 :] for e in first[:3]] == [
            "a.jsonl:6", "a.jsonl:8", "a.jsonl:10"
        ]  # fmt: skip
        assert (len(first), first[-1]["where"]) == (20, f"{runs}/a.jsonl:302")
        m0 = {c["code"]: c["first"] for c in summary["groups"][1]["codes"]}
        assert m0["near_miss.case"] == f"{runs}/a.jsonl:621 message 3 at 3:1"
    if form == "jsonl":
        assert len(one[1].splitlines()) == 912


def test_work_in_flight_is_bounded() -> None:
    pulled = 0

    def items() -> Iterator[Item]:
        nonlocal pulled
        for i in range(5000):
            pulled += 1
            yield Item("f.jsonl", i + 1, "text", FORM, 1)

    seen = 0
    most_ahead = 0
    for batch in runner.audit_batches(items(), {}, jobs=2, batch=50):
        seen += batch.records
        most_ahead = max(most_ahead, pulled - seen)
    assert seen == 5000
    # At most IN_FLIGHT * jobs batches wait in the pool, whatever the input's length.
    assert most_ahead <= runner.IN_FLIGHT * 2 * 50
