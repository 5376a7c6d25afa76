"""Review s12 (responses): a response-shaped block in a reply is told to go, not to be
rewritten as a questionnaire; each failing form keeps its own registered name; the
``ui_text`` argument is bounded as the form's is; tool error entries, binary content,
non-string keys and findings past the diagnostics cap (docs/protocol-responses.md
sections 1.3, 2, 2.1, 3)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from replykit import (
    AnswersError,
    Limits,
    build_response,
    build_response_json,
    call_questionnaire_async,
    check_answers,
    questionnaire_async,
    questionnaire_async_json,
    questionnaire_from_tool_result,
    segment,
    self_check,
)
from replykit.questionnaire.conversation.responses import resolve_ui_text
from replykit.questionnaire.payload.json_strict import read_json_value

P = json.dumps(
    {"type": "questionnaire_response", "questionnaire_id": "x", "status": "submitted",
     "answers": []},
    separators=(",", ":"),
)  # fmt: skip
REGISTERED = (
    "questionnaire, ling-questionnaire, movo-questionnaire, sage-questionnaire, yiii-questionnaire"
)
BAD_YAML = (
    "Intro\n\n```questionnaire\ntitle: T\nquestions:\n  - type: single_choice\n    text: Q\n"
    "    options: [a, b]\n    default: c\n```\n"
)
BAD_SAGE = (
    '<sage-questionnaire>{"questions":[{"type":"single_choice","text":"Q","options":["a"],'
    '"default":"z"}]}</sage-questionnaire>\n'
)


def repair(content: str, locale: str = "en") -> str:
    result = self_check([{"role": "assistant", "content": content}], locale=locale)
    assert not result.passed and result.repair_prompt is not None
    return result.repair_prompt


# ---------------------------------------------------------------- finding 1


RESPONSE_SHAPED = [
    ("Intro <Questionnaire-Response>" + P + "</Questionnaire-Response>", "near_miss.case",
     "questionnaire-response"),
    ("Intro <questionnaire-response>" + P, "near_miss.unclosed_tag", "questionnaire-response"),
    ('Intro <questionnaire-response id="1">' + P + "</questionnaire-response>",
     "near_miss.tag_attributes", "questionnaire-response"),
    ("Intro\n\n```questionnaire-response\n" + P + "\n```\n", "near_miss.unknown_name",
     "questionnaire-response"),
    ("Intro <foo-questionnaire-response>{}</foo-questionnaire-response>", "name.unregistered",
     "questionnaire-response"),
    ("Intro <Sage-Questionnaire-Response>{}</Sage-Questionnaire-Response>", "near_miss.case",
     "sage-questionnaire-response"),
    ("Intro\n\n```sage-questionnaire-response\n" + P + "\n```\n", "near_miss.unknown_name",
     "sage-questionnaire-response"),
]  # fmt: skip


@pytest.mark.parametrize(("content", "code", "name"), RESPONSE_SHAPED)
def test_a_response_shaped_block_is_told_to_go_in_english(
    content: str, code: str, name: str
) -> None:
    prompt = repair(content, "en")
    lines = prompt.split("\n")
    assert lines[0] == (
        f"Your last reply contains a questionnaire response block (<{name}>), which is the "
        "user's answer to a questionnaire and belongs only in the user's next message:"
    )
    assert len(lines) == 3 and f"[{code}]" in lines[1]
    assert lines[2] == (
        "Write the reply again without the response block. Do not answer for the user: to "
        "ask the user something, write a complete questionnaire with ordinary explanatory "
        "text before it; to talk about answers, use plain text."
    )
    assert "Write the complete questionnaire again" not in prompt


@pytest.mark.parametrize(("content", "code", "name"), RESPONSE_SHAPED)
def test_a_response_shaped_block_is_told_to_go_in_chinese(
    content: str, code: str, name: str
) -> None:
    prompt = repair(content, "zh")
    assert prompt.startswith(
        f"你上一条回复中包含回答块（<{name}>），它是用户对问卷的答复，只能出现在用户的下一条消息中：\n"
    )
    assert f"[{code}]" in prompt
    assert prompt.endswith(
        "请去掉回答块后重新输出回复，不要替用户作答：如需向用户提问，请输出完整的问卷，"
        "并在问卷前保留普通说明文字；如需说明答案，请使用普通文字。"
    )
    assert "问卷没有通过协议校验" not in prompt


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_a_broken_form_and_a_misspelled_response_get_both_instructions(locale: str) -> None:
    prompt = repair(BAD_YAML + "\n<Questionnaire-Response>{}</Questionnaire-Response>", locale)
    lines = prompt.split("\n")
    assert "[question.default_not_in_options]" in lines[1]
    assert "[near_miss.case]" in lines[2]
    if locale == "en":
        assert lines[0].startswith("Your last reply contains a questionnaire block that fails")
        assert lines[-1] == (
            "Also remove the questionnaire response block (<questionnaire-response>): a "
            "response is the user's answer and only the user's next message carries it."
        )
        assert "keep the same registered name (questionnaire)" in lines[-2]
    else:
        assert lines[0] == "你上一条回复中的问卷没有通过协议校验，用户无法作答："
        assert lines[-1] == (
            "另外请删除回答块（<questionnaire-response>）：回答是用户的答复，只能由用户的下一条"
            "消息携带。"
        )


def test_a_form_near_miss_is_still_a_questionnaire() -> None:
    prompt = repair("Intro <Questionnaire>{}</Questionnaire>")
    assert prompt.startswith("Your last reply contains a questionnaire block that fails")
    assert "response block" not in prompt


# ---------------------------------------------------------------- finding 3


def test_different_names_each_keep_their_own_in_english() -> None:
    prompt = repair(BAD_YAML + "\nmore\n" + BAD_SAGE)
    lines = prompt.split("\n")
    assert lines[0] == (
        "Your last reply contains questionnaire blocks that fail the protocol check, so the "
        "user cannot answer them:"
    )
    assert lines[-1] == (
        "Write each of these questionnaires again complete, every question included, not "
        "only the corrected part, with ordinary explanatory text before it. Each "
        "questionnaire keeps its own registered name (questionnaire, sage-questionnaire): "
        "use a fenced YAML block opened by ```NAME on its own line, or XML+JSON "
        "<NAME>{...}</NAME>, NAME being that questionnaire's name (```questionnaire or "
        "<questionnaire>{...}</questionnaire>; ```sage-questionnaire or "
        "<sage-questionnaire>{...}</sage-questionnaire>); you may switch between these two "
        "encodings as long as each questionnaire keeps its own registered name. Registered "
        f"names: {REGISTERED}."
    )


def test_different_names_each_keep_their_own_in_chinese() -> None:
    prompt = repair(BAD_YAML + "\nmore\n" + BAD_SAGE, "zh")
    assert prompt.startswith("你上一条回复中有多个问卷没有通过协议校验，用户无法作答：\n")
    assert prompt.endswith(
        "请逐一重新输出完整的问卷（每个都包含全部问题，不要只输出修改的部分），并在问卷前保留"
        "普通说明文字。每个问卷保持各自的注册名称（questionnaire、sage-questionnaire）：可以"
        "使用独占一行的 ```NAME 开始的 fenced YAML，或 XML+JSON 形式的 <NAME>{...}</NAME>，"
        "NAME 为该问卷自己的名称（```questionnaire 或 <questionnaire>{...}</questionnaire>；"
        "```sage-questionnaire 或 <sage-questionnaire>{...}</sage-questionnaire>）；只要每个"
        "问卷保持自己的注册名称，就可以在这两种编码之间切换。注册名称："
        + REGISTERED.replace(", ", "、")
        + "。"
    )


def test_two_failing_forms_of_one_name_get_the_plural_and_that_name() -> None:
    prompt = repair(BAD_YAML + "\n\n" + BAD_YAML)
    assert prompt.startswith("Your last reply contains questionnaire blocks that fail")
    assert "Write each of these questionnaires again complete" in prompt
    assert "as long as you keep the same registered name (questionnaire)." in prompt


def test_one_failing_form_keeps_the_singular_wording() -> None:
    prompt = repair("Intro " + BAD_SAGE)
    assert prompt.startswith("Your last reply contains a questionnaire block that fails")
    assert "keep the same registered name (sage-questionnaire)" in prompt


@pytest.mark.parametrize(
    "reply", ["Intro\n\n```questionnaire", "Intro\n\n```questionnaire\ntitle: T\nquestions: ["]
)
def test_a_problem_at_the_end_of_a_cut_off_form_is_that_forms(reply: str) -> None:
    # yaml.empty or a syntax error at the end of the text is an empty span at the end of
    # the block: the same one failing form, not a second (session 12's regression diff).
    prompt = repair(reply)
    assert prompt.startswith("Your last reply contains a questionnaire block that fails")
    zh = self_check([{"role": "assistant", "content": reply}], locale="zh").repair_prompt
    assert zh is not None and "多个问卷" not in zh


# ---------------------------------------------------------------- finding 2


def form(n: int = 3) -> Any:
    qs = [{"type": "single_choice", "text": "Q", "options": ["a"], "allow_other": True}] * n
    text = "Intro <questionnaire>" + json.dumps({"questions": qs}) + "</questionnaire>"
    return segment(text, message_id="m").segments[1].questionnaire


@pytest.mark.parametrize(
    "key",
    ["answer_separator", "question_fallback", "unselected", "unanswered", "list_separator",
     "other", "answer_title"],
)  # fmt: skip
def test_a_ui_text_argument_over_64_code_points_is_refused_everywhere(key: str) -> None:
    f = form()
    message = f"ui_text['{key}'] is 100000 code points long; a display text is at most 64"
    long = {key: "s" * 100_000}
    with pytest.raises(ValueError) as built:
        build_response(f, {}, questionnaire_id="m_q1", ui_text=long)
    assert str(built.value) == message
    with pytest.raises(ValueError) as from_text:
        build_response_json(f, "{}", questionnaire_id="m_q1", ui_text=long)
    assert str(from_text.value) == message
    with pytest.raises(ValueError) as resolved:
        resolve_ui_text(f, {key: " " * 65})  # blank or not
    assert str(resolved.value) == (
        f"ui_text['{key}'] is 65 code points long; a display text is at most 64"
    )
    response = segment(
        "<questionnaire-response>"
        + json.dumps({"type": "questionnaire_response", "questionnaire_id": "m_q1",
                      "status": "submitted", "answers": []})
        + "</questionnaire-response>",
        message_id="u",
    ).segments[0].response  # fmt: skip
    assert response is not None
    with pytest.raises(ValueError) as checked:
        check_answers(f, response, ui_text=long)
    assert str(checked.value) == message
    # Even when the response is refused whole (over max_questions): the argument first.
    with pytest.raises(ValueError):
        check_answers(f, response, ui_text=long, limits=Limits(max_questions=0))


def test_a_ui_text_argument_of_64_code_points_is_used() -> None:
    built = build_response(
        form(2), {}, questionnaire_id="m_q1", ui_text={"answer_separator": "s" * 64},
        locale="en",
    )  # fmt: skip
    sep = "s" * 64
    assert built.display_text == f"Questionnaire answers\nQ{sep}Not selected\nQ{sep}Not selected"


# ---------------------------------------------------------------- finding 6


FAILED = {"success": False, "validation_passed": False, "status": "error"}


@pytest.mark.parametrize(
    ("entry", "locale", "message"),
    [
        ({"code": "", "path": None, "message": "", "details": {}}, "en",
         "errors[1] has a blank code or message; an error entry must say what is wrong."),
        ({"code": "x.y", "path": None, "message": " \u200b", "details": {}}, "zh",
         "errors[1] 的 code 或 message 为空；错误条目必须说明出了什么问题。"),
        ({"code": "\u3000", "path": "p", "message": "m", "details": {}}, "en",
         "errors[1] has a blank code or message; an error entry must say what is wrong."),
    ],
)  # fmt: skip
def test_a_blank_tool_error_entry_is_no_real_error(
    entry: dict[str, Any], locale: str, message: str
) -> None:
    opened = questionnaire_from_tool_result({**FAILED, "errors": [entry]}, "c1", locale=locale)
    assert [e.to_json() for e in opened.errors] == [
        {"code": "tool_result.error_invalid", "path": "errors[1]", "message": message,
         "details": {"path": "errors[1]"}},
    ]  # fmt: skip


def test_blank_entries_past_the_cap_are_counted_as_invalid() -> None:
    good = {"code": "x.y", "path": None, "message": "m", "details": {}}
    blank = {"code": "x.y", "path": None, "message": "", "details": {}}
    result = {**FAILED, "errors": [good, good, blank, good]}
    opened = questionnaire_from_tool_result(
        result, "c1", locale="en", limits=Limits(max_diagnostics=2)
    )
    assert [e.code for e in opened.errors] == ["x.y", "limit.diagnostics"]
    assert opened.errors[1].details["left_out"] == [
        {"code": "x.y", "severity": "error", "count": 2},
        {"code": "tool_result.error_invalid", "severity": "error", "count": 1},
    ]


@pytest.mark.parametrize(
    ("content", "kind"),
    [(bytearray(b"x"), "bytearray"), (memoryview(b"x"), "memoryview"), (b"x", "bytes")],
)
def test_binary_content_is_named_by_its_type(content: object, kind: str) -> None:
    with pytest.raises(TypeError) as raised:
        self_check([{"role": "assistant", "content": content}])
    assert str(raised.value) == (
        "messages[0].content must be a string, a list of content parts or null, "
        f"not a Python {kind}"
    )


def test_a_non_string_key_in_tool_arguments_is_reported() -> None:
    result = questionnaire_async("T", [{"type": "text", "text": "Q", 5: "x"}], locale="en")
    assert result == {
        "success": False, "status": "error", "error_code": "INVALID_ARGUMENT",
        "validation_passed": False,
        "errors": [{
            "code": "json.key_not_string", "path": "questions[1]",
            "message": "questions[1] has the key 5, which is a number, not a string; JSON keys "
            "are strings",
            "details": {"path": "questions[1]", "key": "5", "actual": "number"},
        }],
    }  # fmt: skip
    zh = call_questionnaire_async({"questions": [{"type": "text", "text": "Q"}], None: 1})
    assert zh["errors"] == [
        {"code": "json.key_not_string", "path": None,
         "message": "问卷参数的键 None 是null，不是字符串；JSON 的键必须是字符串。",
         "details": {"path": None, "key": "None", "actual": "null"}},
    ]  # fmt: skip


def test_non_string_keys_past_the_cap_are_counted() -> None:
    questions = [{"type": "text", "text": "Q", i: "x"} for i in range(10)]
    result = questionnaire_async("T", questions, locale="en", limits=Limits(max_diagnostics=3))
    codes = [e["code"] for e in result["errors"]]
    assert codes == ["json.key_not_string", "json.key_not_string", "limit.diagnostics"]
    assert result["errors"][2]["details"]["left_out"] == [
        {"code": "json.key_not_string", "severity": "error", "count": 8}
    ]


def test_the_json_reader_builds_no_finding_past_its_cap() -> None:
    text = "{" + ",".join(f'"a":{i}' for i in range(1000)) + ',"x":[NaN,1e999]}'
    read = read_json_value(text, max_findings=5)
    assert [f.code for f in read.findings] == ["json.duplicate_key"] * 5
    assert read.overflow is not None
    assert [c.to_json() for c in read.overflow.counts] == [
        {"code": "json.duplicate_key", "severity": "error", "count": 994},
        {"code": "json.constant", "severity": "error", "count": 1},
        {"code": "json.number_too_large", "severity": "error", "count": 1},
    ]
    assert (read.overflow.first.start, read.overflow.before) == (text.index('"a":6'), 5)
    assert read.refused == frozenset({("x", 0), ("x", 1)})
    uncapped = read_json_value(text)
    assert len(uncapped.findings) == 1001 and uncapped.findings[:5] == read.findings


def test_many_duplicate_keys_give_the_capped_result_in_linear_time() -> None:
    n = 100_000
    text = (
        '{"title":"T",'
        + ",".join(f'"a":{i}' for i in range(n))
        + (',"questions":[{"type":"text","text":"Q"}]}')
    )
    started = time.perf_counter()
    result = questionnaire_async_json(text, locale="en", limits=Limits(max_payload=10**7))
    assert time.perf_counter() - started < 3.0
    errors = result["errors"]
    assert len(errors) == 200
    assert errors[-1]["details"]["left_out"] == [
        {"code": "json.duplicate_key", "severity": "error", "count": n - 1 - 199}
    ]
    answers = "{" + ",".join('"q1":"a"' for _ in range(n)) + "}"
    with pytest.raises(AnswersError) as raised:
        build_response_json(form(1), answers, questionnaire_id="m_q1")
    assert len(raised.value.findings) == 200
    assert raised.value.findings[-1].details["left_out"] == [
        {"code": "json.duplicate_key", "severity": "error", "count": n - 1 - 199}
    ]
