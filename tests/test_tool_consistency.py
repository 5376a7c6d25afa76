"""``questionnaire_async`` reports a parameter left out as missing, never as ``null``;
``questionnaire_from_tool_result`` opens only a consistent success result
(docs/protocol-responses.md sections 2 and 2.1)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import (
    Limits,
    call_questionnaire_async,
    questionnaire_async,
    questionnaire_from_tool_result,
    segment,
)
from replykit.testing.strategies import tool_arguments

QUESTIONS = [{"type": "free_text", "text": "x"}]


def _first(result: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    error = result["errors"][0]
    return error["code"], error["message"], error["details"]


@pytest.mark.parametrize(
    ("locale", "message"),
    [
        ("zh", "缺少 questions：需要一个问题数组。"),
        ("en", "questions is required: an array of questions."),
    ],
)
def test_questions_left_out_is_missing_as_in_a_tool_call(locale: str, message: str) -> None:
    expected = (
        "questionnaire.start.questions_must_be_list",
        message,
        {"path": "questions", "expected": "array", "actual": "missing"},
    )
    assert _first(questionnaire_async(locale=locale)) == expected
    assert _first(questionnaire_async("T", locale=locale)) == expected
    assert _first(call_questionnaire_async({}, locale=locale)) == expected


def test_null_questions_is_still_null() -> None:
    # null-as-absent rules unchanged: an explicit null questions is reported as null.
    _code, message, details = _first(questionnaire_async("T", None, locale="en"))
    assert message == "questions must be an array of questions, not null."
    assert details["actual"] == "null"


def test_title_left_out_or_null_is_absent() -> None:
    assert questionnaire_async(questions=QUESTIONS)["title"] == ""
    assert questionnaire_async(None, QUESTIONS)["title"] == ""


@given(tool_arguments())
def test_the_two_entry_points_agree(arguments: Any) -> None:
    if isinstance(arguments, dict):
        given_ = {k: arguments[k] for k in ("title", "questions") if k in arguments}
        assert questionnaire_async(**given_, locale="en") == call_questionnaire_async(
            given_, locale="en"
        )


# --- tool results -------------------------------------------------------------------------

SUCCESS = questionnaire_async("T", QUESTIONS)


@pytest.mark.parametrize(
    ("change", "path", "expected", "actual", "message"),
    [
        (
            {"status": "error"}, "status", "awaiting_user_input", "string",
            'status contradicts the result: it must be "awaiting_user_input", not "error".',
        ),
        (
            {"question_count": 5}, "question_count", 1, "number",
            "question_count contradicts the result: it must be 1, not 5.",
        ),
        (
            {"question_count": True}, "question_count", 1, "boolean",
            "question_count contradicts the result: it must be 1, not true.",
        ),
        (
            {"validation_passed": False}, "validation_passed", True, "boolean",
            "validation_passed contradicts the result: it must be true, not false.",
        ),
        (
            {"status": None}, "status", "awaiting_user_input", "null",
            'status contradicts the result: it must be "awaiting_user_input", not null.',
        ),
    ],
)  # fmt: skip
def test_a_contradicting_success_opens_nothing_and_names_the_field(
    change: dict[str, Any], path: str, expected: Any, actual: str, message: str
) -> None:
    form = questionnaire_from_tool_result({**SUCCESS, **change}, "call_1", locale="en")
    assert form.questionnaire is None
    assert [e.to_json() for e in form.errors] == [
        {
            "code": "tool_result.inconsistent",
            "path": path,
            "message": message,
            "details": {"path": path, "expected": expected, "actual": actual},
        }
    ]


@pytest.mark.parametrize("field", ["status", "question_count", "validation_passed"])
def test_a_success_without_a_field_is_inconsistent(field: str) -> None:
    result = {k: v for k, v in SUCCESS.items() if k != field}
    form = questionnaire_from_tool_result(result, "call_1")
    assert form.questionnaire is None
    (error,) = form.errors
    assert (error.code, error.path, error.details["actual"]) == (
        "tool_result.inconsistent",
        field,
        "missing",
    )
    assert error.message.startswith(f"缺少 {field}：")


def test_a_failed_result_claiming_validation_passed_is_inconsistent() -> None:
    failed = questionnaire_async("T", [])
    form = questionnaire_from_tool_result({**failed, "validation_passed": True}, "c", locale="zh")
    assert [(e.code, e.path) for e in form.errors] == [
        ("tool_result.inconsistent", "validation_passed"),
        ("questionnaire.start.questions_empty", "questions"),
    ]
    assert form.errors[0].message == "validation_passed 与结果自相矛盾：应为 false，当前为 true。"


def test_several_contradictions_are_all_reported_with_the_normalizers_errors() -> None:
    forged = {**SUCCESS, "status": "done", "question_count": 2, "questions": [{"type": "x"}]}
    form = questionnaire_from_tool_result(forged, "c", locale="en")
    assert [(e.code, e.path) for e in form.errors][:3] == [
        ("tool_result.inconsistent", "status"),
        ("tool_result.inconsistent", "question_count"),
        ("questionnaire.start.question_type_invalid", "questions[1].type"),
    ]


@given(tool_arguments(), st.sampled_from(["zh", "en"]))
def test_every_result_the_tool_returns_is_consistent(arguments: Any, locale: str) -> None:
    result = call_questionnaire_async(arguments, locale=locale)
    form = questionnaire_from_tool_result(result, "call_1", locale=locale)
    assert form.opened == result["success"]
    assert all(e.code != "tool_result.inconsistent" for e in form.errors)


@given(tool_arguments(), st.data())
def test_a_result_opens_under_the_limit_its_arguments_passed(arguments: Any, data: Any) -> None:
    # String options grow into {value, label} and ids and defaults are filled in, so a
    # result is up to twice its arguments' size: it is measured as those arguments were.
    size = len(json.dumps(arguments, ensure_ascii=False, separators=(",", ":")))
    limits = Limits(max_payload=max(1, size + data.draw(st.integers(0, 3))))
    result = call_questionnaire_async(arguments, limits=limits)
    form = questionnaire_from_tool_result(result, "call_1", limits=limits)
    assert form.opened == result["success"], [e.code for e in form.errors]
    if form.questionnaire is not None:
        again = questionnaire_from_tool_result(result, "call_1")
        assert again.questionnaire == form.questionnaire


def test_a_result_of_string_options_at_the_limit_opens() -> None:
    args = {
        "questions": [
            {
                "type": "single_choice",
                "text": "Which?",
                "options": ["alpha", "beta", "gamma", "delta"],
            }
        ]
    }
    limits = Limits(max_payload=len(json.dumps(args, separators=(",", ":"))))
    result = call_questionnaire_async(args, limits=limits)
    assert result["success"] is True
    assert len(json.dumps(result["questions"])) > limits.max_payload
    form = questionnaire_from_tool_result(result, "call_1", limits=limits)
    assert form.opened and form.errors == ()
    assert [o.value for o in form.questionnaire.questions[0].options] == args["questions"][0][
        "options"
    ]


# --- the {value, label} option's label (docs/protocol.md §5, the table there) -------------

LABELS = [
    ({"value": "a", "label": "Alpha"}, ("a", "Alpha")),
    ({"value": "a"}, ("a", "a")),
    ({"value": "a", "label": None}, ("a", "a")),
    ({"value": "a", "label": ""}, ("a", "a")),
    ({"value": "a", "label": " "}, ("a", "a")),
    ({"value": "a", "label": "\u200b"}, ("a", "a")),
    ("a", ("a", "a")),
    ({"value": "a", "label": 5}, None),
    ({"value": "a", "label": True}, None),
    ({"label": "A"}, None),
    ({"value": 1, "label": "A"}, None),
]


@pytest.mark.parametrize(("option", "read"), LABELS)
def test_the_label_falls_back_to_the_value_in_the_tool_and_in_xml(
    option: Any, read: tuple[str, str] | None
) -> None:
    question = {"type": "single_choice", "text": "x", "options": [option]}
    result = call_questionnaire_async({"questions": [question]}, locale="en")
    payload = json.dumps({"title": "T", "questions": [question]})
    text = f"Intro <questionnaire>{payload}</questionnaire>"
    block = next(s for s in segment(text).segments if s.kind == "questionnaire")
    if read is None:
        assert [e["code"] for e in result["errors"]] == [
            "questionnaire.start.question_option_invalid"
        ]
        assert [d.code for d in block.diagnostics] == [
            "questionnaire.start.question_option_invalid"
        ]
    else:
        assert result["questions"][0]["options"] == [{"value": read[0], "label": read[1]}]
        assert block.questionnaire is not None
        (opened,) = block.questionnaire.questions[0].options
        assert (opened.value, opened.label) == read
