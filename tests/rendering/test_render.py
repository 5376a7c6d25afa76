"""replykit.markdown_it: blocks where segment() finds them, one markdown-it pass, the
cards' HTML shape, and what happens around them (docs/html.md)."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from replykit import OTHER_VALUE, segment
from replykit.markdown_it import (
    RawHtmlWarning,
    questionnaire_plugin,
    render_html,
    render_segments,
    sanitize_html,
)
from replykit.markdown_it.cards import block_card
from replykit.markdown_it.plan import choose_marker

from .checker import read_html

FREE = {"questions": [{"id": "q1", "type": "free_text", "text": "Why?"}]}


def xml(payload: dict[str, Any], name: str = "questionnaire") -> str:
    return f"<{name}>{json.dumps(payload, ensure_ascii=False)}</{name}>"


def plain(text: str) -> str:
    return MarkdownIt("commonmark", {"html": False}).render(text)


def card_of(text: str, index: int = 0) -> str:
    blocks = [s for s in segment(text, message_id="m").segments if s.kind != "markdown"]
    html, block = block_card(blocks[index])
    return html + "\n" if block else html


FENCED = (
    "Pick:\n\n```questionnaire\ntitle: T\nquestions:\n  - type: single_choice\n"
    "    text: Which?\n    options: [a, b]\n    default: b\n```\n"
)


def test_a_fenced_block_in_a_list_item_stays_code() -> None:
    text = "- step one\n\n  ```questionnaire\n  title: T\n  questions: []\n  ```\n- two\n"
    codes = [d.code for d in segment(text).diagnostics]
    assert codes == ["near_miss.in_container"]
    out = render_html(text, message_id="m")
    assert out == plain(text)
    assert '<code class="language-questionnaire">title: T' in out
    assert "<form" not in out


def test_an_xml_block_in_a_list_item_keeps_the_list() -> None:
    text = f"- one {xml(FREE)} after\n- two\n\n3. three\n"
    out = render_html(text, message_id="m")
    card = card_of(text)
    assert card in out
    assert out.replace(card, "") == plain("- one  after\n- two\n\n3. three\n")


def test_an_xml_block_in_a_quote_and_a_loose_list_keeps_them() -> None:
    text = f"> quote {xml(FREE)} after\n> more\n\n- a\n\n- b {xml(FREE)} c\n\n- d\n"
    out = render_html(text, message_id="m")
    removed = plain("> quote  after\n> more\n\n- a\n\n- b  c\n\n- d\n")

    def frame(html: str) -> list[str]:
        return re.findall(r"</?(?:ul|li|blockquote)>", html)

    assert frame(out) == frame(removed)
    # The paragraph is split around the form (no <form> inside a <p>), text kept.
    assert "<p>quote </p>\n" + card_of(text, 0) + "<p> after\nmore</p>" in out
    assert "<p>b </p>\n" + card_of(text, 1) + "<p> c</p>" in out


def test_reference_links_resolve_across_blocks() -> None:
    text = (
        f"See [docs] first.\n\n{FENCED}\nAnd [docs] {xml(FREE)} [again][docs].\n\n"
        '[docs]: https://example.com/d "Docs"\n'
    )
    out = render_html(text, message_id="m")
    links = re.findall(r'<a href="https://example.com/d" title="Docs">(\w+)</a>', out)
    assert links == ["docs", "docs", "again"]
    assert read_html(out).counts["form"] == 2


def test_two_forms_never_collide_on_ids_or_names() -> None:
    questions = [
        {"id": "x", "type": "single_choice", "text": "t", "options": ["a", "b"],
         "allow_other": True},
        {"id": "x:0", "type": "free_text", "text": "t"},
        {"id": "x:other", "type": "multi_choice", "text": "t", "options": ["a"]},
        {"id": "x other", "type": "free_text", "text": "t"},
    ]  # fmt: skip
    form = xml({"questions": questions})
    out = render_html(f"{form}\n\n{form}\n", message_id="m")
    reading = read_html(out)
    assert reading.problems == []
    assert len(reading.ids) == 2 * 7 and len(set(reading.ids)) == len(reading.ids)
    names = {n for n in reading.names if n.startswith("m_q1:")}
    assert names == {"m_q1:x", "m_q1:x:other", "m_q1:x%3A0", "m_q1:x%3Aother", "m_q1:x%20other"}
    assert {n.replace("m_q2:", "m_q1:") for n in reading.names if n.startswith("m_q2:")} == names
    assert 'id="m_q1:x%3A0:text"' in out and 'id="m_q1:x:0"' in out


def test_form_shape() -> None:
    payload = {
        "title": "Plan",
        "questions": [
            {"id": "s", "type": "single_choice", "text": "One?", "options": ["a", "b"],
             "default": "b", "allow_other": True},
            {"id": "m", "type": "multi_choice", "text": "Many?",
             "options": [{"value": "v1", "label": "L1"}, "v2"], "default": ["v1"]},
            {"id": "f", "type": "free_text", "text": "Why?", "default": "\nbecause"},
        ],
    }  # fmt: skip
    out = render_html(xml(payload), message_id="m")
    assert out.startswith(
        '<form class="replykit-form" data-replykit-block="m_q1" '
        'data-replykit-name="questionnaire">\n<h3 dir="auto">Plan</h3>\n'
        '<fieldset data-question-id="s" data-question-type="single_choice">'
        '<legend dir="auto">One?</legend>'
    )
    assert (
        '<input type="radio" name="m_q1:s" value="b" id="m_q1:s:1" data-question-id="s" checked>'
        '<label for="m_q1:s:1" dir="auto">b</label>' in out
    )
    assert f'value="{OTHER_VALUE}" id="m_q1:s:other"' in out
    assert '<input type="text" name="m_q1:s:other" id="m_q1:s:other-text"' in out
    assert (
        '<input type="checkbox" name="m_q1:m" value="v1" id="m_q1:m:0" data-question-id="m" '
        'checked><label for="m_q1:m:0" dir="auto">L1</label>' in out
    )
    assert 'value="v2" id="m_q1:m:1" data-question-id="m"><label' in out
    # HTML parsers drop the newline after <textarea>: the value is the default exactly.
    assert (
        '<textarea name="m_q1:f" id="m_q1:f:text" data-question-id="f" dir="auto">'
        "\nbecause</textarea>" in out
    )
    assert out.endswith('<button type="submit">提交</button></form>\n')
    assert read_html(out).problems == []


def test_invalid_block_shows_raw_text_and_diagnostics() -> None:
    text = 'Intro\n\n<questionnaire>{"questions": 1}</questionnaire>\n'
    out = render_html(text, message_id="m")
    seg = segment(text, message_id="m").segments[1]
    assert (
        '<div class="replykit-invalid" data-replykit-block="m_q1" '
        'data-replykit-name="questionnaire"><pre><code dir="auto">&lt;questionnaire&gt;'
        "{&quot;questions&quot;: 1}&lt;/questionnaire&gt;</code></pre>" in out
    )
    items = re.findall(r'<li data-code="([^"]+)" data-severity="(\w+)">', out)
    assert items == [(d.code, d.severity) for d in seg.diagnostics] != []


def test_response_is_a_read_only_summary() -> None:
    body = {
        "type": "questionnaire_response", "questionnaire_id": "m_q1", "status": "submitted",
        "answers": [
            {"question_id": "s", "question": "One?", "type": "single_choice", "answer": "b",
             "value": "b", "label": "Bee"},
            {"question_id": "m", "type": "multi_choice", "answer": ["x", OTHER_VALUE],
             "values": ["x", OTHER_VALUE], "labels": ["Ex", "其他"], "other_text": "mine"},
        ],
    }  # fmt: skip
    out = render_html(xml(body, "questionnaire-response"), message_id="m")
    assert out.startswith(
        '<div class="replykit-response" data-replykit-block="m_q1" '
        'data-replykit-name="questionnaire-response" data-questionnaire-id="m_q1" '
        'data-status="submitted">'
    )
    assert '<dt data-question-id="s" dir="auto">One?</dt><dd dir="auto">Bee</dd>' in out
    assert '<dt data-question-id="m" dir="auto">m</dt><dd dir="auto">Ex、其他 (mine)</dd>' in out
    assert "<input" not in out and "<textarea" not in out


def test_unregistered_blocks_read_as_markdown() -> None:
    text = (
        "Intro\n\n```foo-questionnaire\n*x*\n```\n\n"
        "A <bar-questionnaire>*y*</bar-questionnaire> z\n"
    )
    out = render_html(text, message_id="m")
    assert (
        '<pre class="replykit-unregistered" data-replykit-block="m_q1" '
        'data-replykit-name="foo-questionnaire"><code class="language-foo-questionnaire" '
        'dir="auto">*x*\n</code></pre>' in out
    )
    assert (
        '<p>A <span class="replykit-unregistered" data-replykit-block="m_q2" '
        'data-replykit-name="bar-questionnaire" dir="auto">&lt;bar-questionnaire&gt;*y*'
        "&lt;/bar-questionnaire&gt;</span> z</p>" in out
    )


def test_nothing_opened_before_a_block_goes_on_after_it() -> None:
    # §3b: the backtick opens nothing (the raw paragraph ended inside the payload) and
    # after the closer reading resumes as text; the link text does not cross the card.
    hiding = xml(FREE).replace("</questionnaire>", "\n\n</questionnaire>")
    text = f"a `b {hiding} c` d\n\n[see {xml(FREE)}](https://x.y)\n"
    out = render_html(text, message_id="m")
    assert "<code>" not in out and "<a " not in out
    assert read_html(out).counts["form"] == 2


def test_a_placeholder_cannot_be_forged() -> None:
    marker = choose_marker("")
    assert marker == "\ue000"
    assert choose_marker("\ue000") == "\ue001"
    assert choose_marker("&#xE000; &#57345;") == "\ue002"
    forged = f"{marker}0{marker} &#xE000;0&#xE000;\n\n```{marker}0{marker}\n```\n\n{xml(FREE)}"
    out = render_html(forged, message_id="m")
    assert read_html(out).counts["form"] == 1
    assert out.count("<form") == 1
    assert f"<p>{marker}0{marker} {marker}0{marker}</p>" in out


def test_a_percent_encoded_placeholder_cannot_be_forged() -> None:
    # A destination's href is looked for percent-encoded: its spellings are avoided.
    assert choose_marker("%EE%80%80") == "\ue001"
    assert choose_marker("%ee%80%80 &#37;EE%80%81") == "\ue002"
    for index in ("0", "5", "9" * 5000):
        text = f"[x]: %EE%80%80{index}%EE%80%80\n\n[x] {xml(FREE)}\n"
        out = render_html(text, message_id="m")
        assert f'<a href="%EE%80%80{index}%EE%80%80">x</a>' in out
        assert read_html(out).counts["form"] == 1


def test_a_placeholder_swallowed_by_a_definition_is_still_shown() -> None:
    out = render_html(f"[x]: {xml(FREE)}\n\n[x]\n", message_id="m")
    assert out.endswith(card_of(f"[x]: {xml(FREE)}"))


def test_fenced_placeholder_keeps_line_endings_and_unclosed_fences() -> None:
    crlf = FENCED.replace("\n", "\r\n") + "after\r\n"
    assert render_html(crlf, message_id="m").endswith("</form>\n<p>after</p>\n")
    unclosed = "Intro\n\n```questionnaire\ntitle: T"
    out = render_html(unclosed, message_id="m")
    assert 'data-code="fence.unclosed"' in out and out.startswith("<p>Intro</p>\n<div")


def test_raw_html_is_off_by_default_and_sanitized_when_on() -> None:
    text = '<b onclick="x()">bold</b>\n\n<div><script>alert(1)</script></div>\n'
    assert render_html(text, message_id="m") == plain(text)
    assert "&lt;script&gt;" in render_html(text, message_id="m")
    with pytest.warns(RawHtmlWarning, match="sanitize"):
        raw = render_html(text, message_id="m", html=True)
    assert "<script>" in raw
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clean = render_html(text + xml(FREE), message_id="m", html=True, sanitize=sanitize_html)
    assert "<b>bold</b>" in clean and "<script" not in clean and "onclick" not in clean
    assert read_html(clean).counts["form"] == 1


def test_a_card_in_an_html_block_is_placed_and_the_html_sanitized() -> None:
    text = f"<div onclick=x>\n{xml(FREE)}\n</div>\n"
    out = render_html(text, message_id="m", html=True, sanitize=sanitize_html)
    assert "onclick" not in out
    assert out.count("<form") == 1


def test_links_keep_only_web_urls() -> None:
    text = "[a](javascript:x) [b](data:text/html,x) ![c](data:image/png;base64,AA) [d](/rel) [e](https://e.f)"
    out = render_html(text, message_id="m")
    assert re.findall(r'(?:href|src)="([^"]*)"', out) == ["/rel", "https://e.f"]


def test_actions_render_as_buttons_with_their_confirmation() -> None:
    actions = [
        {"id": "pay", "type": "business.execute", "label": "Pay", "params": {"prompt": "pay it"}},
        {"id": "more", "type": "conversation.continue", "label": "More",
         "params": {"prompt": "go on"}},
        {"id": "bad", "type": "shell.run", "label": "rm"},
    ]  # fmt: skip
    out = render_html("Done.", message_id="m", actions=actions)
    assert (
        '<button type="button" class="replykit-action" data-action-id="pay" '
        'data-action-type="business.execute" data-confirm="确认Pay？" '
        'data-confirm-description="' in out
    )
    assert (
        'data-confirm-prompt="pay it" data-confirm-label="确认执行" '
        'data-cancel-label="取消" dir="auto">Pay</button>' in out
    )
    assert (
        '<button type="button" class="replykit-action" data-action-id="more" '
        'data-action-type="conversation.continue" dir="auto">More</button>' in out
    )
    assert '<li data-code="action.type_unknown">' in out
    assert read_html(out).problems == []


def test_plugin_on_a_users_markdown_it() -> None:
    md = MarkdownIt("commonmark", {"html": False}).use(questionnaire_plugin, message_id="u")
    env: dict[str, Any] = {}
    out = md.render(FENCED, env)
    assert 'data-replykit-block="u_q1"' in out
    assert env["replykit"].segmentation == segment(FENCED, message_id="u")
    assert md.renderInline(xml(FREE)) == plain(xml(FREE)).removeprefix("<p>").removesuffix("</p>\n")
    with pytest.warns(RawHtmlWarning):
        MarkdownIt("commonmark").use(questionnaire_plugin, message_id="u")


def test_render_segments_returns_the_segmentation() -> None:
    rendered = render_segments(FENCED, message_id="m")
    assert rendered.segmentation == segment(FENCED, message_id="m")
    assert rendered.html == render_html(FENCED, message_id="m")


def test_lone_surrogates_and_nul_become_replacement_characters() -> None:
    out = render_html("a\ud800b\u0000c " + xml(FREE), message_id="m")
    assert "a\ufffdb\ufffdc" in out
    out.encode("utf-8")


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"message_id": 1}, "message_id"),
        ({"profile": 1}, "profile"),
        ({"compat": 3}, "compat"),
        ({"sanitize": "nh3"}, "sanitize"),
        ({"html": 1}, "html"),
    ],
)
def test_wrong_argument_types_are_named(kwargs: dict[str, Any], name: str) -> None:
    with pytest.raises(TypeError, match=f"'{name}'"):
        render_html("x", **{"message_id": "m", **kwargs})


def test_a_message_id_segment_refuses_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        render_html("x", message_id="m" * 129)


def test_inline_raw_html_is_sanitized_per_paragraph_and_cards_survive() -> None:
    text = f"<b onclick=x>bold {xml(FREE)} on</b> and <i>{xml(FREE)}</i>\n"
    out = render_html(text, message_id="m", html=True, sanitize=sanitize_html)
    # The paragraph is split around each form, then each piece sanitized whole.
    assert out.startswith("<p><b>bold </b></p>\n<form")
    assert "<p> on and <i></i></p>\n<form" in out
    assert "onclick" not in out and out.count("<form") == 2
    # A sanitizer that drops a card's placeholder does not drop the card: it follows.
    item = f"- <i>{xml(FREE)}</i>\n"
    dropped = render_html(item, message_id="m", html=True, sanitize=lambda s: "")
    assert dropped == "<ul>\n<li>" + card_of(item).strip() + "</li>\n</ul>\n"


def test_the_form_shown_in_the_docs_is_what_renders() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "html.md").read_text(encoding="utf-8")
    shown = doc.split("```html\n", 1)[1].split("```", 1)[0]
    payload = {
        "title": "Title",
        "questions": [
            {"id": "q1", "type": "single_choice", "text": "Which?",
             "options": [{"value": "a", "label": "A"}], "default": "a", "allow_other": True},
            {"id": "q2", "type": "free_text", "text": "Why?", "default": "default text"},
        ],
    }  # fmt: skip
    assert render_html(xml(payload), message_id="m1") == shown


def test_inline_text_is_read_at_most_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Linear work: the pieces around the cards are read once more, nothing else."""
    from markdown_it.parser_inline import ParserInline

    read: list[int] = []
    original = ParserInline.parse

    def counting(self: ParserInline, src: str, *args: Any) -> Any:
        read.append(len(src))
        return original(self, src, *args)

    monkeypatch.setattr(ParserInline, "parse", counting)
    for count in (10, 100, 1000):
        text = "- " + " and ".join(xml(FREE) for _ in range(count)) + " *end*\n"
        read.clear()
        out = render_html(text, message_id="m")
        assert out.count("<form") == count
        placeholder_text = len(" and ") * (count - 1) + len(" *end*") + 2 * count * 6
        assert sum(read) <= 2 * placeholder_text
        # The whole item, then each non-empty piece around the cards (none before the first).
        assert len(read) == 1 + count


@pytest.mark.parametrize(
    "body",
    ["a\r \nb\n", "a\r\n \r\rb\r", "a\r  \r\n\rb\n", " a\r\r\n  b\n"],
)
def test_an_unregistered_fence_keeps_every_line_as_commonmark_does(body: str) -> None:
    # Each line's ending is read alone: a lone CR and the next line's LF stay two lines.
    text = f"Intro\n\n ```foo-questionnaire\n{body} ```\n"
    got = re.search(r"<code[^>]*>(.*?)</code>", render_html(text), re.S)
    want = re.search(r"<code[^>]*>(.*?)</code>", MarkdownIt("commonmark").render(text), re.S)
    assert got is not None and want is not None
    assert got.group(1) == want.group(1)
