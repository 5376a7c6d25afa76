"""A Hypothesis state machine driving random events through dispatch (§12 state table)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from replykit.actions import (
    ActionContext,
    AnswerAction,
    AnswerState,
    ChartComponent,
    ChatSend,
    FillInput,
    Ignored,
    NoEffect,
    Params,
    ResetCharts,
    SetChart,
    ShowConfirmation,
    ShowDetails,
    Target,
    dispatch,
)

START = datetime(2026, 8, 27, 7, 0, tzinfo=UTC)

ACTIONS = (
    AnswerAction(id="detail", type="view.detail", label="查看详情"),
    AnswerAction(id="detail-risky", type="view.detail", label="明细", riskLevel="MEDIUM"),
    AnswerAction(
        id="to-line",
        type="render.change",
        label="折线",
        target=Target(componentId="monthly"),
        params=Params(chartType="line"),
    ),
    AnswerAction(id="to-bar", type="render.change", label="柱状", params=Params(chartType="bar")),
    AnswerAction(
        id="to-scatter",
        type="render.change",
        label="散点",
        requiresConfirmation=True,
        target=Target(componentId="parts"),
        params=Params(chartType="scatter"),
    ),
    AnswerAction(id="reset", type="render.reset", label="恢复"),
    AnswerAction(id="modify", type="conversation.modify", label="修改"),
    AnswerAction(
        id="continue", type="conversation.continue", label="继续", params=Params(prompt="继续分析")
    ),
    AnswerAction(
        id="create-order",
        type="business.execute",
        label="生成工单",
        params=Params(prompt="为 HXN5-001 创建检修工单"),
    ),
    AnswerAction(
        id="cancel-task",
        type="business.cancel",
        label="取消任务",
        riskLevel="LOW",
        params=Params(prompt="取消任务 TASK-2048"),
    ),
    AnswerAction(id="refresh", type="answer.refresh", label="刷新"),
)
CONTEXTS = (
    ActionContext(
        charts=(ChartComponent("monthly", "temporal"), ChartComponent("parts", "categorical")),
        question="本月检修计划？",
    ),
    ActionContext(charts=(ChartComponent("parts", "categorical"),), locale="en"),
    ActionContext(charts=(ChartComponent("monthly", "ordinal"),), question="Plans?"),
    ActionContext(),
)
EVENTS = ("click", "confirm", "cancel", "host_success", "host_error")

# The §12 table, restated: which shapes each chart type takes.
TAKES = {
    "line": {"ordinal", "temporal"},
    "bar": {"categorical", "ordinal", "temporal"},
    "scatter": {"categorical", "ordinal", "temporal", "numeric_xy"},
}


def confirmation_needed(action: AnswerAction) -> bool:
    return (
        action.requiresConfirmation
        or action.riskLevel in ("MEDIUM", "HIGH")
        or action.type.startswith("business.")
    )


def chart_target(action: AnswerAction, context: ActionContext) -> str | None:
    """The chart a render.change applies to, or None when it must fail."""
    chart_type = action.chartType
    assert chart_type is not None
    shapes = {c.componentId: c.dataShape for c in context.charts}
    wanted = action.componentId
    if wanted is not None:
        return wanted if shapes.get(wanted) in TAKES[chart_type] else None
    fitting = [cid for cid, shape in shapes.items() if shape in TAKES[chart_type]]
    return fitting[0] if len(fitting) == 1 else None


class DispatchMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.state = AnswerState()
        self.now = START
        self.status: dict[str, str] = {}
        self.charts: dict[str, str] = {}

    def perform(self, action: AnswerAction, context: ActionContext) -> tuple[str, type, Any]:
        """Expected (status, effect class, detail) of running an action (the perform row)."""
        if action.type == "view.detail":
            return "success", ShowDetails, None
        if action.type == "render.change":
            target = chart_target(action, context)
            if target is None:
                return "error", NoEffect, None
            self.charts[target] = str(action.chartType)
            return "success", SetChart, target
        if action.type == "render.reset":
            self.charts.clear()
            return "success", ResetCharts, None
        if action.type == "conversation.modify":
            return "idle", FillInput, None
        if action.type == "answer.refresh":
            if context.question is None:
                return "error", NoEffect, None
            return "running", ChatSend, context.question
        return "running", ChatSend, action.prompt

    @rule(
        action=st.sampled_from(ACTIONS),
        event=st.sampled_from(EVENTS),
        context=st.sampled_from(CONTEXTS),
        step_ms=st.integers(0, 90_000_000),
    )
    def send_event(
        self, action: AnswerAction, event: Any, context: ActionContext, step_ms: int
    ) -> None:
        self.now += timedelta(milliseconds=step_ms)
        before = self.status.get(action.id, "idle")
        old_state = self.state
        old_charts = dict(self.charts)
        expected: tuple[str, type, Any] | None
        if event == "click":
            if before in ("confirming", "running"):
                expected = None
            elif confirmation_needed(action):
                expected = ("confirming", ShowConfirmation, None)
            else:
                expected = self.perform(action, context)
        elif event in ("confirm", "cancel"):
            if before != "confirming":
                expected = None
            elif event == "cancel":
                expected = ("cancelled", NoEffect, None)
            else:
                expected = self.perform(action, context)
        elif before != "running":
            expected = None
        else:
            expected = ("success" if event == "host_success" else "error", NoEffect, None)

        new_state, effect = dispatch(self.state, action, event, context, self.now)

        if expected is None:
            assert new_state is old_state
            assert isinstance(effect, Ignored)
            assert self.charts == old_charts
            return
        status, effect_class, detail = expected
        assert isinstance(effect, effect_class)
        assert effect.actionId == action.id
        if isinstance(effect, ChatSend):
            assert effect.prompt == detail
        if isinstance(effect, SetChart):
            assert (effect.componentId, effect.chartType) == (detail, action.chartType)
            assert effect.rendererFallback is (action.chartType == "scatter")
        if isinstance(effect, ResetCharts):
            assert set(effect.componentIds) == set(old_charts)
        record = new_state.record(action.id)
        assert record is not None
        assert record.status == status
        millis = self.now.microsecond // 1000
        assert record.updatedAt == self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{millis:03d}Z"
        # Only this action's record changes.
        others_before = {k: v for k, v in old_state.actionStates if k != action.id}
        others_after = {k: v for k, v in new_state.actionStates if k != action.id}
        assert others_before == others_after
        self.status[action.id] = status
        self.state = new_state

    @invariant()
    def charts_match_the_model(self) -> None:
        assert dict(self.state.chartPresentation) == self.charts

    @invariant()
    def statuses_match_the_model(self) -> None:
        assert {k: v.status for k, v in self.state.actionStates} == self.status

    @invariant()
    def persisted_state_restores_equal(self) -> None:
        text = json.dumps(self.state.to_json(), ensure_ascii=False)
        assert AnswerState.from_json(json.loads(text)) == self.state


DispatchMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=40, deadline=None)
test_dispatch_state_machine = DispatchMachine.TestCase
