"""A negative zero is written as positive zero of the same type wherever a number is
normalized (docs/protocol.md §1.3, §5, §9): the JSON field and the Sage attribute
``timeout_seconds``, in segment(), streaming and the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from replykit import Questionnaire, StreamSegmenter, segment
from replykit.cli import main
from replykit.questionnaire.payload.numbers import read_number

QUESTIONS = '"questions":[{"type":"text","text":"Q"}]'

CASES = [
    # (opening tag, JSON field, the kept value)
    ('<questionnaire timeout_seconds="-0.0">', "", 0.0),
    ('<questionnaire timeout_seconds="-0e0">', "", 0.0),
    ("<questionnaire timeout_seconds=-0>", "", 0),
    ("<questionnaire>", '"timeout_seconds":-0.0,', 0.0),
    ("<questionnaire>", '"timeout_seconds":-0E+5,', 0.0),
    ("<questionnaire>", '"timeout_seconds":-0,', 0),
    # A second question makes the reader take its full (non-plain) path.
    ("<questionnaire>", '"timeout_seconds":-0.0,"ui_text":5,', 0.0),
]


def _text(tag: str, field: str) -> str:
    return f"Intro {tag}{{{field}{QUESTIONS}}}</questionnaire>"


def _kept(form: Questionnaire | None) -> tuple[str, str, float]:
    assert form is not None and form.timeout_seconds is not None
    value = form.timeout_seconds
    return (
        type(value).__name__,
        json.dumps(form.to_json()["timeout_seconds"]),
        math.copysign(1, value),
    )


@pytest.mark.parametrize(("tag", "field", "kept"), CASES)
def test_negative_zero_is_kept_as_positive_zero(tag: str, field: str, kept: float) -> None:
    text = _text(tag, field)
    expected = (type(kept).__name__, json.dumps(kept), 1.0)
    form = segment(text, compat="sage").segments[1].questionnaire
    assert _kept(form) == expected
    stream = StreamSegmenter(compat="sage")
    for ch in text:
        stream.push(ch)
    assert _kept(stream.finish().segments[1].questionnaire) == expected


def test_the_cli_writes_positive_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.txt"
    path.write_text(_text('<questionnaire timeout_seconds="-0.0">', ""), encoding="utf-8")
    assert main(["segment", str(path), "--compat", "sage"]) == 0
    out = capsys.readouterr().out
    assert '"timeout_seconds":0.0}' in out and '"timeout_seconds":-' not in out


def test_a_model_built_with_negative_zero_writes_positive_zero() -> None:
    form = segment(_text("<questionnaire>", "")).segments[1].questionnaire
    assert form is not None
    built = Questionnaire(form.title, form.questions, timeout_seconds=-0.0)
    assert json.dumps(built.to_json()["timeout_seconds"]) == "0.0"


@pytest.mark.parametrize(
    ("text", "value"), [("-0.0", "0.0"), ("-0e0", "0.0"), ("-0", "0"), ("-0.5", "-0.5")]
)
def test_read_number_gives_positive_zero(text: str, value: str) -> None:
    number, problem = read_number(text)
    assert problem is None and repr(number) == value
