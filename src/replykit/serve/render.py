"""The one place the playground turns a message into HTML (docs/serve.md section 2).

:func:`render_message` is :func:`replykit.markdown_it.render_segments` with raw HTML
off (docs/html.md): a ``<form class="replykit-form">`` per valid questionnaire, a
``<div class="replykit-invalid">`` per registered invalid block, a ``<div
class="replykit-response">`` per response, every string of the message escaped (§1),
so the page inserts the HTML as it is. Needs markdown-it-py (``replykit[html]``).
"""

from __future__ import annotations

from replykit.jsonout import dumps
from replykit.markdown_it import render_segments
from replykit.markdown_it.cards import DEFAULT_CARDS, CardOptions
from replykit.markdown_it.render import render_bounded
from replykit.questionnaire.compat import Compat
from replykit.questionnaire.model import Segmentation
from replykit.questionnaire.profiles import CLIENT, Profile


def render_message(
    text: str,
    *,
    message_id: str,
    profile: Profile = CLIENT,
    compat: Compat | str | None = None,
    limit: int | None = None,
    cards: CardOptions = DEFAULT_CARDS,
) -> tuple[str, Segmentation]:
    """The HTML of ``text`` and the segmentation it was drawn from
    (:func:`~replykit.segment` with ``message_id``, ``profile`` and ``compat``, §2-§7),
    read once for both. Raw HTML in the Markdown is shown as text, links keep only
    relative, http and https URLs (docs/html.md). ``limit``: the bytes the HTML may
    take written as a JSON string (docs/html.md section 8); by default
    :func:`~replykit.markdown_it.render_html`'s bound. ``cards``: forms locked or live
    and the card labels' locale (docs/html.md section 3). Raises nothing for a ``str``
    and a ``message_id`` the request checks passed."""
    if limit is None:
        rendered = render_segments(
            text,
            message_id=message_id,
            profile=profile,
            compat=compat,
            readonly=cards.readonly,
            locale=cards.locale,
        )
        return rendered.html, rendered.segmentation
    return render_bounded(
        text,
        message_id=message_id,
        profile=profile,
        compat=compat,
        limit=limit,
        measure=json_size,
        cards=cards,
    )


def json_size(value: str) -> int:
    """The UTF-8 bytes of ``value`` written as a JSON string, as the answer writes it."""
    return len(dumps(value, compact=True).encode("utf-8"))
