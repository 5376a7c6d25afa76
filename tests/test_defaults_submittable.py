"""Every valid form can be submitted with its own defaults (§4, §5, §7).

A client opens a form with ``initial_answers(form)`` and may submit it unchanged: for a
form from any of the three sources (a fenced YAML block, an XML+JSON block, a
``questionnaire_async`` result), ``build_response`` then never raises, and the response
it builds reads back and fits the form. Drawn forms repeat option values and default
items (also equal only after trimming), use the "other" value as an option text, and
blank-padded texts, and surrogates.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import (
    Questionnaire,
    build_response,
    check_answers,
    initial_answers,
    questionnaire_async,
    segment,
)
from replykit.questionnaire.conversation.responses import OTHER_VALUE
from replykit.questionnaire.conversation.tool import questionnaire_from_tool_result
from replykit.testing.strategies import yaml_quote

# "x\ud800\udc00" holds two surrogates: no source may make a form of it that the
# response's JSON would read back as U+10000 (§1).
_TEXTS = [
    "a",
    "b",
    " a ",
    "a\u3000",
    "继续",
    "x y",
    OTHER_VALUE,
    f" {OTHER_VALUE}",
    "x\ud800\udc00",
]


@st.composite
def form_specs(draw: st.DrawFn) -> dict[str, Any]:
    """A form in the lenient shape whose choice values come from a small pool, so that
    options and default items repeat (with replacement, padded or not)."""
    questions = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["single_choice", "multi_choice", "free_text"]))
        q: dict[str, Any] = {"type": kind, "text": draw(st.sampled_from(_TEXTS))}
        if kind == "free_text":
            q["default"] = draw(st.sampled_from(["", *_TEXTS]))
        else:
            options = draw(st.lists(st.sampled_from(_TEXTS), min_size=1, max_size=3))
            q["options"] = options
            if kind == "single_choice":
                q["default"] = draw(st.sampled_from(["", *options]))
            else:
                q["default"] = draw(st.lists(st.sampled_from(options), max_size=4))
            q["allow_other"] = draw(st.booleans())
        questions.append(q)
    return {"title": draw(st.sampled_from(["T", " T "])), "questions": questions}


def _fenced(spec: dict[str, Any]) -> Questionnaire | None:
    lines = [f"title: {yaml_quote(spec['title'])}", "questions:"]
    for q in spec["questions"]:
        lines += [f"  - type: {q['type']}", f"    text: {yaml_quote(q['text'])}"]
        if "options" in q:
            lines.append("    options: [" + ", ".join(map(yaml_quote, q["options"])) + "]")
            lines.append(f"    allow_other: {str(q['allow_other']).lower()}")
        default = q["default"]
        shown = (
            "[" + ", ".join(map(yaml_quote, default)) + "]"
            if isinstance(default, list)
            else yaml_quote(default)
        )
        lines.append(f"    default: {shown}")
    text = "Intro\n\n```questionnaire\n" + "\n".join(lines) + "\n```\n"
    (block,) = [s for s in segment(text).segments if s.kind == "questionnaire"]
    return block.questionnaire


def _xml(spec: dict[str, Any]) -> Questionnaire | None:
    text = f"Intro <questionnaire>{json.dumps(spec, ensure_ascii=False)}</questionnaire>"
    (block,) = [s for s in segment(text).segments if s.kind == "questionnaire"]
    return block.questionnaire


def _tool(spec: dict[str, Any]) -> Questionnaire | None:
    result = questionnaire_async(spec["title"], spec["questions"])
    return questionnaire_from_tool_result(result, "call_1").questionnaire


@settings(max_examples=300, deadline=None)
@given(form_specs(), st.sampled_from([_fenced, _xml, _tool]))
def test_every_valid_form_is_submittable_with_its_defaults(
    spec: dict[str, Any], source: Any
) -> None:
    form = source(spec)
    if form is None:
        return  # invalid forms open nothing
    built = build_response(form, initial_answers(form), questionnaire_id="m_q1")
    (block,) = [s for s in segment(built.agent_text).segments if s.kind != "markdown"]
    assert block.valid and block.response is not None
    assert check_answers(form, block.response, questionnaire_id="m_q1") == ()


# --- the rule, source by source ----------------------------------------------------------

FENCED = (
    "Intro\n\n```questionnaire\ntitle: T\nquestions:\n  - type: multi_choice\n    text: Q\n"
    "    options: [a, b]\n    default: [a, b, a]\n```\n"
)
XML = (
    'Intro <questionnaire>{"questions":[{"type":"multi_choice","text":"Q",'
    '"options":["a","b"],"default":["a"," a "]}]}</questionnaire>'
)


def test_a_repeated_default_item_is_kept_once_with_a_warning() -> None:
    for text, code, path, default in [
        (FENCED, "question.duplicate_default", "questions[1].default[3]", ("a", "b")),
        (XML, "questionnaire.start.default_duplicate_item", "questions[1].default[2]", ("a",)),
    ]:
        result = segment(text)
        block = result.segments[1]
        assert block.valid and block.questionnaire is not None
        assert [(d.code, d.severity, d.path) for d in result.diagnostics] == [
            (code, "warning", path)
        ]
        assert block.questionnaire.questions[0].default == default
        built = build_response(block.questionnaire, {}, questionnaire_id="m_q1", locale="en")
        assert built.display_text.endswith("Q: " + ", ".join(default))
    (xml_warning,) = segment(XML).diagnostics
    assert (
        xml_warning.message
        == 'questions[1].default[2] repeats the default item "a"; it is selected once.'
    )
    assert XML[xml_warning.start : xml_warning.end] == '" a "'


def test_the_tool_keeps_a_repeated_default_item_once_silently() -> None:
    question = {
        "type": "multi_choice",
        "text": "Q",
        "options": ["a", "b"],
        "default": ["b", " b", "a"],
    }
    result = questionnaire_async("T", [question], locale="en")
    assert result["success"] is True
    assert result["questions"][0]["default"] == ["b", "a"]
    assert "errors" not in result and "warnings" not in result


def test_respond_with_no_answers_submits_the_defaults(tmp_path: Any) -> None:
    from replykit.cli import main

    message, answers = tmp_path / "m.md", tmp_path / "a.json"
    message.write_text(FENCED, encoding="utf-8")
    answers.write_text("{}", encoding="utf-8")
    assert (
        main(["respond", "--message", str(message), "--message-id", "m", "--answers", str(answers)])
        == 0
    )


def test_the_other_value_is_no_option() -> None:
    # An answer with this value means "other", so such an option could never be chosen.
    fenced = FENCED.replace("[a, b]", f"[a, {OTHER_VALUE}]").replace("[a, b, a]", "[a]")
    assert [(d.code, d.path) for d in segment(fenced).diagnostics] == [
        ("question.option_invalid", "questions[1].options[2]")
    ]
    xml = XML.replace('"options":["a","b"]', f'"options":["a"," {OTHER_VALUE} "]')
    (d,) = segment(xml.replace('"a"," a "]', '"a"]')).diagnostics
    assert (d.code, d.path) == (
        "questionnaire.start.question_option_invalid",
        "questions[1].options[2]",
    )
    assert d.message == (
        f"questions[1].options[2] \"{OTHER_VALUE}\" is the value of the 'other' choice; use "
        "another option value."
    )
    question = {"type": "single_choice", "text": "Q", "options": [{"value": OTHER_VALUE}]}
    (error,) = questionnaire_async("T", [question])["errors"]
    assert (error["code"], error["path"]) == (
        "questionnaire.start.question_option_invalid",
        "questions[1].options[1]",
    )
    assert (
        error["message"]
        == f'questions[1].options[1] 的值 "{OTHER_VALUE}" 是“其他”选项的保留值；请换一个选项值。'
    )


def test_the_sage_filter_keeps_payload_paths_of_later_warnings() -> None:
    # The first question is dropped; the second's warning still names and covers the
    # second question of the payload.
    text = XML.replace('{"questions":[', '{"questions":[{"type":"bogus","text":"x"},')
    result = segment(text, compat="sage")
    assert result.segments[1].valid
    assert [(d.code, d.path, text[d.start : d.end]) for d in result.diagnostics] == [
        ("compat.question_dropped", "questions[1]", '{"type":"bogus","text":"x"}'),
        ("questionnaire.start.default_duplicate_item", "questions[2].default[2]", '" a "'),
    ]
    assert result.diagnostics[1].message.startswith("questions[2].default[2] repeats")
