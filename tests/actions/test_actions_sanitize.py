"""sanitize: seed examples, input shape, and one table per drop and removal rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replykit.actions import (
    ActionSet,
    AnswerAction,
    Params,
    Target,
    needs_confirmation,
    sanitize,
)

DATA = Path(__file__).parent / "data"


def load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def codes(result: ActionSet) -> list[tuple[str, str | None]]:
    return [(d.code, d.path) for d in result.diagnostics]


def one(action: dict[str, Any]) -> ActionSet:
    return sanitize({"actions": [action]})


# --- seed examples ------------------------------------------------------------------------


def test_seed_full_example_gives_its_four_actions() -> None:
    result = sanitize(load("seed_full_example.json"))
    assert result.source == "answerData"
    assert result.diagnostics == ()
    assert result.actions == (
        AnswerAction(id="detail", type="view.detail", label="查看详情"),
        AnswerAction(
            id="chart-line",
            type="render.change",
            label="换成折线图",
            target=Target(componentId="monthly-plan-chart"),
            params=Params(chartType="line"),
        ),
        AnswerAction(
            id="continue",
            type="conversation.continue",
            label="继续分析",
            params=Params(prompt="继续分析故障高发月份及可能原因"),
        ),
        AnswerAction(
            id="create-order",
            type="business.execute",
            label="生成工单",
            style="primary",
            riskLevel="HIGH",
            description="将发起工单创建请求。",
            params=Params(prompt="根据当前检修结果生成待确认的检修工单"),
        ),
    )
    assert [a.id for a in result.actions if needs_confirmation(a)] == ["create-order"]


def test_seed_unsafe_example_keeps_only_id_type_label_prompt() -> None:
    result = sanitize(load("seed_unsafe_action.json"))
    assert [a.to_json() for a in result.actions] == [
        {
            "id": "unsafe",
            "type": "business.execute",
            "label": "执行",
            "params": {"prompt": "执行指定业务操作"},
        }
    ]
    assert codes(result) == [
        ("action.field_removed", "actions[1].tool"),
        ("action.field_removed", "actions[1].params.arguments"),
    ]


def test_seed_payload_example() -> None:
    result = sanitize(load("seed_payload_example.json"))
    assert result.source == "payload"
    assert [a.to_json() for a in result.actions] == [
        {"id": "show-detail", "type": "view.detail", "label": "查看详情"}
    ]


@pytest.mark.parametrize(
    "example",
    [
        {"id": "view-raw-records", "type": "view.detail", "label": "查看原始记录",
         "target": {"dataset": "faults"}},
        {"id": "monthly-plan-to-line", "type": "render.change", "label": "换成折线图",
         "target": {"componentId": "monthly-plan-chart"}, "params": {"chartType": "line"}},
        {"id": "reset-charts", "type": "render.reset", "label": "恢复默认展示"},
        {"id": "analyze-anomalies", "type": "conversation.continue", "label": "继续分析",
         "params": {"prompt": "继续分析故障高发部件，并说明可能原因"}},
        {"id": "modify-current-view", "type": "conversation.modify", "label": "修改展示",
         "params": {"prompt": "请修改当前结果的展示方式："}},
        {"id": "create-maintenance-order", "type": "business.execute", "label": "生成检修工单",
         "style": "primary", "title": "确认生成检修工单？",
         "description": "将为 HXN5-001 发起工单创建请求，最终仍需通过您的业务权限校验。",
         "riskLevel": "HIGH", "params": {"prompt": "为 HXN5-001 创建检修工单"}},
        {"id": "cancel-task-2048", "type": "business.cancel", "label": "取消任务",
         "style": "danger", "description": "取消后任务将停止继续调度。",
         "params": {"prompt": "取消任务 TASK-2048"}},
        {"id": "refresh-report", "type": "answer.refresh", "label": "刷新数据"},
    ],
)  # fmt: skip
def test_every_seed_section_4_example_is_kept_unchanged(example: dict[str, Any]) -> None:
    result = one(example)
    assert result.diagnostics == ()
    assert [a.to_json() for a in result.actions] == [example]


# --- input shape and precedence (§12) -----------------------------------------------------

ACTION_A = {"id": "a", "type": "view.detail", "label": "A"}
ACTION_B = {"id": "b", "type": "render.reset", "label": "B"}


@pytest.mark.parametrize(
    ("answer", "source", "ids", "diagnostics"),
    [
        ({"answerData": {"actions": [ACTION_A]}, "payload": {"actions": [ACTION_B]}},
         "answerData", ["a"], []),
        ({"answerData": {"datasets": {}}, "payload": {"actions": [ACTION_B]}},
         "payload", ["b"], []),
        ({"answerData": {"actions": None}, "payload": {"actions": [ACTION_B]}},
         "answerData", [], [("actions.not_list", "actions")]),
        ({"answerData": {"actions": {"0": ACTION_A}}}, "answerData", [],
         [("actions.not_list", "actions")]),
        ({"payload": {"template": "report", "actions": [ACTION_B]}}, "payload", ["b"], []),
        ({"answerData": 7, "payload": {"actions": [ACTION_B]}}, "payload", ["b"], []),
        ({"template": "report", "actions": [ACTION_B]}, "payload", ["b"], []),
        ({"schemaVersion": "9.9", "actions": [ACTION_A]}, "answerData", ["a"], []),
        ({"payload": {"actions": "x"}}, "payload", [], [("actions.not_list", "actions")]),
        ({"answerData": {"datasets": {}}}, None, [], []),
        ({}, None, [], []),
        ([ACTION_A], None, [], []),
        (None, None, [], []),  # a str answer raises TypeError (tests/test_argtypes.py)
        (3.5, None, [], []),
    ],
)  # fmt: skip
def test_input_shape_and_precedence(
    answer: Any, source: str | None, ids: list[str], diagnostics: list[tuple[str, str]]
) -> None:
    result = sanitize(answer)
    assert result.source == source
    assert [a.id for a in result.actions] == ids
    assert codes(result) == diagnostics


# --- drop rules: one table per rule (§12; seed 004 "8. 校验与拒绝规则") -------------------------

ASTRAL = "\U0001f600"  # one code point, two UTF-16 units


@pytest.mark.parametrize("item", [None, 1, "view.detail", [ACTION_A], True])
def test_drop_not_object(item: Any) -> None:
    result = sanitize({"actions": [item, ACTION_A]})
    assert [a.id for a in result.actions] == ["a"]
    assert codes(result) == [("action.not_object", "actions[1]")]


@pytest.mark.parametrize(
    "action_type", [None, "", "view.details", "VIEW.DETAIL", "business.delete", 3, ["view.detail"]]
)
def test_drop_type_unknown(action_type: Any) -> None:
    action: dict[str, Any] = {"id": "x", "label": "X"}
    if action_type is not None:
        action["type"] = action_type
    result = one(action)
    assert result.actions == ()
    assert codes(result) == [("action.type_unknown", "actions[1].type")]


@pytest.mark.parametrize(
    "action_id", [None, "", "   ", "\u3000\u200b", 12, "x" * 81, ASTRAL * 81, ["a"]]
)
def test_drop_id_invalid(action_id: Any) -> None:
    action: dict[str, Any] = {"type": "view.detail", "label": "X"}
    if action_id is not None:
        action["id"] = action_id
    result = one(action)
    assert result.actions == ()
    assert codes(result) == [("action.id_invalid", "actions[1].id")]


@pytest.mark.parametrize("action_id", ["x" * 80, ASTRAL * 80, " a "])
def test_id_at_limit_is_kept_verbatim(action_id: str) -> None:
    result = one({"id": action_id, "type": "view.detail", "label": "X"})
    assert [a.id for a in result.actions] == [action_id]


def test_drop_id_duplicate_first_kept_wins() -> None:
    result = sanitize(
        {
            "actions": [
                {"id": "dup", "type": "view.detail"},  # dropped: no label
                {"id": "dup", "type": "view.detail", "label": "first kept"},
                {"id": "dup", "type": "render.reset", "label": "second"},
            ]
        }
    )
    assert [(a.id, a.label) for a in result.actions] == [("dup", "first kept")]
    assert codes(result) == [
        ("action.label_invalid", "actions[1].label"),
        ("action.id_duplicate", "actions[3].id"),
    ]
    assert "actions[2]" in result.diagnostics[1].message


@pytest.mark.parametrize("label", [None, "", " \t", 5, "x" * 33, ASTRAL * 33, {"zh": "x"}])
def test_drop_label_invalid(label: Any) -> None:
    action: dict[str, Any] = {"id": "x", "type": "view.detail"}
    if label is not None:
        action["label"] = label
    result = one(action)
    assert result.actions == ()
    assert codes(result) == [("action.label_invalid", "actions[1].label")]


@pytest.mark.parametrize("label", ["x" * 32, ASTRAL * 32])
def test_label_at_limit_is_kept(label: str) -> None:
    assert [a.label for a in one({"id": "x", "type": "view.detail", "label": label}).actions] == [
        label
    ]


@pytest.mark.parametrize(
    "action_type", ["conversation.continue", "business.execute", "business.cancel"]
)
@pytest.mark.parametrize(
    "params", [None, "prompt", {}, {"prompt": None}, {"prompt": ""}, {"prompt": "\n "},
               {"prompt": 1}, {"prompt": "x" * 801}, {"prompt": ASTRAL * 801}],
)  # fmt: skip
def test_drop_prompt_required(action_type: str, params: Any) -> None:
    action: dict[str, Any] = {"id": "x", "type": action_type, "label": "X"}
    if params is not None:
        action["params"] = params
    result = one(action)
    assert result.actions == ()
    assert codes(result) == [("action.prompt_required", "actions[1].params.prompt")]


@pytest.mark.parametrize("nl", ["\n", "\r\n", "\r"])
def test_a_prompt_line_ending_counts_as_one(nl: str) -> None:
    # docs/protocol.md §1.5: the same prompt measures the same with every line ending.
    at_limit = "x" + nl + ("y" * 798)
    kept = one({"id": "x", "type": "business.cancel", "label": "X", "params": {"prompt": at_limit}})
    assert [a.prompt for a in kept.actions] == [at_limit]
    over = at_limit + "z"
    dropped = one({"id": "x", "type": "business.cancel", "label": "X", "params": {"prompt": over}})
    assert codes(dropped) == [("action.prompt_required", "actions[1].params.prompt")]


@pytest.mark.parametrize("prompt", ["x" * 800, ASTRAL * 800])
def test_prompt_at_limit_is_kept(prompt: str) -> None:
    result = one({"id": "x", "type": "business.cancel", "label": "X", "params": {"prompt": prompt}})
    assert [a.prompt for a in result.actions] == [prompt]


@pytest.mark.parametrize(
    "params", [None, [], {}, {"chartType": None}, {"chartType": "pie"}, {"chartType": "LINE"},
               {"chartType": ["line"]}, {"prompt": "折线"}],
)  # fmt: skip
def test_drop_chart_type_invalid(params: Any) -> None:
    action: dict[str, Any] = {"id": "x", "type": "render.change", "label": "X"}
    if params is not None:
        action["params"] = params
    result = one(action)
    assert result.actions == ()
    assert codes(result) == [("action.chart_type_invalid", "actions[1].params.chartType")]


@pytest.mark.parametrize("chart", ["bar", "row", "line", "area", "donut", "scatter", "table"])
def test_every_chart_type_is_kept(chart: str) -> None:
    result = one({"id": "x", "type": "render.change", "label": "X", "params": {"chartType": chart}})
    assert [a.chartType for a in result.actions] == [chart]


def test_drop_over_limit_keeps_first_eight_valid() -> None:
    actions: list[Any] = [{"id": f"a{i}", "type": "view.detail", "label": "L"} for i in range(10)]
    actions.insert(2, {"id": "bad"})  # invalid actions do not count towards the 8
    result = sanitize({"actions": actions})
    assert [a.id for a in result.actions] == [f"a{i}" for i in range(8)]
    assert codes(result) == [
        ("action.type_unknown", "actions[3].type"),
        ("action.over_limit", "actions[10]"),
        ("action.over_limit", "actions[11]"),
    ]


def test_over_limit_action_still_claims_its_id() -> None:
    actions = [{"id": f"a{i}", "type": "view.detail", "label": "L"} for i in range(9)]
    actions.append({"id": "a8", "type": "view.detail", "label": "again"})
    assert codes(sanitize({"actions": actions})) == [
        ("action.over_limit", "actions[9]"),
        ("action.id_duplicate", "actions[10].id"),
    ]


def test_first_failing_rule_is_the_only_drop_reported() -> None:
    result = one({"type": "business.execute", "tool": "x", "params": {"arguments": {}}})
    assert codes(result) == [("action.id_invalid", "actions[1].id")]


# --- removal rules: one table per rule (§12; seed 004 "3.1 通用参数", "8. 校验与拒绝规则") -------

BASE = {"id": "x", "type": "view.detail", "label": "X"}


@pytest.mark.parametrize(
    ("field", "value", "kept"),
    [
        ("style", "primary", True), ("style", "danger", True), ("style", "default", True),
        ("style", "Danger", False), ("style", "warning", False), ("style", 1, False),
        ("title", "t" * 80, True), ("title", ASTRAL * 80, True), ("title", "t" * 81, False),
        ("title", "  ", False), ("title", 5, False),
        ("description", "d" * 240, True), ("description", "d" * 241, False),
        ("description", ASTRAL * 241, False), ("description", None, False),
        ("riskLevel", "LOW", True), ("riskLevel", "MEDIUM", True), ("riskLevel", "HIGH", True),
        ("riskLevel", "high", False), ("riskLevel", "CRITICAL", False), ("riskLevel", 3, False),
        ("requiresConfirmation", True, True), ("requiresConfirmation", False, False),
        ("requiresConfirmation", "true", False), ("requiresConfirmation", 1, False),
        ("requiresConfirmation", None, False),
    ],
)  # fmt: skip
def test_optional_field_bad_values_are_removed(field: str, value: Any, kept: bool) -> None:
    result = one({**BASE, field: value})
    assert len(result.actions) == 1
    out = result.actions[0].to_json()
    if kept:
        assert out[field] == value
        assert result.diagnostics == ()
    else:
        assert field not in out
        assert codes(result) == [("action.field_removed", f"actions[1].{field}")]


@pytest.mark.parametrize(
    ("target", "expected", "removed"),
    [
        ({"dataset": "faults"}, {"dataset": "faults"}, []),
        ({"componentId": "c" * 120}, {"componentId": "c" * 120}, []),
        ({"componentId": ASTRAL * 120, "dataset": "d"},
         {"componentId": ASTRAL * 120, "dataset": "d"}, []),
        ({"componentId": "c" * 121}, None, ["actions[1].target.componentId"]),
        ({"dataset": ASTRAL * 121, "componentId": "c"}, {"componentId": "c"},
         ["actions[1].target.dataset"]),
        ({"dataset": 3}, None, ["actions[1].target.dataset"]),
        ({"dataset": " "}, None, ["actions[1].target.dataset"]),
        ({"dataset": "f", "url": "https://x"}, {"dataset": "f"}, ["actions[1].target.url"]),
        ({}, None, ["actions[1].target"]),
        ("monthly-plan-chart", None, ["actions[1].target"]),
        ([{"componentId": "c"}], None, ["actions[1].target"]),
    ],
)  # fmt: skip
def test_target_fields(target: Any, expected: dict[str, str] | None, removed: list[str]) -> None:
    result = one({**BASE, "target": target})
    assert result.actions[0].to_json().get("target") == expected
    assert codes(result) == [("action.field_removed", p) for p in removed]


@pytest.mark.parametrize(
    ("action_type", "params", "expected", "removed"),
    [
        # prompt on a type that does not use it
        ("view.detail", {"prompt": "p"}, None, ["prompt"]),
        ("render.reset", {"prompt": "p"}, None, ["prompt"]),
        ("answer.refresh", {"prompt": "p"}, None, ["prompt"]),
        ("render.change", {"chartType": "bar", "prompt": "p"}, {"chartType": "bar"}, ["prompt"]),
        # chartType on a type that does not use it
        ("view.detail", {"chartType": "bar"}, None, ["chartType"]),
        ("conversation.continue", {"prompt": "p", "chartType": "bar"}, {"prompt": "p"},
         ["chartType"]),
        # conversation.modify prompt: optional, removed when bad (the default applies)
        ("conversation.modify", {"prompt": "请修改："}, {"prompt": "请修改："}, []),
        ("conversation.modify", {"prompt": " "}, None, ["prompt"]),
        ("conversation.modify", {"prompt": 1}, None, ["prompt"]),
        ("conversation.modify", {"prompt": "m" * 801}, None, ["prompt"]),
        ("conversation.modify", {"prompt": ASTRAL * 800}, {"prompt": ASTRAL * 800}, []),
        # unknown params
        ("business.execute", {"prompt": "p", "arguments": {"admin": True}}, {"prompt": "p"},
         ["arguments"]),
        ("business.cancel", {"prompt": "p", "toolName": "t", "url": "u"}, {"prompt": "p"},
         ["toolName", "url"]),
    ],
)  # fmt: skip
def test_params_removals(
    action_type: str, params: dict[str, Any], expected: dict[str, str] | None, removed: list[str]
) -> None:
    result = one({"id": "x", "type": action_type, "label": "X", "params": params})
    assert result.actions[0].to_json().get("params") == expected
    assert codes(result) == [("action.field_removed", f"actions[1].params.{k}") for k in removed]


@pytest.mark.parametrize("params", [[], "prompt", 0, None])
def test_params_not_an_object_is_removed(params: Any) -> None:
    result = one({**BASE, "params": params})
    assert "params" not in result.actions[0].to_json()
    assert codes(result) == [("action.field_removed", "actions[1].params")]


def test_empty_params_object_is_removed_with_a_diagnostic() -> None:
    result = one({**BASE, "params": {}})
    assert codes(result) == [("action.field_removed", "actions[1].params")]


@pytest.mark.parametrize(
    "field", ["tool", "toolName", "server", "url", "callback", "onClick", "rpc", "arguments",
              "token", "data", "schemaVersion"],
)  # fmt: skip
def test_fields_outside_the_protocol_are_removed(field: str) -> None:
    result = one({**BASE, field: {"anything": [1, 2]}})
    assert result.actions[0].to_json() == BASE
    assert codes(result) == [("action.field_removed", f"actions[1].{field}")]


@pytest.mark.parametrize(
    ("key", "path"),
    [
        ("a.b", 'actions[1]["a.b"]'),
        ("", 'actions[1][""]'),
        ("工具", 'actions[1]["工具"]'),
        ('q"', 'actions[1]["q\\""]'),
        (7, 'actions[1]["7"]'),
        (None, 'actions[1]["None"]'),
        (("t",), "actions[1][\"('t',)\"]"),
    ],
)
def test_odd_keys_get_unambiguous_paths(key: Any, path: str) -> None:
    result = sanitize({"actions": [{**BASE, key: 1}]})
    assert result.actions[0].to_json() == BASE
    assert codes(result) == [("action.field_removed", path)]


def test_removals_follow_input_key_order_and_messages_are_english() -> None:
    result = one(
        {"url": "u", "id": "x", "params": {"z": 1, "prompt": "p"}, "type": "view.detail",
         "label": "X", "style": "bold"}
    )  # fmt: skip
    assert codes(result) == [
        ("action.field_removed", "actions[1].url"),
        ("action.field_removed", "actions[1].params.z"),
        ("action.field_removed", "actions[1].params.prompt"),
        ("action.field_removed", "actions[1].style"),
    ]
    assert all(d.message.isascii() and d.message.endswith(".") for d in result.diagnostics)


def test_huge_values_are_not_quoted_in_messages() -> None:
    huge = "工" * 1_000_000
    result = sanitize({"actions": [{"id": huge, "type": "view.detail", "label": "x"},
                                   {**BASE, "title": huge}]})  # fmt: skip
    assert codes(result) == [
        ("action.id_invalid", "actions[1].id"),
        ("action.field_removed", "actions[2].title"),
    ]
    assert all(len(d.message) < 200 for d in result.diagnostics)


def test_kept_values_are_verbatim_not_trimmed() -> None:
    result = one({"id": " x ", "type": "conversation.continue", "label": "\u3000继续 ",
                  "params": {"prompt": " 继续\n"}})  # fmt: skip
    action = result.actions[0]
    assert (action.id, action.label, action.prompt) == (" x ", "\u3000继续 ", " 继续\n")


def test_answer_action_constructor_rejects_what_sanitize_would_not_keep() -> None:
    with pytest.raises(ValueError, match=r"needs params\.prompt"):
        AnswerAction(id="x", type="business.execute", label="X")
    with pytest.raises(ValueError, match=r"does not use params\.prompt"):
        AnswerAction(id="x", type="view.detail", label="X", params=Params(prompt="p"))
    with pytest.raises(ValueError, match="label"):
        AnswerAction(id="x", type="view.detail", label="x" * 33)
    with pytest.raises(ValueError, match="empty"):
        Target()
    with pytest.raises(ValueError, match="empty"):
        Params()


def test_deep_nesting_costs_nothing() -> None:
    deep: Any = {}
    for _ in range(100_000):
        deep = {"x": [deep]}
    result = sanitize({"actions": [{**BASE, "params": {"arguments": deep}, "extra": deep}, deep]})
    assert [a.to_json() for a in result.actions] == [BASE]
    assert codes(result) == [
        ("action.field_removed", "actions[1].params.arguments"),
        ("action.field_removed", "actions[1].extra"),
        ("action.type_unknown", "actions[2].type"),
    ]


@pytest.mark.parametrize("reserved", ["__proto__", "constructor", "toString", "hasOwnProperty"])
def test_an_id_a_javascript_object_inherits_drops_the_action(reserved: str) -> None:
    """§12: a client keys persisted state by id, so an inherited name is never an id."""
    answer = {
        "actions": [
            {"id": reserved, "type": "view.detail", "label": "Open"},
            {"id": "ok", "type": "view.detail", "label": "Open"},
        ]
    }
    result = sanitize(answer)
    assert [a.id for a in result.actions] == ["ok"]
    assert [(d.code, d.path) for d in result.diagnostics] == [
        ("action.id_reserved", "actions[1].id")
    ]


def test_a_bidi_override_in_a_label_drops_the_action() -> None:
    """§12: a cancel button whose label reads as "Complete" is not shown."""
    label = "\u202eetelpmoC\u202c"
    answer = {"actions": [{"id": "x", "type": "business.cancel", "label": label, "params": {}}]}
    result = sanitize(answer)
    assert result.actions == ()
    assert [(d.code, d.path) for d in result.diagnostics] == [
        ("action.text_unsafe", "actions[1].label")
    ]
