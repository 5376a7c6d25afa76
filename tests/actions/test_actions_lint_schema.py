"""Producer lint (seed 004 "11. 对接检查清单") and the JSON Schema of a valid action list."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from replykit.actions import action_schema, has_vague_reference, lint, sanitize

from .strategies import answers


def lints(answer: Any) -> list[tuple[str, str | None]]:
    return [(d.code, d.path) for d in lint(answer)]


GOOD = {
    "id": "create-maintenance-order",
    "type": "business.execute",
    "label": "生成检修工单",
    "description": "将为 HXN5-001 发起工单创建请求。",
    "riskLevel": "HIGH",
    "params": {"prompt": "为 HXN5-001 创建检修工单"},
}


def test_a_clean_answer_has_no_warning() -> None:
    assert lints({"datasets": {"plans": []}, "actions": [GOOD]}) == []


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ([], [("lint.answer_not_object", None)]),
        ({"actions": []}, [("lint.actions_not_beside_datasets", "actions")]),
        ({"datasets": [], "actions": []}, [("lint.actions_not_beside_datasets", "actions")]),
        ({"datasets": {"actions": []}}, [("lint.actions_not_beside_datasets", "datasets.actions")]),
        ({"datasets": {"plans": {"rows": [], "actions": []}}},
         [("lint.actions_not_beside_datasets", "datasets.plans.actions")]),
        ({"answerData": {"datasets": {}}, "actions": [GOOD]},
         [("lint.actions_misplaced", "actions")]),
        ({"answerData": {"datasets": {}, "actions": []}, "payload": {"actions": []}},
         [("lint.payload_actions_ignored", "payload.actions")]),
        # In the wrapper every path starts at the wrapper: no two places share a path.
        ({"answerData": {"datasets": {"x": {"actions": []}}, "actions": [
            {"id": "constructor", "type": "view.detail", "label": "L"}]},
          "payload": {"actions": []}, "actions": []},
         [("lint.actions_misplaced", "actions"),
          ("lint.actions_not_beside_datasets", "answerData.datasets.x.actions"),
          ("lint.payload_actions_ignored", "payload.actions"),
          ("lint.id_reserved", "answerData.actions[1].id")]),
        ({"answerData": {"actions": []}},
         [("lint.actions_not_beside_datasets", "answerData.actions")]),
        ({"payload": {"actions": [{"id": "constructor", "type": "view.detail", "label": "L"}]}},
         [("lint.id_reserved", "payload.actions[1].id")]),
        ({"template": "report", "data": {}, "actions": [GOOD]}, []),
    ],
)  # fmt: skip
def test_structure_warnings(answer: Any, expected: list[tuple[str, str | None]]) -> None:
    assert lints(answer) == expected


@pytest.mark.parametrize(
    ("prompt", "vague"),
    [
        ("为 HXN5-001 创建检修工单", False),
        ("取消它", True),
        ("取消那个任务", True),
        ("执行这个操作", True),
        ("Cancel it now", True),
        ("Create that order", True),
        ("Create this one", True),
        ("Create THIS  ONE", True),
        ("Cancel task TASK-2048 (iteration 2)", False),
        ("Submit the item list", False),
        # Compounds that name their object are not vague pronouns (seed 004 "11.").
        ("取消 HXN5-001 的其它待办工单", False),
        ("为 HXN5-001 创建这个月的检修工单", False),
        ("汇总这个季度和这个星期的故障", False),
        ("删除它们", True),
        ("其它的都取消，然后删除它", True),
        ("取消it", True),  # the ASCII word it, beside Chinese text
        ("Create this\u3000one", False),  # ASCII spaces only
    ],
)
def test_vague_references(prompt: str, vague: bool) -> None:
    assert has_vague_reference(prompt) is vague
    action = {**GOOD, "params": {"prompt": prompt}}
    found = ("lint.vague_reference", "actions[1].params.prompt") in lints(
        {"datasets": {}, "actions": [action]}
    )
    assert found is vague


def test_the_seeds_own_business_examples_lint_clean() -> None:
    """Seed 004 4.6 and 4.7, verbatim: 4.7 declares no riskLevel, which is not wrong."""
    execute = {
        "id": "create-maintenance-order",
        "type": "business.execute",
        "label": "生成检修工单",
        "style": "primary",
        "title": "确认生成检修工单？",
        "description": "将为 HXN5-001 发起工单创建请求，最终仍需通过您的业务权限校验。",
        "riskLevel": "HIGH",
        "params": {"prompt": "为 HXN5-001 创建检修工单"},
    }
    cancel = {"id": "cancel-task-2048", "type": "business.cancel", "label": "取消任务",
              "style": "danger", "description": "取消后任务将停止继续调度。",
              "params": {"prompt": "取消任务 TASK-2048"}}  # fmt: skip
    assert lints({"datasets": {}, "actions": [execute, cancel]}) == []
    assert lints({"datasets": {}, "actions": [dict(cancel, riskLevel="LOW")]}) == [
        ("lint.risk_level_mismatch", "actions[1].riskLevel")
    ]


def test_vague_reference_only_for_business_prompts() -> None:
    action = {"id": "c", "type": "conversation.continue", "label": "C", "params": {"prompt": "它"}}
    assert lints({"datasets": {}, "actions": [action]}) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"description": None}, [("lint.description_missing", "actions[1].description")]),
        ({"description": " "}, [("lint.description_missing", "actions[1].description")]),
        ({"description": "d" * 241}, [("lint.description_missing", "actions[1].description")]),
        ({"description": 5}, [("lint.description_missing", "actions[1].description")]),
        # sanitize removes an unsafe description: it is missing as well (docs/actions.md section 9).
        ({"description": "x\u202e"}, [("lint.text_unsafe", "actions[1].description"),
                                       ("lint.description_missing", "actions[1].description")]),
        ({"description": "x\u0007y", "type": "view.detail", "params": None,
          "riskLevel": "HIGH"}, [("lint.text_unsafe", "actions[1].description"),
                                 ("lint.description_missing", "actions[1].description")]),
        ({"description": "line\nbreak"}, [("lint.text_unsafe", "actions[1].description"),
                                          ("lint.description_missing", "actions[1].description")]),
        ({"description": "d" * 240}, []),
        ({"riskLevel": None}, []),  # absent: business.* is confirmed anyway (seed 004 "6.")
        ({"riskLevel": "LOW"}, [("lint.risk_level_mismatch", "actions[1].riskLevel")]),
        ({"riskLevel": "high"}, [("lint.risk_level_mismatch", "actions[1].riskLevel")]),
        ({"riskLevel": "MEDIUM"}, []),
        ({"type": "view.detail", "params": None, "description": None}, [
            ("lint.description_missing", "actions[1].description")]),
        ({"type": "view.detail", "params": None, "description": None, "riskLevel": "MEDIUM"}, []),
    ],
)  # fmt: skip
def test_high_risk_needs_description_and_risk_level(
    change: dict[str, Any], expected: list[tuple[str, str]]
) -> None:
    action = {k: v for k, v in {**GOOD, **change}.items() if v is not None}
    assert lints({"datasets": {}, "actions": [action]}) == expected


def test_forbidden_fields_at_every_level() -> None:
    action = {
        **GOOD,
        "tool": "mcp__delete_all",
        "mcp_server": "erp",
        "href": "https://x",
        "onClick": "alert(1)",
        "rpcMethod": "orders.create",
        "apiKey": "k",
        "unknownButHarmless": "x",
        "extra": {"nested": True},
        "params": {"prompt": "为 HXN5-001 创建检修工单", "arguments": {"admin": True}, "x": [1]},
        "target": {"componentId": "c", "token": "t"},
    }
    assert lints({"datasets": {}, "actions": [action]}) == [
        ("lint.forbidden_field", "actions[1].tool"),
        ("lint.forbidden_field", "actions[1].mcp_server"),
        ("lint.forbidden_field", "actions[1].href"),
        ("lint.forbidden_field", "actions[1].onClick"),
        ("lint.forbidden_field", "actions[1].rpcMethod"),
        ("lint.forbidden_field", "actions[1].apiKey"),
        ("lint.forbidden_field", "actions[1].extra"),
        ("lint.forbidden_field", "actions[1].params.arguments"),
        ("lint.forbidden_field", "actions[1].params.x"),
        ("lint.forbidden_field", "actions[1].target.token"),
    ]


def test_seed_unsafe_example_lints_tool_and_arguments() -> None:
    unsafe = {
        "datasets": {},
        "actions": [
            {
                "id": "unsafe",
                "type": "business.execute",
                "label": "执行",
                "tool": "mcp__delete_all",
                "params": {"prompt": "执行指定业务操作", "arguments": {"admin": True}},
            }
        ],
    }
    assert lints(unsafe) == [
        ("lint.description_missing", "actions[1].description"),
        ("lint.forbidden_field", "actions[1].tool"),
        ("lint.forbidden_field", "actions[1].params.arguments"),
    ]


def test_lint_ignores_depth() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    assert lints({"datasets": {}, "actions": [{**GOOD, "params": {"prompt": "p", "a": deep}}]})


# --- JSON Schema ---------------------------------------------------------------------------


def validate(schema: dict[str, Any], value: Any, root: dict[str, Any]) -> bool:
    """A small evaluator for the keywords action_schema uses (test-only)."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return validate(root["$defs"][name], value, root)
    kinds = {"array": list, "object": dict, "string": str}
    if "type" in schema and not isinstance(value, kinds[schema["type"]]):
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if "const" in schema and not (value is schema["const"] or value == schema["const"]):
        return False
    if isinstance(value, str):
        if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value)):
            return False
        if "pattern" in schema and re.search(schema["pattern"], value) is None:
            return False
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", len(value)):
            return False
        if "items" in schema and not all(validate(schema["items"], v, root) for v in value):
            return False
    if isinstance(value, dict):
        if len(value) < schema.get("minProperties", 0):
            return False
        if any(k not in value for k in schema.get("required", [])):
            return False
        props = schema.get("properties", {})
        for key, sub in value.items():
            if key in props:
                if not validate(props[key], sub, root):
                    return False
            elif schema.get("additionalProperties", True) is False:
                return False
    for part in schema.get("allOf", []):
        if not validate(part, value, root):
            return False
    if "if" in schema:
        branch = "then" if validate(schema["if"], value, root) else "else"
        if branch in schema and not validate(schema[branch], value, root):
            return False
    return not ("not" in schema and validate(schema["not"], value, root))


SCHEMA = action_schema()


def test_schema_is_json_and_states_the_limits() -> None:
    assert json.loads(json.dumps(SCHEMA)) == SCHEMA
    action = SCHEMA["$defs"]["action"]
    assert SCHEMA["maxItems"] == 8
    assert [
        action["properties"][k]["maxLength"] for k in ("id", "label", "title", "description")
    ] == [
        80,
        32,
        80,
        240,
    ]
    assert action["properties"]["type"]["enum"] == [
        "view.detail",
        "render.change",
        "render.reset",
        "conversation.continue",
        "conversation.modify",
        "business.execute",
        "business.cancel",
        "answer.refresh",
    ]
    assert action["additionalProperties"] is False


def test_schema_accepts_the_seed_example_and_rejects_the_unsafe_one() -> None:
    example = json.loads(
        (Path(__file__).parent / "data" / "seed_full_example.json").read_text(encoding="utf-8")
    )
    assert validate(SCHEMA, example["actions"], SCHEMA)
    unsafe = [{"id": "unsafe", "type": "business.execute", "label": "执行", "tool": "x",
               "params": {"prompt": "执行指定业务操作"}}]  # fmt: skip
    assert not validate(SCHEMA, unsafe, SCHEMA)
    unsafe[0].pop("tool")
    assert validate(SCHEMA, unsafe, SCHEMA)


@pytest.mark.parametrize(
    "action",
    [
        {"id": " ", "type": "view.detail", "label": "L"},
        {"id": "\u3000\u200b", "type": "view.detail", "label": "L"},
        {"id": "x", "type": "view.detail", "label": "L" * 33},
        {"id": "x", "type": "view.detail", "label": "L", "params": {"prompt": "p"}},
        {"id": "x", "type": "view.detail", "label": "L", "requiresConfirmation": False},
        {"id": "x", "type": "view.detail", "label": "L", "target": {}},
        {"id": "x", "type": "render.change", "label": "L", "params": {"chartType": "pie"}},
        {"id": "x", "type": "render.change", "label": "L"},
        {"id": "x", "type": "business.cancel", "label": "L", "params": {}},
        {"id": "x", "type": "conversation.modify", "label": "L", "params": {"prompt": " "}},
        {"id": "x", "type": "conversation.modify", "label": "L", "params": {"x": 1}},
    ],
)
def test_schema_rejects_what_sanitize_changes(action: dict[str, Any]) -> None:
    assert not validate(SCHEMA, [action], SCHEMA)
    assert sanitize({"actions": [action]}).diagnostics != ()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers)
def test_every_sanitized_list_is_valid_by_the_schema(answer: Any) -> None:
    kept = [a.to_json() for a in sanitize(answer).actions]
    assert validate(SCHEMA, kept, SCHEMA)
