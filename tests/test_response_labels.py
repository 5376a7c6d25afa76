"""answer.label_mismatch covers every label a response carries (docs/protocol-responses.md
section 1.4): the empty label of an unanswered single choice and the label of "other"."""

from __future__ import annotations

import json
from typing import Any

import pytest

from replykit import OTHER_VALUE, build_response, check_answers, segment

FORM_TEXT = (
    'Pick:\n\n<questionnaire>{"questions":[{"id":"q1","type":"single_choice","text":"One?",'
    '"options":["a","b"],"allow_other":true},{"id":"q2","type":"multi_choice","text":"Many?",'
    '"options":["x","y"],"allow_other":true}]}</questionnaire>'
)
FORM = segment(FORM_TEXT, message_id="m").segments[1].questionnaire
assert FORM is not None


def findings(one: dict[str, Any], many: dict[str, Any], **options: Any) -> list[tuple[str, ...]]:
    payload = {"type": "questionnaire_response", "questionnaire_id": "m_q1",
               "status": "submitted", "answers": [
                   {"question_id": "q1", "type": "single_choice", **one},
                   {"question_id": "q2", "type": "multi_choice", **many}]}  # fmt: skip
    text = f"<questionnaire-response>{json.dumps(payload)}</questionnaire-response>"
    response = segment(text, message_id="u").segments[0].response
    assert response is not None
    return [
        (f.code, f.details["path"], f.message) for f in check_answers(FORM, response, **options)
    ]


MANY = {"answer": ["x"], "values": ["x"], "labels": ["x"]}


def test_an_unanswered_single_choice_has_an_empty_label() -> None:
    assert findings({"answer": "", "value": "", "label": ""}, MANY) == []
    assert findings({"answer": "", "value": "", "label": "a"}, MANY) == [
        ("answer.label_mismatch", "answers[1].label",
         "answers[1].label: the label of '' is '', not 'a'"),
    ]  # fmt: skip


@pytest.mark.parametrize("label", ["其他", "Other"])
def test_other_takes_either_locale_default(label: str) -> None:
    one = {"answer": OTHER_VALUE, "value": OTHER_VALUE, "label": label, "other_text": "o"}
    many = {"answer": ["x", OTHER_VALUE], "values": ["x", OTHER_VALUE],
            "labels": ["x", label], "other_text": "o"}  # fmt: skip
    assert findings(one, many) == []


def test_another_other_label_is_a_mismatch() -> None:
    one = {"answer": OTHER_VALUE, "value": OTHER_VALUE, "label": "garbage", "other_text": "o"}
    many = {"answer": [OTHER_VALUE], "values": [OTHER_VALUE], "labels": ["junk"],
            "other_text": "o"}  # fmt: skip
    assert findings(one, many) == [
        ("answer.label_mismatch", "answers[1].label",
         f"answers[1].label: the label of '{OTHER_VALUE}' is '其他', not 'garbage'"),
        ("answer.label_mismatch", "answers[2].labels",
         f"answers[2].labels: the label of '{OTHER_VALUE}' is '其他', not 'junk'"),
    ]  # fmt: skip


def test_the_ui_text_argument_decides_the_other_label() -> None:
    one = {"answer": OTHER_VALUE, "value": OTHER_VALUE, "label": "Else", "other_text": "o"}
    assert findings(one, MANY, ui_text={"other": "Else"}) == []
    assert [f[0] for f in findings(one, MANY)] == ["answer.label_mismatch"]


@pytest.mark.parametrize("locale", ["zh", "en"])
@pytest.mark.parametrize("ui_text", [None, {"other": "Something else"}])
def test_what_build_response_writes_checks_clean(
    locale: str, ui_text: dict[str, str] | None
) -> None:
    built = build_response(
        FORM,
        {"q1": {"value": OTHER_VALUE, "other_text": "mine"}, "q2": [OTHER_VALUE, "y"]},
        questionnaire_id="m_q1",
        ui_text=ui_text,
        locale=locale,
    )
    response = segment(built.agent_text, message_id="u").segments[0].response
    assert response is not None
    assert check_answers(FORM, response, ui_text=ui_text) == ()
    empty = build_response(FORM, {}, questionnaire_id="m_q1", locale=locale)
    read = segment(empty.agent_text, message_id="u").segments[0].response
    assert read is not None and check_answers(FORM, read) == ()
