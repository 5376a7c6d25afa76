"""§9 Sage compatibility: each switch alone, and compat="sage" with all of them."""

from __future__ import annotations

import json

import pytest

from replykit import segment
from replykit.compat import SAGE, Compat

FORM = {"title": "T", "questions": [{"type": "text", "text": "Why?"}]}
BODY = json.dumps(FORM, ensure_ascii=False)


def blocks(text: str, compat: Compat | str | None) -> list[tuple[str | None, bool]]:
    return [
        (s.name, s.valid) for s in segment(text, compat=compat).segments if s.kind != "markdown"
    ]


def test_strict_is_the_default() -> None:
    text = f"Intro <Questionnaire>{BODY}</Questionnaire>"
    assert blocks(text, None) == []
    assert [d.code for d in segment(text).diagnostics] == ["near_miss.case"]


@pytest.mark.parametrize(
    ("switch", "text"),
    [
        ("case_insensitive", f"Intro <Questionnaire>{BODY}</QUESTIONNAIRE>"),
        ("escaped_closers", f"Intro <questionnaire>{BODY}<\\/questionnaire>"),
        ("tag_attributes", f'Intro <questionnaire timeout_seconds="30">{BODY}</questionnaire>'),
        ("decode_entities", f"Intro &lt;questionnaire&gt;{BODY}&lt;/questionnaire&gt;"),
        (
            "decode_json_string",
            json.dumps(f"Intro\n\n<questionnaire>{BODY}</questionnaire>", ensure_ascii=False),
        ),
    ],
)
def test_each_switch_alone_opens_the_block(switch: str, text: str) -> None:
    assert ("questionnaire", True) not in blocks(text, None)
    assert blocks(text, Compat(**{switch: True})) == [("questionnaire", True)]
    assert blocks(text, "sage") == [("questionnaire", True)]


def test_tag_attribute_timeout_is_kept() -> None:
    text = f'Intro <questionnaire timeout_seconds="30">{BODY}</questionnaire>'
    form = segment(text, compat=Compat(tag_attributes=True)).segments[1].questionnaire
    assert form is not None and form.timeout_seconds == 30


def test_decoded_text_is_what_offsets_index() -> None:
    raw = "Intro &lt;questionnaire&gt;{}&lt;/questionnaire&gt; &amp; more"
    result = segment(raw, compat=SAGE)
    assert result.decoded == "Intro <questionnaire>{}</questionnaire> & more"
    assert "".join(s.text for s in result.segments) == result.decoded
    assert segment("no entities here", compat=SAGE).decoded is None


def test_filter_invalid_questions_drops_with_a_warning() -> None:
    payload = {"title": "T", "questions": [{"type": "bogus", "text": "a"}, FORM["questions"][0]]}
    text = f"Intro <questionnaire>{json.dumps(payload)}</questionnaire>"
    strict = segment(text).segments[1]
    assert not strict.valid
    assert [d.code for d in strict.diagnostics] == ["questionnaire.start.question_type_invalid"]
    relaxed = segment(text, compat=Compat(filter_invalid_questions=True)).segments[1]
    assert relaxed.valid
    assert [(d.code, d.severity, d.path) for d in relaxed.diagnostics] == [
        ("compat.question_dropped", "warning", "questions[1]")
    ]
    assert relaxed.questionnaire is not None
    assert [q.text for q in relaxed.questionnaire.questions] == ["Why?"]


def test_filter_keeps_the_error_when_nothing_is_left() -> None:
    payload = {"title": "T", "questions": [{"type": "bogus", "text": "a"}]}
    seg = segment(f"Intro <questionnaire>{json.dumps(payload)}</questionnaire>", compat=SAGE)
    block = seg.segments[1]
    assert not block.valid
    assert "questionnaire.start.questions_empty" in [d.code for d in block.diagnostics]


def test_unknown_compat_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown compat"):
        segment("x", compat="yiii")
