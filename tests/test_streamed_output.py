"""Large outputs are written a batch at a time, byte for byte what the whole value would
give, and memory stays near the input's size (§1; docs/performance.md).

Memory is measured here by what stays alive, never by time: equal near-miss messages
are one string, and the lexer's near-misses and the diagnostics made from them are not
all alive together.
"""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from replykit import segment
from replykit.cli import main
from replykit.cli.conversation import _check_text
from replykit.cli.io import dump, label
from replykit.cli.segment import segment_text
from replykit.questionnaire.conversation.selfcheck import self_check
from replykit.testing.hostile import BY_NAME, JSON_BY_NAME, near_miss_lines


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main(argv)
    return capsys.readouterr().out


MESSAGES = [
    near_miss_lines(700),  # 2800 diagnostics: three batches
    BY_NAME["candidates_on_one_line"].build(300),
    "plain text, no block",
    "",
]


@pytest.mark.parametrize("text", MESSAGES, ids=["near_misses", "candidates", "plain", "empty"])
def test_segment_output_is_the_whole_value(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.md"
    path.write_text(text, encoding="utf-8")
    result = segment(text)
    assert _run(["segment", str(path)], capsys) == dump(result.to_json())
    shown = _run(["segment", "--format", "text", str(path)], capsys)
    assert shown == segment_text(str(path), text, result)


def test_sage_decoded_text_is_written_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "Intro &lt;questionnaire&gt;{}&lt;/questionnaire&gt;"
    path = tmp_path / "m.md"
    path.write_text(text, encoding="utf-8")
    out = _run(["segment", "--compat", "sage", str(path)], capsys)
    assert out == dump(segment(text, compat="sage").to_json())
    assert json.loads(out)["decoded"] == "Intro <questionnaire>{}</questionnaire>"


def test_check_output_is_the_whole_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = JSON_BY_NAME["check_failing_lines"].build(1500).json  # two batches of lines
    lines = '[{"role":"assistant","content":"fine"}]\n' + lines
    path = tmp_path / "c.jsonl"
    path.write_text(lines, encoding="utf-8")
    results = [self_check(json.loads(line)) for line in lines.splitlines()]
    expected = "".join(dump({"line": i, **r.to_json()}) for i, r in enumerate(results, 1))
    assert _run(["check", str(path)], capsys) == expected
    # A long path is named once, then by its last characters (docs/cli.md).
    short = label(str(path))
    text = "".join(_check_text(r, f"{short}:{i}") for i, r in enumerate(results, 1))
    head = f"file: {path}\n" if short != str(path) else ""
    assert _run(["check", "--format", "text", str(path)], capsys) == head + text
    one = tmp_path / "one.json"
    conversation = [{"role": "assistant", "content": near_miss_lines(300)}]
    one.write_text(json.dumps(conversation), encoding="utf-8")
    result = self_check(conversation)
    assert _run(["check", str(one)], capsys) == dump(result.to_json())
    head = f"file: {one}\n" if label(str(one)) != str(one) else ""
    shown = _run(["check", "--format", "text", str(one)], capsys)
    assert shown == head + _check_text(result, label(str(one)))


def test_equal_near_miss_messages_are_one_string() -> None:
    result = segment(near_miss_lines(2000))
    assert len(result.diagnostics) == 8000
    assert len({id(d.message) for d in result.diagnostics}) == 4


def test_near_misses_and_their_diagnostics_are_not_all_held_at_once() -> None:
    text = near_miss_lines(20_000)
    tracemalloc.start()
    try:
        result = segment(text)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(result.diagnostics) == 80_000
    # Holding every near-miss beside its diagnostic took 1.6x what the result keeps.
    assert peak <= 1.25 * held, (held, peak)
