"""A question whose ``type`` is missing or invalid still has the items of a list
``default`` checked, the same way as for a multi-choice question (docs/protocol.md
§4.2; docs/protocol-responses.md section 2): fenced YAML, the tool and XML+JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest

from replykit import call_questionnaire_async, segment


def _fenced(
    type_line: str, default: str, options: str = "[a]"
) -> list[tuple[str, str | None, str]]:
    text = (
        "Intro\n\n```questionnaire\ntitle: T\nquestions:\n"
        f"  - {type_line}\n    text: Q\n    options: {options}\n    default: {default}\n```\n"
    )
    return [(d.code, d.path, d.message) for d in segment(text).diagnostics]


def _tool(question: dict[str, Any], locale: str = "en") -> list[tuple[str, str, Any]]:
    result = call_questionnaire_async({"questions": [question]}, locale=locale)
    return [(e["code"], e["path"], e["details"]) for e in result["errors"]]


@pytest.mark.usefixtures("yaml_loader")
@pytest.mark.parametrize("type_line", ["type: bogus", "type: 5", "type: multi_choice"])
def test_fenced_list_default_item_not_a_string(type_line: str) -> None:
    found = _fenced(type_line, "[a, 5]")
    assert [(c, p) for c, p, _ in found if c != "question.type_invalid"] == [
        ("question.default_invalid", "questions[1].default[2]")
    ]
    message = found[-1][2]
    assert message.startswith("questions[1].default[2] must be a string; ")


@pytest.mark.usefixtures("yaml_loader")
def test_fenced_untyped_item_message_advises_quoting() -> None:
    # Any string would do for a question of no known type: the quoted spelling is offered.
    assert _fenced("type: bogus", "[a, 5, true]")[1:] == [
        (
            "question.default_invalid",
            "questions[1].default[2]",
            "questions[1].default[2] must be a string; YAML reads 5 as an integer; "
            'quote it to keep the text: "5"',
        ),
        (
            "question.default_invalid",
            "questions[1].default[3]",
            "questions[1].default[3] must be a string; YAML reads true as a boolean; "
            'quote it to keep the text: "true"',
        ),
    ]


@pytest.mark.usefixtures("yaml_loader")
def test_fenced_missing_type_checks_items_too() -> None:
    text = (
        "Intro\n\n```questionnaire\ntitle: T\nquestions:\n"
        "  - text: Q\n    default: [x, [y], {z: 1}]\n```\n"
    )
    found = [(d.code, d.path) for d in segment(text).diagnostics]
    assert found == [
        ("question.type_required", "questions[1].type"),
        ("question.default_invalid", "questions[1].default[2]"),
        ("question.default_invalid", "questions[1].default[3]"),
    ]


@pytest.mark.usefixtures("yaml_loader")
def test_fenced_untyped_string_items_are_not_judged() -> None:
    # Membership and repeats depend on the type: nothing beyond the type error.
    assert [c for c, _, _ in _fenced("type: bogus", "[z, z]")] == ["question.type_invalid"]


@pytest.mark.parametrize("qtype", ["bogus", "multi_choice", None, 7])
def test_tool_list_default_item_not_a_string(qtype: Any) -> None:
    question: dict[str, Any] = {"text": "Q", "options": ["a"], "default": ["a", 5]}
    if qtype is not None:
        question["type"] = qtype
    found = [e for e in _tool(question) if e[0] != "questionnaire.start.question_type_invalid"]
    assert found == [
        (
            "questionnaire.start.default_list_invalid_items",
            "questions[1].default",
            {"path": "questions[1].default", "invalid_items": [5], "allowed": ["a"]},
        )
    ]


@pytest.mark.parametrize(
    ("locale", "message"),
    [
        (
            "en",
            "questions[1].default holds items that are not strings: 5, null; a multi-choice "
            "default is an array of option values.",
        ),
        (
            "zh",
            "questions[1].default 含有不是字符串的项：5、null；多选的默认值是选项值组成的数组。",
        ),
    ],
)
def test_tool_untyped_message_is_the_multi_choice_one(locale: str, message: str) -> None:
    for qtype in ("bogus", "multi_choice"):
        question = {"type": qtype, "text": "Q", "options": ["a"], "default": ["a", 5, None]}
        result = call_questionnaire_async({"questions": [question]}, locale=locale)
        assert result["errors"][-1]["message"] == message


def test_tool_untyped_without_options_and_string_items() -> None:
    # No options read: allowed is empty; string items are never judged untyped.
    assert _tool({"type": "bogus", "text": "Q", "default": ["z", {"a": 1}]})[1:] == [
        (
            "questionnaire.start.default_list_invalid_items",
            "questions[1].default",
            {"path": "questions[1].default", "invalid_items": [{"a": 1}], "allowed": []},
        )
    ]
    assert [c for c, _, _ in _tool({"type": "bogus", "text": "Q", "default": ["z"]})] == [
        "questionnaire.start.question_type_invalid"
    ]


def test_xml_untyped_default_items() -> None:
    body = {"questions": [{"type": "bogus", "text": "Q", "options": ["a"], "default": ["a", 5]}]}
    seg = segment("Intro <questionnaire>" + json.dumps(body) + "</questionnaire>")
    found = [(d.code, d.path) for d in seg.diagnostics]
    assert found == [
        ("questionnaire.start.question_type_invalid", "questions[1].type"),
        ("questionnaire.start.default_list_invalid_items", "questions[1].default"),
    ]
    assert seg.segments[1].valid is False


def test_xml_untyped_refused_number_is_left_out_of_the_items() -> None:
    # 1e999 is json.number_too_large, read as a placeholder: only 5 is listed (§5).
    payload = '{"questions":[{"type":"bogus","text":"Q","default":["a",1e999,5]}]}'
    seg = segment("Intro <questionnaire>" + payload + "</questionnaire>")
    items = [d for d in seg.diagnostics if d.code.endswith("default_list_invalid_items")]
    assert [d.message for d in items] == [
        "questions[1].default holds items that are not strings: 5; a multi-choice default "
        "is an array of option values."
    ]
