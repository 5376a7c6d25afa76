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
from replykit.markdown_it.markup import AUTO, attr, esc, isolated


@typed
def actions_html(actions: Sequence[Any], context: ActionContext | None = None) -> str:
    """``<div class="replykit-actions">`` of one ``<button type="button"
    data-action-id data-action-type>`` per action :func:`replykit.actions.sanitize`
    keeps (at most 8, §12), then a ``<ul class="replykit-diagnostics">`` of what it
    dropped or removed. A button that needs confirmation (seed 004 "6. 确认策略")
    carries ``data-confirm`` (the confirmation title), ``data-confirm-description``,
    ``data-confirm-prompt`` (when it submits one), ``data-confirm-label`` and
    ``data-cancel-label`` in ``context.locale`` (default zh). ``actions``: a list or
    tuple of actions, each an object judged as ``sanitize`` judges it (an item that is
    no object is ``action.not_object``) or an :class:`~replykit.actions.AnswerAction`
    (what ``sanitize(answer).actions`` holds, read as its ``to_json()``). Raises
    ``TypeError`` naming the argument when ``actions`` is not a list or tuple
    (``actions_html() argument 'actions' must be a sequence, not dict``) or ``context``
    not an :class:`~replykit.actions.ActionContext` or None, and for an action of no
    JSON type, as ``sanitize`` does. An empty ``actions`` (no button and nothing
    dropped) gives ``""``: no empty ``<div>`` (docs/html.md section 4)."""
    if actions is None:
        raise TypeError("argument 'actions' must be a list of actions, not NoneType")
    check_actions(actions, context, "context")
    kept = sanitize({"actions": [_as_json(a) for a in actions]})
    if not kept.actions and not kept.diagnostics:
        return ""  # nothing to show: no empty container (docs/html.md section 4)
    buttons = [_button(action, context) for action in kept.actions]
    return (
        '<div class="replykit-actions">'
        + "".join(buttons)
        + _diagnostics(kept.diagnostics)
        + "</div>\n"
    )


def _as_json(action: Any) -> Any:
    """An action as ``sanitize`` reads it: a sanitized :class:`AnswerAction` as its JSON
    (already valid, so kept as it is), a mapping as a ``dict``, anything else as given."""
    if isinstance(action, AnswerAction):
        return action.to_json()
    return dict(action) if isinstance(action, Mapping) else action


def check_actions(actions: object, context: object, context_name: str) -> None:
    """``TypeError`` naming the argument unless ``actions`` is None or a sequence other
    than a str or bytes (the answer's ``actions`` array, not the answer object) and
    ``context`` is None or an :class:`~replykit.actions.ActionContext`; checked whether
    or not they are used."""
    # A str or an answer object is no list of actions (iterating reads characters or keys).
    if actions is not None and (
        not isinstance(actions, Sequence) or isinstance(actions, str | bytes)
    ):
        raise TypeError(
            f"argument 'actions' must be a list of actions or None, not {type(actions).__name__}"
        )
    if context is not None and not isinstance(context, ActionContext):
        raise TypeError(
            f"argument '{context_name}' must be ActionContext or None, not {type(context).__name__}"
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
        f"{attr('data-action-type', action.type)}{extra}{AUTO}>{esc(action.label)}</button>"
    )


def _diagnostics(diagnostics: tuple[ActionDiagnostic, ...]) -> str:
    if not diagnostics:
        return ""
    items = "".join(
        f"<li{attr('data-code', d.code)}>{isolated(d.path or '')}: {isolated(d.message)}</li>"
        for d in diagnostics
    )
    return f'<ul class="replykit-diagnostics">{items}</ul>'
