"""A blank ``ui_text`` value is ``questionnaire.start.ui_text_invalid`` (a warning, the
value dropped, the locale's default shown), and the display code treats every blank
text alike (docs/protocol.md §5; docs/protocol-responses.md section 1.3)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from replykit import OTHER_VALUE, Answer, Option, Question, Questionnaire, build_response, segment
from replykit.codes import CODES
from replykit.questionnaire.conversation.responses import display_text, resolve_ui_text
from replykit.questionnaire.limits import DEFAULT_LIMITS
from replykit.questionnaire.model import UI_TEXT_KEYS
from replykit.questionnaire.payload.json_strict import read_json
from replykit.questionnaire.payload.lenient import normalize_form
from replykit.questionnaire.payload.xml_form import full_request

BLANKS = ["", "  ", "\u200b", "\u3000\t"]
_QUESTION = {"type": "single_choice", "text": "Q", "options": ["a"], "allow_other": True}


def _request(ui_text: dict[str, Any]) -> dict[str, Any]:
    return {"questions": [_QUESTION], "ui_text": ui_text}


@pytest.mark.parametrize("blank", BLANKS)
@pytest.mark.parametrize("key", UI_TEXT_KEYS)
def test_blank_value_is_a_warning_and_dropped(key: str, blank: str) -> None:
    given = {key: blank} if key == "other" else {key: blank, "other": "Else"}
    read = normalize_form(_request(given), allow_extras=True)
    assert [(f.code, f.severity, f.path, f.message) for f in read.findings] == [
        (
            "questionnaire.start.ui_text_invalid",
            "warning",
            ("ui_text", key),
            f"ui_text.{key} is blank; it is ignored and the default text is shown.",
        )
    ]
    assert read.value is not None
    assert dict(read.value.ui_text) == ({} if key == "other" else {"other": "Else"})


def test_blank_message_zh() -> None:
    read = normalize_form(_request({"other": " "}), allow_extras=True)
    f = read.findings[0]
    assert (
        CODES[f.code].render(f.params, f.variant, "zh")
        == "ui_text.other 为空白；已忽略，改用默认文字。"
    )


def test_tool_ignores_ui_text() -> None:
    # The tool has no ui_text (§7): nothing to report there.
    read = normalize_form(_request({"other": ""}), allow_extras=False)
    assert read.findings == () and read.value is not None and read.value.ui_text == ()


@pytest.mark.parametrize("blank", ["", "  "])
def test_full_xml_reading_warns(blank: str) -> None:
    payload = json.dumps(_request({"other": blank}))
    read = full_request(payload, read_json(payload), DEFAULT_LIMITS)
    assert [(f.code, f.path) for f in read.findings] == [
        ("questionnaire.start.ui_text_invalid", ("ui_text", "other"))
    ]
    assert read.value is not None and read.value.ui_text == ()


@pytest.mark.parametrize("blank", ["", "  "])
@pytest.mark.parametrize("locale", ["en", "zh"])
def test_other_answer_shows_the_default_label(blank: str, locale: str) -> None:
    text = "Intro <questionnaire>" + json.dumps(_request({"other": blank})) + "</questionnaire>"
    form = segment(text, message_id="m").segments[1].questionnaire
    assert form is not None
    built = build_response(form, {"q1": OTHER_VALUE}, questionnaire_id="m_q1", locale=locale)
    expected = {"en": "Questionnaire answers\nQ: Other", "zh": "问卷回答\nQ：其他"}[locale]
    assert built.display_text == expected
    assert built.answers[0].label == {"en": "Other", "zh": "其他"}[locale]


def test_segment_warns_on_blank_ui_text() -> None:
    # The fast path of a request with nothing else to report refuses it too.
    text = "Intro <questionnaire>" + json.dumps(_request({"other": ""})) + "</questionnaire>"
    assert [d.code for d in segment(text).diagnostics] == ["questionnaire.start.ui_text_invalid"]


def _form(ui_text: tuple[tuple[str, str], ...] = ()) -> Questionnaire:
    question = Question(
        id="q1", type="single_choice", text="Q", options=(Option("a", "a"),), allow_other=True
    )
    return Questionnaire(title="", questions=(question,), ui_text=ui_text)


def test_resolve_ui_text_skips_blank_values() -> None:
    form = _form((("other", " "), ("unselected", ""), ("answer_title", "Answers")))
    ui = resolve_ui_text(form, {"unanswered": "\u200b", "list_separator": "; "}, "en")
    assert ui == {
        "other": "Other",
        "answer_title": "Answers",
        "question_fallback": "Question",
        "unanswered": "Not answered",
        "unselected": "Not selected",
        "answer_separator": ": ",
        "list_separator": "; ",
    }
    # A blank argument falls back to the form's own text, not past it.
    assert resolve_ui_text(_form((("other", "Else"),)), {"other": ""}, "en")["other"] == "Else"


def test_build_response_with_blank_argument_uses_the_default() -> None:
    built = build_response(
        _form(), {"q1": OTHER_VALUE}, questionnaire_id="m_q1", ui_text={"other": "  "}, locale="zh"
    )
    assert built.display_text == "问卷回答\nQ：其他"


def test_display_drops_blank_labels() -> None:
    ui = resolve_ui_text(_form(), None, "en")
    questions = {"q1": _form().questions[0]}
    blank_label = Answer(question_id="q1", type="single_choice", answer="a", value="a", label="  ")
    with_other = Answer(
        question_id="q1",
        type="single_choice",
        answer=OTHER_VALUE,
        value=OTHER_VALUE,
        label="\u200b",
        other_text="mine",
    )
    multi = Answer(
        question_id="q1",
        type="multi_choice",
        answer=("a", "b"),
        values=("a", "b"),
        labels=(" ", "B"),
    )
    assert display_text(questions, [blank_label, with_other, multi], ui) == (
        "Questionnaire answers\nQ: Not selected\nQ: mine\nQ: B"
    )
