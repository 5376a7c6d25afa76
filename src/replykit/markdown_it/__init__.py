"""Questionnaire blocks in HTML through markdown-it-py (docs/html.md; §2, §3).

Install the extra: ``pip install 'replykit[html]'`` (markdown-it-py; nh3 for
:func:`sanitize_html`). :func:`questionnaire_plugin` makes a ``MarkdownIt`` render each
block ``segment()`` finds as a card in its place; :func:`render_html` does it in one
call with raw HTML off; :func:`render_segments` also returns the segmentation;
:func:`actions_html` renders answer actions (§12) as buttons;
:func:`tool_form_html` renders a ``questionnaire_async`` form (§7) as the same card.
"""

from __future__ import annotations

try:
    import markdown_it as _markdown_it  # noqa: F401  (the extra, checked first)
except ModuleNotFoundError as error:  # pragma: no cover - depends on the install
    raise ModuleNotFoundError(
        "replykit.markdown_it needs markdown-it-py: pip install 'replykit[html]'",
        name=error.name,
    ) from error

from replykit.markdown_it.actions_html import actions_html
from replykit.markdown_it.plugin import RawHtmlWarning, questionnaire_plugin
from replykit.markdown_it.raw_html import ENV_KEY
from replykit.markdown_it.render import (
    RenderedMessage,
    render_html,
    render_segments,
    sanitize_html,
    web_link,
)
from replykit.markdown_it.tool_card import tool_form_html

__all__ = [
    "ENV_KEY",
    "RawHtmlWarning",
    "RenderedMessage",
    "actions_html",
    "questionnaire_plugin",
    "render_html",
    "render_segments",
    "sanitize_html",
    "tool_form_html",
    "web_link",
]
