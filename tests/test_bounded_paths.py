"""Bounded output (§1.5, §2.1, §8.2) off the message path: ``questionnaire_async``, responses,
answer actions and the Self-check repair instruction."""

from __future__ import annotations

import json
from typing import Any

import pytest

from replykit import segment, self_check
from replykit.actions import lint, sanitize
from replykit.questionnaire.conversation.responses import (
    AnswersError,
    build_response,
    check_answers,
)
from replykit.questionnaire.conversation.selfcheck import MAX_REPAIR_PROBLEMS
from replykit.questionnaire.conversation.tool import (
    call_questionnaire_async,
    questionnaire_async,
    questionnaire_from_tool_result,
)
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits
from replykit.questionnaire.model import Answer, Option, Question, Questionnaire, Response

# --- questionnaire_async -----------------------------------------------------------------


def codes(result: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(e["code"], e["path"]) for e in result["errors"]]


def test_tool_questions_over_the_limit_are_one_error() -> None:
    result = call_questionnaire_async({"questions": list(range(3001))}, locale="en")
    assert codes(result) == [("limit.questions", "questions")]
    assert result["errors"][0]["details"] == {"path": "questions", "limit": 1000, "actual": 3001}


def test_tool_refuses_what_the_same_form_as_a_block_refuses() -> None:
    questions = [
        {"type": "single_choice", "text": f"Q{i}", "options": [f"o{j}" for j in range(1001)]}
        for i in range(2)
    ]
    result = questionnaire_async("T", questions, locale="en")
    assert codes(result) == [("limit.options", "questions[1].options")]
    block = "Hi <questionnaire>" + json.dumps({"questions": questions}) + "</questionnaire>"
    assert [d.code for d in segment(block).diagnostics] == ["limit.options"]


def test_tool_payload_size_is_the_arguments_as_json_text() -> None:
    args = {"questions": [{"type": "text", "text": "x" * 80}]}
    size = len(json.dumps(args, separators=(",", ":")))
    assert call_questionnaire_async(args, limits=Limits(max_payload=size))["success"]
    result = call_questionnaire_async(args, locale="en", limits=Limits(max_payload=size - 1))
    assert codes(result) == [("limit.payload_size", None)]
    assert result["errors"][0]["details"] == {"path": None, "limit": size - 1}


def test_tool_depth_and_cycles_end_in_one_error() -> None:
    deep: Any = "x"
    for _ in range(70):
        deep = [deep]
    args = {"questions": [{"type": "single_choice", "text": "Q", "options": [deep]}]}
    assert codes(call_questionnaire_async(args)) == [("json.too_deep", None)]
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    result = call_questionnaire_async({"questions": cyclic}, locale="zh")
    assert codes(result) == [("json.too_deep", None)]
    assert result["errors"][0]["message"] == "参数的嵌套层级超过 64 层。"
    wide: list[Any] = []
    wide.extend([wide] * 10)
    limits = Limits(max_depth=500, max_payload=1000)
    assert codes(call_questionnaire_async({"questions": wide}, limits=limits)) == [
        ("limit.payload_size", None)
    ]


def test_tool_errors_are_capped_with_a_summary() -> None:
    questions = [
        {"type": "multi_choice", "text": f"Q{i}", "options": list(range(900))} for i in range(3)
    ]
    result = call_questionnaire_async({"questions": questions}, locale="en")
    errors = result["errors"]
    assert len(errors) == 200
    summary = errors[-1]
    assert summary["code"] == "limit.diagnostics" and summary["path"] is None
    assert summary["details"] == {
        "path": None,
        "limit": 200,
        "left_out": [
            {
                "code": "questionnaire.start.question_option_invalid",
                "severity": "error",
                "count": 2501,
            }
        ],
    }
    assert "2501 more diagnostics are left out (the limit is 200)" in summary["message"]
    zh = call_questionnaire_async({"questions": questions}, locale="zh")["errors"][-1]
    assert zh["message"].startswith("另有 2501 条诊断未列出（上限 200 条）")
    small = call_questionnaire_async(
        {"questions": questions}, limits=Limits(max_diagnostics=5), locale="en"
    )
    assert len(small["errors"]) == 5 and small["errors"][-1]["code"] == "limit.diagnostics"


def test_tool_limits_are_typed() -> None:
    with pytest.raises(TypeError, match="Limits"):
        call_questionnaire_async({}, limits={"max_payload": 1})  # type: ignore[arg-type]


def test_tool_result_errors_are_capped_and_bounded() -> None:
    entry = {"code": "c", "path": None, "message": "m", "details": {}}
    form = questionnaire_from_tool_result({"success": False, "errors": [entry] * 1000}, "t")
    assert len(form.errors) == 200
    assert form.errors[-1].code == "limit.diagnostics"
    assert form.errors[-1].details["left_out"] == [{"code": "c", "severity": "error", "count": 801}]
    deep: Any = {}
    for _ in range(5000):
        deep = {"a": deep}
    bad = {"code": "c", "path": None, "message": "m", "details": deep}
    form = questionnaire_from_tool_result({"success": False, "errors": [bad]}, "t")
    assert [e.code for e in form.errors] == ["tool_result.error_invalid"]


# --- Responses ------------------------------------------------------------------------------

LABEL = "L" * 10_000
FORM = Questionnaire(
    "T",
    (
        Question("q1", "multi_choice", "Pick", (Option("a", LABEL), Option("b", "B")), ()),
        Question("q2", "single_choice", "One", (Option("x", "X"),), ""),
    ),
)


def findings_of(answers: dict[str, Any], limits: Limits = DEFAULT_LIMITS) -> list[Any]:
    with pytest.raises(AnswersError) as caught:
        build_response(FORM, answers, questionnaire_id="m_q1", limits=limits)
    return list(caught.value.findings)


def test_a_repeated_multi_choice_value_is_answer_duplicate_value() -> None:
    found = findings_of({"q1": ["a", "b", "a", "a"]})
    assert [(f.code, f.details["path"]) for f in found] == [
        ("answer.duplicate_value", "q1[3]"),
        ("answer.duplicate_value", "q1[4]"),
    ]
    assert found[0].details["value"] == "a"


def test_repeats_cannot_multiply_the_output() -> None:
    found = findings_of({"q1": ["a"] * 1000})
    assert len(found) == 200 and found[-1].code == "limit.diagnostics"
    assert found[-1].details["left_out"] == [
        {"code": "answer.duplicate_value", "severity": "error", "count": 800}
    ]
    assert sum(len(f.message) for f in found) < 40_000  # no label repeated


def test_allowed_is_given_once_per_question() -> None:
    found = findings_of({"q1": ["u", "v", "w"], "q2": "z", "q9": "a", "q8": "b"})
    allowed = [(f.code, f.details.get("allowed")) for f in found]
    assert allowed == [
        ("answer.value_not_in_options", ["a", "b"]),
        ("answer.value_not_in_options", None),
        ("answer.value_not_in_options", None),
        ("answer.value_not_in_options", ["x"]),
        ("answer.unknown_question", ["q1", "q2"]),
        ("answer.unknown_question", None),
    ]


def test_answer_lists_and_mappings_over_the_limits() -> None:
    small = Limits(max_options=3, max_questions=2)
    # Three options and "other": four values are one answer; five are over the limit.
    assert [f.code for f in findings_of({"q1": ["a", "b", "c", "d", "e"]}, small)] == [
        "limit.options"
    ]
    assert "limit.options" not in [f.code for f in findings_of({"q1": ["a", "b", "c", "d"]}, small)]
    assert [f.code for f in findings_of({"q1": [], "q2": "", "q3": ""}, small)] == [
        "limit.questions"
    ]


def test_check_answers_reports_duplicates_and_is_capped() -> None:
    values = ("a",) * 500
    answer = Answer("q1", "multi_choice", values, values=values)
    response = Response("questionnaire_response", "m", "submitted", (answer,))
    found = check_answers(FORM, response)
    assert found[0].code == "answer.duplicate_value"
    assert found[0].details["path"] == "answers[1].values[2]"
    assert len(found) == 200 and found[-1].code == "limit.diagnostics"
    counts = found[-1].details["left_out"]
    assert sum(c["count"] for c in counts) == 499 + 1 - 199  # 499 repeats, q2 missing
    long = Answer("q1", "multi_choice", ("a", "b", "c"), values=("a", "b", "c"))
    response = Response("questionnaire_response", "m", "submitted", (long,))
    assert [f.code for f in check_answers(FORM, response, limits=Limits(max_options=1))] == [
        "limit.options",
        "answer.missing",
    ]


def test_a_long_ui_text_value_is_dropped_with_a_warning() -> None:
    form = {
        "ui_text": {"other": "O" * 65, "answer_title": "A" * 64},
        "questions": [
            {"type": "single_choice", "text": "Q", "options": ["a"], "allow_other": True}
        ],
    }
    result = segment("Hi <questionnaire>" + json.dumps(form) + "</questionnaire>")
    assert [(d.code, d.path, d.severity) for d in result.diagnostics] == [
        ("questionnaire.start.ui_text_invalid", "ui_text.other", "warning")
    ]
    assert "longer than 64 characters" in result.diagnostics[0].message
    q = result.segments[1].questionnaire
    assert q is not None and dict(q.ui_text) == {"answer_title": "A" * 64}
    built = build_response(q, {"q1": {"value": "__questionnaire_other__"}}, questionnaire_id="i")
    assert built.answers[0].label == "其他"


# --- Answer actions --------------------------------------------------------------------------


def test_action_diagnostics_are_capped_per_answer() -> None:
    action: dict[str, Any] = {"id": "a", "type": "view.detail", "label": "Open"}
    action.update({f"f{i}": 0 for i in range(20_000)})
    result = sanitize({"actions": [action]})
    assert len(result.actions) == 1
    assert len(result.diagnostics) == 200
    summary = result.diagnostics[-1]
    assert summary.code == "limit.diagnostics" and summary.path is None
    assert summary.to_json()["left_out"] == [{"code": "action.field_removed", "count": 19_801}]
    assert "19801 more diagnostics are left out" in summary.message
    assert "left_out" not in result.diagnostics[0].to_json()
    small = sanitize({"actions": [action]}, limits=Limits(max_diagnostics=3))
    assert [d.code for d in small.diagnostics] == ["action.field_removed"] * 2 + [
        "limit.diagnostics"
    ]


def test_the_action_cap_never_hides_a_drop_behind_field_removals() -> None:
    noisy: dict[str, Any] = {"id": "a", "type": "view.detail", "label": "Open"}
    noisy.update({f"k{i}": 1 for i in range(300)})
    later = [{"id": "b", "type": "nope", "label": "L"}, {"id": "c", "type": "view.detail",
             "label": ""}, {"id": "d", "type": "view.detail", "label": "L", "x": 1}]  # fmt: skip
    result = sanitize({"actions": [noisy, *later]})
    found = [(d.code, d.path) for d in result.diagnostics]
    assert len(found) == 200
    # The two drops are kept, in order, after the removals that fit and the summary.
    assert found[-3:] == [
        ("limit.diagnostics", None),
        ("action.type_unknown", "actions[2].type"),
        ("action.label_invalid", "actions[3].label"),
    ]
    assert found[:197] == [("action.field_removed", f"actions[1].k{i}") for i in range(197)]
    assert result.diagnostics[-3].to_json()["left_out"] == [
        {"code": "action.field_removed", "count": 104}
    ]
    # Verdicts beyond the cap alone: the first ones are kept, the rest counted.
    many = sanitize(
        {"actions": [{"id": f"a{i}", "type": "nope", "label": "L"} for i in range(300)]}
    )
    assert [d.code for d in many.diagnostics] == ["action.type_unknown"] * 199 + [
        "limit.diagnostics"
    ]


def test_lint_is_capped_per_answer() -> None:
    actions = [{"id": f"a{i}", "type": "view.detail", "label": "x", "url": "u"} for i in range(300)]
    warnings = lint({"answerData": {"datasets": {}, "actions": actions}})
    assert len(warnings) == 200 and warnings[-1].code == "limit.diagnostics"


# --- The repair instruction --------------------------------------------------------------


def repair(content: str, locale: str = "en") -> str:
    result = self_check([{"role": "assistant", "content": content}], locale=locale)
    assert not result.passed and result.repair_prompt is not None
    return result.repair_prompt


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_a_repeated_problem_is_listed_once_and_the_length_does_not_grow(locale: str) -> None:
    short = repair("Hi " + "<questionnaire> " * 100, locale)
    long = repair("Hi " + "<questionnaire> " * 20_001, locale)
    assert long.count("near_miss.unclosed_tag") == 1
    assert ("另有 20000 处相同" if locale == "zh" else "and 20000 more like it") in long
    assert len(long) - len(short) <= 3  # only the count's digits


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_at_most_20_problems_are_listed_and_the_rest_counted(locale: str) -> None:
    distinct = "".join(f"<q{i}-questionnaire>{{}}</q{i}-questionnaire>\n" for i in range(30))
    prompt = repair("Hi\n" + distinct, locale)
    listed = [line for line in prompt.splitlines() if line.startswith("- ")]
    assert len(listed) == MAX_REPAIR_PROBLEMS + 1
    more = "- 另有 10 个问题未列出。" if locale == "zh" else "- 10 more problems not listed."
    assert listed[-1] == more


def test_problems_left_out_by_the_cap_are_counted() -> None:
    # 500 errors: 199 kept (the summary takes the 200th slot), 301 left out by the cap.
    body = "title: T\nquestions:\n" + "  - 5\n" * 500
    prompt = repair("Intro\n\n```questionnaire\n" + body + "```\n")
    listed = [line for line in prompt.splitlines() if line.startswith("- ")]
    assert len(listed) == 21 and "questions[20] must be a mapping" in listed[19]
    assert listed[-1] == "- 480 more problems not listed."


def test_a_long_problem_is_cut() -> None:
    name = "a" * 5000
    prompt = repair(f"Hi <{name}-questionnaire>{{}}</{name}-questionnaire>")
    listed = [line for line in prompt.splitlines() if line.startswith("- ")]
    assert [len(line) for line in listed] == [300]
    assert listed[0].endswith("a…")


@pytest.mark.parametrize(
    ("locale", "suffix"), [("en", " (and 2 more like it)"), ("zh", "（另有 2 处相同）")]
)
def test_a_whole_problem_line_with_its_repeat_count_is_at_most_300(
    locale: str, suffix: str
) -> None:
    # docs/protocol-responses.md section 3: the '- ', the problem and the count together.
    fence = "```" + "A" * 500 + "-questionnaire\n```\n\n"
    listed = [
        line
        for line in repair("Intro\n\n" + fence * 3, locale).splitlines()
        if line.startswith("- ")
    ]
    assert [len(line) for line in listed] == [300]
    assert listed[0].endswith("…" + suffix)


def test_build_response_refuses_a_response_the_reader_would_refuse() -> None:
    # A form under max_payload whose every long option is chosen by default: the
    # response writes each value three times; the writer is bounded as the reader is.
    from replykit import AnswersError, build_response, initial_answers, segment

    limits = Limits(max_payload=300)
    form = "```questionnaire\ntitle: T\nquestions:\n  - type: multi_choice\n    text: Q\n"
    form += "    options: [aaaaaaaaaa, bbbbbbbbbb, cccccccccc, dddddddddd]\n"
    form += "    default: [aaaaaaaaaa, bbbbbbbbbb, cccccccccc, dddddddddd]\n```\n"
    block = segment("Pick:\n\n" + form, limits=limits).segments[1]
    assert block.valid and block.questionnaire is not None
    with pytest.raises(AnswersError) as refused:
        build_response(
            block.questionnaire, initial_answers(block.questionnaire),
            questionnaire_id=block.id or "", limits=limits,
        )  # fmt: skip
    assert [f.code for f in refused.value.findings] == ["limit.payload_size"]
    built = build_response(
        block.questionnaire, {"q1": ["aaaaaaaaaa"]}, questionnaire_id=block.id or "",
        limits=limits,
    )  # fmt: skip
    assert segment(built.agent_text, limits=limits).segments[0].valid


def test_a_cap_of_one_keeps_the_first_error_and_the_summary() -> None:
    # §1: the cap never hides a verdict, also at its smallest: the tool, the tool's
    # JSON text, a failed tool result and answer actions keep their first entry.
    from replykit import (
        call_questionnaire_async,
        questionnaire_async_json,
        questionnaire_from_tool_result,
    )

    one = Limits(max_diagnostics=1)
    args = {"questions": [{"type": "single_choice", "text": "a", "options": ["a", "a", "a"]}] * 3}
    codes = [e["code"] for e in call_questionnaire_async(args, limits=one)["errors"]]
    assert codes == ["questionnaire.start.question_option_invalid", "limit.diagnostics"]
    text = '{"a":1,"a":1,"a":1,"questions":[]}'
    codes = [e["code"] for e in questionnaire_async_json(text, limits=one)["errors"]]
    assert codes == ["json.duplicate_key", "limit.diagnostics"]
    entry = {"code": "questionnaire.start.questions_empty", "path": "questions", "message": "m",
             "details": {}}  # fmt: skip
    failed = {"success": False, "errors": [entry, entry]}
    codes = [e.code for e in questionnaire_from_tool_result(failed, "c", limits=one).errors]
    assert codes == ["questionnaire.start.questions_empty", "limit.diagnostics"]
    actions = sanitize({"actions": [{"id": "a", "type": "nope", "label": "L"}] * 3}, limits=one)
    assert [d.code for d in actions.diagnostics] == ["action.type_unknown", "limit.diagnostics"]
