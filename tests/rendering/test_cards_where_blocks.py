"""docs/html.md: the page shows a card exactly where ``segment()`` finds a block, with raw
HTML off and on, whatever HTML blocks (types 1-7, closed or not, holding fence lines)
stand around the forms; and code on the page shows only text of the message."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("markdown_it")
pytest.importorskip("nh3")

from replykit import segment
from replykit.markdown_it import render_html, sanitize_html

_FENCED = (
    "```questionnaire\ntitle: T\nquestions:\n  - {type: free_text, text: Q, default: x}\n```\n"
)
_XML = '<questionnaire>{"title":"T","questions":[{"type":"text","text":"Q"}]}</questionnaire>'
_BAD = "```questionnaire\ntitle: T\n```\n"
# The start and end of each HTML block type (CommonMark 4.6), the end maybe left out.
_HTML = (
    ("<pre>", "</pre>"), ("<script>", "</script>"), ("<style>", "</style>"),
    ("<textarea>", "</textarea>"), ("<!--", "-->"), ("<?php", "?>"), ("<!DOCTYPE html", ">"),
    ("<![CDATA[", "]]>"), ("<details>", "</details>"), ("<div class='x'>", "</div>"),
    ("<span>", "</span>"), ("<custom-tag>", "</custom-tag>"),
)  # fmt: skip
_INSIDE = ("```text", "```", "~~~", "error: x", "    indented", "", "**b**", "<summary>s</summary>")


@st.composite
def html_messages(draw: st.DrawFn) -> str:
    parts = ["Intro.\n\n"]
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 4))
        if kind == 0:
            start, end = draw(st.sampled_from(_HTML))
            lines = [start, *draw(st.lists(st.sampled_from(_INSIDE), max_size=3))]
            if draw(st.booleans()):
                lines.append(end)
            parts.append("\n".join(lines) + "\n" + draw(st.sampled_from(["", "\n"])))
        elif kind == 1:
            parts.append(draw(st.sampled_from([_FENCED, _BAD])) + "\n")
        elif kind == 2:
            parts.append("Pick: " + _XML + "\n\n")
        elif kind == 3:
            parts.append(draw(st.sampled_from(["```\ncode\n```\n", "text\n", "\n"])))
        else:
            parts.append(draw(st.sampled_from(["<div>\n", "</div>\n", "<br>\n"])))
    return "".join(parts)


_CARD = re.compile(r'<(form|div) class="replykit-(form|invalid)" data-replykit-block="([^"]*)"')
_CODE = re.compile(r"<pre><code[^>]*>(.*?)</code></pre>", re.S)
_INVALID_CARD = re.compile(r'<div class="replykit-invalid".*?</ul></div>', re.S)


def _cards(page: str) -> tuple[list[str], list[str]]:
    found = _CARD.findall(page)
    return [b for _, k, b in found if k == "form"], [b for _, k, b in found if k == "invalid"]


@given(html_messages(), st.booleans())
def test_cards_stand_where_segment_finds_blocks(text: str, raw_html: bool) -> None:
    result = segment(text, message_id="m")
    valid = [s.id for s in result.segments if s.questionnaire is not None]
    invalid = [s.id for s in result.segments if s.registered and not s.valid]
    options = {"html": True, "sanitize": sanitize_html} if raw_html else {}
    page = render_html(text, message_id="m", **options)
    assert _cards(page) == (valid, invalid), text
    # Code outside the cards shows message text only (no placeholder, no extra fence).
    lines = {line.strip() for line in text.split("\n")}
    for code in _CODE.findall(_INVALID_CARD.sub("", page)):
        shown = html.unescape(code).split("\n")
        assert {line.strip() for line in shown} <= lines, (code, text)


def test_a_fence_line_in_an_html_block_opens_no_code_with_raw_html_off() -> None:
    text = "Log:\n\n<div>\n```\n</div>\n\nPlease pick:\n\n" + _FENCED + "After.\n"
    for options in ({}, {"html": True, "sanitize": sanitize_html}):
        page = render_html(text, message_id="m", **options)
        assert _cards(page) == (["m_q1"], [])
        assert "<pre>" not in page and "``````" not in page
    page = render_html(text, message_id="m")
    shown = "<p>Log:</p>\n<p>&lt;div&gt;\n```\n&lt;/div&gt;</p>\n<p>Please pick:</p>"
    assert page.startswith(shown)


_FORM = (
    '<questionnaire>{"questions":[{"id":"q1","type":"free_text","text":"Q","default":""}]}'
    "</questionnaire>"
)


@pytest.mark.parametrize(
    "text",
    [
        '[a]: /u "t' + _FORM + '"\n\n[a]\n',  # the placeholder makes the title close
        "[a]: <" + _FORM + ">\n\n[a]\n",
        '[a]: /u\n"t' + _FORM + '"\n\n[a]\n',
    ],
)
def test_a_link_made_from_a_definition_carries_the_block_text(text: str) -> None:
    # markdown-it reads the placeholder into a link reference definition: the link holds
    # what the message wrote, never the renderer's stand-in, and the card follows.
    page = render_html(text, message_id="m")
    assert "\ue000" not in page and "%EE%80%80" not in page
    assert page.count('data-replykit-block="m_q1"') == 1
    assert "questionnaire" in page.split("<form", 1)[0]  # the link's title or href
