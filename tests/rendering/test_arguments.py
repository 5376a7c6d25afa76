"""What render_html, render_segments, actions_html and web_link take (docs/html.md
section 1): every argument checked at the entry, whether or not it is used, with a
TypeError naming it; message ids HTML cannot carry refused; URLs read as browsers
read them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from replykit import questionnaire_async, questionnaire_from_tool_result
from replykit.actions import ActionContext
from replykit.markdown_it import (
    actions_html,
    render_html,
    render_segments,
    tool_form_html,
    web_link,
)
from replykit.serve import api
from replykit.serve.api import RequestError

EXAMPLE = (Path(__file__).parents[2] / "examples" / "task_paused.md").read_text("utf-8")
PAY = {"id": "go", "type": "business.execute", "label": "Go", "params": {"prompt": "p"}}
MORE = {"id": "more", "type": "conversation.continue", "label": "More"}


@pytest.mark.parametrize("render", [render_html, render_segments])
@pytest.mark.parametrize("actions", ["abc", {"actions": [PAY]}, {1}, PAY, b"[]", 3], ids=repr)
def test_actions_of_the_wrong_type_are_named(render: Any, actions: object) -> None:
    with pytest.raises(TypeError, match=r"^argument 'actions' must be a list"):
        render("x", actions=actions)


@pytest.mark.parametrize("render", [render_html, render_segments])
@pytest.mark.parametrize("actions", [None, [], [MORE], [PAY]], ids=repr)
def test_a_wrong_action_context_is_named_whether_or_not_it_is_used(
    render: Any, actions: object
) -> None:
    with pytest.raises(TypeError, match=r"^argument 'action_context' must be ActionContext"):
        render("x", actions=actions, action_context={"locale": "en"})


def test_actions_html_names_its_own_arguments() -> None:
    with pytest.raises(TypeError, match=r"argument 'actions' must be a (list|sequence)"):
        actions_html({"actions": [PAY]})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"argument 'actions' must be a (list|sequence)"):
        actions_html(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"argument 'context' must be"):
        actions_html([MORE], {"locale": "en"})  # type: ignore[arg-type]


def test_actions_html_says_what_the_docs_quote() -> None:
    with pytest.raises(TypeError) as raised:
        actions_html({"actions": [PAY]})  # type: ignore[arg-type]
    assert str(raised.value) == "actions_html() argument 'actions' must be a sequence, not dict"
    with pytest.raises(TypeError) as raised:
        render_html("x", actions={"actions": []})  # type: ignore[arg-type]
    assert str(raised.value) == "argument 'actions' must be a list of actions or None, not dict"
    # An item that is no object is judged, not refused.
    assert 'data-code="action.not_object"' in actions_html([1])


@pytest.mark.parametrize("call_id", ["call\x00", "\x00", "a\x00b"])
def test_a_tool_call_id_html_cannot_carry_is_refused(call_id: str) -> None:
    result = questionnaire_async(title="T", questions=[{"type": "free_text", "text": "Q"}])
    form = questionnaire_from_tool_result(result, call_id)
    with pytest.raises(ValueError, match="holds NUL"):
        tool_form_html(form)
    assert 'data-replykit-block="call"' in tool_form_html(
        questionnaire_from_tool_result(result, "call")
    )


def test_right_arguments_still_render() -> None:
    out = render_html("x", actions=(PAY,), action_context=ActionContext(locale="en"))
    assert 'data-action-id="go"' in out and 'data-confirm-label="Confirm"' in out


@pytest.mark.parametrize("render", [render_html, render_segments])
def test_unknown_profile_and_compat_names_are_value_errors(render: Any) -> None:
    with pytest.raises(ValueError, match="bogus"):
        render("x", compat="bogus")
    with pytest.raises(ValueError, match="bogus"):
        render("x", profile="bogus")


@pytest.mark.parametrize("message_id", ["a\x00b", "\x00", "m\x00"])
def test_a_message_id_html_cannot_carry_is_refused(message_id: str) -> None:
    with pytest.raises(ValueError, match="NUL"):
        render_segments(EXAMPLE, message_id=message_id)
    with pytest.raises(RequestError, match="message_id: holds NUL"):
        api.analyze({"text": EXAMPLE, "message_id": message_id})


def test_a_carriage_return_in_an_id_reads_back_as_itself() -> None:
    import html.parser

    found: list[str | None] = []

    class Ids(html.parser.HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.extend(v for k, v in attrs if k == "data-replykit-block")

    rendered = render_segments(EXAMPLE, message_id="a\rb")
    # A browser's input stream turns every CR into LF before it parses (HTML 13.2.3.5).
    Ids().feed(rendered.html.replace("\r\n", "\n").replace("\r", "\n"))
    ids = [s.id for s in rendered.segmentation.segments if s.kind != "markdown"]
    assert found == ids == ["a\rb_q1"]


@pytest.mark.parametrize(
    "url",
    [
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        "java\rscript:alert(1)",
        "\x01javascript:alert(1)",
        "\x00javascript:x",
        " \x1fjavascript:x",
        "JAVA\tSCRIPT:x",
        "data\n:text/html,x",
        "javascript:x\x00",
    ],
)
def test_web_link_reads_urls_as_browsers_do(url: str) -> None:
    assert web_link(url) is False


@pytest.mark.parametrize("url", ["https://x.y/a", "http://x", "/rel", "a/b", "#f", "?q", ""])
def test_web_link_keeps_web_and_relative_urls(url: str) -> None:
    assert web_link(url) is True


def test_sanitized_actions_render_as_their_json() -> None:
    # docs/html.md section 4: render sanitize(answer).actions, AnswerAction items.
    from replykit.actions import sanitize

    answer = {
        "actions": [
            {"id": "a", "type": "view.detail", "label": "L"},
            {"id": "b", "type": "business.execute", "label": "Go", "params": {"prompt": "p"}},
        ]
    }
    out = render_html("p", actions=sanitize(answer).actions)
    assert out == render_html("p", actions=answer["actions"])
    assert out.count("<button") == 2 and "action.not_object" not in out
