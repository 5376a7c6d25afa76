"""Confirmation policy and the confirmation area (seed 004 "6. 确认策略", §12)."""

from __future__ import annotations

from typing import Any

import attrs

from replykit.actions.context import ActionContext
from replykit.actions.model import BUSINESS_TYPES, AnswerAction
from replykit.actions.texts import text
from replykit.argcheck import typed
from replykit.text import is_blank


@typed
def needs_confirmation(action: AnswerAction) -> bool:
    """True when the client must confirm before running ``action`` (seed 004 "6. 确认策略").

    Any one of: ``requiresConfirmation`` is true; ``riskLevel`` is MEDIUM or HIGH; the
    type is business.execute or business.cancel. ``style`` (even ``danger``) plays no
    part.
    Raises nothing but ``TypeError`` (naming the argument) for an argument of
    the wrong type.
    """
    return (
        action.requiresConfirmation
        or action.riskLevel in ("MEDIUM", "HIGH")
        or action.type in BUSINESS_TYPES
    )


@typed
def effective_prompt(action: AnswerAction, context: ActionContext) -> str | None:
    """The text the action hands over: sent with ``chat.send`` or put in the input box.

    conversation.continue and business.*: ``params.prompt``; conversation.modify:
    ``params.prompt`` or the default prefix ``请修改当前结果：`` / ``Please modify the
    current result: `` (seed 004 "4.5 conversation.modify"); answer.refresh: the
    original question verbatim, or ``None`` when unknown or blank (seed 004
    "4.8 answer.refresh", its prompt is ignored): a blank question is never sent;
    view.detail and render.*: ``None``.
    Raises nothing but ``TypeError`` (naming the argument) for an argument of
    the wrong type.
    """
    if action.type == "answer.refresh":
        question = context.question
        return None if question is None or is_blank(question) else question
    if action.type == "conversation.modify":
        return action.prompt if action.prompt is not None else text("modify.prompt", context.locale)
    return action.prompt


@typed
@attrs.frozen
class ConfirmationView:
    """What the confirmation area shows (seed 004 "6. 确认策略").

    ``title``: the action's title or ``确认{label}？`` / ``Confirm {label}?``;
    ``description``: the action's or the default permission note (§12); ``prompt``: the
    text to be submitted (see :func:`effective_prompt`), ``None`` for local actions;
    ``cancelLabel`` / ``confirmLabel``: 取消 / 确认执行 or Cancel / Confirm.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    actionId: str
    title: str
    description: str
    prompt: str | None
    cancelLabel: str
    confirmLabel: str

    def to_json(self) -> dict[str, Any]:
        """``{"actionId", "title", "description", "prompt", "cancelLabel", "confirmLabel"}``."""
        return {
            "actionId": self.actionId,
            "title": self.title,
            "description": self.description,
            "prompt": self.prompt,
            "cancelLabel": self.cancelLabel,
            "confirmLabel": self.confirmLabel,
        }


@typed
def confirmation_view(
    action: AnswerAction, context: ActionContext | None = None
) -> ConfirmationView:
    """Build the confirmation area for ``action`` in ``context.locale`` (default zh).

    Built for any action, whether or not :func:`needs_confirmation` holds (the host may
    decide to show it).
    Raises nothing but ``TypeError`` (naming the argument) for an argument of
    the wrong type. Source rule: seed 004 "6. 确认策略"; §12, the default texts of
    docs/actions.md section 6.
    """
    ctx = context if context is not None else ActionContext()
    locale = ctx.locale
    return ConfirmationView(
        actionId=action.id,
        title=action.title
        if action.title is not None
        else text("confirm.title", locale, label=action.label),
        description=action.description
        if action.description is not None
        else text("confirm.description", locale),
        prompt=effective_prompt(action, ctx),
        cancelLabel=text("confirm.cancel", locale),
        confirmLabel=text("confirm.confirm", locale),
    )
