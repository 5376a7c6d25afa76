"""normalize_form: questionnaire_async normalization, codes, paths and details (§5, §7)."""

from __future__ import annotations

from typing import Any

import pytest

from replykit.diagnostics import format_path
from replykit.questionnaire.model import Option, Question, Questionnaire
from replykit.questionnaire.payload.lenient import ACCEPTED_TYPES, normalize_form

P = "questionnaire.start."

# The seed's questionnaire_async call arguments (调用参数).
SEED_TOOL_ARGS: dict[str, Any] = {
    "title": "继续执行",
    "questions": [
        {
            "id": "action",
            "type": "single_choice",
            "text": "是否继续当前任务？",
            "options": [{"value": "continue", "label": "继续"}],
            "default": "continue",
            "allow_other": False,
        }
    ],
}


def test_seed_tool_example() -> None:
    read = normalize_form(SEED_TOOL_ARGS, allow_extras=False)
    assert read.findings == ()
    assert read.value is not None
    # The seed's success result lists exactly these normalized questions.
    assert [q.to_json() for q in read.value.questions] == SEED_TOOL_ARGS["questions"]
    assert list(read.value.questions[0].to_json()) == [
        "id",
        "type",
        "text",
        "options",
        "default",
        "allow_other",
    ]


def test_normalization_rules() -> None:
    args = {
        "questions": [
            {"type": " Multiple_Choice ", "title": "T1", "options": ["a", {"value": "b"}]},
            {"type": "text", "text": "T2", "options": "ignored", "allow_other": "ignored"},
            {"id": "", "type": "single_choice", "text": "T3", "options": ["x"], "default": ""},
            {"id": None, "type": "single_choice", "text": "  ", "title": "T4", "options": ["x"]},
        ],
        "ui_text": {"other": "O"},
        "timeout_seconds": 30,
        "extra": 1,
    }
    read = normalize_form(args, allow_extras=False)
    assert read.findings == ()
    assert read.value == Questionnaire(
        title="",
        questions=(
            Question(
                id="q1",
                type="multi_choice",
                text="T1",
                options=(Option("a", "a"), Option("b", "b")),
                default=(),
            ),
            Question(id="q2", type="free_text", text="T2"),
            Question(id="q3", type="single_choice", text="T3", options=(Option("x", "x"),)),
            Question(id="q4", type="single_choice", text="T4", options=(Option("x", "x"),)),
        ),
    )
    with_extras = normalize_form(args, allow_extras=True).value
    assert with_extras is not None
    assert with_extras.ui_text == (("other", "O"),)
    assert with_extras.timeout_seconds == 30


def test_normalizing_twice_is_stable() -> None:
    first = normalize_form(SEED_TOOL_ARGS | {"title": ""}, allow_extras=False).value
    assert first is not None
    again = normalize_form(first.to_json(), allow_extras=False).value
    assert again == first


def _q(**fields: Any) -> dict[str, Any]:
    return {"questions": [{"type": "single_choice", "text": "T", "options": ["a"], **fields}]}


# (args, code, path, details)
CASES: list[tuple[Any, str, str | None, dict[str, Any]]] = [
    ([], "arguments_not_object", None, {"path": None, "expected": "object", "actual": "array"}),
    (
        {"title": 5, "questions": [{"type": "text", "text": "x"}]},
        "title_invalid",
        "title",
        {"path": "title", "expected": "string", "actual": "number"},
    ),
    (
        {"questions": {}},
        "questions_must_be_list",
        "questions",
        {"path": "questions", "expected": "array", "actual": "object"},
    ),
    (
        {},
        "questions_must_be_list",
        "questions",
        {"path": "questions", "expected": "array", "actual": "missing"},
    ),
    ({"questions": []}, "questions_empty", "questions", {"path": "questions"}),
    (
        {"questions": ["q"]},
        "question_not_object",
        "questions[1]",
        {"path": "questions[1]", "expected": "object", "actual": "string"},
    ),
    (
        _q(type="rating"),
        "question_type_invalid",
        "questions[1].type",
        {"path": "questions[1].type", "value": "rating", "allowed": list(ACCEPTED_TYPES)},
    ),
    (
        {"questions": [{"text": "T"}]},
        "question_type_invalid",
        "questions[1].type",
        # missing: no value, and "actual" says so (as for text and options)
        {"path": "questions[1].type", "allowed": list(ACCEPTED_TYPES), "actual": "missing"},
    ),
    (
        _q(text=" ", title="\u3000"),
        "question_text_required",
        "questions[1].text",
        {"path": "questions[1].text", "expected": "non-blank string", "actual": "string"},
    ),
    (
        _q(id=7),
        "question_id_invalid",
        "questions[1].id",
        {"path": "questions[1].id", "expected": "string", "actual": "number"},
    ),
    (
        {
            "questions": [
                {"id": "q2", "type": "text", "text": "A"},
                {"type": "text", "text": "B"},
            ]
        },
        "question_id_duplicate",
        "questions[2].id",
        {"path": "questions[2].id", "value": "q2"},
    ),
    (
        _q(options=[]),
        "question_options_required",
        "questions[1].options",
        {"path": "questions[1].options", "expected": "non-empty array", "actual": "empty array"},
    ),
    (
        _q(options=None),
        "question_options_required",
        "questions[1].options",
        {"path": "questions[1].options", "expected": "non-empty array", "actual": "null"},
    ),
    (
        {"questions": [{"type": "single_choice", "text": "T"}]},
        "question_options_required",
        "questions[1].options",
        {"path": "questions[1].options", "expected": "non-empty array", "actual": "missing"},
    ),
    (
        _q(options=["a", {"value": 1, "label": "x"}]),
        "question_option_invalid",
        "questions[1].options[2]",
        {
            "path": "questions[1].options[2]",
            "expected": "non-blank string or {value, label} object",
            "actual": "object",
            "value": {"value": 1, "label": "x"},
        },
    ),
    (
        _q(options=["a", {"value": "a", "label": "A"}]),
        "question_option_invalid",
        "questions[1].options[2]",
        {"path": "questions[1].options[2]", "value": "a"},
    ),
    (
        _q(default=["a"]),
        "default_type_invalid",
        "questions[1].default",
        {"path": "questions[1].default", "expected": "string", "actual": "array"},
    ),
    (
        {"questions": [{"type": "multi_choice", "text": "T", "options": ["a"], "default": "a"}]},
        "default_type_invalid",
        "questions[1].default",
        {"path": "questions[1].default", "expected": "array of strings", "actual": "string"},
    ),
    (
        {"questions": [{"type": "free_text", "text": "T", "default": False}]},
        "default_type_invalid",
        "questions[1].default",
        {"path": "questions[1].default", "expected": "string", "actual": "boolean"},
    ),
    (
        _q(default="b"),
        "default_value_not_in_options",
        "questions[1].default",
        {"path": "questions[1].default", "value": "b", "allowed": ["a"]},
    ),
    (
        {
            "questions": [
                {"type": "multi_choice", "text": "T", "options": ["a"], "default": ["a", "b", 1]}
            ]
        },
        "default_list_invalid_items",
        "questions[1].default",
        {"path": "questions[1].default", "invalid_items": [1], "allowed": ["a"]},
    ),
    (
        {
            "questions": [
                {"type": "multi_choice", "text": "T", "options": ["a"], "default": ["a", " b ", 1]}
            ]
        },
        "default_value_not_in_options",
        "questions[1].default",
        {"path": "questions[1].default", "invalid_items": ["b"], "allowed": ["a"]},
    ),
    (
        _q(allow_other="yes"),
        "allow_other_type_invalid",
        "questions[1].allow_other",
        {"path": "questions[1].allow_other", "expected": "boolean", "actual": "string"},
    ),
]


@pytest.mark.parametrize(("args", "code", "path", "details"), CASES)
def test_start_codes(args: Any, code: str, path: str | None, details: dict[str, Any]) -> None:
    read = normalize_form(args, allow_extras=False)
    hits = [f for f in read.findings if f.code == P + code]
    assert len(hits) == 1, read.findings
    f = hits[0]
    assert f.severity == "error"
    assert format_path(f.path) == path
    assert dict(f.details) == details
    assert f.message.startswith(path or "The questionnaire arguments")
    assert read.value is None


def test_all_errors_are_collected() -> None:
    args = {
        "title": [],
        "questions": [
            {"id": 1, "type": "x"},
            {"type": "multi_choice", "text": "T", "options": ["a", "a", 3], "default": "a"},
            {"id": "q1", "type": "single_choice", "text": "T", "allow_other": 1},
        ],
    }
    codes = [
        (f.code.removeprefix(P), format_path(f.path))
        for f in normalize_form(args, allow_extras=False).findings
    ]
    assert codes == [
        ("title_invalid", "title"),
        ("question_id_invalid", "questions[1].id"),
        ("question_type_invalid", "questions[1].type"),
        ("question_text_required", "questions[1].text"),
        ("question_option_invalid", "questions[2].options[2]"),
        ("question_option_invalid", "questions[2].options[3]"),
        ("default_type_invalid", "questions[2].default"),
        ("question_id_duplicate", "questions[3].id"),
        ("question_options_required", "questions[3].options"),
        ("allow_other_type_invalid", "questions[3].allow_other"),
    ]


@pytest.mark.parametrize(
    ("extras", "code", "path"),
    [
        ({"ui_text": "x"}, "ui_text_invalid", "ui_text"),
        ({"ui_text": {"other": 1}}, "ui_text_invalid", "ui_text.other"),
        ({"timeout_seconds": -1}, "timeout_seconds_invalid", "timeout_seconds"),
        ({"timeout_seconds": True}, "timeout_seconds_invalid", "timeout_seconds"),
        ({"timeout_seconds": "60"}, "timeout_seconds_invalid", "timeout_seconds"),
    ],
)
def test_extras_warnings(extras: dict[str, Any], code: str, path: str) -> None:
    args = {"questions": [{"type": "text", "text": "T"}], **extras}
    read = normalize_form(args, allow_extras=True)
    (f,) = read.findings
    assert (f.code, f.severity, format_path(f.path)) == (P + code, "warning", path)
    assert read.value is not None
    assert read.value.ui_text == () and read.value.timeout_seconds is None
    assert normalize_form(args, allow_extras=False).findings == ()


def test_ui_text_keeps_only_known_keys() -> None:
    args = {
        "questions": [{"type": "text", "text": "T"}],
        "ui_text": {"unselected": "-", "bogus": "x", "other": "其他"},
        "timeout_seconds": 1.5,
    }
    value = normalize_form(args, allow_extras=True).value
    assert value is not None
    assert value.ui_text == (("unselected", "-"), ("other", "其他"))
    assert value.timeout_seconds == 1.5
