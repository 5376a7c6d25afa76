"""One call: a message to HTML (docs/html.md), with raw HTML off unless asked for."""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from markdown_it import MarkdownIt

from replykit.actions import ActionContext
from replykit.markdown_it.actions_html import actions_html, check_actions
from replykit.markdown_it.bound import Measure, output_limit, utf8_size, whole_summary
from replykit.markdown_it.cards import DEFAULT_CARDS, CardOptions, card_options
from replykit.markdown_it.markup import text_safe
from replykit.markdown_it.nesting import RENDER_NESTING
from replykit.markdown_it.plan import Plan
from replykit.markdown_it.plugin import (
    RAW_HTML_WARNING,
    RawHtmlWarning,
    check_arguments,
    questionnaire_plugin,
)
from replykit.markdown_it.raw_html import ENV_KEY, LIMIT_KEY, Sanitizer
from replykit.questionnaire.compat import Compat
from replykit.questionnaire.model import Segmentation
from replykit.questionnaire.profiles import CLIENT, Profile, resolve_profile

_SCHEME = re.compile(r"[a-z][a-z0-9+.\-]*:", re.IGNORECASE | re.ASCII)
# What a browser's URL parser drops first (WHATWG URL: C0 controls and space at the
# ends, ASCII tab and newline anywhere); it folds ASCII case only.
_C0_SPACE = "".join(chr(c) for c in range(0x21))
_URL_SPACE = re.compile("[\t\n\r]")


@attrs.frozen
class RenderedMessage:
    """``html``: the rendered message; ``segmentation``: :func:`replykit.segment`'s
    result it was rendered from (its offsets index the message, §2)."""

    html: str
    segmentation: Segmentation


def web_link(url: str) -> bool:
    """markdown-it's link check for :func:`render_html`: a link or image URL is kept
    only when it has no scheme (relative) or is http or https, so ``javascript:``,
    ``data:``, ``vbscript:`` and ``file:`` never reach an ``href`` or ``src``.

    Input: any ``str``, read as a browser reads a URL: leading and trailing C0 controls
    and spaces are dropped and tabs and line breaks removed first, so
    ``"java\\tscript:x"`` and ``"\\x01javascript:x"`` are ``javascript:`` URLs (False).
    Output: True when the URL may be shown (a value that is no ``str`` never may).
    Never raises. A check of the scheme only: markdown-it also percent-encodes the URL
    before it writes it."""
    if not isinstance(url, str):
        return False
    cleaned = _URL_SPACE.sub("", url.strip(_C0_SPACE))
    found = _SCHEME.match(cleaned)
    return found is None or found.group().lower() in ("http:", "https:")


def sanitize_html(fragment: str) -> str:
    """An HTML fragment made safe by nh3 (ammonia's allow-list; only http, https and
    mailto URLs; ``rel="noopener noreferrer"`` on links). The sanitizer offered for raw
    HTML in the Markdown (docs/html.md section 6). Raises ``ModuleNotFoundError``
    when nh3 is missing (install ``replykit[html]``)."""
    import nh3

    return nh3.clean(fragment, url_schemes={"http", "https", "mailto"})


def render_segments(
    text: str,
    *,
    message_id: str = "message",
    profile: Profile | str = CLIENT,
    compat: Compat | str | None = None,
    html: bool = False,
    sanitize: Sanitizer | None = None,
    actions: Sequence[Mapping[str, Any]] | None = None,
    action_context: ActionContext | None = None,
    readonly: bool = False,
    locale: str = "zh",
) -> RenderedMessage:
    """:func:`render_html`'s HTML and the :class:`~replykit.Segmentation` it was
    rendered from (§2), read once for both.

    Input and errors: as :func:`render_html` (the same arguments, checked the same
    way). Output: a :class:`RenderedMessage`; ``html`` is what :func:`render_html`
    returns, ``segmentation`` is ``segment(text, message_id=..., profile=...,
    compat=...)`` (offsets are code-point indices into the message, §2).
    """
    return _render(
        text,
        _Options(
            message_id, profile, compat, html, sanitize, actions, action_context, readonly, locale
        ),
    )


def render_html(
    text: str,
    *,
    message_id: str = "message",
    profile: Profile | str = CLIENT,
    compat: Compat | str | None = None,
    html: bool = False,
    sanitize: Sanitizer | None = None,
    actions: Sequence[Mapping[str, Any]] | None = None,
    action_context: ActionContext | None = None,
    readonly: bool = False,
    locale: str = "zh",
) -> str:
    """Render one assistant message to HTML (docs/html.md; §2, §3).

    Input: ``text`` (the message), ``message_id``/``profile``/``compat`` as for
    :func:`replykit.segment` (``profile`` a :class:`Profile` or ``client``,
    ``self_check``, ``product:NAME``; ``compat`` a :class:`~replykit.Compat`, ``sage``
    or None, §9; block ids ``{message_id}_q{n}``, §6). Output: HTML from markdown-it's
    ``commonmark`` preset (nesting up to 100 levels, deeper text shown as text) with
    each block as its card (§2: a valid request a ``<form>``, a valid response a
    read-only summary, a registered invalid block its escaped raw text with its
    diagnostics, an unregistered block ordinary Markdown). Links and images keep only
    relative, http and https URLs. At most 16 x the UTF-8 bytes of ``text``,
    ``message_id`` and the profile and compat names, plus 256 KiB, before the action
    buttons: past that, the largest cards show their raw text instead (docs/html.md
    section 8).

    ``html``: raw HTML in the Markdown, off by default; on, every raw HTML fragment goes
    through ``sanitize`` (for instance :func:`sanitize_html`), and without one a
    :class:`RawHtmlWarning` is issued. ``actions``: a list of answer actions (the
    answer's ``actions`` array, §12) shown after the message as buttons
    (:func:`~replykit.markdown_it.actions_html`); ``action_context`` (an
    :class:`~replykit.actions.ActionContext`) chooses the confirmation texts' locale.
    ``readonly``: every form drawn locked (``data-replykit-readonly``, its fieldsets
    and submit button ``disabled``): for a message that is not the latest or is shown
    read-only (§11). ``locale`` (``zh`` default, or ``en``): the language of the
    card's own labels (提交/Submit, 其他/Other, 问卷回答/Questionnaire answers,
    未填写/Not answered) where the form's ``ui_text`` gives none (docs/html.md
    section 3).

    Raises ``TypeError`` naming the argument for a wrong type (``actions`` not a list or
    tuple, ``action_context`` not an ``ActionContext``: checked whether or not they are
    used; ``readonly`` not a ``bool``, ``locale`` not a ``str``) and ``ValueError`` for
    an unknown ``profile``, ``compat`` name or ``locale``, or a
    ``message_id`` :func:`replykit.segment` refuses or that holds NUL (§6); nothing
    else, whatever the text.
    """
    return _render(
        text,
        _Options(
            message_id, profile, compat, html, sanitize, actions, action_context, readonly, locale
        ),
    ).html


@attrs.frozen
class _Options:
    message_id: Any
    profile: Any
    compat: Any
    html: Any
    sanitize: Any
    actions: Any
    action_context: Any
    readonly: Any
    locale: Any


def _render(text: str, options: _Options, limit: int | None = None) -> RenderedMessage:
    """Check the arguments, warn at the caller's caller, render within the bound."""
    if not isinstance(text, str):
        raise TypeError(f"argument 'text' must be str, not {type(text).__name__}")
    check_arguments(options.message_id, options.profile, options.compat, options.sanitize)
    if not isinstance(options.html, bool):
        raise TypeError(f"argument 'html' must be bool, not {type(options.html).__name__}")
    check_actions(options.actions, options.action_context, "action_context")
    cards = card_options(options.readonly, options.locale)
    if options.html and options.sanitize is None:
        warnings.warn(RAW_HTML_WARNING, RawHtmlWarning, stacklevel=3)
    if limit is None:
        limit = output_limit(text, options.message_id, *_names(options))
    out, segmentation = render_bounded(
        text,
        message_id=options.message_id,
        profile=options.profile,
        compat=options.compat,
        html=options.html,
        sanitize=options.sanitize,
        limit=limit,
        cards=cards,
    )
    if options.actions is not None:
        out += actions_html(options.actions, options.action_context)
    return RenderedMessage(out, segmentation)


def _names(options: _Options) -> list[str]:
    profile = resolve_profile(options.profile)
    names = [profile.name, *profile.requests]
    return [*names, options.compat] if isinstance(options.compat, str) else names


def render_bounded(
    text: str,
    *,
    message_id: str,
    profile: Profile | str,
    compat: Compat | str | None,
    html: bool = False,
    sanitize: Sanitizer | None = None,
    limit: int,
    measure: Measure = utf8_size,
    cards: CardOptions = DEFAULT_CARDS,
) -> tuple[str, Segmentation]:
    """The message's HTML measuring at most ``limit`` by ``measure`` (the UTF-8 bytes by
    default): the largest cards summarized, else the whole message as its raw text
    (docs/html.md section 8); and its segmentation. The arguments are
    :func:`render_html`'s, already checked (the caller's); raises nothing else."""
    md = MarkdownIt("commonmark", {"html": html, "maxNesting": RENDER_NESTING})
    md.validateLink = web_link  # type: ignore[method-assign]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RawHtmlWarning)
        md.use(
            questionnaire_plugin,
            message_id=message_id,
            profile=profile,
            compat=compat,
            sanitize=sanitize,
            readonly=cards.readonly,
            locale=cards.locale,
        )
    env: dict[str, Any] = {LIMIT_KEY: {"limit": limit, "measure": measure}}
    out = text_safe(md.render(text, env))
    plan = env[ENV_KEY]
    assert isinstance(plan, Plan)
    if measure(out) > limit:
        out = whole_summary(text, cards.locale)
    return out, plan.segmentation
