"""dispatch: one example per event type, chart resolution, compatibility, persistence."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from replykit.actions import (
    ActionContext,
    ActionStateRecord,
    AnswerAction,
    AnswerState,
    ChartComponent,
    ChartType,
    ChatSend,
    FillInput,
    Ignored,
    NoEffect,
    Params,
    ResetCharts,
    SetChart,
    ShowConfirmation,
    ShowDetails,
    StateError,
    Target,
    dispatch,
    format_timestamp,
    is_compatible,
)

NOW = datetime(2026, 8, 27, 7, 0, 0, 123456, tzinfo=UTC)
STAMP = "2026-08-27T07:00:00.123Z"
LATER = NOW + timedelta(seconds=5)
CHARTS = (
    ChartComponent("monthly-plan-chart", "temporal"),
    ChartComponent("fault-parts-chart", "categorical"),
    ChartComponent("load-scatter", "numeric_xy"),
)
CTX = ActionContext(hasFullDetails=True, charts=CHARTS, question="本月检修计划？")
EMPTY = AnswerState()


def change(chart: Any, component: str | None = None) -> AnswerAction:
    target = Target(componentId=component) if component else None
    return AnswerAction(
        id="chg", type="render.change", label="换图", target=target, params=Params(chartType=chart)
    )


def record(state: AnswerState, action_id: str) -> dict[str, Any] | None:
    found = state.record(action_id)
    return None if found is None else found.to_json()


# --- one example per event type ------------------------------------------------------------


def test_view_detail_click_succeeds_locally() -> None:
    action = AnswerAction(id="detail", type="view.detail", label="查看详情")
    state, effect = dispatch(EMPTY, action, "click", CTX, NOW)
    assert effect == ShowDetails("detail")
    assert record(state, "detail") == {
        "status": "success",
        "message": "已展开数据明细",
        "updatedAt": STAMP,
    }


def test_render_change_sets_the_override() -> None:
    state, effect = dispatch(EMPTY, change("line", "monthly-plan-chart"), "click", CTX, NOW)
    assert effect == SetChart("chg", "monthly-plan-chart", "line", False)
    assert state.chartPresentation == (("monthly-plan-chart", "line"),)
    assert record(state, "chg") == {
        "status": "success",
        "message": "展示已修改",
        "updatedAt": STAMP,
    }


def test_render_reset_clears_every_override() -> None:
    overrides: dict[str, ChartType] = {"monthly-plan-chart": "line", "fault-parts-chart": "table"}
    start = AnswerState({}, overrides)
    action = AnswerAction(id="reset-charts", type="render.reset", label="恢复默认展示")
    state, effect = dispatch(start, action, "click", CTX, NOW)
    assert effect == ResetCharts("reset-charts", ("fault-parts-chart", "monthly-plan-chart"))
    assert state.chartPresentation == ()
    assert state.status_of("reset-charts") == "success"


def test_conversation_continue_sends_then_host_reports() -> None:
    action = AnswerAction(
        id="go",
        type="conversation.continue",
        label="继续分析",
        params=Params(prompt="继续分析故障"),
    )
    state, effect = dispatch(EMPTY, action, "click", CTX, NOW)
    assert effect == ChatSend("go", "继续分析故障")
    assert record(state, "go") == {"status": "running", "message": "正在提交", "updatedAt": STAMP}
    done, effect = dispatch(state, action, "host_success", CTX, LATER)
    assert effect == NoEffect("go")
    assert record(done, "go") == {
        "status": "success",
        "message": "请求已提交",
        "updatedAt": "2026-08-27T07:00:05.123Z",
    }


def test_conversation_modify_fills_the_input_and_stays_idle() -> None:
    action = AnswerAction(id="m", type="conversation.modify", label="修改展示")
    state, effect = dispatch(EMPTY, action, "click", CTX, NOW)
    assert effect == FillInput("m", "请修改当前结果：")
    assert record(state, "m") == {"status": "idle", "message": "已填入输入框", "updatedAt": STAMP}
    given = AnswerAction(
        id="m2", type="conversation.modify", label="改", params=Params(prompt="请修改展示方式：")
    )
    assert dispatch(EMPTY, given, "click", CTX, NOW)[1] == FillInput("m2", "请修改展示方式：")


def test_business_execute_confirms_then_sends() -> None:
    action = AnswerAction(
        id="create-order",
        type="business.execute",
        label="生成工单",
        riskLevel="HIGH",
        params=Params(prompt="根据当前检修结果生成待确认的检修工单"),
    )
    state, effect = dispatch(EMPTY, action, "click", CTX, NOW)
    assert isinstance(effect, ShowConfirmation)
    assert effect.view.title == "确认生成工单？"
    assert effect.view.prompt == "根据当前检修结果生成待确认的检修工单"
    assert state.status_of("create-order") == "confirming"
    state, effect = dispatch(state, action, "confirm", CTX, LATER)
    assert effect == ChatSend("create-order", "根据当前检修结果生成待确认的检修工单")
    assert state.status_of("create-order") == "running"
    state, effect = dispatch(state, action, "host_error", CTX, LATER, message="403 无权限")
    assert record(state, "create-order") == {
        "status": "error",
        "message": "403 无权限",
        "updatedAt": "2026-08-27T07:00:05.123Z",
    }
    # From error it may run again, and business actions confirm again.
    again, effect = dispatch(state, action, "click", CTX, LATER)
    assert isinstance(effect, ShowConfirmation)
    assert again.status_of("create-order") == "confirming"


def test_business_cancel_can_be_cancelled_in_the_confirmation() -> None:
    action = AnswerAction(
        id="cancel-task-2048",
        type="business.cancel",
        label="取消任务",
        params=Params(prompt="取消任务 TASK-2048"),
    )
    state, _ = dispatch(EMPTY, action, "click", CTX, NOW)
    state, effect = dispatch(state, action, "cancel", CTX, LATER)
    assert effect == NoEffect("cancel-task-2048")
    assert state.status_of("cancel-task-2048") == "cancelled"
    state, effect = dispatch(state, action, "click", CTX, LATER)
    assert isinstance(effect, ShowConfirmation)


def test_answer_refresh_resends_the_original_question() -> None:
    action = AnswerAction(id="refresh-report", type="answer.refresh", label="刷新数据")
    state, effect = dispatch(EMPTY, action, "click", CTX, NOW)
    assert effect == ChatSend("refresh-report", "本月检修计划？")
    assert state.status_of("refresh-report") == "running"
    state, effect = dispatch(EMPTY, action, "click", ActionContext(locale="en"), NOW)
    assert effect == NoEffect("refresh-report")
    assert record(state, "refresh-report") == {
        "status": "error",
        "message": "The question that produced this answer is unknown",
        "updatedAt": STAMP,
    }


# --- events that do not apply --------------------------------------------------------------

SEND = AnswerAction(id="s", type="conversation.continue", label="S", params=Params(prompt="p"))


@pytest.mark.parametrize(
    ("status", "event"),
    [
        ("idle", "confirm"),
        ("idle", "cancel"),
        ("idle", "host_success"),
        ("idle", "host_error"),
        ("running", "click"),
        ("running", "confirm"),
        ("confirming", "click"),
        ("confirming", "host_success"),
        ("success", "host_error"),
        ("cancelled", "confirm"),
    ],
)
def test_events_that_do_not_apply_are_ignored(status: str, event: Any) -> None:
    start = AnswerState({"s": ActionStateRecord(status, "m", STAMP)})  # type: ignore[arg-type]
    state, effect = dispatch(start, SEND, event, CTX, LATER)
    assert state is start
    assert isinstance(effect, Ignored)


def test_unknown_event_and_naive_clock_raise() -> None:
    with pytest.raises(ValueError, match="event"):
        dispatch(EMPTY, SEND, "press", CTX, NOW)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="timezone"):
        dispatch(EMPTY, SEND, "click", CTX, datetime(2026, 8, 27))


# --- render.change resolution and compatibility (§12; seed 004 "4.2 render.change") ---------


@pytest.mark.parametrize(
    ("chart", "component", "charts", "outcome"),
    [
        ("line", "monthly-plan-chart", CHARTS, "monthly-plan-chart"),
        ("line", "nope", CHARTS, "找不到图表 nope"),
        ("line", "fault-parts-chart", CHARTS, "图表数据不适合显示为 line"),
        ("line", None, CHARTS, "monthly-plan-chart"),  # the only compatible one
        ("bar", None, CHARTS, "有多张图表可以切换，请指定图表"),
        ("table", None, CHARTS, "有多张图表可以切换，请指定图表"),
        ("area", None, CHARTS[1:], "图表数据不适合显示为 area"),
        ("bar", None, (), "当前回答没有可切换的图表"),
        ("bar", "monthly-plan-chart", (), "找不到图表 monthly-plan-chart"),
        ("donut", None, CHARTS[1:2], "fault-parts-chart"),
    ],
)
def test_render_change_target_resolution(
    chart: str, component: str | None, charts: tuple[ChartComponent, ...], outcome: str
) -> None:
    context = ActionContext(charts=charts)
    state, effect = dispatch(EMPTY, change(chart, component), "click", context, NOW)
    if isinstance(effect, SetChart):
        assert effect.componentId == outcome
        assert state.chart_type(outcome) == chart
        assert state.status_of("chg") == "success"
    else:
        assert effect == NoEffect("chg")
        assert record(state, "chg") == {"status": "error", "message": outcome, "updatedAt": STAMP}
        assert state.chartPresentation == ()


def test_scatter_is_accepted_as_a_renderer_fallback() -> None:
    for component in ("monthly-plan-chart", "fault-parts-chart", "load-scatter"):
        _, effect = dispatch(EMPTY, change("scatter", component), "click", CTX, NOW)
        assert effect == SetChart("chg", component, "scatter", True)


COMPAT = {
    "bar": {"categorical", "ordinal", "temporal"},
    "row": {"categorical", "ordinal", "temporal"},
    "donut": {"categorical", "ordinal", "temporal"},
    "line": {"ordinal", "temporal"},
    "area": {"ordinal", "temporal"},
    "table": {"categorical", "ordinal", "temporal", "numeric_xy"},
    "scatter": {"categorical", "ordinal", "temporal", "numeric_xy"},
}


@pytest.mark.parametrize("chart", sorted(COMPAT))
@pytest.mark.parametrize("shape", ["categorical", "ordinal", "temporal", "numeric_xy"])
def test_compatibility_table(chart: Any, shape: Any) -> None:
    assert is_compatible(chart, shape) is (shape in COMPAT[chart])


# --- persistence ---------------------------------------------------------------------------


def test_state_round_trips_through_json_text() -> None:
    state, _ = dispatch(EMPTY, change("line", "monthly-plan-chart"), "click", CTX, NOW)
    state, _ = dispatch(state, SEND, "click", CTX, LATER)
    text = json.dumps(state.to_json(), ensure_ascii=False)
    assert json.loads(text) == {
        "actionStates": {
            "chg": {"status": "success", "message": "展示已修改", "updatedAt": STAMP},
            "s": {
                "status": "running",
                "message": "正在提交",
                "updatedAt": "2026-08-27T07:00:05.123Z",
            },
        },
        "chartPresentation": {"monthly-plan-chart": "line"},
    }
    assert AnswerState.from_json(json.loads(text)) == state


def test_state_equality_ignores_insertion_order() -> None:
    rec = ActionStateRecord("success", "m", STAMP)
    charts: dict[str, ChartType] = {"y": "bar", "x": "line"}
    assert AnswerState({"b": rec, "a": rec}, charts) == AnswerState(
        [("a", rec), ("b", rec)], [("x", "line"), ("y", "bar")]
    )


@pytest.mark.parametrize(
    "value",
    [
        [],
        {"actionStates": [], "chartPresentation": {}},
        {"extra": {}},
        {"actionStates": {"a": {"status": "done", "message": "", "updatedAt": STAMP}}},
        {"actionStates": {"a": {"status": "idle", "message": "", "updatedAt": "2026-08-27"}}},
        {"actionStates": {"a": {"status": "idle", "message": 1, "updatedAt": STAMP}}},
        {"actionStates": {"a": {"status": "idle", "updatedAt": STAMP}}},
        {"chartPresentation": {"c": "pie"}},
    ],
)
def test_state_from_json_rejects_bad_shapes(value: Any) -> None:
    with pytest.raises(StateError):
        AnswerState.from_json(value)


@pytest.mark.parametrize(
    ("now", "stamp"),
    [
        (
            datetime(2026, 8, 27, 15, 0, tzinfo=timezone(timedelta(hours=8))),
            "2026-08-27T07:00:00.000Z",
        ),
        (datetime(2026, 1, 1, 0, 0, 0, 999999, tzinfo=UTC), "2026-01-01T00:00:00.999Z"),
        (datetime(999, 1, 2, 3, 4, 5, 6000, tzinfo=UTC), "0999-01-02T03:04:05.006Z"),
    ],
)
def test_format_timestamp(now: datetime, stamp: str) -> None:
    assert format_timestamp(now) == stamp


def test_from_json_rejects_an_impossible_timestamp() -> None:
    from replykit.actions.state import AnswerState, StateError

    raw = {
        "actionStates": {
            "a": {"status": "success", "message": "", "updatedAt": "2026-02-30T07:00:00.000Z"}
        },
        "chartPresentation": {},
    }
    with pytest.raises(StateError, match="not a real date"):
        AnswerState.from_json(raw)
