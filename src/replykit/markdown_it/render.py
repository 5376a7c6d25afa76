"""One call: a message to HTML (docs/html.md), with raw HTML off unless asked for."""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from markdown_it import MarkdownIt

from replykit.actions import ActionContext
from replykit.markdown_it.actions_html import actions_html
from replykit.markdown_it.markup import text_safe
from replykit.markdown_it.plan import Plan
from replykit.markdown_it.plugin import (
    RAW_HTML_WARNING,
    RawHtmlWarning,
    check_arguments,
    questionnaire_plugin,
)
from replykit.markdown_it.raw_html import ENV_KEY, Sanitizer
from replykit.questionnaire.compat import Compat
from replykit.questionnaire.model import Segmentation
from replykit.questionnaire.profiles import CLIENT, Profile

_SCHEME = re.compile(r"[a-z][a-z0-9+.\-]*:", re.IGNORECASE | re.ASCII)
_C0_AND_SPACE = "".join(map(chr, range(0x21)))


@attrs.frozen
class RenderedMessage:
    """``html``: the rendered message; ``segmentation``: :func:`replykit.segment`'s
    result it was rendered from (its offsets index the message, §2)."""

    html: str
    segmentation: Segmentation


def web_link(url: str) -> bool:
    """markdown-it's link check for :func:`render_html`: a link or image URL is kept
    only when it has no scheme (relative) or is http or https, so ``javascript:``,
    ``data:``, ``vbscript:`` and ``file:`` never reach an ``href`` or ``src``."""
    # WHATWG URL parsing strips C0 controls and spaces, and folds ASCII case only.
    found = _SCHEME.match(url.strip(_C0_AND_SPACE))
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
) -> RenderedMessage:
    """:func:`render_html` and the :class:`~replykit.Segmentation` it rendered (§2)."""
    if not isinstance(text, str):
        raise TypeError(f"argument 'text' must be str, not {type(text).__name__}")
    check_arguments(message_id, profile, compat, sanitize)
    # A str or an answer object is no list of actions (iterating reads characters or keys).
    if actions is not None and (
        not isinstance(actions, Sequence) or isinstance(actions, str | bytes)
    ):
        raise TypeError(
            f"argument 'actions' must be a list of actions or None, not {type(actions).__name__}"
        )
    if not isinstance(html, bool):
        raise TypeError(f"argument 'html' must be bool, not {type(html).__name__}")
    if html and sanitize is None:
        warnings.warn(RAW_HTML_WARNING, RawHtmlWarning, stacklevel=3)
    md = MarkdownIt("commonmark", {"html": html})
    md.validateLink = web_link  # type: ignore[method-assign]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RawHtmlWarning)
        md.use(
            questionnaire_plugin,
            message_id=message_id,
            profile=profile,
            compat=compat,
            sanitize=sanitize,
        )
    env: dict[str, Any] = {}
    out = md.render(text, env)
    plan = env[ENV_KEY]
    assert isinstance(plan, Plan)
    if actions is not None:
        out += actions_html(actions, action_context)
    return RenderedMessage(text_safe(out), plan.segmentation)


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
) -> str:
    """Render one assistant message to HTML (docs/html.md; §2, §3).

    Input: ``text`` (the message), ``message_id``/``profile``/``compat`` as for
    :func:`replykit.segment` (``profile`` a :class:`Profile` or ``client``,
    ``self_check``, ``product:NAME``; block ids ``{message_id}_q{n}``, §6). Output: HTML from
    markdown-it's ``commonmark`` preset with each block as its card (§2: a valid request
    a ``<form>``, a valid response a read-only summary, a registered invalid block its
    escaped raw text with its diagnostics, an unregistered block ordinary Markdown).
    Links and images keep only relative, http and https URLs.

    ``html``: raw HTML in the Markdown, off by default; on, every raw HTML fragment goes
    through ``sanitize`` (for instance :func:`sanitize_html`), and without one a
    :class:`RawHtmlWarning` is issued. ``actions``: a list of answer actions (§12) shown
    after the message as buttons (:func:`~replykit.markdown_it.actions_html`);
    ``action_context`` chooses the confirmation texts' locale.

    Raises ``TypeError`` naming the argument for a wrong type and ``ValueError`` for an
    unknown ``profile`` name or a ``message_id`` :func:`replykit.segment` refuses (§6);
    nothing else, whatever the text.
    """
    return render_segments(
        text,
        message_id=message_id,
        profile=profile,
        compat=compat,
        html=html,
        sanitize=sanitize,
        actions=actions,
        action_context=action_context,
    ).html
