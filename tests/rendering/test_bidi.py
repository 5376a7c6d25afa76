"""Bidi isolation (docs/html.md section 5): every element holding text of the message
is an isolate (``dir="auto"``, or ``<bdi>`` for text quoted in the renderer's own
sentence), and a diagnostic writes bidi controls as ``\\uXXXX`` (§1.4), so an override
in the message reorders nothing around it."""

from __future__ import annotations

import pytest

from replykit.markdown_it import render_html, render_segments

from .checker import read_html
from .test_xss import ACTION_FIELDS, FIELDS

BIDI = ["\u202eEVIL", "\u2066x", "\u202bfrob", "a\u200fb", "\u061cz"]


@pytest.mark.parametrize("field", list(FIELDS))
def test_every_kind_of_message_text_is_isolated(field: str) -> None:
    for payload in BIDI:
        page = render_html(FIELDS[field](payload), message_id="m")
        reading = read_html(page)
        assert reading.unisolated == [], (payload, reading.unisolated)
        assert reading.problems == []


@pytest.mark.parametrize("field", list(ACTION_FIELDS))
def test_action_text_is_isolated(field: str) -> None:
    for payload in BIDI:
        page = render_html("Done.", message_id="m", actions=[ACTION_FIELDS[field](payload)])
        assert read_html(page).unisolated == []


def test_a_diagnostic_shows_the_override_it_quotes() -> None:
    text = (
        'x <questionnaire>{"questions":[{"id":"q1","type":"frob\u202eEVIL","text":"Q"}]}'
        "</questionnaire>\n"
    )
    page = render_html(text)
    item = page[page.index("<li") : page.index("</li>") + 5]
    assert "\u202e" not in item
    assert item.endswith(
        ": <bdi>questions[1].type &quot;frob\\u202eEVIL&quot; is not a question type; "
        "allowed: &quot;single_choice&quot;, &quot;multiple_choice&quot;, &quot;multi_choice"
        "&quot;, &quot;text&quot;, &quot;free_text&quot;.</bdi> (at <bdi>questions[1].type"
        "</bdi>)</li>"
    )
    assert "frob\u202eEVIL" in page  # the raw text itself, in its isolated <code>


def test_summaries_are_isolated_too() -> None:
    opts = [f"\u202e{i}" for i in range(1000)]
    qs = [{"id": f"q{j}", "type": "multi_choice", "text": "Q", "options": opts} for j in range(8)]
    import json

    text = f"<questionnaire>{json.dumps({'questions': qs}, ensure_ascii=False)}</questionnaire>\n"
    page = render_segments(text, message_id="M" * 128).html
    assert "replykit-too-large" in page
    assert read_html(page).unisolated == []
