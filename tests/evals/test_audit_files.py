"""``replykit audit`` and the file system: no condition makes it raise (each is a
counted input error with its path), a deterministic walk, standard input, and an
``--out`` that can never destroy an input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from replykit.cli import main
from replykit.evals.sources import find_files, read_items, records
from replykit.evals.walk import Unreadable

FORM = (
    'Pick:\n\n<questionnaire>{"questions":[{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}]}</questionnaire>\n'
)
TILDE = "Pick one:\n\n~~~questionnaire\ntitle: T\n~~~\n"
ROOT = os.geteuid() == 0  # root reads files whatever their permissions


def chat(reply: str) -> str:
    return json.dumps({"messages": [{"role": "assistant", "content": reply}]})


def audit(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = main(["audit", *argv, "--format", "json"])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out else None), err


def errors(summary: dict[str, Any], root: Path) -> list[tuple[str, str]]:
    return [
        (e["where"].replace(str(root) + os.sep, ""), e["message"])
        for e in summary["input_errors"]["first"]
    ]


def test_broken_link_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "d"
    d.mkdir()
    (d / "a.md").write_text(TILDE, "utf-8")
    (d / "broken.md").symlink_to(tmp_path / "nonexistent")
    (d / "z.jsonl").write_text(chat(FORM) + "\n", "utf-8")
    status, summary, err = audit(capsys, str(d))
    assert (status, err) == (0, "")
    assert (summary["records"], summary["messages"], summary["passed"]) == (3, 2, 1)
    assert errors(summary, d) == [("broken.md", "cannot read: No such file or directory")]
    # Named on the command line, the broken link is an input error too (it exists as a
    # link), not a usage error.
    status, summary, err = audit(capsys, str(d / "broken.md"))
    assert (status, summary["input_errors"]["count"]) == (0, 1)


def test_directory_loop_fifo_and_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "d"
    (d / "sub").mkdir(parents=True)
    (d / "sub" / "loop").symlink_to(d, target_is_directory=True)
    (d / "sub" / "x.md").write_text(TILDE, "utf-8")
    (d / "B.MD").write_text(FORM, "utf-8")
    (d / "a.md").write_text(FORM, "utf-8")
    (d / ".dot.md").write_text(FORM, "utf-8")
    (d / ".hidden").mkdir()
    (d / ".hidden" / "h.md").write_text(FORM, "utf-8")
    (d / "linked").symlink_to(d / "sub", target_is_directory=True)
    os.mkfifo(d / "pipe.jsonl")
    found = list(find_files([str(d)]))
    shown = [f.replace(str(d) + os.sep, "") if isinstance(f, str) else f for f in found]
    loop = "a directory loop: a link back to a directory above it"
    fifo = "not a regular file (a FIFO, socket or device)"
    assert shown == [
        "B.MD",
        "a.md",
        Unreadable(str(d / "linked" / "loop"), loop),
        "linked/x.md",
        Unreadable(str(d / "pipe.jsonl"), fifo),
        Unreadable(str(d / "sub" / "loop"), loop),
        "sub/x.md",
    ]
    status, summary, _ = audit(capsys, str(d))
    # 4 files read, 3 input errors; B.MD and a.md hold a form, x.md (twice) a tilde.
    assert (status, summary["records"], summary["messages"], summary["passed"]) == (0, 7, 4, 2)
    assert summary["input_errors"]["count"] == 3


def _audit_as_nobody(d: Path) -> tuple[int, dict[str, Any]]:
    """Audit ``d`` in a forked child that permissions apply to (root reads every file):
    as root it takes the user nobody's ids first. Everything the audit imports is
    imported by a first run here, as the child may not read the interpreter's files."""
    report = d / "report.out"  # not a kind audit reads: not an input
    assert main(["audit", str(d / "z.md"), "--format", "json", "--out", str(report)]) == 0
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        status = 3
        try:
            if ROOT:
                os.setegid(65534)
                os.seteuid(65534)
            status = main(["audit", str(d), "--format", "json", "--out", str(report)])
        finally:
            os._exit(status)
    _, code = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(code), json.loads(report.read_text("utf-8"))


def test_permission_denied() -> None:
    d = Path(tempfile.mkdtemp(prefix="replykit-perm-"))
    try:
        d.chmod(0o777)
        (d / "closed").mkdir()
        (d / "closed" / "x.md").write_text(FORM, "utf-8")
        (d / "secret.md").write_text(FORM, "utf-8")
        (d / "z.md").write_text(FORM, "utf-8")
        (d / "closed").chmod(0)
        (d / "secret.md").chmod(0)
        status, summary = _audit_as_nobody(d)
    finally:
        (d / "closed").chmod(0o755)
        shutil.rmtree(d)
    assert status == 0
    assert errors(summary, d) == [
        ("closed", "cannot read: Permission denied"),
        ("secret.md", "cannot read: Permission denied"),
    ]
    assert (summary["records"], summary["messages"], summary["passed"]) == (3, 1, 1)


def test_a_file_that_vanishes_or_fails_while_read(tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    for name in ("a.md", "b.jsonl", "c.md"):
        (d / name).write_text(chat(FORM) + "\n", "utf-8")
    files = list(find_files([str(d)]))
    (d / "b.jsonl").unlink()
    (d / "c.md").unlink()
    # A link to a file whose reading fails (EIO), as a failing disk does.
    (d / "mem.jsonl").symlink_to("/proc/self/mem")
    items = list(read_items([*files, str(d / "mem.jsonl")]))
    assert [(i.source.replace(str(d) + os.sep, ""), i.kind, i.payload) for i in items] == [
        ("a.md", "text", chat(FORM) + "\n"),
        ("b.jsonl", "error", "cannot read: No such file or directory"),
        ("c.md", "error", "cannot read: No such file or directory"),
        ("mem.jsonl", "error", "cannot read: Input/output error"),
    ]


def test_standard_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = (chat(FORM) + "\r\n\n" + chat(TILDE) + "\n{oops\n").encode()
    done = subprocess.run(
        [sys.executable, "-m", "replykit.cli", "audit", "-", "--format", "json"],
        input=data,
        capture_output=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    summary = json.loads(done.stdout)
    assert (summary["records"], summary["messages"], summary["passed"]) == (3, 2, 1)
    assert summary["input_errors"]["first"] == [
        {
            "where": "<stdin>:4",
            "message": "not strict JSON at column 2: expected a string key or '}', found 'oops'",
        }
    ]
    status, _, err = audit(capsys, "-", "-")
    assert (status, err) == (2, "replykit audit: error: standard input (-) can be read only once\n")


def test_json_lines_end_at_lf_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # docs/protocol-responses.md section 3.1: a lone CR is JSON white space inside a line.
    path = tmp_path / "cr.jsonl"
    path.write_bytes(f"{chat(FORM)}\r\r{chat(TILDE)}\r\n{chat(FORM)}\r\n".encode())
    _, summary, _ = audit(capsys, str(path))
    assert (summary["records"], summary["messages"], summary["input_errors"]["count"]) == (2, 1, 1)
    assert [where for where, _ in errors(summary, tmp_path)] == ["cr.jsonl:1"]
    # Line numbers go on past a block boundary, counted at LF.
    items = list(read_items([str(path)], block=8))
    assert [r.line for i in items for r in records(i)] == [1, 2]


def test_out_naming_an_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = chat(FORM) + "\n" + chat(TILDE) + "\n"
    src = tmp_path / "r.jsonl"
    src.write_text(data, "utf-8")
    (tmp_path / "link.jsonl").symlink_to(src)
    os.link(src, tmp_path / "hard.jsonl")
    for out in ("r.jsonl", "link.jsonl", "hard.jsonl", "./r.jsonl"):
        for fmt in ("jsonl", "table"):
            status = main(["audit", str(src), "--format", fmt, "--out", str(tmp_path / out)])
            _, err = capsys.readouterr()
            assert status == 2
            assert err.startswith(f"replykit audit: error: --out {tmp_path / out} is one of")
            assert src.read_text("utf-8") == data
    # Inside a directory audited, too.
    status = main(["audit", str(tmp_path), "--out", str(src)])
    assert (status, src.read_text("utf-8")) == (2, data)
    status = main(["audit", str(src), "--out", str(tmp_path)])
    assert status == 2
    assert capsys.readouterr().err.endswith(f"--out {tmp_path} is a directory\n")


def test_out_is_replaced_whole_at_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "r.jsonl"
    src.write_text(chat(FORM) + "\n", "utf-8")
    out = tmp_path / "report.json"
    out.write_text("old", "utf-8")
    out.chmod(0o640)
    assert main(["audit", str(src), "--format", "json", "--out", str(out)]) == 0
    assert json.loads(out.read_text("utf-8"))["messages"] == 1
    assert out.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl", "report.json"]
    # Through a link, the link's target is replaced and the link stays.
    (tmp_path / "via.json").symlink_to(out)
    assert main(["audit", str(src), "--format", "jsonl", "--out", str(tmp_path / "via.json")]) == 0
    assert (tmp_path / "via.json").is_symlink()
    assert json.loads(out.read_text("utf-8"))["passed"] is True
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl", "report.json", "via.json"]


def test_help_text_has_no_doubled_percent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--help"]) == 0  # main() returns the status, never SystemExit
    out = capsys.readouterr().out
    assert "95% Wilson interval" in out.replace("\n", " ").replace("  ", " ")
    assert "%%" not in out


def _columns(text: str) -> int:
    """Display columns: CJK ideographs take two."""
    return sum(2 if unicodedata.east_asian_width(c) == "W" else 1 for c in text)


def test_table_aligns_escaped_and_wide_group_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.jsonl"
    names = ["a\nb\u001b[31m", "模型", "plain"]
    records = [{"model": n, "messages": [{"role": "assistant", "content": FORM}]} for n in names]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    assert main(["audit", str(path), "--group-by", "model"]) == 0
    rows = capsys.readouterr().out.splitlines()[2:6]
    assert [r.split("  ")[0] for r in rows] == ["group", "a\\nb\\u001b[31m", "plain", "模型"]
    # The replies column ends at the same display column on every row.
    ends = [_columns(rows[0][: rows[0].index("replies") + 7])]
    ends += [_columns(r[: r.index("      1") + 7]) for r in rows[1:]]
    assert ends == [ends[0]] * 4
