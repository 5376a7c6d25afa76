"""File names and commands from the operating system in output (§1): a byte that is not
UTF-8, which Python decodes to a lone surrogate (U+DC80-U+DCFF, PEP 383), is written
as ``\\xNN``, so no JSON replykit writes holds a lone surrogate (its own strict reader
refuses one) and a text view shows the byte."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from replykit.cli import main
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.textout import os_name

ADAPTERS = Path(__file__).resolve().parent.parent / "examples" / "adapters"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("plain.md", "plain.md"),
        ("caf\u00e9 \U0001f600.md", "caf\u00e9 \U0001f600.md"),
        ("bad\udcffname.md", "bad\\xffname.md"),
        ("\udc80\udcc3", "\\x80\\xc3"),
        ("lone \ud800 high", "lone \\ud800 high"),
    ],
)
def test_os_name_writes_undecodable_bytes_as_escapes(value: str, shown: str) -> None:
    assert os_name(value) == shown
    assert os_name(shown) == shown


def _strict(text: str) -> object:
    read = read_json_value(text)
    assert read.findings == ()
    return read.value


def _bad_name(directory: Path, name: bytes, content: bytes) -> str:
    path = os.path.join(os.fsencode(directory), name)
    with open(path, "wb") as handle:
        handle.write(content)
    return os.fsdecode(path)


def test_audit_json_names_a_file_whose_name_is_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _bad_name(tmp_path, b"bad\xffname.md", b"hello\n")
    assert main(["audit", path, "--format", "jsonl"]) == 0
    record = _strict(capsys.readouterr().out.strip())
    assert isinstance(record, dict)
    assert record["source"] == os_name(path)
    assert record["source"].endswith("bad\\xffname.md")


def test_a_directory_walk_names_an_unreadable_entry_with_escapes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _bad_name(tmp_path, b"x\xfe.json", b"{not json")
    assert main(["audit", str(tmp_path), "--format", "json"]) == 0
    report = _strict(capsys.readouterr().out)
    assert isinstance(report, dict)
    (first,) = report["input_errors"]["first"]
    assert first["where"] == f"{tmp_path}/x\\xfe.json"


def test_an_error_names_a_missing_file_with_escapes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["segment", os.fsdecode(b"/nonexistent/no\xff.md")]) == 2
    assert "cannot read message /nonexistent/no\\xff.md: " in capsys.readouterr().err


def test_the_fuzz_report_names_an_adapter_path_that_is_not_utf8(tmp_path: Path) -> None:
    directory = os.path.join(os.fsencode(tmp_path), b"ad\xffx")
    os.mkdir(directory)
    shutil.copy(ADAPTERS / "replykit_adapter.py", os.path.join(directory, b"adapter.py"))
    adapter = os.fsdecode(os.path.join(directory, b"adapter.py"))
    out = tmp_path / "report"
    argv = ["fuzz", "--impl", f"{sys.executable} {adapter}", "--op", "sanitize_actions"]
    argv += ["--examples", "2", "--no-explicit", "--out", str(out)]
    assert main(argv) == 0
    report = _strict((out / "report.json").read_text(encoding="utf-8"))
    assert isinstance(report, dict)
    assert "ad\\xffx" in report["impl"]
    assert "ad\\xffx" in (out / "report.txt").read_text(encoding="utf-8")
