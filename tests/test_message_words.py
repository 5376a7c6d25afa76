"""Messages say what the payload holds in its own words (docs/protocol.md §2): YAML and
JSON names (``null``, ``true``, ``.inf``), never Python's; "missing" for a field left
out and ``null`` for a field given as null; the advice to quote a value only where the
quoted text would be accepted; the limit of a long implicit key by name; a Chinese
message names its path once."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from replykit import call_questionnaire_async, segment
from replykit.codes import CODES
from replykit.questionnaire.conversation.texts import diagnostic_message

PYTHON = re.compile(r"(?<![.\w])(None|True|False|NoneType|inf|nan)\b")
BASE: dict[str, Any] = {
    "title": "T",
    "questions": [
        {"id": "a", "type": "single_choice", "text": "Q", "options": ["x", "y"],
         "default": "x", "allow_other": False},
        {"type": "multi_choice", "text": "Q", "options": ["x"], "default": ["x"]},
        {"type": "free_text", "text": "Q", "default": ""},
    ],
}  # fmt: skip


def _fenced(payload: str) -> str:
    return f"Intro\n\n```questionnaire\n{payload}```\n"


def _variants(doc: Any) -> Iterator[Any]:
    """``doc`` with each value, in turn, replaced by null, true, false, .inf, or left out."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            for bad in (None, True, False, float("inf")):
                yield {**doc, key: bad}
            yield {k: v for k, v in doc.items() if k != key}
            for sub in _variants(value):
                yield {**doc, key: sub}
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            for bad in (None, True, False):
                yield [*doc[:i], bad, *doc[i + 1 :]]
            for sub in _variants(value):
                yield [*doc[:i], sub, *doc[i + 1 :]]


def _messages(doc: Any) -> Iterator[tuple[str, str]]:
    texts = [
        _fenced(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)),
        f"Intro <questionnaire>{json.dumps(doc, allow_nan=True)}</questionnaire>",
    ]
    for text in texts:
        for d in segment(text).diagnostics:
            yield d.code, d.message
            yield d.code, CODES[d.code].render(d.params, d.variant, "zh")
    for error in call_questionnaire_async(doc).get("errors", []):
        yield error["code"], error["message"]


def test_no_message_names_a_python_value() -> None:
    leaks = {
        code: message
        for doc in _variants(BASE)
        for code, message in _messages(doc)
        if PYTHON.search(message)
    }
    assert leaks == {}


@pytest.mark.parametrize(
    ("key", "shown"),
    [("~", "null"), ("null", "null"), ("True", "true"), ("false", "false"), (".inf", ".inf"),
     ("-.Inf", "-.inf"), (".nan", ".nan"), ("3", "3")],
)  # fmt: skip
def test_a_key_that_is_no_string_is_named_as_yaml_writes_it(key: str, shown: str) -> None:
    form = "title: T\nquestions:\n  - type: free_text\n    text: Q\n    default: ''\n"
    found = segment(_fenced(form + key + ": x\n")).diagnostics
    assert [d.code for d in found] == ["yaml.key_not_string"]
    assert found[0].message.startswith(f"mapping key {shown} is ")


def _field_message(question: str, code: str) -> str:
    text = _fenced(f"title: T\nquestions:\n  - text: Q\n{question}")
    return next(d.message for d in segment(text).diagnostics if d.code == code)


QUOTE = 'YAML reads null as null; quote it to keep the text: "null"'


@pytest.mark.parametrize(
    ("question", "code", "ending"),
    [
        ("    type: null\n    default: x\n", "question.type_invalid", "; it is null"),
        ("    type: single_choice\n    options: [a]\n    default: a\n    allow_other: null\n",
         "question.allow_other_invalid", "must be true or false; it is null"),
        ("    type: single_choice\n    options: null\n    default: a\n",
         "question.options_required", "; it is null"),
        ("    type: multi_choice\n    options: [a]\n    default: null\n",
         "question.default_invalid", "; it is null"),
        ("    type: single_choice\n    options: [a]\n    default: null\n",
         "question.default_invalid", "; it is null"),
        ("    type: multi_choice\n    options: [a]\n    default: [true]\n",
         "question.default_invalid", "; it is a boolean"),
        ("    type: single_choice\n    options: [a, 'null']\n    default: null\n",
         "question.default_invalid", QUOTE),
        ("    type: multi_choice\n    options: [a, 'true']\n    default: [true]\n",
         "question.default_invalid", 'quote it to keep the text: "true"'),
        ("    type: single_choice\n    options: [a, null]\n    default: a\n",
         "question.option_invalid", QUOTE),
        ("    type: free_text\n    default: null\n", "question.default_invalid", QUOTE),
    ],
)  # fmt: skip
def test_the_advice_to_quote_is_given_only_where_the_text_is_accepted(
    question: str, code: str, ending: str
) -> None:
    message = _field_message(question, code)
    assert message.endswith(ending), message
    assert ("quote it" in message) == ("quote it" in ending)


def test_a_title_or_text_that_reads_as_null_gets_the_advice() -> None:
    found = segment(_fenced("title: ~\nquestions:\n  - type: free_text\n    text: Q\n"
                            "    default: ''\n")).diagnostics  # fmt: skip
    assert [d.message for d in found] == [
        'title must be a string; YAML reads ~ as null; quote it to keep the text: "~"'
    ]


def _tool_errors(question: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    result = call_questionnaire_async({"questions": [question]})
    return [(e["code"], e["message"], e["details"]) for e in result["errors"]]


TYPES = '"single_choice"、"multiple_choice"、"multi_choice"、"text"、"free_text"'


def test_the_tool_tells_a_missing_field_from_a_null_one() -> None:
    allowed = ["single_choice", "multiple_choice", "multi_choice", "text", "free_text"]
    code = "questionnaire.start.question_type_invalid"
    assert _tool_errors({"text": "Q"}) == [
        (code, f"缺少 questions[1].type：需要题型；可用题型：{TYPES}。",
         {"path": "questions[1].type", "allowed": allowed, "actual": "missing"}),
    ]  # fmt: skip
    assert _tool_errors({"text": "Q", "type": None}) == [
        (code, f"questions[1].type 的值 null 不是有效的题型；可用题型：{TYPES}。",
         {"path": "questions[1].type", "value": None, "allowed": allowed, "actual": "null"}),
    ]  # fmt: skip
    assert CODES[code].render({"path": "questions[1].type", "allowed": allowed}, "missing") == (
        'questions[1].type is required: a question type; allowed: "single_choice", '
        '"multiple_choice", "multi_choice", "text", "free_text".'
    )
    for field, question in [("text", {"type": "text"}),
                            ("options", {"type": "single_choice", "text": "Q"})]:  # fmt: skip
        (missing,) = _tool_errors(question)
        (null,) = _tool_errors({**question, field: None})
        assert (missing[2]["actual"], null[2]["actual"]) == ("missing", "null")
    left_out = call_questionnaire_async({})["errors"][0]
    given_null = call_questionnaire_async({"questions": None})["errors"][0]
    assert left_out["message"] == "缺少 questions：需要一个问题数组。"
    assert given_null["message"] == "questions 必须是问题数组，当前为null。"


def test_a_response_tells_a_missing_answer_type_from_a_null_one() -> None:
    def messages(answer: dict[str, Any]) -> list[str]:
        response = {"type": "questionnaire_response", "questionnaire_id": "m_q1",
                    "status": "submitted", "answers": [answer]}  # fmt: skip
        text = f"<questionnaire-response>{json.dumps(response)}</questionnaire-response>"
        return [d.message for d in segment(text).diagnostics]

    head = "answers[1].type must be single_choice, multi_choice or free_text; "
    answer = {"question_id": "q1", "answer": "x"}
    assert messages(answer) == [head + "it is missing"]
    assert messages({**answer, "type": None}) == [head + "found null"]
    assert messages({**answer, "type": "x"}) == [head + 'found "x"']


KEY_LIMIT = (
    "YAML syntax error: a mapping key without '?' is at most 1024 characters and its ':' "
    "on the same line; quote a long text as a value, not a key"
)


@pytest.mark.parametrize(
    ("before", "after"),
    [("", ": v\ntitle: T\n"), ("title: T\n", ": v\n"), ("title: T\nquestions:\n  - ", ": v\n"),
     ('title: T\n"', '": v\n'), ("title: T\nx: [", ": v]\n")],
)  # fmt: skip
@pytest.mark.parametrize("loader", ["auto", "pure"])
def test_a_key_over_1024_characters_is_named_at_its_start(
    before: str, after: str, loader: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPLYKIT_YAML_LOADER", loader)
    head = "Intro\n\n```questionnaire\n" + before
    found = segment(head + "k" * 1025 + after + "```\n").diagnostics
    assert [(d.code, d.message) for d in found] == [("yaml.syntax", KEY_LIMIT)]
    assert found[0].start == len(head) - (1 if before.endswith('"') else 0)
    quotes = 2 if before.endswith('"') else 0  # the limit counts them
    exact = segment(head + "k" * (1024 - quotes) + after + "```\n").diagnostics
    assert "yaml.syntax" not in [d.code for d in exact]


def test_a_plain_value_holding_a_colon_is_still_named_so() -> None:
    found = segment(_fenced("title: T\nx: " + "k" * 1100 + ": v\n")).diagnostics
    assert [d.message for d in found] == [
        "YAML syntax error: ':' is not allowed here; a plain value that holds ': ' must be quoted"
    ]


PATHS = ("title", "questions", "questions[2].default", "questions[1].options[3]",
         "questions[1].allow_other", "questions[1].type", "questions[1].text", "ui_text",
         "timeout_seconds", "questions[2].default[1]")  # fmt: skip


def test_a_chinese_message_names_its_path_once() -> None:
    repeated = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z_]\w*)(?:\[\d+\])*：\1(?!\w)")
    said = [diagnostic_message(code, "x", path, "zh") for code in CODES for path in PATHS]
    assert [m for m in said if repeated.search(m)] == []
    assert diagnostic_message("form.questions_invalid", "x", "questions", "zh") == (
        "questions 必须是非空数组。"
    )
    assert diagnostic_message("question.default_invalid", "x", "questions[2].default", "zh") == (
        "questions[2].default 的类型不符合题型。"
    )
    assert diagnostic_message("question.options_forbidden", "x", "questions[1].options", "zh") == (
        "questions[1].options：free_text 问题不能有 options。"
    )
