"""Execution as a pure state transition: ``dispatch`` (§12, the state
table of docs/actions.md section 7; seed 004 "4. 已支持事件", "6. 确认策略", "7. 操作状态").

``dispatch`` never calls anything: it returns the new :class:`AnswerState` and one
effect telling the host what to do. Table (status before -> after, per event):

==================  =================================  ===============================
before              event                              after
==================  =================================  ===============================
idle/success/       click, confirmation needed         confirming (ShowConfirmation)
error/cancelled     click, no confirmation             as "perform" below
confirming          confirm                            as "perform" below
confirming          cancel                             cancelled (NoEffect)
running             host_success / host_error          success / error (NoEffect)
any other pair      any                                unchanged (Ignored)
==================  =================================  ===============================

perform: view.detail -> success (ShowDetails); render.change -> success (SetChart)
or error (NoEffect) when the target cannot be resolved; render.reset -> success
(ResetCharts); conversation.modify -> idle (FillInput); conversation.continue,
business.* -> running (ChatSend); answer.refresh -> running (ChatSend of the original
question) or error (NoEffect) when the question is unknown.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, Literal

import attrs

from replykit.actions.charts import is_renderer_fallback, resolve_chart
from replykit.actions.confirm import (
    ConfirmationView,
    confirmation_view,
    effective_prompt,
    needs_confirmation,
)
from replykit.actions.context import ActionContext
from replykit.actions.model import AnswerAction, ChartType, Locale
from replykit.actions.state import (
    ActionStateRecord,
    ActionStatus,
    AnswerState,
    format_timestamp,
    message_problem,
)
from replykit.actions.texts import text
from replykit.argcheck import typed

EventKind = Literal["click", "confirm", "cancel", "host_success", "host_error"]
EVENT_KINDS: Final[tuple[EventKind, ...]] = (
    "click",
    "confirm",
    "cancel",
    "host_success",
    "host_error",
)


@typed
@attrs.frozen
class ShowConfirmation:
    """Show the confirmation area ``view`` for ``actionId`` (seed 004 "6. 确认策略").

    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    actionId: str
    view: ConfirmationView

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "show_confirmation", "actionId", "view": {...}}``."""
        return {"kind": "show_confirmation", "actionId": self.actionId, "view": self.view.to_json()}


@typed
@attrs.frozen
class ShowDetails:
    """Expand the answer's full data details (seed 004 "4.1 view.detail"; target.dataset is
    reserved).

    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    actionId: str

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "show_details", "actionId"}``."""
        return {"kind": "show_details", "actionId": self.actionId}


@typed
@attrs.frozen
class SetChart:
    """Draw chart ``componentId`` as ``chartType`` (seed 004 "4.2 render.change").

    ``rendererFallback`` is true for scatter: the renderer's compatibility strategy
    decides the final drawing (§12).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    actionId: str
    componentId: str
    chartType: ChartType
    rendererFallback: bool

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "set_chart", "actionId", "componentId", "chartType", "rendererFallback"}``."""
        return {
            "kind": "set_chart",
            "actionId": self.actionId,
            "componentId": self.componentId,
            "chartType": self.chartType,
            "rendererFallback": self.rendererFallback,
        }


@typed
@attrs.frozen
class ResetCharts:
    """Draw every chart of the answer in its client default form (seed 004 "4.3 render.reset").

    ``componentIds``: the charts that had an override (sorted), possibly empty.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    actionId: str
    componentIds: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "reset_charts", "actionId", "componentIds": [...]}``."""
        return {
            "kind": "reset_charts",
            "actionId": self.actionId,
            "componentIds": list(self.componentIds),
        }


@typed
@attrs.frozen
class ChatSend:
    """Submit ``prompt`` through the host's existing ``chat.send()`` (seed 004 "1. 目标与边界",
    "4.4 conversation.continue").

    The host reports the outcome with ``host_success`` (accepted by the orchestration,
    not a final business result, seed 004 "7. 操作状态") or ``host_error``.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    actionId: str
    prompt: str

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "chat_send", "actionId", "prompt"}``."""
        return {"kind": "chat_send", "actionId": self.actionId, "prompt": self.prompt}


@typed
@attrs.frozen
class FillInput:
    """Put ``text`` in the input box for the user to complete and send (seed 004 "4.5
    conversation.modify").

    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    actionId: str
    text: str

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "fill_input", "actionId", "text"}``."""
        return {"kind": "fill_input", "actionId": self.actionId, "text": self.text}


@typed
@attrs.frozen
class NoEffect:
    """The state changed but the host has nothing to do beyond showing it (§12, docs/actions.md
    section 7: cancel, host reports, local failures).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    actionId: str

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "none", "actionId"}``."""
        return {"kind": "none", "actionId": self.actionId}


@typed
@attrs.frozen
class Ignored:
    """The event does not apply in the current status; the state is returned unchanged.

    ``reason`` is English (a double click while running, a late host report ...).
    Source rule: §12, docs/actions.md section 7 (the state table's "any other pair" row).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    actionId: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "ignored", "actionId", "reason"}``."""
        return {"kind": "ignored", "actionId": self.actionId, "reason": self.reason}


Effect = (
    ShowConfirmation
    | ShowDetails
    | SetChart
    | ResetCharts
    | ChatSend
    | FillInput
    | NoEffect
    | Ignored
)


def _set(
    state: AnswerState, action: AnswerAction, status: ActionStatus, message: str, stamp: str
) -> AnswerState:
    return state.with_record(action.id, ActionStateRecord(status, message, stamp))


def _perform(
    state: AnswerState, action: AnswerAction, context: ActionContext, stamp: str
) -> tuple[AnswerState, Effect]:
    """Run an action whose confirmation, if any, is done (the "perform" row)."""
    locale = context.locale
    if action.type == "view.detail":
        return _set(state, action, "success", text("state.details", locale), stamp), ShowDetails(
            action.id
        )
    if action.type == "render.change":
        chart_type = action.chartType
        if chart_type is None:  # pragma: no cover - AnswerAction forbids it
            return _set(state, action, "error", "", stamp), NoEffect(action.id)
        found = resolve_chart(chart_type, action.componentId, context.charts)
        if found.chart is None:
            key = f"chart.{found.error}"
            message = text(key, locale, componentId=action.componentId or "", chartType=chart_type)
            return _set(state, action, "error", message, stamp), NoEffect(action.id)
        changed = state.with_chart(found.chart.componentId, chart_type)
        effect = SetChart(
            action.id, found.chart.componentId, chart_type, is_renderer_fallback(chart_type)
        )
        return _set(changed, action, "success", text("state.chart_changed", locale), stamp), effect
    if action.type == "render.reset":
        cleared = tuple(key for key, _ in state.chartPresentation)
        reset = state.without_charts()
        message = text("state.charts_reset", locale)
        return _set(reset, action, "success", message, stamp), ResetCharts(action.id, cleared)
    prompt = effective_prompt(action, context)
    if action.type == "conversation.modify":
        fill = prompt if prompt is not None else text("modify.prompt", locale)
        message = text("state.input_filled", locale)
        return _set(state, action, "idle", message, stamp), FillInput(action.id, fill)
    if prompt is None:  # answer.refresh without a known question
        return _set(state, action, "error", text("state.no_question", locale), stamp), NoEffect(
            action.id
        )
    message = text("state.running", locale)
    return _set(state, action, "running", message, stamp), ChatSend(action.id, prompt)


@typed
def dispatch(
    state: AnswerState,
    action: AnswerAction,
    event: EventKind,
    context: ActionContext,
    now: datetime,
    *,
    message: str | None = None,
) -> tuple[AnswerState, Effect]:
    """Apply one ``event`` on ``action`` and return ``(new_state, effect)``; pure.

    Input: the persisted state of the answer, a shown or client-added action, an event
    (``click``, ``confirm``, ``cancel`` from the user; ``host_success``, ``host_error``
    from the host after a :class:`ChatSend`), the context, and the injected clock
    value ``now`` (timezone-aware). ``message``: the host's text for the record on
    ``host_success``/``host_error`` (else the client default); ignored for other events,
    but checked whenever given: it is stored in the persisted state's JSON, so it must
    be at most 240 characters and hold no surrogate code point
    (:func:`~replykit.actions.state.message_problem`, docs/actions.md section 7).
    Output: the next state (the record of ``action.id`` has ``updatedAt`` =
    ``now``; render.* also change ``chartPresentation``) and one effect; an event that
    does not apply returns the same ``state`` object and :class:`Ignored`.
    Raises ``ValueError`` for an unknown event, a ``message`` ``message_problem``
    refuses, a naive ``now`` or one that cannot be expressed in UTC (year 1 or 9999 at
    the range's ends, :func:`format_timestamp`); ``TypeError`` naming the argument when
    ``state``, ``action``, ``context``, ``now``, ``event`` or ``message`` is not of its
    type.
    Source rule: §12, the state table of docs/actions.md section 7 (also in the module
    docstring); seed 004 "4. 已支持事件", "6. 确认策略", "7. 操作状态".
    """
    stamp = _checked(event, message, now)
    locale = context.locale
    status = state.status_of(action.id)
    if event == "click":
        if status in ("confirming", "running"):
            return state, Ignored(action.id, f"click while {status}")
        if needs_confirmation(action):
            view = confirmation_view(action, context)
            confirming = _set(state, action, "confirming", text("state.confirming", locale), stamp)
            return confirming, ShowConfirmation(action.id, view)
        return _perform(state, action, context, stamp)
    if event in ("confirm", "cancel"):
        if status != "confirming":
            return state, Ignored(action.id, f"{event} while {status}")
        if event == "cancel":
            return _set(
                state, action, "cancelled", text("state.cancelled", locale), stamp
            ), NoEffect(action.id)
        return _perform(state, action, context, stamp)
    if status != "running":
        return state, Ignored(action.id, f"{event} while {status}")
    return _reported(state, action, event, message, locale, stamp)


def _checked(event: str, message: str | None, now: datetime) -> str:
    """``now`` as the records' timestamp, after the checks :func:`dispatch` makes before
    anything else: ``ValueError`` for an unknown event, a ``message``
    :func:`~replykit.actions.state.message_problem` refuses, or a ``now``
    :func:`format_timestamp` refuses."""
    if event not in EVENT_KINDS:
        raise ValueError("event must be one of " + ", ".join(EVENT_KINDS))
    problem = None if message is None else message_problem(message)
    if problem is not None:
        raise ValueError(f"message {problem}")
    return format_timestamp(now)


def _reported(
    state: AnswerState,
    action: AnswerAction,
    event: str,
    message: str | None,
    locale: Locale,
    stamp: str,
) -> tuple[AnswerState, Effect]:
    """A running action's host report: ``host_success`` -> success, ``host_error`` ->
    error, the record's message the host's ``message`` or the client default."""
    if event == "host_success":
        done = message if message is not None else text("state.accepted", locale)
        return _set(state, action, "success", done, stamp), NoEffect(action.id)
    failed = message if message is not None else text("state.send_failed", locale)
    return _set(state, action, "error", failed, stamp), NoEffect(action.id)
