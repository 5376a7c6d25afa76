"""§7 as the seed's reference implementation has it: trimming, the two default codes, and
``default: null``; for the tool and for XML+JSON requests (§5), which share the rules."""

from __future__ import annotations

import json
from typing import Any

import pytest

from replykit import segment
from replykit.questionnaire.conversation.tool import call_questionnaire_async

P = "questionnaire.start."
BLANKS = " \t\u00a0\u3000\u200b\ufeff"


def tool(*questions: dict[str, Any], **top: Any) -> dict[str, Any]:
    return call_questionnaire_async({**top, "questions": list(questions)}, locale="en")


def xml(*questions: dict[str, Any], **top: Any) -> Any:
    payload = json.dumps({**top, "questions": list(questions)}, ensure_ascii=False)
    return segment(f"Intro <questionnaire>{payload}</questionnaire>").segments[1]


def errors(result: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(e["code"][len(P) :], e["path"], e["details"]) for e in result.get("errors", [])]


def test_the_issue_example_option_with_spaces_and_a_plain_default() -> None:
    question = {"type": "single_choice", "text": "Q", "options": [" a "], "default": "a"}
    result = tool(question)
    assert result["success"] is True
    assert result["questions"] == [
        {"id": "q1", "type": "single_choice", "text": "Q",
         "options": [{"value": "a", "label": "a"}], "default": "a", "allow_other": False}
    ]  # fmt: skip
    block = xml(question)
    assert block.valid and block.questionnaire.questions[0].default == "a"


def test_texts_titles_options_labels_and_defaults_are_trimmed() -> None:
    b = BLANKS
    questions = [
        {"id": f"{b}x{b}", "type": "single_choice", "text": f"{b}Q{b}",
         "options": [f"{b}a", {"value": f"b{b}", "label": f"{b}B{b}"}, {"value": "c", "label": b}],
         "default": f"{b}b{b}"},
        {"type": "multi_choice", "text": b, "title": f"{b}From title{b}",
         "options": ["d", " e "], "default": [f"{b}e", "d "]},
        {"type": "free_text", "text": "F", "default": f"{b}answer{b}"},
    ]  # fmt: skip
    result = tool(*questions, title=f"{b}Plan{b}")
    assert result["success"] is True, result
    assert result["title"] == "Plan"
    assert result["questions"] == [
        {"id": f"{b}x{b}", "type": "single_choice", "text": "Q",
         "options": [{"value": "a", "label": "a"}, {"value": "b", "label": "B"},
                     {"value": "c", "label": "c"}],
         "default": "b", "allow_other": False},
        {"id": "q2", "type": "multi_choice", "text": "From title",
         "options": [{"value": "d", "label": "d"}, {"value": "e", "label": "e"}],
         "default": ["e", "d"], "allow_other": False},
        {"id": "q3", "type": "free_text", "text": "F", "options": [], "default": "answer",
         "allow_other": False},
    ]  # fmt: skip
    block = xml(*questions, title=f"{b}Plan{b}")
    assert block.valid
    assert [q.to_json() for q in block.questionnaire.questions] == result["questions"]
    assert block.questionnaire.title == "Plan"
    # The normalized result normalizes to itself.
    again = call_questionnaire_async(
        {"title": result["title"], "questions": result["questions"]}, locale="en"
    )
    assert again == result


def test_option_values_equal_after_trimming_are_duplicates() -> None:
    result = tool({"type": "single_choice", "text": "Q", "options": ["a", "\u3000a "]})
    assert errors(result) == [
        ("question_option_invalid", "questions[1].options[2]", {
            "path": "questions[1].options[2]", "value": "a"})
    ]  # fmt: skip
    block = xml({"type": "multi_choice", "text": "Q", "options": [{"value": " a"}, "a"]})
    assert [(d.code, d.path) for d in block.diagnostics] == [
        (P + "question_option_invalid", "questions[1].options[2]")
    ]


def test_a_blank_default_after_trimming_is_no_default() -> None:
    result = tool({"type": "single_choice", "text": "Q", "options": ["a"], "default": " \u200b"})
    assert result["success"] is True and result["questions"][0]["default"] == ""


def test_multi_default_codes_split_strings_from_non_strings() -> None:
    result = tool(
        {"type": "multi_choice", "text": "Q", "options": ["a", "b"],
         "default": [" a", "z ", 1, None, "b", " "]}
    )  # fmt: skip
    assert errors(result) == [
        ("default_list_invalid_items", "questions[1].default",
         {"path": "questions[1].default", "invalid_items": [1, None], "allowed": ["a", "b"]}),
        ("default_value_not_in_options", "questions[1].default",
         {"path": "questions[1].default", "invalid_items": ["z", ""], "allowed": ["a", "b"]}),
    ]  # fmt: skip
    messages = [e["message"] for e in result["errors"]]
    assert messages == [
        "questions[1].default holds items that are not strings: 1, null; a multi-choice "
        "default is an array of option values.",
        'questions[1].default holds items that are not option values: "z", ""; allowed: "a", "b".',
    ]
    zh = call_questionnaire_async(
        {"questions": [{"type": "multi_choice", "text": "Q", "options": ["a"], "default": ["z"]}]}
    )
    assert zh["errors"][0]["message"] == (
        'questions[1].default 含有不属于选项值的项："z"；可选值："a"。'
    )
    block = xml({"type": "multi_choice", "text": "Q", "options": ["a"], "default": ["z"]})
    assert [(d.code, d.path) for d in block.diagnostics] == [
        (P + "default_value_not_in_options", "questions[1].default")
    ]


@pytest.mark.parametrize(
    ("question", "default"),
    [
        ({"type": "single_choice", "options": ["a"]}, ""),
        ({"type": "multi_choice", "options": ["a"]}, []),
        ({"type": "free_text"}, ""),
    ],
)
def test_default_null_means_no_default(question: dict[str, Any], default: Any) -> None:
    result = tool({**question, "text": "Q", "default": None})
    assert result["success"] is True
    assert result["questions"][0]["default"] == default
    assert xml({**question, "text": "Q", "default": None}).valid
