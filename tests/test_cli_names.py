"""How the commands name their input: standard input is ``<stdin>`` in every command,
format and message; a file name of any length keeps the text views within the §1.5
output bound (printed whole once, shortened in per-line labels)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from replykit.cli import main
from replykit.cli.io import MAX_LABEL, STDIN_NAME, label

_NEAR = "Intro\n" + "<questionnaire >\n" * 2000
_BAD_UTF8 = b"Intro\xed\xa0\x80"


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def _run(
    args: list[str], capsysbinary: pytest.CaptureFixture[bytes], stdin: bytes = b""
) -> tuple[int, bytes, str]:
    saved = sys.stdin
    sys.stdin = _Stdin(stdin)  # type: ignore[assignment]
    try:
        status = main(args)
    finally:
        sys.stdin = saved
    out, err = capsysbinary.readouterr()
    return status, out, err.decode("utf-8")


@pytest.mark.parametrize(
    "args",
    [["segment", "-"], ["segment", "-", "--format", "text"], ["stream", "-"],
     ["check", "-"], ["tool", "questionnaire_async", "-"], ["actions", "-"],
     ["respond", "--message", "-", "--answers", "a.json", "--message-id", "m"]],
)  # fmt: skip
def test_standard_input_has_one_name(
    args: list[str], capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    status, _, err = _run(args, capsysbinary, _BAD_UTF8)
    assert status == 2
    assert f" {STDIN_NAME} is not UTF-8 (byte 5)" in err
    assert " - is not" not in err


def test_text_views_name_stdin_as_stdin(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    _, out, _ = _run(["segment", "-", "--format", "text"], capsysbinary, b"Hi\n")
    assert out.decode() == "<stdin>:1-1: markdown\n"
    conversation = json.dumps([{"role": "assistant", "content": "Hi"}]).encode()
    _, out, _ = _run(["check", "-", "--format", "text"], capsysbinary, conversation)
    assert out.decode().startswith("<stdin>: passed (message 0)")


def test_a_long_label_is_shortened_to_its_tail() -> None:
    name = "/".join(["d" * 250] * 8) + "/m.md"
    short = label(name)
    assert short.startswith("\u2026") and short.endswith("dddd/m.md")
    assert len(short.encode("utf-8")) <= MAX_LABEL
    assert label("examples/task_paused.md") == "examples/task_paused.md"
    assert len(label("\u202e" * 300).encode("utf-8")) <= MAX_LABEL  # escaped first (§1.4)


def _long_dir(tmp_path: Path) -> Path:
    folder = tmp_path
    while len(str(folder)) < 2000:
        folder = folder / ("d" * 200)
    folder.mkdir(parents=True)
    return folder


@pytest.mark.parametrize("view", ["segment", "check"])
def test_text_views_keep_the_output_bound_for_a_2000_character_path(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], view: str
) -> None:
    folder = _long_dir(tmp_path)
    if view == "segment":
        path = folder / "m.md"
        path.write_text(_NEAR, encoding="utf-8")
    else:
        path = folder / "c.json"
        path.write_text(json.dumps([{"role": "assistant", "content": _NEAR}]), encoding="utf-8")
    assert len(str(path)) >= 2000
    _, out, _ = _run([view, str(path), "--format", "text"], capsysbinary)
    lines = out.decode("utf-8").splitlines()
    assert lines[0] == f"file: {path}"  # named whole once
    assert all(str(path) not in line for line in lines[1:])
    assert sum(line.startswith("\u2026") for line in lines) >= 2000
    size = path.stat().st_size
    # §1.5: at most 16x the input plus 256 KiB, whatever the path's length.
    assert len(out) <= 16 * size + 256 * 1024
    # Past the one header line, the path costs each line at most MAX_LABEL bytes.
    short = tmp_path / path.name
    short.write_bytes(path.read_bytes())
    _, plain, _ = _run([view, str(short), "--format", "text"], capsysbinary)
    assert len(out) - len(lines[0]) - 1 <= len(plain) + MAX_LABEL * len(lines)


@pytest.mark.parametrize(
    ("text", "args"),
    [("Hi", []), (_NEAR, []), ("ü \u2028 <questionnaire>{}</questionnaire>", []),
     ('"Intro\\n<questionnaire>{}</questionnaire>"', ["--compat", "sage"])],
)  # fmt: skip
def test_to_json_text_is_the_cli_json_output(
    text: str, args: list[str], tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """One writer: ``to_json_text()`` is the bytes ``replykit segment`` prints, less the
    final newline."""
    from replykit import segment

    path = tmp_path / "m.md"
    path.write_text(text, encoding="utf-8")
    _, out, _ = _run(["segment", str(path), *args], capsysbinary)
    result = segment(text, compat="sage" if args else None)
    assert out == (result.to_json_text() + "\n").encode("utf-8")
