"""When none of a question's options could be read, the default's membership is not
judged: no "not in options" message with an empty list (docs/protocol.md §4.2;
docs/protocol-responses.md section 2). With some options read it still is."""

from __future__ import annotations

import json
from typing import Any

import pytest

from replykit import call_questionnaire_async, segment


def _fenced(qtype: str, options: str, default: str) -> list[tuple[str, str | None]]:
    text = (
        "Intro\n\n```questionnaire\ntitle: T\nquestions:\n"
        f"  - type: {qtype}\n    text: Q\n    options: {options}\n    default: {default}\n```\n"
    )
    return [(d.code, d.path) for d in segment(text).diagnostics]


def _tool(question: dict[str, Any], locale: str = "en") -> list[tuple[str, str, str]]:
    result = call_questionnaire_async({"questions": [question]}, locale=locale)
    return [(e["code"], e["path"], e["message"]) for e in result["errors"]]


@pytest.mark.usefixtures("yaml_loader")
@pytest.mark.parametrize(
    ("qtype", "options", "default"),
    [
        ("single_choice", "[1]", "x"),
        ("single_choice", "[~, 2]", "x"),
        ("multi_choice", "[1]", "[x]"),
        ("multi_choice", "['__questionnaire_other__']", "[x, y]"),
        ("multi_choice", "[{value: a}]", "[x]"),
    ],
)
def test_fenced_no_option_read(qtype: str, options: str, default: str) -> None:
    found = _fenced(qtype, options, default)
    assert found and {code for code, _ in found} == {"question.option_invalid"}


@pytest.mark.usefixtures("yaml_loader")
def test_fenced_some_options_read_still_judged() -> None:
    text = (
        "Intro\n\n```questionnaire\ntitle: T\nquestions:\n"
        "  - type: single_choice\n    text: Q\n    options: [1, a]\n    default: x\n```\n"
    )
    found = [(d.code, d.path, d.message) for d in segment(text).diagnostics]
    assert found[1:] == [
        (
            "question.default_not_in_options",
            "questions[1].default",
            'questions[1].default "x" is not one of the options ("a")',
        )
    ]


@pytest.mark.parametrize(
    "question",
    [
        {"type": "multi_choice", "text": "Q", "options": [1], "default": ["x"]},
        {"type": "single_choice", "text": "Q", "options": [1], "default": "x"},
        {"type": "single_choice", "text": "Q", "options": [None, {"label": "A"}], "default": "x"},
        {
            "type": "multi_choice",
            "text": "Q",
            "options": ["__questionnaire_other__"],
            "default": ["x"],
        },
    ],
)
@pytest.mark.parametrize("locale", ["en", "zh"])
def test_tool_no_option_read(question: dict[str, Any], locale: str) -> None:
    found = _tool(question, locale)
    assert found and {c for c, _, _ in found} == {"questionnaire.start.question_option_invalid"}
    assert not any("allowed: ." in m or "可选值：。" in m for _, _, m in found)


def test_tool_non_string_items_still_reported_without_options() -> None:
    # Not a string is wrong whatever the options: reported, with an empty ``allowed``.
    result = call_questionnaire_async(
        {"questions": [{"type": "multi_choice", "text": "Q", "options": [1], "default": ["x", 2]}]},
        locale="en",
    )
    assert [(e["code"], e["details"]) for e in result["errors"]] == [
        (
            "questionnaire.start.question_option_invalid",
            {
                "path": "questions[1].options[1]",
                "expected": "non-blank string or {value, label} object",
                "actual": "number",
                "value": 1,
            },
        ),
        (
            "questionnaire.start.default_list_invalid_items",
            {"path": "questions[1].default", "invalid_items": [2], "allowed": []},
        ),
    ]


def test_tool_some_options_read_still_judged() -> None:
    found = _tool({"type": "multi_choice", "text": "Q", "options": [1, "a"], "default": ["x"]})
    assert found[1:] == [
        (
            "questionnaire.start.default_value_not_in_options",
            "questions[1].default",
            'questions[1].default holds items that are not option values: "x"; allowed: "a".',
        )
    ]


def test_xml_no_option_read() -> None:
    body = {"questions": [{"type": "single_choice", "text": "Q", "options": [1], "default": "x"}]}
    seg = segment("Intro <questionnaire>" + json.dumps(body) + "</questionnaire>")
    assert [(d.code, d.path) for d in seg.diagnostics] == [
        ("questionnaire.start.question_option_invalid", "questions[1].options[1]")
    ]
