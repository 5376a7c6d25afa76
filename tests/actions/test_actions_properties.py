"""Hypothesis properties of sanitize over arbitrary JSON (§12)."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings

from replykit.actions import (
    ACTION_TYPES,
    CHART_TYPES,
    RESERVED_IDS,
    RISK_LEVELS,
    STYLES,
    ActionContext,
    ChartComponent,
    lint,
    needs_confirmation,
    sanitize,
    with_defaults,
)
from replykit.text import is_blank, measured_size

from .strategies import actions_lists, answers

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SANITIZE_CODES = {
    "actions.not_list",
    "actions.misplaced",
    "action.not_object",
    "action.type_unknown",
    "action.id_invalid",
    "action.id_duplicate",
    "action.label_invalid",
    "action.prompt_required",
    "action.chart_type_invalid",
    "action.target_invalid",
    "action.over_limit",
    "action.field_removed",
    "action.id_reserved",
    "action.text_unsafe",
}
# text_unsafe also removes optional fields; counted as a drop only on id, label, prompt.
DROP_CODES = SANITIZE_CODES - {
    "action.field_removed", "actions.not_list", "action.text_unsafe", "actions.misplaced"
}  # fmt: skip
TOP_FIELDS = {"id", "type", "label", "style", "title", "description", "riskLevel",
              "requiresConfirmation", "target", "params"}  # fmt: skip


PROMPT_REQUIRED = ("conversation.continue", "business.execute", "business.cancel")
UNSAFE = {*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)}


def text_ok(value: Any, limit: int, allowed: str = "", *, checked: bool = True) -> bool:
    """Non-blank within ``limit``; when ``checked`` (a §12 text field), no unsafe
    character but those ``allowed``."""
    return (
        isinstance(value, str)
        and 0 < measured_size(value) <= limit  # a line ending counts as one (§1.5)
        and not is_blank(value)
        and not (checked and any(ord(c) in UNSAFE and c not in allowed for c in value))
    )


def is_drop(code: str, path: str | None, raw: list[Any]) -> bool:
    if code != "action.text_unsafe":
        return code in DROP_CODES
    # Required fields drop the action: id, label, a continue/business prompt.
    assert path is not None
    fields = r"id|label|title|description|params\.prompt|target\.componentId|target\.dataset"
    found = re.fullmatch(rf"actions\[(\d+)\]\.({fields})", path)
    assert found is not None, path
    field = found.group(2)
    if field == "target.componentId":  # a render.change's chart: without it, another chart
        return raw[int(found.group(1)) - 1]["type"] == "render.change"
    if field == "params.prompt":
        return raw[int(found.group(1)) - 1]["type"] in PROMPT_REQUIRED
    return field in ("id", "label")


def assert_valid(action: dict[str, Any]) -> None:
    """The keep and removal rules, restated independently of the implementation."""
    assert set(action) <= TOP_FIELDS
    assert action["type"] in ACTION_TYPES
    assert text_ok(action["id"], 80)
    assert action["id"] not in RESERVED_IDS
    assert text_ok(action["label"], 32)
    assert action.get("style", "primary") in STYLES
    assert "title" not in action or text_ok(action["title"], 80)
    assert "description" not in action or text_ok(action["description"], 240)
    assert action.get("riskLevel", "LOW") in RISK_LEVELS
    assert action.get("requiresConfirmation", True) is True
    target = action.get("target", {"dataset": "d"})
    assert target and set(target) <= {"dataset", "componentId"}
    assert all(text_ok(v, 120) for v in target.values())  # no unsafe character either
    assert target.get("componentId") not in RESERVED_IDS  # no chart can have one
    params = action.get("params")
    kind = action["type"]
    if kind in ("conversation.continue", "business.execute", "business.cancel"):
        assert params is not None and set(params) == {"prompt"}
        assert text_ok(params["prompt"], 800, "\t\n\r")
    elif kind == "conversation.modify":
        assert params is None or (
            set(params) == {"prompt"} and text_ok(params["prompt"], 800, "\t\n\r")
        )
    elif kind == "render.change":
        assert params is not None and set(params) == {"chartType"}
        assert params["chartType"] in CHART_TYPES
    else:
        assert params is None


@SETTINGS
@given(answers)
def test_sanitize_output_is_safe_valid_and_accounted(answer: Any) -> None:
    result = sanitize(answer)  # never raises
    out = [a.to_json() for a in result.actions]
    assert len(out) <= 8
    assert len({a["id"] for a in out}) == len(out)
    for action in out:
        assert_valid(action)
        if action["type"].startswith("business."):
            assert action["id"] in {a.id for a in result.actions if needs_confirmation(a)}
    for diagnostic in result.diagnostics:
        assert diagnostic.code in SANITIZE_CODES
        if diagnostic.code == "actions.misplaced":  # the wrapper's own, unread actions
            assert diagnostic.path is None and isinstance(answer, dict) and "actions" in answer
            continue
        assert diagnostic.path is not None and diagnostic.path.startswith("actions")
    raw = _raw_list(answer)
    if isinstance(raw, list):
        # Every input element is either shown or dropped with exactly one diagnostic.
        drops = [d for d in result.diagnostics if is_drop(d.code, d.path, raw)]
        assert len(out) + len(drops) == len(raw)
    # Idempotent: the kept output sanitizes to itself, with nothing to report.
    again = sanitize({"actions": out})
    assert again.actions == result.actions
    assert again.diagnostics == ()


def _raw_list(answer: Any) -> Any:
    if not isinstance(answer, dict):
        return None
    if "answerData" in answer or "payload" in answer:
        data, payload = answer.get("answerData"), answer.get("payload")
    elif "template" in answer:
        data, payload = None, answer
    else:
        data, payload = answer, None
    if isinstance(data, dict) and "actions" in data:
        return data["actions"]
    if isinstance(payload, dict) and "actions" in payload:
        return payload["actions"]
    return None


@SETTINGS
@given(actions_lists)
def test_with_defaults_and_lint_never_raise_and_stay_valid(actions: list[Any]) -> None:
    context = ActionContext(
        hasFullDetails=True,
        charts=(ChartComponent("c", "temporal"),),
        question="近三个月的故障？",
    )
    result = with_defaults(sanitize({"datasets": {}, "actions": actions}), context)
    everything = [a.to_json() for a in result.all_actions]
    assert len({a["id"] for a in everything}) == len(everything)
    for action in everything:
        assert_valid(action)
    assert not any(
        a["type"].startswith("business.") for a in map(lambda x: x.to_json(), result.added)
    )
    shown_types = {a.type for a in result.actions}
    assert all(a.type not in shown_types for a in result.added)
    for warning in lint({"datasets": {}, "actions": actions}):
        assert warning.code.startswith("lint.")
