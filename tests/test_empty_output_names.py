"""An empty output name is a usage error that says what is missing (exit 2, one line),
the same for every command that writes files (docs/cli.md)."""

from __future__ import annotations

import pytest

from replykit.cli import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["vectors", "export", ""],
         "replykit vectors: error: vectors export needs a directory name\n"),
        (["fuzz", "--impl", "python3 none.py", "--out", ""],
         "replykit fuzz: error: cannot write the report: --out needs a directory name\n"),
        (["audit", "-", "--out", ""], "replykit audit: error: --out needs a file name (or - for "
         "standard output)\n"),
    ],
)  # fmt: skip
def test_an_empty_output_name_is_named_as_missing(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", message)
