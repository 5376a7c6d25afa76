"""The playground's analyze request: ``readonly`` locks every form and the cards'
labels follow ``locale`` (docs/serve.md, docs/html.md section 3)."""

from __future__ import annotations

import pytest

from replykit.markdown_it import render_html
from replykit.serve import api

FORM = (
    "Intro\n\n```questionnaire\ntitle: T\nquestions:\n"
    "  - type: free_text\n    text: Why?\n    default: ''\n```\n"
)


@pytest.mark.parametrize("locale", ["zh", "en"])
@pytest.mark.parametrize("readonly", [False, True])
def test_analyze_renders_as_render_html_with_the_same_switches(locale: str, readonly: bool) -> None:
    answer = api.analyze({"text": FORM, "message_id": "m", "locale": locale, "readonly": readonly})
    assert answer["html"] == render_html(FORM, message_id="m", locale=locale, readonly=readonly)
    assert ("data-replykit-readonly" in answer["html"]) is readonly
    assert ("Submit" if locale == "en" else "提交") in answer["html"]


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_readonly_must_be_a_boolean(value: object) -> None:
    with pytest.raises(api.RequestError, match=r"^readonly: must be a boolean"):
        api.analyze({"text": FORM, "readonly": value})
