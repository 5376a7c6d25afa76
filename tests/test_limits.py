"""Resource limits (§1.5): each exceeded limit is a diagnostic on its block."""

from __future__ import annotations

import json

import pytest

from replykit import segment
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits


def _xml(questions: int, options: int = 2) -> str:
    form = {
        "title": "T",
        "questions": [
            {"type": "single_choice", "text": f"Q{i}", "options": [f"o{j}" for j in range(options)]}
            for i in range(questions)
        ],
    }
    return "Intro <questionnaire>" + json.dumps(form) + "</questionnaire>"


def _codes(text: str, limits: Limits = DEFAULT_LIMITS) -> list[tuple[str, str | None]]:
    block = segment(text, limits=limits).segments[1]
    return [(d.code, d.path) for d in block.diagnostics]


def test_defaults_are_far_above_real_forms() -> None:
    assert Limits() == Limits(max_payload=1_000_000, max_questions=1000, max_options=1000)
    assert _codes(_xml(40, 30)) == []


def test_ten_thousand_questions_at_the_default_and_with_the_limit_raised() -> None:
    text = _xml(10_000)
    assert _codes(text) == [("limit.questions", "questions")]
    raised = segment(text, limits=Limits(max_questions=10_000)).segments[1]
    assert raised.valid and raised.questionnaire is not None
    assert len(raised.questionnaire.questions) == 10_000


def test_options_limit_points_at_the_question_and_stops_the_reading() -> None:
    # §1: the first list over its limit is the one error; the payload is read no further.
    assert _codes(_xml(2, 5), Limits(max_options=4)) == [
        ("limit.options", "questions[1].options"),
    ]


def test_payload_size_is_checked_before_reading() -> None:
    text = "Intro\n\n```questionnaire\ntitle: " + "x" * 200 + "\n```\n"
    block = segment(text, limits=Limits(max_payload=100)).segments[1]
    assert [d.code for d in block.diagnostics] == ["limit.payload_size"]
    assert not block.valid and block.text.startswith("```questionnaire")


@pytest.mark.parametrize("depth", [3, 64])
def test_depth_limit_reaches_both_readers(depth: int) -> None:
    nested = "[" * (depth + 1) + "]" * (depth + 1)
    xml = f'Intro <questionnaire>{{"title": {nested}}}</questionnaire>'
    assert [c for c, _ in _codes(xml, Limits(max_depth=depth))] == ["json.too_deep"]
    yaml_text = "Intro\n\n```questionnaire\ntitle: " + nested + "\n```\n"
    assert [c for c, _ in _codes(yaml_text, Limits(max_depth=depth))] == ["yaml.too_deep"]


def test_a_limit_below_one_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="max_questions"):
        Limits(max_questions=0)


def test_limits_are_typed_and_depth_is_capped() -> None:
    with pytest.raises(TypeError):
        Limits(max_payload="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at most 500"):
        Limits(max_depth=501)
    deep = "[" * 499 + "]" * 499
    text = f'Intro <questionnaire>{{"title": {deep}}}</questionnaire>'
    codes = [d.code for d in segment(text, limits=Limits(max_depth=500)).diagnostics]
    assert "json.too_deep" not in codes


def test_json_reader_never_recurses_out() -> None:
    from replykit.questionnaire.payload import read_json

    read = read_json("[" * 5000 + "]" * 5000, max_depth=100_000)
    assert [f.code for f in read.findings] == ["json.too_deep"]
