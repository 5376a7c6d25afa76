"""questionnaire_async, tool results and the tool schema (§7; docs/protocol-responses.md
section 2)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from replykit.codes import CODES
from replykit.questionnaire.conversation.responses import build_response
from replykit.questionnaire.conversation.tool import (
    ToolError,
    ToolForm,
    call_questionnaire_async,
    questionnaire_async,
    questionnaire_from_tool_result,
    tool_schema,
)
from replykit.questionnaire.model import Option, Question, Questionnaire

from forms import SCHEMA_STRINGS, trim_form, valid_forms

P = "questionnaire.start."

# The seed's call arguments (调用参数) and success result (成功结果), verbatim.
SEED_QUESTIONS: list[dict[str, Any]] = [
    {
        "id": "action",
        "type": "single_choice",
        "text": "是否继续当前任务？",
        "options": [{"value": "continue", "label": "继续"}],
        "default": "continue",
        "allow_other": False,
    }
]
SEED_SUCCESS = """{
  "success": true,
  "status": "awaiting_user_input",
  "validation_passed": true,
  "title": "继续执行",
  "question_count": 1,
  "questions": [
    {
      "id": "action",
      "type": "single_choice",
      "text": "是否继续当前任务？",
      "options": [
        {"value": "continue", "label": "继续"}
      ],
      "default": "continue",
      "allow_other": false
    }
  ],
  "should_end": true,
  "message": "问卷已发起并等待用户回复，共 1 题。"
}"""
ERROR_KEYS = ["success", "status", "error_code", "validation_passed", "errors"]


def _key_orders(value: Any) -> list[list[str]]:
    """Every object's key order, depth first."""
    if isinstance(value, dict):
        out = [list(value)]
        for v in value.values():
            out += _key_orders(v)
        return out
    if isinstance(value, list):
        return [k for v in value for k in _key_orders(v)]
    return []


def test_seed_success_example_is_reproduced_exactly() -> None:
    result = questionnaire_async("继续执行", SEED_QUESTIONS)
    expected = json.loads(SEED_SUCCESS)
    assert result == expected
    assert _key_orders(result) == _key_orders(expected)
    assert list(result) == [
        "success",
        "status",
        "validation_passed",
        "title",
        "question_count",
        "questions",
        "should_end",
        "message",
    ]


def test_success_normalizes_and_localizes() -> None:
    result = questionnaire_async(
        questions=[
            {"type": "multiple_choice", "title": "Pick", "options": ["a", {"value": "b"}]},
            {"type": "text", "text": "Why?"},
        ],
        locale="en",
    )
    assert result == {
        "success": True,
        "status": "awaiting_user_input",
        "validation_passed": True,
        "title": "",
        "question_count": 2,
        "questions": [
            {
                "id": "q1",
                "type": "multi_choice",
                "text": "Pick",
                "options": [{"value": "a", "label": "a"}, {"value": "b", "label": "b"}],
                "default": [],
                "allow_other": False,
            },
            {
                "id": "q2",
                "type": "free_text",
                "text": "Why?",
                "options": [],
                "default": "",
                "allow_other": False,
            },
        ],
        "should_end": True,
        "message": "Questionnaire started; waiting for the user's reply (2 questions).",
    }


def test_seed_error_object_shape() -> None:
    # Seed 校验失败: default_type_invalid at questions[1].default.
    bad = [dict(SEED_QUESTIONS[0], default=1)]
    result = questionnaire_async("继续执行", bad)
    assert list(result) == ERROR_KEYS
    assert result == {
        "success": False,
        "status": "error",
        "error_code": "INVALID_ARGUMENT",
        "validation_passed": False,
        "errors": [
            {
                "code": "questionnaire.start.default_type_invalid",
                "path": "questions[1].default",
                "message": "questions[1].default 必须是字符串，当前为数字。",
                "details": {
                    "path": "questions[1].default",
                    "expected": "string",
                    "actual": "number",
                },
            }
        ],
    }
    assert list(result["errors"][0]) == ["code", "path", "message", "details"]


def _q(**fields: Any) -> dict[str, Any]:
    return {"questions": [{"type": "single_choice", "text": "T", "options": ["a"], **fields}]}


# args, code, path, details, zh message (en is the registry's, checked separately)
CASES: list[tuple[Any, str, str | None, dict[str, Any], str]] = [
    (
        ["x"],
        "arguments_not_object",
        None,
        {"path": None, "expected": "object", "actual": "array"},
        "问卷参数必须是对象，当前为数组。",
    ),
    (
        {"title": 3, "questions": [{"type": "text", "text": "T"}]},
        "title_invalid",
        "title",
        {"path": "title", "expected": "string", "actual": "number"},
        "title 必须是字符串，当前为数字。",
    ),
    (
        {"title": "t"},
        "questions_must_be_list",
        "questions",
        {"path": "questions", "expected": "array", "actual": "missing"},
        "缺少 questions：需要一个问题数组。",
    ),
    (
        {"questions": "abc"},
        "questions_must_be_list",
        "questions",
        {"path": "questions", "expected": "array", "actual": "string"},
        "questions 必须是问题数组，当前为字符串。",
    ),
    (
        {"questions": []},
        "questions_empty",
        "questions",
        {"path": "questions"},
        "questions 至少需要包含一个问题。",
    ),
    (
        {"questions": ["q"]},
        "question_not_object",
        "questions[1]",
        {"path": "questions[1]", "expected": "object", "actual": "string"},
        "questions[1] 必须是对象，当前为字符串。",
    ),
    (
        _q(type="rating"),
        "question_type_invalid",
        "questions[1].type",
        {
            "path": "questions[1].type",
            "value": "rating",
            "allowed": ["single_choice", "multiple_choice", "multi_choice", "text", "free_text"],
        },
        'questions[1].type 的值 "rating" 不是有效的题型；可用题型：'
        '"single_choice"、"multiple_choice"、"multi_choice"、"text"、"free_text"。',
    ),
    (
        _q(text=" ", title="\u200b"),
        "question_text_required",
        "questions[1].text",
        {"path": "questions[1].text", "expected": "non-blank string", "actual": "string"},
        "questions[1].text 为必填项：需要非空的 text（或 title）。",
    ),
    (
        _q(id=7),
        "question_id_invalid",
        "questions[1].id",
        {"path": "questions[1].id", "expected": "string", "actual": "number"},
        "questions[1].id 必须是字符串，当前为数字。",
    ),
    (
        {"questions": [{"id": "q2", "type": "text", "text": "A"}, {"type": "text", "text": "B"}]},
        "question_id_duplicate",
        "questions[2].id",
        {"path": "questions[2].id", "value": "q2"},
        'questions[2].id 的值 "q2" 已被前面的问题使用。',
    ),
    (
        _q(options=[]),
        "question_options_required",
        "questions[1].options",
        {"path": "questions[1].options", "expected": "non-empty array", "actual": "empty array"},
        "选择题必须提供 questions[1].options：由字符串或 {value, label} 对象组成的非空数组。",
    ),
    (
        _q(options=["a", {"label": "B"}]),
        "question_option_invalid",
        "questions[1].options[2]",
        {
            "path": "questions[1].options[2]",
            "expected": "non-blank string or {value, label} object",
            "actual": "object",
            "value": {"label": "B"},
        },
        "questions[1].options[2] 必须是非空字符串，或 value 为非空字符串、label 为字符串的 "
        '{value, label} 对象；当前为 {"label": "B"}。',
    ),
    (
        _q(options=["a", {"value": "a", "label": "A"}]),
        "question_option_invalid",
        "questions[1].options[2]",
        {"path": "questions[1].options[2]", "value": "a"},
        'questions[1].options[2] 重复了选项值 "a"；选项值必须互不相同。',
    ),
    (
        _q(default=5),
        "default_type_invalid",
        "questions[1].default",
        {"path": "questions[1].default", "expected": "string", "actual": "number"},
        "questions[1].default 必须是字符串，当前为数字。",
    ),
    (
        {"questions": [{"type": "multi_choice", "text": "T", "options": ["a"], "default": "a"}]},
        "default_type_invalid",
        "questions[1].default",
        {"path": "questions[1].default", "expected": "array of strings", "actual": "string"},
        "questions[1].default 必须是字符串数组，当前为字符串。",
    ),
    (
        _q(default="b"),
        "default_value_not_in_options",
        "questions[1].default",
        {"path": "questions[1].default", "value": "b", "allowed": ["a"]},
        'questions[1].default 的值 "b" 不是选项值之一："a"。',
    ),
    (
        {
            "questions": [
                {"type": "multiple_choice", "text": "T", "options": ["a"], "default": ["a", 1]}
            ]
        },
        "default_list_invalid_items",
        "questions[1].default",
        {"path": "questions[1].default", "invalid_items": [1], "allowed": ["a"]},
        "questions[1].default 含有不是字符串的项：1；多选的默认值是选项值组成的数组。",
    ),
    (
        {
            "questions": [
                {"type": "multiple_choice", "text": "T", "options": ["a"], "default": ["a", "b"]}
            ]
        },
        "default_value_not_in_options",
        "questions[1].default",
        {"path": "questions[1].default", "invalid_items": ["b"], "allowed": ["a"]},
        'questions[1].default 含有不属于选项值的项："b"；可选值："a"。',
    ),
    (
        _q(allow_other="yes"),
        "allow_other_type_invalid",
        "questions[1].allow_other",
        {"path": "questions[1].allow_other", "expected": "boolean", "actual": "string"},
        "questions[1].allow_other 必须是布尔值，当前为字符串。",
    ),
]


def _variant(zh: str, details: dict[str, Any]) -> str | None:
    if zh.startswith("缺少"):
        return "missing"
    if "重复" in zh:
        return "duplicate"
    return "items" if "invalid_items" in details and "不属于选项值" in zh else None


@pytest.mark.parametrize(("args", "code", "path", "details", "zh"), CASES)
def test_each_error_code(
    args: Any, code: str, path: str | None, details: dict[str, Any], zh: str
) -> None:
    result = call_questionnaire_async(args)
    assert list(result) == ERROR_KEYS
    assert result["errors"] == [{"code": P + code, "path": path, "message": zh, "details": details}]
    en = call_questionnaire_async(args, locale="en")["errors"]
    assert [e["message"] for e in en] == [
        CODES[P + code].render(details, _variant(zh, details), "en")
    ]
    assert en[0]["message"].startswith(path or "The questionnaire arguments")


def test_every_code_has_zh_and_en_messages() -> None:
    start = [c for c in CODES.values() if c.family == "questionnaire.start"]
    assert all(set(c.zh) == set(c.en) for c in start)
    codes = {P + c[1] for c in CASES}
    # Every error code of §7 is in the table above (the three warnings are XML-only).
    assert {c.name for c in start} - codes == {
        P + "ui_text_invalid",
        P + "timeout_seconds_invalid",
        P + "default_duplicate_item",
    }


def test_all_errors_are_collected_in_order() -> None:
    result = questionnaire_async(
        5,
        [
            {"type": "single_choice", "text": "A", "options": ["a", " "], "default": "z"},
            3,
            {"id": "q1", "type": "multi_choice", "options": ["a"], "allow_other": 1},
        ],
    )
    assert [(e["code"][len(P) :], e["path"]) for e in result["errors"]] == [
        ("title_invalid", "title"),
        ("question_option_invalid", "questions[1].options[2]"),
        ("default_value_not_in_options", "questions[1].default"),
        ("question_not_object", "questions[2]"),
        ("question_id_duplicate", "questions[3].id"),
        ("question_text_required", "questions[3].text"),
        ("allow_other_type_invalid", "questions[3].allow_other"),
    ]


def test_unknown_locale_raises() -> None:
    with pytest.raises(ValueError):
        questionnaire_async("t", SEED_QUESTIONS, locale="fr")


# --- tool results -------------------------------------------------------------------------


def test_success_result_opens_a_form_with_the_tool_call_id() -> None:
    result = questionnaire_async("继续执行", SEED_QUESTIONS)
    form = questionnaire_from_tool_result(result, "call_1")
    assert form == ToolForm(
        "call_1",
        Questionnaire(
            "继续执行",
            (
                Question(
                    "action",
                    "single_choice",
                    "是否继续当前任务？",
                    (Option("continue", "继续"),),
                    "continue",
                    False,
                ),
            ),
        ),
        (),
    )
    assert form.opened
    assert form.questionnaire is not None
    # Its answer is the generic <questionnaire-response>, id = tool_call_id (seed 回答边界).
    built = build_response(form.questionnaire, {}, questionnaire_id=form.id)
    assert built.agent_text == (
        '<questionnaire-response>{"type":"questionnaire_response","questionnaire_id":"call_1",'
        '"status":"submitted","answers":[{"question_id":"action","question":"是否继续当前任务？",'
        '"type":"single_choice","answer":"continue","value":"continue","label":"继续"}]}'
        "</questionnaire-response>"
    )


def test_failed_result_opens_nothing_and_returns_its_errors() -> None:
    result = questionnaire_async("t", [dict(SEED_QUESTIONS[0], default=1)])
    form = questionnaire_from_tool_result(result, "call_2")
    assert not form.opened and form.questionnaire is None
    assert form.errors == (
        ToolError(
            "questionnaire.start.default_type_invalid",
            "questions[1].default",
            "questions[1].default 必须是字符串，当前为数字。",
            {"path": "questions[1].default", "expected": "string", "actual": "number"},
        ),
    )
    assert [e.to_json() for e in form.errors] == result["errors"]


@pytest.mark.parametrize(
    ("result", "codes"),
    [
        ("not an object", [("tool_result.invalid", None)]),
        ({"success": False}, [("tool_result.failed", None)]),
        (
            {"success": False, "errors": [{"code": "x", "path": 3, "message": "m"}, 1]},
            [
                ("tool_result.error_invalid", "errors[1]"),
                ("tool_result.error_invalid", "errors[2]"),
            ],
        ),
        # validation_passed must be true as well: false contradicts success
        (
            dict(questionnaire_async("t", SEED_QUESTIONS), validation_passed=False),
            [("tool_result.inconsistent", "validation_passed")],
        ),
        # a forged success whose questions do not normalize opens nothing
        (
            dict(questionnaire_async("t", SEED_QUESTIONS), questions=[], question_count=0),
            [("questionnaire.start.questions_empty", "questions")],
        ),
        # a failed result never says validation_passed true
        (
            {"success": "true", "validation_passed": True},
            [("tool_result.inconsistent", "validation_passed"), ("tool_result.failed", None)],
        ),
    ],
)
def test_malformed_results(result: Any, codes: list[tuple[str, str | None]]) -> None:
    form = questionnaire_from_tool_result(result, "call_3", locale="en")
    assert form.questionnaire is None
    assert [(e.code, e.path) for e in form.errors] == codes


def test_tool_result_messages_are_localized() -> None:
    assert questionnaire_from_tool_result([], "c").errors[0].message == "工具结果必须是对象。"
    assert (
        questionnaire_from_tool_result({"success": False}, "c", locale="en").errors[0].message
        == "The questionnaire tool call failed without listing errors."
    )


@pytest.mark.parametrize(("call_id", "error"), [(None, TypeError), (" ", ValueError)])
def test_tool_call_id_is_required(call_id: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        questionnaire_from_tool_result(questionnaire_async("t", SEED_QUESTIONS), call_id)


# --- normalization is idempotent ------------------------------------------------------------


@given(valid_forms())
def test_normalizing_a_normalized_form_gives_the_same_form(form: Questionnaire) -> None:
    assume(trim_form(form) is not None)  # trimming may make two options equal
    first = questionnaire_async(form.title, form.to_json()["questions"], locale="en")
    assert first["success"] is True
    again = questionnaire_async(first["title"], first["questions"], locale="en")
    assert again == first
    opened = questionnaire_from_tool_result(first, "call")
    assert opened.questionnaire == trim_form(form)


# --- the schema -----------------------------------------------------------------------------

VALUE_LEVEL = {
    P + "question_text_required",
    P + "question_option_invalid",
    P + "question_id_duplicate",
    P + "default_value_not_in_options",
}
_POOL = [*SCHEMA_STRINGS, "q2"]


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A strategy for the values ``schema`` accepts (the keywords tool_schema() uses)."""
    known = {
        "$schema",
        "title",
        "description",
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "minLength",
        "enum",
        "anyOf",
        "maxItems",
        "not",
    }
    assert set(schema) <= known, set(schema) - known
    if isinstance(schema.get("type"), list):  # ["string", "null"]: either
        return st.one_of([from_schema({**schema, "type": t}) for t in schema["type"]])
    if schema.get("type") == "null":
        return st.none()
    if "anyOf" in schema:
        return st.one_of([from_schema(s) for s in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema["type"]
    if kind == "string":
        refused = schema.get("not", {}).get("const")
        return st.sampled_from(
            [s for s in _POOL if len(s) >= schema.get("minLength", 0) and s != refused]
        )
    if kind == "boolean":
        return st.booleans()
    if kind == "array" and schema.get("maxItems") == 0:
        return st.just([])
    if kind == "array":
        return st.lists(
            from_schema(schema["items"]), min_size=schema.get("minItems", 0), max_size=3
        )
    assert kind == "object" and schema.get("additionalProperties") is False
    props = schema["properties"]
    required = set(schema.get("required", ()))
    return st.fixed_dictionaries(
        {k: from_schema(v) for k, v in props.items() if k in required},
        optional={k: from_schema(v) for k, v in props.items() if k not in required},
    )


def accepts(schema: dict[str, Any], value: Any) -> bool:
    """A validator for the same keywords (to show the schema is not vacuous)."""
    if isinstance(schema.get("type"), list):
        return any(accepts({**schema, "type": t}, value) for t in schema["type"])
    if schema.get("type") == "null":
        return value is None
    if "anyOf" in schema:
        return any(accepts(s, value) for s in schema["anyOf"])
    if "enum" in schema and not any(value is e or value == e for e in schema["enum"]):
        return False
    kind = schema.get("type")
    if kind == "string":
        refused = schema.get("not", {}).get("const")
        return (
            isinstance(value, str) and len(value) >= schema.get("minLength", 0) and value != refused
        )
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "array":
        return (
            isinstance(value, list)
            and schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value))
            and all(accepts(schema["items"], v) for v in value)
        )
    if kind == "object":
        props = schema["properties"]
        return (
            isinstance(value, dict)
            and all(k in value for k in schema.get("required", ()))
            and all(k in props and accepts(props[k], v) for k, v in value.items())
        )
    return True


def test_schema_document() -> None:
    schema = tool_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["type"] == "object" and schema["required"] == ["questions"]
    assert schema == tool_schema() and schema is not tool_schema()
    json.dumps(schema)  # plain JSON
    variants = schema["properties"]["questions"]["items"]["anyOf"]
    assert [v["properties"]["type"]["enum"] for v in variants] == [
        ["single_choice"],
        ["multiple_choice", "multi_choice"],
        ["text", "free_text"],
    ]
    assert accepts(schema, {"title": "继续执行", "questions": SEED_QUESTIONS})
    bad: dict[str, Any]
    for bad in (
        {},
        {"questions": []},
        {"questions": [{"type": "single_choice", "text": "T"}]},
        {"questions": [dict(SEED_QUESTIONS[0], default=1)]},
        {"questions": [{"type": "text", "text": "T", "options": ["a"]}]},
        {"questions": SEED_QUESTIONS, "extra": 1},
    ):
        assert not accepts(schema, bad), bad


@given(from_schema(tool_schema()))
def test_every_schema_input_validates_or_fails_only_on_values(arguments: Any) -> None:
    assert accepts(tool_schema(), arguments)
    result = call_questionnaire_async(arguments, locale="en")
    if not result["success"]:
        assert {e["code"] for e in result["errors"]} <= VALUE_LEVEL, result["errors"]
    else:
        again = questionnaire_async(result["title"], result["questions"], locale="en")
        assert again == result


def test_null_is_absent_for_every_optional_field() -> None:
    # Strict function-calling modes send null for an optional field the model leaves
    # out: title, id, a question's title, default and allow_other (§7, documented).
    questions = [
        {"id": None, "type": "single_choice", "text": "Q", "title": None, "options": ["a"],
         "default": None, "allow_other": None},
        {"type": "multi_choice", "text": None, "title": "R", "options": ["a"], "default": None},
        {"type": "text", "text": "S", "default": None},
    ]  # fmt: skip
    result = call_questionnaire_async({"title": None, "questions": questions}, locale="en")
    assert result["success"] is True
    assert result["title"] == ""
    assert [(q["id"], q["text"], q["default"], q["allow_other"]) for q in result["questions"]] == [
        ("q1", "Q", "", False),
        ("q2", "R", [], False),
        ("q3", "S", "", False),
    ]
    # An XML+JSON request also reads null as absent for ui_text, its keys and timeout.
    from replykit import segment

    form = {"title": None, "ui_text": {"other": None}, "timeout_seconds": None,
            "questions": questions}  # fmt: skip
    block = segment(f"Intro <questionnaire>{json.dumps(form)}</questionnaire>").segments[1]
    assert block.valid and block.diagnostics == ()
    assert block.questionnaire is not None
    assert (block.questionnaire.ui_text, block.questionnaire.timeout_seconds) == ((), None)
    bare = segment(f"Intro <questionnaire>{json.dumps({**form, 'ui_text': None})}</questionnaire>")
    assert bare.segments[1].valid and bare.diagnostics == ()


def test_a_result_without_questions_is_missing_them_not_null() -> None:
    result = {"success": True, "status": "awaiting_user_input", "validation_passed": True,
              "title": "T", "question_count": 0}  # fmt: skip
    (error,) = questionnaire_from_tool_result(result, "call_1", locale="en").errors
    assert (error.code, error.path, error.details["actual"]) == (
        "questionnaire.start.questions_must_be_list", "questions", "missing",
    )  # fmt: skip


@pytest.mark.parametrize(
    "entry",
    [{"code": "x", "message": "m"}, {"code": "x", "path": None, "message": "m"},
     {"code": "x", "details": {}, "message": "m"}],
)  # fmt: skip
def test_an_error_entry_lacking_a_key_of_the_seeds_is_invalid(entry: dict[str, object]) -> None:
    failed = {"success": False, "status": "error", "errors": [entry]}
    (error,) = questionnaire_from_tool_result(failed, "call_1", locale="en").errors
    assert (error.code, error.path) == ("tool_result.error_invalid", "errors[1]")
