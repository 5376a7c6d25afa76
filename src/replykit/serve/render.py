"""The one place the playground turns a message into HTML (docs/serve.md "Rendering").

:func:`render_message` gives the HTML of a whole message in the shape of
docs/serve.md: a ``<form class="replykit-form">`` per valid questionnaire (one
``<fieldset data-question-id>`` per question, inputs named ``{block id}:{question
id}``), a ``<div class="replykit-invalid">`` per invalid block, a ``<div
class="replykit-response">`` per response. Every string from the message is escaped
(§1): the page inserts this HTML as it is.
"""

from __future__ import annotations

from html import escape

from replykit.questionnaire.compat import Compat
from replykit.questionnaire.model import (
    OTHER_VALUE,
    Question,
    Questionnaire,
    Segment,
    Segmentation,
)
from replykit.questionnaire.profiles import CLIENT, Profile
from replykit.questionnaire.segmentation.segmenter import segment


def _e(value: str) -> str:
    return escape(value, quote=True)


def _choices(q: Question, name: str) -> list[str]:
    kind = "radio" if q.type == "single_choice" else "checkbox"
    chosen = set(q.default) if isinstance(q.default, tuple) else {q.default}
    values = [(o.value, o.label) for o in q.options]
    if q.allow_other:
        values.append((OTHER_VALUE, "Other"))
    out = []
    for i, (value, label) in enumerate(values):
        box = f"{name}:{i}"
        checked = " checked" if value in chosen else ""
        out.append(
            f'<div><input type="{kind}" name="{_e(name)}" value="{_e(value)}" '
            f'id="{_e(box)}"{checked}> <label for="{_e(box)}">{_e(label)}</label></div>'
        )
    if q.allow_other:
        out.append(f'<input type="text" name="{_e(name)}:other" aria-label="Other">')
    return out


def _form(form: Questionnaire, seg: Segment) -> str:
    block = seg.id or ""
    parts = [
        f'<form class="replykit-form" data-replykit-block="{_e(block)}" '
        f'data-replykit-name="{_e(seg.name or "")}">'
    ]
    if form.title:
        parts.append(f"<h3>{_e(form.title)}</h3>")
    for q in form.questions:
        name = f"{block}:{q.id}"
        parts.append(
            f'<fieldset data-question-id="{_e(q.id)}" data-question-type="{_e(q.type)}">'
            f"<legend>{_e(q.text)}</legend>"
        )
        if q.type == "free_text":
            default = q.default if isinstance(q.default, str) else ""
            parts.append(f'<textarea name="{_e(name)}">{_e(default)}</textarea>')
        else:
            parts.extend(_choices(q, name))
        parts.append("</fieldset>")
    parts.append('<button type="submit">Submit</button></form>')
    return "".join(parts)


def _block(seg: Segment) -> str:
    block = _e(seg.id or "")
    if seg.questionnaire is not None:
        return _form(seg.questionnaire, seg)
    if seg.response is not None:
        items = "".join(
            f"<li>{_e(a.question or a.question_id)}: {_e(str(a.label or a.answer))}</li>"
            for a in seg.response.answers
        )
        return (
            f'<div class="replykit-response" data-replykit-block="{block}"><ul>{items}</ul></div>'
        )
    items = "".join(
        f'<li data-code="{_e(d.code)}">{_e(d.code)}: {_e(d.message)}</li>' for d in seg.diagnostics
    )
    return (
        f'<div class="replykit-invalid" data-replykit-block="{block}">'
        f'<pre><code>{_e(seg.text)}</code></pre><ul class="replykit-diagnostics">{items}</ul></div>'
    )


def render_message(
    text: str,
    *,
    message_id: str,
    profile: Profile = CLIENT,
    compat: Compat | str | None = None,
) -> tuple[str, Segmentation]:
    """The HTML of ``text`` (the shape in the module docstring) and the segmentation
    it was drawn from: :func:`~replykit.segment` with ``message_id``, ``profile`` and
    ``compat`` (§2-§7), read once for both. Markdown between blocks is shown as
    escaped preformatted text. Raises nothing for any ``str``."""
    result = segment(text, message_id=message_id, profile=profile, compat=compat)
    parts = []
    for seg in result.segments:
        if seg.kind == "markdown":
            parts.append(f'<pre class="replykit-markdown">{_e(seg.text)}</pre>')
        elif seg.valid or seg.registered:
            parts.append(_block(seg))
        else:
            parts.append(f"<pre>{_e(seg.text)}</pre>")
    return "".join(parts), result
