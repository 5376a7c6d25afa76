"""Answer actions as buttons (§12; docs/actions.md): the sanitized list, each button
carrying its confirmation text, and what sanitizing dropped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from replykit.actions import (
    ActionContext,
    ActionDiagnostic,
    AnswerAction,
    confirmation_view,
    needs_confirmation,
    sanitize,
)
from replykit.argcheck import typed
from replykit.markdown_it.markup import attr, esc


@typed
def actions_html(actions: Sequence[Mapping[str, Any]], context: ActionContext | None = None) -> str:
    """``<div class="replykit-actions">`` of one ``<button type="button"
    data-action-id data-action-type>`` per action :func:`replykit.actions.sanitize`
    keeps (at most 8, §12), then a ``<ul class="replykit-diagnostics">`` of what it
    dropped or removed. A button that needs confirmation (seed 004 "6. 确认策略")
    carries ``data-confirm`` (the confirmation title), ``data-confirm-description``,
    ``data-confirm-prompt`` (when it submits one), ``data-confirm-label`` and
    ``data-cancel-label`` in ``context.locale`` (default zh). Raises ``TypeError``
    for an action of no JSON type, as ``sanitize`` does."""
    kept = sanitize({"actions": [dict(a) if isinstance(a, Mapping) else a for a in actions]})
    buttons = [_button(action, context) for action in kept.actions]
    return (
        '<div class="replykit-actions">'
        + "".join(buttons)
        + _diagnostics(kept.diagnostics)
        + "</div>\n"
    )


def _button(action: AnswerAction, context: ActionContext | None) -> str:
    extra = ""
    if action.style is not None:
        extra += attr("data-style", action.style)
    if action.riskLevel is not None:
        extra += attr("data-risk-level", action.riskLevel)
    if needs_confirmation(action):
        view = confirmation_view(action, context)
        extra += attr("data-confirm", view.title)
        extra += attr("data-confirm-description", view.description)
        if view.prompt is not None:
            extra += attr("data-confirm-prompt", view.prompt)
        extra += attr("data-confirm-label", view.confirmLabel)
        extra += attr("data-cancel-label", view.cancelLabel)
    return (
        f'<button type="button" class="replykit-action"{attr("data-action-id", action.id)}'
        f"{attr('data-action-type', action.type)}{extra}>{esc(action.label)}</button>"
    )


def _diagnostics(diagnostics: tuple[ActionDiagnostic, ...]) -> str:
    if not diagnostics:
        return ""
    items = "".join(
        f"<li{attr('data-code', d.code)}>{esc(d.path or '')}: {esc(d.message)}</li>"
        for d in diagnostics
    )
    return f'<ul class="replykit-diagnostics">{items}</ul>'
