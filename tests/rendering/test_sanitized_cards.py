"""Raw HTML on, sanitized: no text of the message ever becomes a card (docs/html.md
section 6).

A sanitizer and markdown-it both decode what the message wrote (character references
without ``;`` in attribute values, percent escapes in an autolink's text, references
a sanitizer writes for non-ASCII). Cards never pass through the sanitizer, so whatever
it decodes, each block shows exactly one card, at its place: the differential
property below holds the sanitized page to the page with raw HTML off (the same
cards, the same order, each card's HTML exactly once, never inside another element's
attribute or a link).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html.parser import HTMLParser

import nh3
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replykit.markdown_it import render_html, render_segments, sanitize_html
from replykit.markdown_it.cards import block_card
from replykit.testing.strategies import messages

from .checker import read_html
from .test_xss import PAYLOADS

FORM = (
    '<questionnaire>{"title":"T","questions":[{"id":"q1","type":"single_choice",'
    '"text":"Q?","options":[{"value":"a","label":"A"}]}]}</questionnaire>'
)
# Every way to write the first private-use code points and the digit 0 that some
# decoding turns into them: references without ";", decimal, percent-encoded UTF-8.
MARKERS = [
    "&#xE000&#48&#xE000",
    "&#xE000;0&#xE000;",
    "&#57344&#48&#57344",
    "&#57344;0&#57344;",
    "%EE%80%800%EE%80%80",
    "&#xE001&#48&#xE001",
    "%EE%80%810%EE%80%81",
    "\ue0000\ue000",
    "\ue0010\ue001",
    "&amp;#xE000;0&amp;#xE000;",
]
# Where the message can put text around a card (the card follows on the same line).
CONTEXTS: dict[str, Callable[[str], str]] = {
    "attribute": lambda p: f'x <span title="{p}">y</span> {FORM}\n',
    "autolink": lambda p: f"x <b>y</b> <https://a/{p}> {FORM}\n",
    "link": lambda p: f"x <b>y</b> [{p}](https://a/{p}) {FORM}\n",
    "image": lambda p: f"x <i>y</i> ![{p}](https://a/{p}) {FORM}\n",
    "heading": lambda p: f"# x <b>{p}</b> {FORM} tail\n",
    "list item": lambda p: f"- <em>{p}</em> {FORM} tail\n",
    "quote": lambda p: f"> <code>{p}</code> {FORM}\n",
    "html block": lambda p: f'<div title="{p}">\n{p}\n</div>\n\nx <b>{p}</b> {FORM}\n',
    "after": lambda p: f"{FORM} <a href='https://a/{p}'>{p}</a>\n",
}


def ascii_refs(fragment: str) -> str:
    """nh3, then every non-ASCII character written as a decimal reference."""
    return nh3.clean(fragment).encode("ascii", "xmlcharrefreplace").decode("ascii")


def decoding(fragment: str) -> str:
    """A sanitizer that decodes what it can (references with or without ";", percent
    escapes) before nh3 writes its own output."""
    import html
    from urllib.parse import unquote

    return nh3.clean(unquote(html.unescape(fragment)))


SANITIZERS: dict[str, Callable[[str], str]] = {
    "nh3": sanitize_html,
    "ascii references": ascii_refs,
    "decoding": decoding,
}


class _Cards(HTMLParser):
    """The ``data-replykit-block`` values of a page's elements, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.extend(v for k, v in attrs if k == "data-replykit-block")


def cards_of(page: str) -> list[str | None]:
    reader = _Cards()
    reader.feed(page)
    reader.close()
    return reader.found


def check_cards(text: str, sanitize: Callable[[str], str]) -> list[str]:
    """What differs between the sanitized page and the page with raw HTML off."""
    plain = render_segments(text, message_id="m1")
    page = render_html(text, message_id="m1", html=True, sanitize=sanitize)
    problems = read_html(page).problems
    problems = [p for p in problems if not p.startswith(("element", "attribute", "class"))]
    if cards_of(page) != cards_of(plain.html):
        problems.append(f"cards {cards_of(page)} != {cards_of(plain.html)}")
    blocks = [s for s in plain.segmentation.segments if s.kind != "markdown"]
    for block in blocks:
        html, _ = block_card(block)
        if page.count(html) != 1:
            problems.append(f"card of {block.id} {page.count(html)} times")
    ids = re.findall(r' id="([^"]*)"', page)
    if len(ids) != len(set(ids)):
        problems.append(f"duplicate ids {ids}")
    if re.search(r"<(?:a|span|b|i|em|code)\b[^>]*>[^<]*<form", page):
        problems.append("a form inside an inline element")
    return problems


@pytest.mark.parametrize("sanitizer", list(SANITIZERS))
@pytest.mark.parametrize("context", list(CONTEXTS))
def test_no_decoding_makes_a_second_card(context: str, sanitizer: str) -> None:
    failures = {}
    for payload in MARKERS:
        problems = check_cards(CONTEXTS[context](payload), SANITIZERS[sanitizer])
        if problems:
            failures[payload] = problems
    assert failures == {}


@pytest.mark.parametrize("context", list(CONTEXTS))
def test_hostile_payloads_in_every_context(context: str) -> None:
    failures = {}
    for payload in PAYLOADS:
        problems = check_cards(CONTEXTS[context](payload), sanitize_html)
        if problems:
            failures[payload] = problems
    assert failures == {}


def test_the_reported_pages_hold_one_form_in_place() -> None:
    a = render_html(CONTEXTS["attribute"](MARKERS[0]), message_id="m1", html=True,
                    sanitize=sanitize_html)  # fmt: skip
    assert a.startswith('<p>x <span title="\ue0000\ue000">y</span> </p>\n<form class="replykit-')
    assert a.count("<form") == a.count('id="m1_q1:q1:0"') == 1
    b = render_html(CONTEXTS["autolink"](MARKERS[4]), message_id="m1", html=True,
                    sanitize=sanitize_html)  # fmt: skip
    assert '<a href="https://a/%EE%80%800%EE%80%80" rel="noopener noreferrer">' in b
    assert b.count("<form") == b.count('id="m1_q1:q1:0"') == 1


def test_a_sanitizer_writing_references_keeps_the_card_in_place() -> None:
    page = render_html(f"# Head <b>x</b> {FORM} tail\n", html=True, sanitize=ascii_refs)
    assert page.startswith('<h1>Head <b>x</b> <form class="replykit-form"')
    assert page.endswith("</form> tail</h1>\n")
    assert "&#57344;" not in page and "\ue000" not in page


def test_an_element_around_a_card_is_closed_before_it() -> None:
    # Each run between two cards is sanitized on its own (docs/html.md section 6).
    page = render_html(f"a <b>b {FORM} c</b> d\n", html=True, sanitize=sanitize_html)
    assert page.startswith('<p>a <b>b </b></p>\n<form class="replykit-form"')
    assert page.endswith("</form>\n<p> c d</p>\n")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)  # fmt: skip
@given(
    message=messages(),
    payload=st.sampled_from(MARKERS + PAYLOADS),
    context=st.sampled_from(list(CONTEXTS)),
    sanitizer=st.sampled_from(list(SANITIZERS)),
)
def test_sanitized_page_has_the_cards_of_the_plain_page(
    message: str, payload: str, context: str, sanitizer: str
) -> None:
    text = message + "\n\n" + CONTEXTS[context](payload)
    assert check_cards(text, SANITIZERS[sanitizer]) == []


def test_payloads_are_json_safe() -> None:
    # The markers reach the page through JSON as well (a form's own fields).
    for payload in MARKERS:
        form = {"title": payload, "questions": [{"id": "q", "type": "free_text", "text": "t"}]}
        text = f"<b>{payload}</b> <questionnaire>{json.dumps(form)}</questionnaire>\n"
        assert check_cards(text, sanitize_html) == []


def test_the_sanitizer_reads_each_character_once() -> None:
    # Linear work, counted: the runs between cards together are the paragraph once.
    read: list[int] = []

    def counting(fragment: str) -> str:
        read.append(len(fragment))
        return sanitize_html(fragment)

    for count in (10, 100, 1000):
        read.clear()
        # A heading keeps its cards in one inline run (a paragraph is split around them).
        text = "# <b>x</b> " + " and ".join(FORM for _ in range(count)) + " <i>end</i>\n"
        page = render_html(text, html=True, sanitize=counting)
        assert page.count("<form") == count
        assert len(read) == count + 1  # one run before, between and after the cards
        assert sum(read) == len("<b>x</b> ") + len(" and ") * (count - 1) + len(" <i>end</i>")
