"""Usage errors quote a caller's input as the text output writes it (docs/cli.md,
§1.4: ``\\u001b``, never Python's ``\\x1b``), and every number option, the invariant
fuzzer's included, is read by the one rule of docs/cli.md."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from replykit.cli import main
from replykit.questionnaire.profiles import profile_from_string

MESSAGE = str(Path(__file__).resolve().parents[1] / "examples" / "task_paused.md")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--profile", "x\x1b[31m"], "unknown profile 'x\\u001b[31m'"),
        (["--profile", "product:a\x1bb"], "got 'a\\u001bb'"),
        (["--compat", "a\x1bb"], "invalid choice: 'a\\u001bb' (choose from 'sage')"),
        (["--format", "x\u202e"], "invalid choice: 'x\\u202e' (choose from 'json', 'text')"),
    ],
)
def test_a_usage_error_quotes_input_as_the_text_output(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["segment", *argv, MESSAGE]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert "\\x1b" not in err and "\x1b" not in err and err.count("\n") == 1


def test_the_library_quotes_the_same_way() -> None:
    with pytest.raises(ValueError, match=r"unknown profile 'a\\u0007'"):
        profile_from_string("a\x07")


@pytest.mark.parametrize(
    ("option", "value", "wanted"),
    [
        ("--seconds", "nan", "a number above 0"),
        ("--seconds", "inf", "a number above 0"),
        ("--seconds", "-1", "a number above 0"),
        ("--examples", "1_0", "an integer of at least 1"),
        ("--examples", "0", "an integer of at least 1"),
        ("--seed", " +1", "an integer"),
    ],
)
def test_the_invariant_fuzzer_reads_numbers_by_the_one_rule(
    option: str, value: str, wanted: str
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "replykit.testing.fuzzing", option, value],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert f"argument {option}: must be {wanted}, not '{value}'" in proc.stderr
