"""Raw HTML in the Markdown, sanitized by the caller's function (docs/html.md
section 6).

Only what the message wrote as HTML goes through the sanitizer, never a card: a card
holds a form, which a sanitizer rightly removes, and letting forms through would let a
message forge one. An HTML block is sanitized on its own. A paragraph (or heading)
holding inline raw HTML is rendered and sanitized in runs, one between two cards, so
``<b>x</b>`` keeps its tags; the cards are written between the sanitized runs. No
placeholder ever goes through the sanitizer: whatever it or markdown-it decodes, no
text of the message can become a card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from replykit.markdown_it.plan import Plan

Sanitizer = Callable[[str], str]
ENV_KEY = "replykit"
# The env entry render_segments passes make_plan: ``limit`` and ``measure`` (bound.py).
LIMIT_KEY = "replykit_limit"


def sanitizing_rule(sanitize: Sanitizer) -> Callable[[StateCore], None]:
    """A core rule (run last) that replaces each inline token holding ``html_inline``
    children by one ``replykit_html`` token of sanitized HTML."""

    def rule(state: StateCore) -> None:
        plan = state.env.get(ENV_KEY)
        for token in state.tokens:
            children = token.children or []
            if token.type == "inline" and any(c.type == "html_inline" for c in children):
                html = _sanitized_inline(state, children, plan, sanitize)
                done = Token("replykit_html", "", 0)
                done.content = html
                token.children = [done]

    return rule


def _sanitized_inline(
    state: StateCore, children: list[Token], plan: Plan | None, sanitize: Sanitizer
) -> str:
    """Each run of the paragraph between two cards rendered and sanitized on its own,
    the cards' HTML written between the runs. No placeholder ever goes through the
    sanitizer, so nothing a sanitizer or markdown-it decodes (``&#xE000`` without
    ``;``, ``%EE%80%80`` in an autolink, references the sanitizer writes) can be taken
    for a card, and a card can never land in an attribute or a link."""
    out: list[str] = []
    run: list[Token] = []
    for child in [*children, None]:
        if child is not None and child.type != "replykit_card":
            run.append(_as_raw(child))
            continue
        if run:
            out.append(sanitize(_render_inline(state, run)))
            run = []
        if child is not None and plan is not None:
            out.append(plan.cards[child.meta["index"]].html)
    return "".join(out)


def _as_raw(child: Token) -> Token:
    if child.type != "html_inline":
        return child
    raw = Token("replykit_html", "", 0)  # raw here: the whole run is sanitized
    raw.content = child.content
    return raw


def _render_inline(state: StateCore, tokens: list[Token]) -> str:
    renderer: Any = state.md.renderer  # RendererHTML; its protocol lacks renderInline
    rendered: str = renderer.renderInline(tokens, state.md.options, state.env)
    return rendered


def html_rule(sanitize: Sanitizer) -> Callable[..., str]:
    """A render rule for ``html_block`` and ``html_inline``: the content sanitized."""

    def rule(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return sanitize(tokens[idx].content)

    return rule


def render_done(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """A ``replykit_html`` token: HTML already sanitized."""
    return tokens[idx].content
