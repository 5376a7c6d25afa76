"""The playground in a real browser (headless Chromium): what the page shows is what
replykit reads (§2-§8, §12), the forms answer exactly as ``build_response`` does, a
hostile message runs nothing, and the permalink round-trips."""

from __future__ import annotations

import base64
import zlib
from typing import Any
from urllib.parse import parse_qs

import pytest

from replykit import OTHER_VALUE, build_response, segment, self_check
from replykit.actions import (
    ActionContext,
    confirmation_view,
    parse_context,
    sanitize_json,
    with_defaults,
)
from replykit.serve.assets import load_examples

EXAMPLES = {e["name"]: e for e in load_examples()}
PWNED = "window.__replykitPwned"


def settle(page: Any) -> None:
    """Wait until the page has started and has nothing pending (no debounce timer, no
    request in flight)."""
    page.evaluate("replykitPlayground.ready")
    page.evaluate("replykitPlayground.idle()")


def _pick(page: Any, name: str) -> str:
    page.select_option("#example", name)
    settle(page)
    return str(EXAMPLES[name]["text"])


def _badges(page: Any) -> list[tuple[str, int, int, str | None, bool]]:
    return [
        (b["kind"], int(b["start"]), int(b["end"]), b.get("block"), b["valid"] == "true")
        for b in page.eval_on_selector_all("#segments .badge", "els => els.map(e => e.dataset)")
    ]


def test_page_loads_with_the_bundled_examples(page: Any) -> None:
    assert page.title() == "replykit playground"
    names = page.eval_on_selector_all("#example option", "els => els.map(e => e.value)")
    assert names == list(EXAMPLES)
    assert page.input_value("#editor") == EXAMPLES["task_paused"]["text"]
    assert page.eval_on_selector_all("#rendered form.replykit-form", "els => els.length") == 1
    assert page.evaluate("replykitPlayground.updates") >= 1


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_each_example_shows_its_segments_forms_and_diagnostics(page: Any, name: str) -> None:
    text = _pick(page, name)
    result = segment(text, message_id="message")
    assert _badges(page) == [(s.kind, s.start, s.end, s.id, s.valid) for s in result.segments]
    forms = page.eval_on_selector_all(
        "#rendered form.replykit-form", "els => els.map(e => e.dataset.replykitBlock)"
    )
    valid = [s.id for s in result.segments if s.questionnaire is not None]
    assert forms == valid
    invalid = page.eval_on_selector_all(
        "#rendered .replykit-invalid", "els => els.map(e => e.dataset.replykitBlock)"
    )
    assert invalid == [s.id for s in result.segments if s.registered and not s.valid]
    codes = page.eval_on_selector_all("#diagnostics li", "els => els.map(e => e.dataset.code)")
    assert codes == [d.code for d in result.diagnostics]
    checked = self_check({"role": "assistant", "content": text}, locale="en")
    assert page.text_content("#selfcheck-verdict") == ("passed" if checked.passed else "failed")
    assert (page.text_content("#repair-prompt") or "") == (checked.repair_prompt or "")


def test_every_example_is_covered() -> None:
    kinds = {
        name: {s.kind for s in segment(e["text"], message_id="message").segments}
        for name, e in EXAMPLES.items()
    }
    assert "questionnaire_response" in kinds["response"]
    assert any(not s.valid for s in segment(EXAMPLES["invalid"]["text"]).segments if s.registered)
    assert "answer" in EXAMPLES["actions"] and "context" in EXAMPLES["actions"]


def _responses(page: Any) -> tuple[str, str, str]:
    settle(page)
    return (
        page.text_content("#response-block") or "",
        page.text_content("#agent-text") or "",
        page.text_content("#display-text") or "",
    )


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_filling_a_form_gives_exactly_build_responses_text(page: Any, locale: str) -> None:
    text = _pick(page, "mixed")
    page.select_option("#locale", locale)
    settle(page)
    form = "#rendered form[data-replykit-block='message_q1']"
    page.check(f"{form} input[type=radio][value='Resume it']")
    page.uncheck(f"{form} input[type=checkbox][value='eu-west']")
    page.check(f"{form} input[type=checkbox][value='ap-south']")
    page.check(f"{form} input[type=checkbox][value='__questionnaire_other__']")
    page.fill(f"{form} input[type=text]", "the canary pool")
    page.fill(f"{form} textarea", "Deployed on a Friday, <b>sorry</b>")
    seg = segment(text, message_id="message").segments[1]
    assert seg.questionnaire is not None and seg.id == "message_q1"
    answers = {
        "q1": "Resume it",
        "q2": {"value": ["ap-south", OTHER_VALUE], "other_text": "the canary pool"},
        "q3": "Deployed on a Friday, <b>sorry</b>",
    }
    built = build_response(seg.questionnaire, answers, questionnaire_id=seg.id, locale=locale)
    assert _responses(page) == ("message_q1", built.agent_text, built.display_text)
    # The second form: its defaults first, then a choice.
    second = "#rendered form[data-replykit-block='message_q2']"
    page.check(f"{second} input[value='now']")
    xml = segment(text, message_id="message").segments[3]
    assert xml.questionnaire is not None and xml.id == "message_q2"
    built = build_response(
        xml.questionnaire, {"window": "now"}, questionnaire_id=xml.id, locale=locale
    )
    assert _responses(page) == ("message_q2", built.agent_text, built.display_text)


def test_a_diagnostic_click_marks_its_range(page: Any) -> None:
    text = _pick(page, "invalid")
    result = segment(text, message_id="message")
    for index, d in enumerate(result.diagnostics):
        page.click(f"#diagnostics li:nth-child({index + 1})")
        marks = page.eval_on_selector_all(
            "#segments mark.diag", "els => els.map(e => e.textContent)"
        )
        assert "".join(marks) == (text[d.start : d.end] or "\u200b")
        selected = page.evaluate(
            "(() => { const e = document.getElementById('editor');"
            " return e.value.slice(e.selectionStart, e.selectionEnd); })()"
        )
        assert selected == text[d.start : d.end]
        active = page.eval_on_selector_all("#diagnostics li.active", "els => els.length")
        assert active == 1


HOSTILE_ACTIONS = (
    '{"actions": [{"id": "x\\"><img src=x onerror=window.__replykitPwned=1>", '
    '"type": "business.execute", "label": "<img src=x onerror=pwn()>", '
    '"title": "<script>window.__replykitPwned=2</script>", '
    '"params": {"prompt": "<svg onload=window.__replykitPwned=3>"}}]}'
)


def _no_markup(page: Any) -> None:
    handlers = page.evaluate(
        "const URL_ATTRIBUTES = ['href', 'src', 'srcdoc', 'action', 'formaction', 'xlink:href'];"
        "[...document.querySelectorAll('main *')].flatMap(e => [...e.attributes]"
        ".filter(a => a.name.startsWith('on') || URL_ATTRIBUTES.includes(a.name))"
        ".map(a => e.tagName + ' ' + a.name))"
    )
    assert handlers == []
    tags = "script, img, svg, iframe, style, object, embed, a, b, link, meta"
    assert page.eval_on_selector_all(f"main :is({tags})", "els => els.length") == 0


def test_a_hostile_message_runs_no_script(page: Any) -> None:
    text = _pick(page, "hostile")
    assert page.evaluate(f"typeof {PWNED}") == "undefined"
    _no_markup(page)
    rendered = page.text_content("#rendered") or ""
    assert "<img src=x onerror=" in rendered and "<iframe src=" in rendered
    assert page.text_content("#segments") == "".join(
        f"{b[0]}{' ' + b[3] if b[3] else ''} {b[1]}–{b[2]}"
        f"{'' if b[0] == 'markdown' else ' valid' if b[4] else ' invalid'}" + text[b[1] : b[2]]
        for b in _badges(page)
    )
    for label in page.query_selector_all("#rendered label"):
        label.hover()
        label.click()
    page.click("#actions-panel summary")
    page.fill("#answer", HOSTILE_ACTIONS)
    page.fill("#context", "{}")
    settle(page)
    page.click("#action-buttons button")
    settle(page)
    page.click("#confirm-ok")
    settle(page)
    assert page.text_content("#confirm-title") == "<script>window.__replykitPwned=2</script>"
    assert page.text_content("#action-buttons button") == "<img src=x onerror=pwn()>"
    assert page.evaluate(f"typeof {PWNED}") == "undefined"
    _no_markup(page)


def _button(page: Any, action_id: str) -> dict[str, str]:
    found: dict[str, str] = page.eval_on_selector(
        f"#action-buttons button[data-action-id='{action_id}']", "e => ({...e.dataset})"
    )
    return found


def test_the_actions_panel_confirms_business_execute(page: Any) -> None:
    _pick(page, "actions")
    example = EXAMPLES["actions"]
    context = parse_context(__import__("json").loads(example["context"]))
    shown = with_defaults(sanitize_json(example["answer"]), context)
    ids = page.eval_on_selector_all(
        "#action-buttons button", "els => els.map(e => e.dataset.actionId)"
    )
    assert ids == [a.id for a in shown.all_actions]
    codes = page.eval_on_selector_all("#action-diagnostics li", "els => els.length")
    assert codes == len(shown.diagnostics) == 2
    order = next(a for a in shown.actions if a.id == "create-order")
    assert _button(page, "create-order")["confirm"] == "true"
    page.click("#action-buttons button[data-action-id='create-order']")
    settle(page)
    view = confirmation_view(order, context)
    assert page.is_visible("#confirmation")
    assert page.text_content("#confirm-title") == view.title == "Confirm Create work order?"
    assert page.text_content("#confirm-description") == view.description
    assert page.text_content("#confirm-prompt") == view.prompt
    assert page.text_content("#confirm-ok") == view.confirmLabel
    assert _button(page, "create-order")["status"] == "confirming"
    page.click("#action-buttons button[data-action-id='create-order']")  # ignored while confirming
    settle(page)
    assert _button(page, "create-order")["status"] == "confirming"
    page.click("#confirm-ok")
    settle(page)
    assert _button(page, "create-order")["status"] == "running"
    assert page.text_content("#host-prompt") == f"chat.send: {order.prompt}"
    page.click("#host-success")
    settle(page)
    assert _button(page, "create-order")["status"] == "success"
    kinds = page.eval_on_selector_all("#effects li", "els => els.map(e => e.dataset.kind)")
    assert kinds == ["show_confirmation", "ignored", "chat_send", "none"]


def test_cancelling_and_actions_without_confirmation(page: Any) -> None:
    _pick(page, "actions")
    page.click("#action-buttons button[data-action-id='cancel-task']")
    settle(page)
    assert page.is_visible("#confirmation")
    page.click("#confirm-cancel")
    settle(page)
    assert _button(page, "cancel-task")["status"] == "cancelled"
    assert not page.is_visible("#confirmation")
    assert _button(page, "continue")["confirm"] == "false"
    page.click("#action-buttons button[data-action-id='continue']")
    settle(page)
    assert not page.is_visible("#confirmation")
    assert _button(page, "continue")["status"] == "running"
    page.click("#host-error")
    settle(page)
    assert _button(page, "continue")["status"] == "error"
    assert ActionContext().locale == "zh"  # the example's context asks for en itself


def _fragment_message(url: str) -> str:
    fragment = parse_qs(url.split("#", 1)[1])
    token = fragment["m"][0]
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    return zlib.decompress(raw).decode("utf-8")


def test_the_permalink_round_trips(page: Any, browser: Any) -> None:
    text = "复合 emoji 👩‍👩‍👧 and tabs\t\n```questionnaire\ntitle: Ünïcode ✓\n" + "x" * 300
    page.fill("#editor", text)
    page.select_option("#profile", "self_check")
    page.select_option("#compat", "sage")
    page.select_option("#locale", "zh")
    settle(page)
    url = page.url
    assert _fragment_message(url) == text
    assert len(url) < len(text.encode("utf-8"))  # compressed
    other = browser.new_page()
    other.goto(url)
    settle(other)
    assert other.input_value("#editor") == text
    assert other.input_value("#profile") == "self_check"
    assert other.input_value("#compat") == "sage"
    assert other.input_value("#locale") == "zh"
    assert _badges(other) == _badges(page)
    other.close()


def _token(data: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(data, 9)).decode().rstrip("=")


# The page's own reader and writer, imported in the page (its CSP allows 'self').
DECODED = """async (hash) => {
  const state = await (await import("/permalink.js")).decodeState(hash);
  return state.text === undefined ? state : { length: state.text.length };
}"""
ENCODED = """async (size) => (await import("/permalink.js")).encodeState(
  { text: "a".repeat(size), profile: "client", compat: "", locale: "en" })"""
LIMIT = 2 * 1024 * 1024


def test_the_permalink_reader_caps_the_message_as_the_writer_does(page: Any) -> None:
    at_limit = "#m=" + _token(b"a" * LIMIT)
    assert page.evaluate(DECODED, at_limit) == {"length": LIMIT}
    written = page.evaluate(ENCODED, LIMIT)
    assert page.evaluate(DECODED, "#" + written["fragment"]) == {"length": LIMIT}
    over = "#m=" + _token(b"a" * (LIMIT + 1))
    refused = {"error": f"Error: the linked message is over {LIMIT} bytes"}
    assert page.evaluate(DECODED, over) == refused
    assert page.evaluate(ENCODED, LIMIT + 1) == {
        "tooLong": f"{LIMIT + 1} bytes; the limit is {LIMIT}"
    }
    bomb = "#m=" + _token(b"a" * 2 * LIMIT)  # 4 MiB in about 5 500 characters
    assert len(bomb) < 8000 and page.evaluate(DECODED, bomb) == refused
    long = "#m=" + "A" * 7997 + "&p=client"
    assert page.evaluate(DECODED, long) == {"error": "the link is over 8000 characters"}


def test_a_link_over_the_cap_opens_the_first_example(browser: Any, server: Any) -> None:
    other = browser.new_page()
    other.goto(server.url + "#m=" + _token(b"a" * 2 * LIMIT))
    settle(other)
    first = load_examples()[0]["text"]
    assert other.input_value("#editor") == first
    assert _fragment_message(other.url) == first  # the link now holds what is shown
    other.close()


def test_a_message_too_long_for_a_link_says_so(page: Any) -> None:
    noise = "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(12000))
    page.fill("#editor", noise)
    settle(page)
    assert "too long for a link" in (page.text_content("#link-status") or "")
    assert "#" not in page.url
    page.fill("#editor", "short again")
    settle(page)
    assert _fragment_message(page.url) == "short again"
    assert page.text_content("#link-status") == "link up to date"


def test_a_replaced_form_answers_no_more(page: Any) -> None:
    # The focused field of a form that an update replaces fires "change" as it goes:
    # the response panel must not ask for that form in the new message.
    _pick(page, "mixed")
    page.fill("#rendered form textarea", "still typing")
    settle(page)
    _pick(page, "invalid")
    assert page.text_content("#response-block") == ""
    assert page.eval_on_selector_all("#response-diagnostics li", "els => els.length") == 0
    assert page.text_content("#agent-text") == ""


@pytest.mark.parametrize(("locale", "submit"), [("en", "Submit"), ("zh", "提交")])
def test_read_only_locks_every_form_and_labels_follow_the_locale(
    page: Any, locale: str, submit: str
) -> None:
    _pick(page, "mixed")
    page.select_option("#locale", locale)
    settle(page)
    buttons = "#rendered form button[type=submit]"
    assert set(page.eval_on_selector_all(buttons, "els => els.map(e => e.textContent)")) == {submit}
    assert page.text_content("#response-block") == "message_q1"
    page.check("#readonly")
    settle(page)
    forms = page.eval_on_selector_all(
        "#rendered form.replykit-form",
        "els => els.map(f => [f.hasAttribute('data-replykit-readonly'),"
        " [...f.elements].every(e => e.matches(':disabled'))])",
    )
    assert forms == [[True, True], [True, True]]
    # Nothing can be filled, and no form answers.
    assert page.is_disabled("#rendered form[data-replykit-block='message_q1'] textarea")
    assert page.text_content("#response-block") == ""
    assert page.text_content("#agent-text") == ""
    page.uncheck("#readonly")
    settle(page)
    assert page.text_content("#response-block") == "message_q1"
