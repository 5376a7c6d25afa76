"""Client-added entries (§12; seed 004 "5. 客户端自动补充的入口") and confirmation (§12; seed
004 "6. 确认策略")."""

from __future__ import annotations

from typing import Any

import pytest

from replykit.actions import (
    ActionContext,
    AnswerAction,
    ChartComponent,
    ContextError,
    Params,
    confirmation_view,
    needs_confirmation,
    parse_context,
    sanitize,
    with_defaults,
)

CHART = ChartComponent("monthly-plan-chart", "temporal")
FULL = ActionContext(hasFullDetails=True, charts=(CHART,), question="本月检修计划？")


def added(actions: list[dict[str, Any]], context: ActionContext) -> list[dict[str, Any]]:
    return [a.to_json() for a in with_defaults(sanitize({"actions": actions}), context).added]


def test_all_three_entries_in_zh() -> None:
    assert added([], FULL) == [
        {"id": "auto.view.detail", "type": "view.detail", "label": "查看详情"},
        {"id": "auto.conversation.modify", "type": "conversation.modify", "label": "修改展示"},
        {
            "id": "auto.conversation.continue",
            "type": "conversation.continue",
            "label": "继续处理",
            "params": {"prompt": "继续处理：本月检修计划？"},
        },
    ]


def test_all_three_entries_in_en_with_trimmed_question() -> None:
    context = ActionContext(
        hasFullDetails=True, charts=(CHART,), question="  Plans this month?\n", locale="en"
    )
    assert [(a["label"], a.get("params")) for a in added([], context)] == [
        ("View details", None),
        ("Change display", None),
        ("Continue", {"prompt": "Continue: Plans this month?"}),
    ]


@pytest.mark.parametrize(
    ("context", "ids"),
    [
        (ActionContext(), []),
        (ActionContext(hasFullDetails=True), ["auto.view.detail"]),
        (ActionContext(charts=(CHART,)), ["auto.conversation.modify"]),
        (ActionContext(question="q"), ["auto.conversation.continue"]),
        (ActionContext(question=" \u3000"), []),
        (ActionContext(question="q" * 795), ["auto.conversation.continue"]),  # 5 + 795 = 800
        (ActionContext(question="q" * 796), []),  # would be dropped by sanitize: not produced
    ],
)
def test_each_entry_needs_its_condition(context: ActionContext, ids: list[str]) -> None:
    assert [a["id"] for a in added([], context)] == ids


@pytest.mark.parametrize(
    ("existing", "ids"),
    [
        ({"id": "d", "type": "view.detail", "label": "D"},
         ["auto.conversation.modify", "auto.conversation.continue"]),
        ({"id": "m", "type": "conversation.modify", "label": "M"},
         ["auto.view.detail", "auto.conversation.continue"]),
        ({"id": "c", "type": "conversation.continue", "label": "C", "params": {"prompt": "p"}},
         ["auto.view.detail", "auto.conversation.modify"]),
        # The id is taken by an action of another type: the entry is skipped.
        ({"id": "auto.view.detail", "type": "render.reset", "label": "R"},
         ["auto.conversation.modify", "auto.conversation.continue"]),
        # business actions never suppress or create entries.
        ({"id": "b", "type": "business.execute", "label": "B", "params": {"prompt": "p"}},
         ["auto.view.detail", "auto.conversation.modify", "auto.conversation.continue"]),
    ],
)  # fmt: skip
def test_no_entry_for_a_type_already_shown(existing: dict[str, Any], ids: list[str]) -> None:
    assert [a["id"] for a in added([existing], FULL)] == ids


def test_only_the_eight_shown_count_and_entries_come_in_addition() -> None:
    shown = [{"id": f"r{i}", "type": "render.reset", "label": "R"} for i in range(8)]
    hidden = {"id": "d", "type": "view.detail", "label": "D"}  # 9th valid: not shown
    result = with_defaults(sanitize({"actions": [*shown, hidden]}), FULL)
    assert len(result.actions) == 8
    assert result.added[0].id == "auto.view.detail"
    assert len(result.all_actions) == 11


def test_with_defaults_is_idempotent() -> None:
    once = with_defaults(sanitize({"actions": []}), FULL)
    assert with_defaults(once, FULL) == once
    assert with_defaults(once, ActionContext()).added == ()


# --- context file --------------------------------------------------------------------------


def test_parse_context_full_and_defaults() -> None:
    assert parse_context({}) == ActionContext()
    assert parse_context(
        {
            "hasFullDetails": True,
            "charts": [{"componentId": "monthly-plan-chart", "dataShape": "temporal"}],
            "question": "本月检修计划？",
            "locale": "zh",
        }
    ) == ActionContext(True, (CHART,), "本月检修计划？", "zh")


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ([], "context:"),
        ({"hasFullDetail": True}, "context.hasFullDetail:"),
        ({"hasFullDetails": 1}, "context.hasFullDetails:"),
        ({"question": 3}, "context.question:"),
        ({"locale": "fr"}, "context.locale:"),
        ({"charts": {}}, "context.charts:"),
        ({"charts": ["c"]}, "context.charts[1]:"),
        ({"charts": [{"componentId": "", "dataShape": "temporal"}]},
         "context.charts[1].componentId:"),
        ({"charts": [{"componentId": "c", "dataShape": "time"}]},
         "context.charts[1].dataShape:"),
        ({"charts": [{"componentId": "c", "dataShape": "ordinal", "x": 1}]},
         "context.charts[1].x:"),
        ({"charts": [{"componentId": "c", "dataShape": "ordinal"},
                     {"componentId": "c", "dataShape": "temporal"}]},
         "context.charts[2].componentId:"),
    ],
)  # fmt: skip
def test_parse_context_errors_name_the_path(value: Any, where: str) -> None:
    with pytest.raises(ContextError) as info:
        parse_context(value)
    assert str(info.value).startswith(where)


def test_context_rejects_duplicate_chart_ids() -> None:
    with pytest.raises(ValueError, match="unique"):
        ActionContext(charts=(CHART, CHART))


# --- confirmation ------------------------------------------------------------------------

BASE: dict[str, Any] = {"id": "x", "type": "conversation.continue", "label": "继续分析",
                        "params": {"prompt": "继续分析故障"}}  # fmt: skip


@pytest.mark.parametrize(
    ("extra", "needed"),
    [
        ({}, False),
        ({"requiresConfirmation": True}, True),
        ({"riskLevel": "LOW"}, False),
        ({"riskLevel": "MEDIUM"}, True),
        ({"riskLevel": "HIGH"}, True),
        ({"style": "danger"}, False),
        ({"requiresConfirmation": False}, False),
        ({"type": "business.execute"}, True),
        ({"type": "business.cancel", "riskLevel": "LOW"}, True),
        ({"type": "view.detail", "params": None, "riskLevel": "HIGH"}, True),
    ],
)
def test_needs_confirmation(extra: dict[str, Any], needed: bool) -> None:
    raw = {**BASE, **extra}
    if raw.get("params") is None:
        raw.pop("params")
    (action,) = sanitize({"actions": [raw]}).actions
    assert needs_confirmation(action) is needed


def test_confirmation_view_defaults_zh_and_en() -> None:
    action = AnswerAction(
        id="cancel-task-2048",
        type="business.cancel",
        label="取消任务",
        params=Params(prompt="取消任务 TASK-2048"),
    )
    zh = confirmation_view(action)
    assert zh.to_json() == {
        "actionId": "cancel-task-2048",
        "title": "确认取消任务？",
        "description": "该操作仍需通过您的业务权限校验。",
        "prompt": "取消任务 TASK-2048",
        "cancelLabel": "取消",
        "confirmLabel": "确认执行",
    }
    en = confirmation_view(action, ActionContext(locale="en"))
    assert (en.title, en.description, en.cancelLabel, en.confirmLabel) == (
        "Confirm 取消任务?",
        "This request is still checked against your permissions.",
        "Cancel",
        "Confirm",
    )


def test_confirmation_view_uses_given_title_and_description() -> None:
    (action,) = sanitize(
        {"actions": [{"id": "create-maintenance-order", "type": "business.execute",
                      "label": "生成检修工单", "title": "确认生成检修工单？",
                      "description": "将为 HXN5-001 发起工单创建请求。",
                      "params": {"prompt": "为 HXN5-001 创建检修工单"}}]}
    ).actions  # fmt: skip
    view = confirmation_view(action)
    assert (view.title, view.description, view.prompt) == (
        "确认生成检修工单？",
        "将为 HXN5-001 发起工单创建请求。",
        "为 HXN5-001 创建检修工单",
    )


@pytest.mark.parametrize(
    ("action", "context", "prompt"),
    [
        (AnswerAction(id="r", type="answer.refresh", label="刷新", requiresConfirmation=True),
         ActionContext(question="本月计划？"), "本月计划？"),
        (AnswerAction(id="r", type="answer.refresh", label="刷新", requiresConfirmation=True),
         ActionContext(), None),
        (AnswerAction(id="m", type="conversation.modify", label="改", riskLevel="HIGH"),
         ActionContext(), "请修改当前结果："),
        (AnswerAction(id="m", type="conversation.modify", label="改", riskLevel="HIGH"),
         ActionContext(locale="en"), "Please modify the current result: "),
        (AnswerAction(id="v", type="view.detail", label="看", riskLevel="HIGH"),
         ActionContext(), None),
    ],
)  # fmt: skip
def test_confirmation_view_prompt_per_type(
    action: AnswerAction, context: ActionContext, prompt: str | None
) -> None:
    assert confirmation_view(action, context).prompt == prompt
