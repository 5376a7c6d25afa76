"""The one place the playground turns a message into HTML (docs/serve.md section 2).

:func:`render_message` is :func:`replykit.markdown_it.render_segments` with raw HTML
off (docs/html.md): a ``<form class="replykit-form">`` per valid questionnaire, a
``<div class="replykit-invalid">`` per registered invalid block, a ``<div
class="replykit-response">`` per response, every string of the message escaped (§1),
so the page inserts the HTML as it is. Needs markdown-it-py (``replykit[html]``).
"""

from __future__ import annotations

from replykit.markdown_it import render_segments
from replykit.questionnaire.compat import Compat
from replykit.questionnaire.model import Segmentation
from replykit.questionnaire.profiles import CLIENT, Profile


def render_message(
    text: str,
    *,
    message_id: str,
    profile: Profile = CLIENT,
    compat: Compat | str | None = None,
) -> tuple[str, Segmentation]:
    """The HTML of ``text`` and the segmentation it was drawn from
    (:func:`~replykit.segment` with ``message_id``, ``profile`` and ``compat``, §2-§7),
    read once for both. Raw HTML in the Markdown is shown as text, links keep only
    relative, http and https URLs (docs/html.md). Raises nothing for any ``str``."""
    rendered = render_segments(text, message_id=message_id, profile=profile, compat=compat)
    return rendered.html, rendered.segmentation
