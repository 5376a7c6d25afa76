"""Raw HTML in the Markdown, sanitized by the caller's function (docs/html.md
section 6).

Only what the message wrote as HTML goes through the sanitizer, never a card: a card
holds a form, which a sanitizer rightly removes, and letting forms through would let a
message forge one. An HTML block is sanitized on its own. A paragraph (or heading)
holding inline raw HTML is rendered whole, cards standing in as placeholders, and
sanitized whole, so ``<b>x</b>`` keeps its tags; the cards are then put back (a card
whose placeholder the sanitizer removed, inside a ``<script>`` for instance, follows
the paragraph).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from replykit.markdown_it.plan import Plan

Sanitizer = Callable[[str], str]
ENV_KEY = "replykit"


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
    stand_ins: list[Token] = []
    for child in children:
        if plan is not None and child.type == "replykit_card":
            text = Token("text", "", 0)
            text.content = f"{plan.marker}{child.meta['index']}{plan.marker}"
            stand_ins.append(text)
        elif child.type == "html_inline":  # raw here: the whole paragraph is sanitized
            raw = Token("replykit_html", "", 0)
            raw.content = child.content
            stand_ins.append(raw)
        else:
            stand_ins.append(child)
    renderer: Any = state.md.renderer  # RendererHTML; its protocol lacks renderInline
    rendered: str = renderer.renderInline(stand_ins, state.md.options, state.env)
    clean = sanitize(rendered)
    if plan is None:
        return clean
    wanted = [c.meta["index"] for c in children if c.type == "replykit_card"]
    seen: list[int] = []

    def card(index: str) -> str:
        seen.append(int(index))
        return plan.cards[int(index)].html

    clean = plan.pattern.sub(lambda m: card(m.group(1)), clean)
    lost = [plan.cards[i].html for i in wanted if i not in seen]
    return clean + "".join(lost)


def html_rule(sanitize: Sanitizer) -> Callable[..., str]:
    """A render rule for ``html_block`` and ``html_inline``: the content sanitized."""

    def rule(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return sanitize(tokens[idx].content)

    return rule


def render_done(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """A ``replykit_html`` token: HTML already sanitized."""
    return tokens[idx].content
