"""The markdown-it-py plugin: blocks found by ``segment()``, one markdown-it pass over
the message with placeholders, the cards put in their place (docs/html.md).

Two core rules: ``replykit_blocks`` (before ``normalize``) segments the source and puts
the placeholders in (:mod:`.plan`); ``replykit_cards`` (after ``inline``) turns each
placeholder into a ``replykit_card`` token. An XML+JSON block's placeholder sits in its
paragraph's inline content; that content is read in pieces around it, so nothing
opened before a block goes on after it and reading resumes as text of the same line
(§3b "Candidates in place"). A paragraph holding a form is split around it (a
``<form>`` cannot sit in a ``<p>``); a list item or block quote goes on.
"""

from __future__ import annotations

import re
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from replykit.markdown_it.bound import least_size, whole_summary
from replykit.markdown_it.cards import CardOptions, card_options
from replykit.markdown_it.nesting import add_deep_rule
from replykit.markdown_it.plan import Card, Plan, make_plan
from replykit.markdown_it.raw_html import (
    ENV_KEY,
    LIMIT_KEY,
    Sanitizer,
    html_rule,
    render_done,
    sanitizing_rule,
)
from replykit.questionnaire.compat import Compat
from replykit.questionnaire.compat import resolve as resolve_compat
from replykit.questionnaire.limits import message_id_problem
from replykit.questionnaire.payload.yaml_loader import choose_loader
from replykit.questionnaire.profiles import CLIENT, Profile, resolve_profile

_BREAKS = ("softbreak", "hardbreak")


class RawHtmlWarning(UserWarning):
    """Raw HTML in the Markdown is on and nothing sanitizes it (docs/html.md section 6)."""


RAW_HTML_WARNING = (
    "raw HTML in the Markdown is on and nothing sanitizes it: a message can run script "
    "in the page; pass sanitize=replykit.markdown_it.sanitize_html (nh3) or your own "
    "sanitizer (docs/html.md)"
)


@attrs.frozen
class _Options:
    message_id: str
    profile: Profile
    compat: Compat | str | None
    cards: CardOptions


def check_arguments(message_id: object, profile: object, compat: object, sanitize: object) -> None:
    """``TypeError`` naming the argument when one has the wrong type; ``ValueError`` for
    a ``message_id`` :func:`replykit.segment` refuses (§6) or that holds NUL, and for
    an unknown ``profile`` or ``compat`` name, before any rendering."""
    if not isinstance(message_id, str):
        raise TypeError(f"argument 'message_id' must be str, not {type(message_id).__name__}")
    problem = message_id_problem(message_id)
    if problem is not None:
        raise ValueError(f"message_id {problem}")
    if "\0" in message_id:  # HTML reads NUL as U+FFFD: the page's ids would differ
        raise ValueError("message_id holds NUL, which HTML cannot carry (docs/html.md)")
    if not isinstance(profile, Profile | str):
        raise TypeError(f"argument 'profile' must be Profile or str, not {type(profile).__name__}")
    if compat is not None and not isinstance(compat, Compat | str):
        raise TypeError(
            f"argument 'compat' must be Compat, str or None, not {type(compat).__name__}"
        )
    if sanitize is not None and not callable(sanitize):
        raise TypeError(
            f"argument 'sanitize' must be callable or None, not {type(sanitize).__name__}"
        )
    resolve_profile(profile)
    resolve_compat(compat)
    choose_loader()  # a bad REPLYKIT_YAML_LOADER fails before any rendering (§1.2)


def questionnaire_plugin(
    md: MarkdownIt,
    *,
    message_id: str = "message",
    profile: Profile | str = CLIENT,
    compat: Compat | str | None = None,
    sanitize: Sanitizer | None = None,
    readonly: bool = False,
    locale: str = "zh",
) -> None:
    """Make ``md`` render questionnaire blocks where ``segment()`` finds them (§2, §3).

    Use: ``MarkdownIt("commonmark", {"html": False}).use(questionnaire_plugin,
    message_id="m1")``; then ``md.render(text)`` returns HTML in which each block of
    ``text`` is a card: a valid request an accessible ``<form>``, a valid response a
    read-only summary, a registered invalid block its escaped raw text and diagnostics,
    an unregistered block ordinary Markdown (§2). ``message_id``, ``profile`` and
    ``compat`` are :func:`replykit.segment`'s (``profile`` a :class:`Profile` or a
    name the CLI takes, ``client``, ``self_check``, ``product:NAME``; block ids are
    ``{message_id}_q{n}``, §6); ``md.render(text, env)`` leaves the render's plan,
    whose ``segmentation`` is ``segment()``'s result, in ``env["replykit"]``.
    ``sanitize``: a function from an HTML fragment to safe HTML, applied to each raw
    HTML block and to each paragraph holding inline raw HTML (never to a card) when
    ``md`` has raw HTML on; with raw HTML on and no ``sanitize`` a
    :class:`RawHtmlWarning` is issued (pointing at the line that called ``md.use``).
    With raw HTML off, ``md`` reads raw HTML and shows it as escaped text (docs/html.md
    section 6). ``md.renderInline`` is not covered (no blocks). Any preset works: with
    markdown-it's ``fence`` rule off a fenced block's card still stands where its block
    is; text nested deeper than ``md``'s ``maxNesting`` is shown as text, cards in
    place (docs/html.md section 7). ``readonly``: every form locked, nothing can be
    submitted (§11: only the latest message that is not read-only takes answers);
    ``locale`` (``zh`` default, or ``en``): the card's own labels (提交/Submit,
    其他/Other, ...; docs/html.md section 3).

    Raises ``TypeError`` naming the argument for a wrong type, ``ValueError`` for an
    unknown ``profile``, ``compat`` name or ``locale``, a ``message_id`` ``segment()`` refuses
    (empty or only white space, over 128 code points, holding a surrogate or NUL, §6),
    and for an ``md`` the plugin is already used on (one ``md`` serves one message id).
    """
    if not isinstance(md, MarkdownIt):
        raise TypeError(f"argument 'md' must be MarkdownIt, not {type(md).__name__}")
    check_arguments(message_id, profile, compat, sanitize)
    cards = card_options(readonly, locale)
    if "replykit_blocks" in md.core.ruler.get_all_rules():
        raise ValueError(
            "questionnaire_plugin is already used on this MarkdownIt: make one MarkdownIt "
            "per message id (docs/html.md section 1)"
        )
    if md.options.get("html") and sanitize is None:
        warnings.warn(RAW_HTML_WARNING, RawHtmlWarning, stacklevel=_user_level())
    if not md.options.get("html"):
        read_html_show_text(md)
    options = _Options(message_id, resolve_profile(profile), compat, cards)
    _install(md, _blocks_rule(options), sanitize)


def _blocks_rule(options: _Options) -> Callable[[StateCore], None]:
    """The core rule that segments the source and puts the placeholders in."""

    def blocks(state: StateCore) -> None:
        if state.inlineMode:
            return
        plan = make_plan(
            state.src,
            message_id=options.message_id,
            profile=options.profile,
            compat=options.compat,
            fence="fence" in state.md.block.ruler.get_active_rules(),
            style=options.cards,
            **state.env.get(LIMIT_KEY, {}),
        )
        state.src = plan.source
        state.env[ENV_KEY] = plan

    return blocks


def _install(
    md: MarkdownIt, blocks: Callable[[StateCore], None], sanitize: Sanitizer | None
) -> None:
    """The plugin's rules: blocks first, cards after ``inline``, the nesting rule first
    among block rules, sanitizing then the bound last."""
    md.core.ruler.before("normalize", "replykit_blocks", blocks)
    md.core.ruler.after("block", "replykit_references", restore_references)
    md.core.ruler.after("inline", "replykit_cards", place_cards)
    add_deep_rule(md)
    md.add_render_rule("replykit_card", render_card)
    if sanitize is not None:
        md.core.ruler.push("replykit_sanitize", sanitizing_rule(sanitize))
        md.add_render_rule("replykit_html", render_done)
        md.add_render_rule("html_block", html_rule(sanitize))
        md.add_render_rule("html_inline", html_rule(sanitize))
    md.core.ruler.push("replykit_bound", bound_rule)
    md.add_render_rule("replykit_summary", render_summary)


def bound_rule(state: StateCore) -> None:
    """Run last: a page whose tokens alone pass the bound (docs/html.md section 8) is
    shown as the message's raw text instead, before markdown-it builds it."""
    plan = state.env.get(ENV_KEY)
    if isinstance(plan, Plan) and least_size(state.tokens) > plan.limit:
        token = Token("replykit_summary", "", 0)
        text = "".join(s.text for s in plan.segmentation.segments)
        token.content = whole_summary(text, plan.locale)
        state.tokens = [token]


def render_summary(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """The whole-message summary (its text already escaped)."""
    return tokens[idx].content


def _user_level() -> int:
    """The ``stacklevel`` that points a warning of :func:`questionnaire_plugin` at the
    caller's line: through ``md.use`` one frame further out."""
    caller = sys._getframe(2)
    return 3 if caller.f_globals.get("__name__") == "markdown_it.main" else 2


def read_html_show_text(md: MarkdownIt) -> None:
    """Raw HTML off: markdown-it would read no HTML blocks, so a fence line inside one
    would open code that swallows later blocks. Turn ``md.options["html"]`` on, so HTML
    blocks end where CommonMark says and blocks are where ``segment()`` finds them
    (§3b), and render raw HTML blocks and inline HTML as escaped text."""
    md.options["html"] = True
    md.add_render_rule("html_block", html_as_text)
    md.add_render_rule("html_inline", html_as_text)


def html_as_text(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Raw HTML with raw HTML off: its text escaped (an HTML block as a paragraph)."""
    token = tokens[idx]
    shown = escapeHtml(token.content)
    return f"<p>{shown.rstrip()}</p>\n" if token.type == "html_block" else shown


def render_card(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """The card's HTML (a block card ends with a line break). Raises ``ValueError``
    when the tokens are rendered without the ``env`` they were parsed with (the plan
    of the cards is kept there: ``md.renderer.render(tokens, md.options, env)``)."""
    plan = env.get(ENV_KEY) if isinstance(env, dict) else None
    if not isinstance(plan, Plan):
        raise ValueError(
            "render the tokens with the env md.parse() filled: "
            "md.renderer.render(tokens, md.options, env)"
        )
    card: Card = plan.cards[tokens[idx].meta["index"]]
    return card.html + "\n" if card.block else card.html


def restore_references(state: StateCore) -> None:
    """A placeholder markdown-it read into a link reference definition's destination or
    title (where it shows no card) becomes the block's raw text there, so a link made
    from the definition carries what the message wrote, never the renderer's stand-in;
    the card follows the message (:func:`place_cards`)."""
    plan = state.env.get(ENV_KEY)
    references = state.env.get("references")
    if not isinstance(plan, Plan) or not plan.cards or not isinstance(references, dict):
        return
    normalize = state.md.normalizeLink
    encoded = normalize(plan.marker)
    in_href = re.compile(f"{re.escape(encoded)}([0-9]+){re.escape(encoded)}")
    for reference in references.values():
        href, title = reference.get("href"), reference.get("title")
        if isinstance(href, str) and encoded in href:
            reference["href"] = in_href.sub(lambda m: _block_raw(m, plan, normalize), href)
        if isinstance(title, str) and plan.marker in title:
            reference["title"] = plan.pattern.sub(lambda m: _block_raw(m, plan, str), title)


def _block_raw(match: re.Match[str], plan: Plan, spell: Callable[[str], str]) -> str:
    """The raw text of the block a placeholder ``match`` names, as ``spell`` writes it;
    the match unchanged when it names none (the marker is chosen so that this cannot
    happen: kept as it was rather than raise)."""
    digits = match.group(1)
    if len(digits) > len(str(len(plan.cards))):  # also keeps int() from a huge number
        return match.group()
    index = int(digits)
    return spell(plan.cards[index].raw) if index < len(plan.cards) else match.group()


def place_cards(state: StateCore) -> None:
    """Replace every placeholder of this render by a ``replykit_card`` token; a card
    whose placeholder markdown-it read into a construct that shows no cards (a link
    reference definition) is put at the end, so no block is ever dropped (§2)."""
    plan = state.env.get(ENV_KEY)
    if not isinstance(plan, Plan) or not plan.cards:
        return
    placed: set[int] = set()
    tokens: list[Token] = []
    for token in state.tokens:
        tokens.extend(_place(token, state, plan, placed))
    tokens = list(_lift(tokens, plan))
    for index in range(len(plan.cards)):
        if index not in placed:
            tokens.append(_card(index, plan, 0))
    state.tokens = tokens


def _card(index: int, plan: Plan, level: int) -> Token:
    token = Token("replykit_card", "", 0)
    token.meta = {"index": index}
    token.level = level
    token.block = plan.cards[index].block
    return token


def _place(token: Token, state: StateCore, plan: Plan, placed: set[int]) -> list[Token]:
    if token.type == "fence" and (found := plan.pattern.fullmatch(token.info)):
        placed.add(int(found.group(1)))
        return [_card(int(found.group(1)), plan, token.level)]
    if plan.marker not in token.content:
        return [token]
    if token.type == "inline":
        token.children = _split_inline(token.content, state, plan, placed)
        return [token]
    if token.type == "html_block":
        return list(_split_html(token, plan, placed))
    # Code in markdown-it's reading where replykit found a block: show its raw text.
    token.content = plan.pattern.sub(lambda m: _raw(m.group(1), plan, placed), token.content)
    return [token]


def _raw(index: str, plan: Plan, placed: set[int]) -> str:
    placed.add(int(index))
    return plan.cards[int(index)].raw


def _split_inline(content: str, state: StateCore, plan: Plan, placed: set[int]) -> list[Token]:
    children: list[Token] = []
    start = 0
    for found in plan.pattern.finditer(content):
        children.extend(_inline_tokens(content[start : found.start()], state))
        index = int(found.group(1))
        placed.add(index)
        children.append(_card(index, plan, 0))
        start = found.end()
    children.extend(_inline_tokens(content[start:], state))
    return children


def _inline_tokens(text: str, state: StateCore) -> list[Token]:
    out: list[Token] = []
    if text:
        state.md.inline.parse(text, state.md, state.env, out)
    return out


def _split_html(token: Token, plan: Plan, placed: set[int]) -> Iterator[Token]:
    start = 0
    for found in plan.pattern.finditer(token.content):
        yield _html_piece(token, token.content[start : found.start()])
        index = int(found.group(1))
        placed.add(index)
        yield _card(index, plan, token.level)
        start = found.end()
    yield _html_piece(token, token.content[start:])


def _html_piece(token: Token, content: str) -> Token:
    piece = token.copy()
    piece.content = content
    return piece


def _lift(tokens: list[Token], plan: Plan) -> Iterator[Token]:
    """Split each shown paragraph around the block cards in it (HTML closes a ``<p>``
    at a ``<form>`` or ``<div>`` anyway); empty pieces are left out."""
    i = 0
    while i < len(tokens):
        token = tokens[i]
        inline = tokens[i + 1] if i + 2 < len(tokens) else None
        if (
            token.type == "paragraph_open"
            and not token.hidden
            and inline is not None
            and any(_is_block_card(child, plan) for child in inline.children or ())
        ):
            yield from _split_paragraph(token, inline, tokens[i + 2], plan)
            i += 3
            continue
        yield token
        i += 1


def _is_block_card(token: Token, plan: Plan) -> bool:
    return token.type == "replykit_card" and plan.cards[token.meta["index"]].block


def _split_paragraph(opener: Token, inline: Token, closer: Token, plan: Plan) -> Iterator[Token]:
    run: list[Token] = []
    for child in [*(inline.children or ()), None]:
        if child is None or _is_block_card(child, plan):
            if any(not _blank(t) for t in run):
                piece = inline.copy()
                piece.children = _trimmed(run)
                piece.content = ""
                yield from (opener.copy(), piece, closer.copy())
            run = []
            if child is not None:
                child.level = opener.level
                yield child
        else:
            run.append(child)


def _trimmed(run: list[Token]) -> list[Token]:
    start, end = 0, len(run)
    while run[start].type in _BREAKS:
        start += 1
    while run[end - 1].type in _BREAKS:
        end -= 1
    return run[start:end]


def _blank(token: Token) -> bool:
    return token.type in _BREAKS or (token.type == "text" and not token.content.strip())
