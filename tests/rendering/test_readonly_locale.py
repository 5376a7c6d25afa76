"""Read-only cards, the card labels' locale and the card of a ``questionnaire_async``
form (docs/html.md sections 1 and 3; §7, §11)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from replykit import call_questionnaire_async, questionnaire_async, questionnaire_from_tool_result
from replykit.markdown_it import (
    questionnaire_plugin,
    render_html,
    render_segments,
    tool_form_html,
)
from replykit.questionnaire.model import Questionnaire
from replykit.strategies import messages
from replykit.testing.strategies import tool_arguments

from .checker import read_html
from forms import valid_forms, xml_json

FORM = (
    "Intro\n\n```questionnaire\ntitle: T\nquestions:\n"
    "  - type: single_choice\n    text: Pick\n    options: [a, b]\n"
    "    allow_other: true\n    default: a\n"
    "  - type: free_text\n    text: Why?\n    default: ''\n```\n"
)
RESPONSE = (
    '<questionnaire-response>{"type":"questionnaire_response","questionnaire_id":"m",'
    '"status":"submitted","answers":[{"question_id":"q1","type":"multi_choice",'
    '"answer":["a","b"],"labels":["A","B"]},'
    '{"question_id":"q2","type":"free_text","answer":""}]}</questionnaire-response>'
)
LOCKS = re.compile(r' data-replykit-readonly=""| disabled(?=[ >])')


def _unlocked(html: str) -> str:
    return LOCKS.sub("", html)


def test_a_read_only_form_is_locked_whole() -> None:
    out = render_html(FORM, message_id="m", readonly=True)
    assert '<form class="replykit-form" data-replykit-block="m_q1" ' in out
    assert 'data-replykit-name="questionnaire" data-replykit-readonly="">' in out
    assert out.count("<fieldset ") == out.count(" disabled><legend") == 2
    assert '<button type="submit" disabled>提交</button></form>' in out
    assert '<button type="submit">' not in out
    read_html(out)  # well-formed


def test_labels_follow_the_locale() -> None:
    en = render_html(FORM + "\n" + RESPONSE, message_id="m", locale="en")
    assert '<button type="submit">Submit</button>' in en
    assert 'dir="auto">Other</label>' in en and 'aria-label="Other"' in en
    assert "<h3>Questionnaire answers</h3>" in en
    assert '<dd dir="auto">A, B</dd>' in en and '<dd dir="auto">Not answered</dd>' in en
    zh = render_html(FORM + "\n" + RESPONSE, message_id="m")
    assert zh == render_html(FORM + "\n" + RESPONSE, message_id="m", locale="zh")
    assert '<button type="submit">提交</button>' in zh and "<h3>问卷回答</h3>" in zh
    assert '<dd dir="auto">A、B</dd>' in zh and '<dd dir="auto">未填写</dd>' in zh


def test_ui_text_still_wins_over_the_locale() -> None:
    text = (
        "Intro <questionnaire>"
        + json.dumps(
            {
                "title": "T",
                "ui_text": {"other": "Something else"},
                "questions": [
                    {"type": "single_choice", "text": "x", "options": ["a"], "allow_other": True}
                ],
            }
        )
        + "</questionnaire>"
    )
    assert 'dir="auto">Something else</label>' in render_html(text, locale="en")


@pytest.mark.parametrize(
    ("argument", "value", "error"),
    [("readonly", 1, TypeError), ("locale", None, TypeError), ("locale", "fr", ValueError)],
)
def test_the_new_arguments_are_checked(argument: str, value: Any, error: type) -> None:
    with pytest.raises(error, match=argument):
        render_html("x", **{argument: value})
    with pytest.raises(error, match=argument):
        render_segments("x", **{argument: value})
    with pytest.raises(error, match=argument):
        MarkdownIt().use(questionnaire_plugin, **{argument: value})


def test_the_plugin_takes_the_same_switches() -> None:
    md = MarkdownIt("commonmark", {"html": False}).use(
        questionnaire_plugin, message_id="m", readonly=True, locale="en"
    )
    assert md.render(FORM) == render_html(FORM, message_id="m", readonly=True, locale="en")


@settings(max_examples=150, deadline=None)
@given(messages(), st.sampled_from(["zh", "en"]))
def test_read_only_changes_nothing_but_the_locks(text: str, locale: str) -> None:
    live = render_segments(text, message_id="m", locale=locale)
    locked = render_segments(text, message_id="m", locale=locale, readonly=True)
    assert locked.segmentation == live.segmentation
    assert _unlocked(locked.html) == live.html
    assert locked.html.count("<form ") == locked.html.count("data-replykit-readonly")
    assert re.search(r'<button type="submit">', locked.html) is None


@settings(max_examples=150, deadline=None)
@given(messages())
def test_the_locale_changes_nothing_but_the_labels(text: str) -> None:
    zh = render_segments(text, message_id="m")
    en = render_segments(text, message_id="m", locale="en")
    assert en.segmentation == zh.segmentation
    assert en.html.count("<form ") == zh.html.count("<form ")
    assert en.html.count("<fieldset ") == zh.html.count("<fieldset ")


# --- the card of a questionnaire_async form ---------------------------------------------------


def _xml_card(form: Questionnaire, locale: str, readonly: bool) -> str:
    out = render_html("Intro " + xml_json(form), message_id="m", locale=locale, readonly=readonly)
    (card,) = re.findall(r"<form .*?</form>", out, re.DOTALL)
    return card.replace(
        'data-replykit-name="questionnaire"', 'data-replykit-name="questionnaire_async"'
    )


@settings(max_examples=100, deadline=None)
@given(valid_forms(), st.sampled_from(["zh", "en"]), st.booleans())
def test_a_tool_form_is_the_same_card_as_the_same_form_in_a_message(
    form: Questionnaire, locale: str, readonly: bool
) -> None:
    result = questionnaire_async(form.title, form.to_json()["questions"])
    opened = questionnaire_from_tool_result(result, "m_q1")
    assert opened.questionnaire is not None
    card = tool_form_html(opened, locale=locale, readonly=readonly)
    assert card == _xml_card(opened.questionnaire, locale, readonly)


def test_a_tool_form_card_seed_example() -> None:
    result = questionnaire_async(
        "继续执行",
        [
            {
                "id": "action",
                "type": "single_choice",
                "text": "是否继续当前任务？",
                "options": [{"value": "continue", "label": "继续"}],
                "default": "continue",
            }
        ],
    )
    card = tool_form_html(questionnaire_from_tool_result(result, "call_1"))
    assert card == (
        '<form class="replykit-form" data-replykit-block="call_1" '
        'data-replykit-name="questionnaire_async">\n'
        '<h3 dir="auto">继续执行</h3>\n'
        '<fieldset data-question-id="action" data-question-type="single_choice">'
        '<legend dir="auto">是否继续当前任务？</legend>\n'
        '<div class="replykit-option"><input type="radio" name="call_1:action" '
        'value="continue" id="call_1:action:0" data-question-id="action" checked>'
        '<label for="call_1:action:0" dir="auto">继续</label></div>\n'
        "</fieldset>\n"
        '<button type="submit">提交</button></form>'
    )


def test_a_failed_tool_form_shows_its_errors_escaped() -> None:
    failed = questionnaire_from_tool_result(
        {
            "success": False,
            "errors": [{"code": "c<", "path": "questions[1]", "message": "<b>", "details": {}}],
        },
        "call_<1>",
    )
    assert tool_form_html(failed, locale="en") == (
        '<div class="replykit-invalid" data-replykit-block="call_&lt;1&gt;" '
        'data-replykit-name="questionnaire_async"><ul class="replykit-diagnostics">'
        '<li data-code="c&lt;" data-severity="error">c&lt;: <bdi>&lt;b&gt;</bdi> '
        "(at <bdi>questions[1]</bdi>)</li></ul></div>"
    )


@given(tool_arguments())
def test_every_tool_result_renders_one_card(arguments: Any) -> None:
    result = call_questionnaire_async(arguments, locale="en")
    form = questionnaire_from_tool_result(result, "call_1")
    card = tool_form_html(form, locale="en")
    read_html(card)
    assert card.count("<form ") == (1 if form.opened else 0)
    assert card.count('class="replykit-invalid"') == (0 if form.opened else 1)


def test_tool_form_html_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match="form"):
        tool_form_html({"id": "x"})  # type: ignore[arg-type]
    opened = questionnaire_from_tool_result(
        questionnaire_async("T", [{"type": "free_text", "text": "x"}]), "c"
    )
    with pytest.raises(ValueError, match="locale"):
        tool_form_html(opened, locale="de")


def test_the_too_large_notes_are_in_the_locale() -> None:
    # docs/html.md section 8: the summaries are cards too, their note in the locale.
    questions = [
        {
            "id": f"q{j}",
            "type": "single_choice",
            "text": "Q",
            "options": [str(i) for i in range(1000)],
        }
        for j in range(30)
    ]
    form = "<questionnaire>" + json.dumps({"questions": questions}) + "</questionnaire>"
    page = "[a]: /" + "x" * 1000 + "\n\n" + "[a]" * 30_000
    for locale, block, whole in (
        ("en", "This block's form is over", "This message's page is over"),
        ("zh", "此块的表单超出页面的输出上限", "此消息的页面超出输出上限"),
    ):
        assert html.escape(block, quote=True) in render_html(
            form, message_id="m" * 128, locale=locale
        )
        assert html.escape(whole, quote=True) in render_html(page, locale=locale)
