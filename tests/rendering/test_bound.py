"""The page's bound (docs/html.md section 8): render_html and the playground's
/api/analyze answer are at most 16 x their input plus 256 KiB, the message id and the
other options counted as input; past it the largest cards show their raw text."""

from __future__ import annotations

import html
import json
import re

from replykit.jsonout import dumps
from replykit.markdown_it import render_html, render_segments
from replykit.serve import api

from .checker import read_html

SLACK = 256 * 1024


def grid(questions: int, options: int = 1000) -> str:
    """The worst shape measured: many questions of many short options."""
    opts = [str(i) for i in range(options)]
    qs = [
        {"id": f"q{j}", "type": "multi_choice", "text": "Q", "options": opts}
        for j in range(questions)
    ]
    payload = json.dumps({"questions": qs}, separators=(",", ":"))
    return f"x\n\n<questionnaire>{payload}</questionnaire>\n\nafter\n"


def size(*parts: str) -> int:
    return sum(len(p.encode("utf-8")) for p in parts)


def test_a_form_grid_stays_within_the_bound_as_its_raw_text() -> None:
    text = grid(8)
    for message_id in ("m1", "M" * 128):
        out = render_html(text, message_id=message_id)
        assert size(out) <= 16 * size(text, message_id, "client") + SLACK
        assert size(out) < 3 * size(text)  # escaped raw text: well under the bound
        summary = re.search(r'<div class="replykit-too-large"([^>]*)>', out)
        assert summary is not None
        assert f'data-replykit-block="{message_id}_q1"' in summary.group(1)
        assert "<form" not in out
        raw = re.search(r"<pre><code dir=\"auto\">(.*?)</code></pre>", out, re.S)
        assert raw is not None
        block = text[len("x\n\n") : text.index("\n\nafter")]
        assert html.unescape(raw.group(1)) == block  # nothing of the block is lost
        assert out.startswith("<p>x</p>\n") and out.endswith("<p>after</p>\n")
        assert read_html(out).problems == []


def test_the_size_the_card_would_have_taken_is_given() -> None:
    text = grid(8)
    full = int(re.findall(r'data-replykit-size="(\d+)"', render_html(text))[0])
    assert full > 16 * size(text) + SLACK


def test_forms_within_the_bound_are_untouched() -> None:
    text = grid(2, 100)
    out = render_html(text, message_id="M" * 128)
    assert out.count("<form") == 1 and "replykit-too-large" not in out
    assert out.count('<input type="checkbox"') == 200


def test_only_the_largest_cards_are_summarized() -> None:
    big = grid(8).split("\n\n")[1]
    small = (
        '<questionnaire>{"questions":[{"id":"q","type":"free_text","text":"t"}]}</questionnaire>'
    )
    text = f"{small}\n\n{big}\n\n{small}\n"
    out = render_segments(text, message_id="m")
    assert out.html.count("<form") == 2
    assert re.findall(r'data-replykit-block="([^"]+)"', out.html) == ["m_q1", "m_q2", "m_q3"]
    assert out.html.count("replykit-too-large") == 1


def test_a_reference_used_many_times_is_never_built() -> None:
    url = "https://x/" + "a" * 20000
    text = f"[a]: {url}\n\n" + "[a] " * 5000 + "\n"
    out = render_html(text)
    assert size(out) <= 16 * size(text, "message", "client") + SLACK
    assert out.startswith('<div class="replykit-too-large"><p>')
    body = re.search(r"<code dir=\"auto\">(.*)</code>", out, re.S)
    assert body is not None and html.unescape(body.group(1)) == text


def test_markup_amplifying_past_the_bound_shows_the_raw_text() -> None:
    text = (">" * 100 + "x\n\n") * 600  # 100 quotes opened and closed per 102 bytes
    out = render_html(text)
    assert size(out) <= 16 * size(text, "message", "client") + SLACK
    assert "replykit-too-large" in out and "<blockquote>" not in out


def test_the_analyze_answer_stays_within_the_bound() -> None:
    request = {"text": grid(16), "message_id": "M" * 128}
    body = json.dumps(request)
    answer = api.analyze(json.loads(body))
    written = dumps(answer, compact=True).encode("utf-8")
    assert len(written) <= 16 * len(body.encode("utf-8")) + SLACK
    assert "replykit-too-large" in answer["html"]
    assert [s["id"] for s in answer["segments"] if s["kind"] != "markdown"] == ["M" * 128 + "_q1"]


def test_a_small_analyze_answer_is_unchanged() -> None:
    request = {"text": grid(1, 10), "message_id": "m"}
    answer = api.analyze(request)
    assert answer["html"] == render_html(request["text"], message_id="m", locale="en")
    assert answer["html"].count("<form") == 1
