"""The plugin on a MarkdownIt of one's own (docs/html.md section 1): used once per
``md``, any preset (with or without the fence rule), warnings pointing at the caller's
line, nesting past ``maxNesting`` shown as text with every card in place."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from replykit.markdown_it import (
    RawHtmlWarning,
    questionnaire_plugin,
    render_html,
    render_segments,
)

from .checker import read_html

EXAMPLE = (Path(__file__).parents[2] / "examples" / "task_paused.md").read_text("utf-8")
FORM = (
    '<questionnaire>{"title":"T","questions":[{"id":"q1","type":"single_choice",'
    '"text":"Q?","options":[{"value":"a","label":"A"}]}]}</questionnaire>'
)
FENCED = (
    '```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: t\n    default: ""\n'
    "```\n"
)


def test_the_plugin_twice_on_one_md_is_refused_before_it_changes_anything() -> None:
    md = MarkdownIt("commonmark", {"html": False}).use(questionnaire_plugin, message_id="m1")
    rules = md.core.ruler.get_all_rules()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RawHtmlWarning either: raw HTML is still off
        with pytest.raises(ValueError, match="already used on this MarkdownIt"):
            md.use(questionnaire_plugin, message_id="m2")
    assert md.core.ruler.get_all_rules() == rules
    out = md.render(EXAMPLE)
    assert out.count("<form") == 1 and 'data-replykit-block="m1_q1"' in out
    assert "\ue000" not in out


@pytest.mark.parametrize(
    "make",
    [
        lambda: MarkdownIt("zero"),
        lambda: MarkdownIt("commonmark", {"html": False}).disable("fence"),
        lambda: MarkdownIt("commonmark", {"html": False}),
    ],
    ids=["zero", "no fence", "commonmark"],
)
def test_fenced_cards_stand_in_place_on_any_preset(make: object) -> None:
    md = make().use(questionnaire_plugin, message_id="m1")  # type: ignore[operator]
    text = f"before\n{FENCED}after\n\n- item\n\n{FENCED}"
    out = md.render(text)
    assert "```" not in out and "\ue000" not in out
    assert out.count("<form") == 2
    first, second = out.index("<form"), out.rindex("<form")
    assert out.index("before") < first < out.index("after") < out.index("item") < second
    assert read_html(out).problems == []


def _where(caught: list[warnings.WarningMessage]) -> list[tuple[str, int]]:
    return [(w.filename, w.lineno) for w in caught if w.category is RawHtmlWarning]


def test_raw_html_warnings_point_at_the_callers_line() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = _line() + 1
        render_segments("x", html=True)
        render_html("x", html=True)
        MarkdownIt("commonmark").use(questionnaire_plugin)
        questionnaire_plugin(MarkdownIt("commonmark"))
    here = __file__
    assert _where(caught) == [(here, line), (here, line + 1), (here, line + 2), (here, line + 3)]


def _line() -> int:
    import inspect

    frame = inspect.currentframe()
    assert frame is not None and frame.f_back is not None
    return frame.f_back.f_lineno


@pytest.mark.parametrize("depth", [25, 100, 300])
@pytest.mark.parametrize("marker", ["> ", "- ", "1. ", "* > "])
def test_deep_text_is_shown_and_cards_stay_in_place(depth: int, marker: str) -> None:
    text = marker * depth + "before " + FORM + " after\n\nlast\n"
    out = render_segments(text, message_id="m1")
    html = out.html
    assert html.count("<form") == 1
    assert html.index("before") < html.index("<form") < html.index("after") < html.index("last")
    assert read_html(html).problems == []


@pytest.mark.parametrize("depth", [25, 100])
def test_nesting_up_to_the_renderers_limit_is_read_as_commonmark(depth: int) -> None:
    out = render_html("> " * depth + "hello\n")
    if depth < 98:
        assert out == "<blockquote>\n" * depth + "<p>hello</p>\n" + "</blockquote>\n" * depth
    else:  # past the limit: the rest shown as its text, nothing dropped
        assert "hello" in out and out.count("<blockquote>") == 98
        assert "<p>&gt; &gt; hello</p>" in out


def test_the_plugin_keeps_mds_own_limit_and_drops_nothing() -> None:
    md = MarkdownIt("commonmark", {"html": False}).use(questionnaire_plugin, message_id="m1")
    out = md.render("> " * 25 + "before " + FORM + " after\n")
    assert out.count("<blockquote>") == 18
    assert out.index("before") < out.index("<form") < out.index("after")


def test_rendering_without_the_parse_env_is_a_clear_error() -> None:
    md = MarkdownIt("commonmark", {"html": False}).use(questionnaire_plugin)
    text = 'Hi <questionnaire>{"questions":[{"type":"text","text":"Q"}]}</questionnaire>'
    env: dict[str, Any] = {}
    assert "replykit-form" in md.renderer.render(md.parse(text, env), md.options, env)
    with pytest.raises(ValueError, match=r"render the tokens with the env md\.parse"):
        md.renderer.render(md.parse(text), md.options, {})
