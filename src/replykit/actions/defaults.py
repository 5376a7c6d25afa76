"""Client-added entries: the safe buttons a client adds by itself (§12; seed 004
"5. 客户端自动补充的入口")."""

from __future__ import annotations

import attrs

from replykit.actions.context import ActionContext
from replykit.actions.model import (
    MAX_PROMPT,
    ActionSet,
    AnswerAction,
    Params,
    unsafe_char,
    valid_text,
)
from replykit.actions.texts import text
from replykit.argcheck import typed
from replykit.text import is_blank, trim_blank


@typed
def default_entries(
    actions: tuple[AnswerAction, ...], context: ActionContext
) -> tuple[AnswerAction, ...]:
    """The client-added entries for the shown ``actions`` under ``context``.

    Output, in this order, each only when its condition holds, no shown action has its
    type, and no shown action uses its id:
    ``auto.view.detail`` (view.detail) when ``context.hasFullDetails``;
    ``auto.conversation.modify`` (conversation.modify, default prompt) when a chart is
    registered; ``auto.conversation.continue`` (conversation.continue, prompt
    ``继续处理：{question}`` / ``Continue: {question}``, question trimmed) when the question
    is known and not blank, and only if that prompt fits in 800 code points and holds
    no character §12 forbids in a prompt (an entry that sanitize would drop is never
    produced). Never business.*.
    Raises nothing but ``TypeError`` (naming the argument) for an argument of
    the wrong type.
    Source rule: seed 004 "5. 客户端自动补充的入口"; §12.
    """
    types = {a.type for a in actions}
    ids = {a.id for a in actions}
    locale = context.locale
    added: list[AnswerAction] = []

    def free(entry_id: str, entry_type: str) -> bool:
        return entry_type not in types and entry_id not in ids

    if context.hasFullDetails and free("auto.view.detail", "view.detail"):
        added.append(
            AnswerAction(
                id="auto.view.detail",
                type="view.detail",
                label=text("auto.view.detail", locale),
            )
        )
    if context.charts and free("auto.conversation.modify", "conversation.modify"):
        added.append(
            AnswerAction(
                id="auto.conversation.modify",
                type="conversation.modify",
                label=text("auto.conversation.modify", locale),
            )
        )
    question = context.question
    if (
        question is not None
        and not is_blank(question)
        and free("auto.conversation.continue", "conversation.continue")
    ):
        prompt = text("auto.continue.prompt", locale, question=trim_blank(question))
        if valid_text(prompt, MAX_PROMPT, prompt=True) and unsafe_char(prompt, prompt=True) is None:
            added.append(
                AnswerAction(
                    id="auto.conversation.continue",
                    type="conversation.continue",
                    label=text("auto.conversation.continue", locale),
                    params=Params(prompt=prompt),
                )
            )
    return tuple(added)


@typed
def with_defaults(action_set: ActionSet, context: ActionContext) -> ActionSet:
    """``action_set`` with ``added`` set to the client-added entries (§12; seed 004
    "5. 客户端自动补充的入口").

    Input: a sanitized set and the host's context. Output: a new set, ``actions`` and
    ``diagnostics`` unchanged, ``added`` recomputed from the shown actions only (so
    calling it twice gives the same set). Entries come in addition to the 8 shown.
    Raises nothing but ``TypeError`` (naming the argument) for an argument of
    the wrong type. See :func:`default_entries` for the conditions.
    """
    return attrs.evolve(action_set, added=default_entries(action_set.actions, context))
