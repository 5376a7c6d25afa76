"""``sanitize``: from any JSON value to the kept actions and a diagnostic per loss.

Source rules: seed 004 §2 (where actions live, answerData first), §3/§3.1 (fields and
limits), §8 (drop and removal rules) and §12 (input shape, codes, reserved ids, unsafe
characters, 1-based paths, first 8 kept).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from replykit.actions.model import (
    MAX_DESCRIPTION,
    MAX_ID,
    MAX_LABEL,
    MAX_PROMPT,
    MAX_SHOWN,
    MAX_TARGET,
    MAX_TITLE,
    PROMPT_REQUIRED_TYPES,
    ActionDiagnostic,
    ActionSet,
    ActionType,
    AnswerAction,
    AnswerValue,
    ChartType,
    Params,
    RiskLevel,
    Source,
    Style,
    Target,
    as_action_type,
    as_chart_type,
    as_risk_level,
    as_style,
    capped,
    is_reserved_id,
    key_path,
    unsafe_char,
    unsafe_message,
    valid_text,
)
from replykit.argcheck import typed
from replykit.diagnostics import Path
from replykit.limits import DEFAULT_LIMITS, Limits
from replykit.payload.describe import json_type
from replykit.payload.json_strict import read_json_value
from replykit.text import LineIndex


@typed
def locate_actions(answer: AnswerValue) -> tuple[Source, object] | None:
    """Find the raw ``actions`` value and the container it came from (seed 004 §2, §12).

    Input: a decoded JSON value (not a ``str``: ``TypeError`` naming ``answer``, as for
    every wrong argument type). A dict with an ``answerData`` or ``payload`` key is the wrapper
    ``{"answerData": {...}, "payload": {...}}`` (a wrapper member that is not an object
    counts as absent); else a dict with ``template`` is a payload; else a dict is the
    answerData. answerData wins whenever it has an ``actions`` key, whatever its value
    (no fallback to the payload). Returns ``(source, raw_actions)`` or ``None`` when no
    container has an ``actions`` key or ``answer`` is not a dict. Raises nothing else.
    """
    if not isinstance(answer, dict):
        return None
    answer_data: object
    payload: object
    if "answerData" in answer or "payload" in answer:
        answer_data = answer.get("answerData")
        payload = answer.get("payload")
    elif "template" in answer:
        answer_data, payload = None, answer
    else:
        answer_data, payload = answer, None
    if isinstance(answer_data, dict) and "actions" in answer_data:
        return "answerData", answer_data["actions"]
    if isinstance(payload, dict) and "actions" in payload:
        return "payload", payload["actions"]
    return None


def _drop(code: str, path: str, message: str) -> ActionDiagnostic:
    return ActionDiagnostic(code, path, message + "; the action is dropped.")


def _removed(path: str, message: str) -> ActionDiagnostic:
    return ActionDiagnostic("action.field_removed", path, message + "; the field is removed.")


def _unsafe(field: str, value: str, *, prompt: bool = False) -> str | None:
    """The ``action.text_unsafe`` message for ``value``, or ``None`` when it is safe."""
    index = unsafe_char(value, prompt=prompt)
    return None if index is None else unsafe_message(field, value, index)


def _optional_text(
    value: object,
    path: str,
    field: str,
    limit: int,
    reason: str,
    out: list[ActionDiagnostic],
    *,
    prompt: bool = False,
) -> str | None:
    """An optional text kept, or ``None`` with its removal reported: ``reason`` as
    ``action.field_removed`` when not a non-blank string within ``limit``, else
    ``action.text_unsafe`` when it holds a forbidden character (§12)."""
    if not isinstance(value, str) or not valid_text(value, limit):
        out.append(_removed(path, reason))
        return None
    unsafe = _unsafe(field, value, prompt=prompt)
    if unsafe is not None:
        out.append(ActionDiagnostic("action.text_unsafe", path, unsafe + "; the field is removed."))
        return None
    return value


@attrs.frozen
class _Checked:
    """A kept action before the limit of 8, with the removals found while building it."""

    action: AnswerAction
    removed: tuple[ActionDiagnostic, ...]


def _check_drop(
    item: object, base: str, seen: Mapping[str, str]
) -> ActionDiagnostic | tuple[ActionType, str, str]:
    """Apply the drop rules in their fixed order; the first that fails is reported."""
    if not isinstance(item, dict):
        return _drop(
            "action.not_object", base, f"An action must be an object, not {json_type(item)}"
        )
    action_type = as_action_type(item.get("type"))
    if action_type is None:
        return _drop(
            "action.type_unknown",
            base + ".type",
            "type is missing or not one of the 8 supported events",
        )
    action_id = item.get("id")
    if not isinstance(action_id, str) or not valid_text(action_id, MAX_ID):
        return _drop(
            "action.id_invalid",
            base + ".id",
            f"id must be a non-blank string of at most {MAX_ID} characters",
        )
    if is_reserved_id(action_id):
        return _drop(
            "action.id_reserved",
            base + ".id",
            "id is a name JavaScript objects inherit, which a client keying state by id "
            "would confuse with the object's own member",
        )
    unsafe = _unsafe("id", action_id)
    if unsafe is not None:
        return _drop("action.text_unsafe", base + ".id", unsafe)
    if action_id in seen:
        return _drop(
            "action.id_duplicate",
            base + ".id",
            f"id is already used by {seen[action_id]} (the first one wins)",
        )
    label = item.get("label")
    if not isinstance(label, str) or not valid_text(label, MAX_LABEL):
        return _drop(
            "action.label_invalid",
            base + ".label",
            f"label must be a non-blank string of at most {MAX_LABEL} characters",
        )
    unsafe = _unsafe("label", label)
    if unsafe is not None:
        return _drop("action.text_unsafe", base + ".label", unsafe)
    params = item.get("params")
    if action_type in PROMPT_REQUIRED_TYPES and not (
        isinstance(params, dict) and valid_text(params.get("prompt"), MAX_PROMPT)
    ):
        return _drop(
            "action.prompt_required",
            base + ".params.prompt",
            f"{action_type} needs params.prompt, a non-blank string of at most "
            f"{MAX_PROMPT} characters",
        )
    if action_type in PROMPT_REQUIRED_TYPES and isinstance(params, dict):
        unsafe = _unsafe("params.prompt", params["prompt"], prompt=True)
        if unsafe is not None:
            return _drop("action.text_unsafe", base + ".params.prompt", unsafe)
    if action_type == "render.change" and not (
        isinstance(params, dict) and as_chart_type(params.get("chartType")) is not None
    ):
        return _drop(
            "action.chart_type_invalid",
            base + ".params.chartType",
            "render.change needs params.chartType: bar, row, line, area, donut, scatter or table",
        )
    return action_type, action_id, label


def _target(value: object, path: str, out: list[ActionDiagnostic]) -> Target | None:
    if not isinstance(value, dict):
        out.append(_removed(path, f"target must be an object, not {json_type(value)}"))
        return None
    if not value:
        out.append(_removed(path, "target is empty"))
        return None
    found: dict[str, str] = {}
    for key, sub in value.items():
        sub_path = key_path(path, key)
        if key in ("dataset", "componentId"):
            if isinstance(sub, str) and valid_text(sub, MAX_TARGET):
                found[key] = sub
            else:
                out.append(
                    _removed(
                        sub_path,
                        f"target.{key} must be a non-blank string of at most "
                        f"{MAX_TARGET} characters",
                    )
                )
        else:
            out.append(_removed(sub_path, "target holds only dataset and componentId"))
    if not found:
        return None
    return Target(dataset=found.get("dataset"), componentId=found.get("componentId"))


def _params(
    value: object, action_type: ActionType, path: str, out: list[ActionDiagnostic]
) -> Params | None:
    if not isinstance(value, dict):
        out.append(_removed(path, f"params must be an object, not {json_type(value)}"))
        return None
    if not value:
        out.append(_removed(path, "params is empty"))
        return None
    prompt: str | None = None
    chart: ChartType | None = None
    for key, sub in value.items():
        sub_path = key_path(path, key)
        if key == "prompt":
            if action_type in PROMPT_REQUIRED_TYPES:
                # Already checked by _check_drop; the isinstance only narrows the type.
                prompt = sub if isinstance(sub, str) else None
            elif action_type == "conversation.modify":
                prompt = _optional_text(
                    sub,
                    sub_path,
                    "params.prompt",
                    MAX_PROMPT,
                    "conversation.modify prompt must be a non-blank string of at most "
                    f"{MAX_PROMPT} characters (the default prompt applies)",
                    out,
                    prompt=True,
                )
            else:
                out.append(_removed(sub_path, f"{action_type} does not use params.prompt"))
        elif key == "chartType":
            if action_type == "render.change":
                chart = as_chart_type(sub)
            else:
                out.append(_removed(sub_path, f"{action_type} does not use params.chartType"))
        else:
            out.append(_removed(sub_path, "params holds only prompt and chartType"))
    if prompt is None and chart is None:
        return None
    return Params(prompt=prompt, chartType=chart)


def _build(
    item: dict[Any, Any], base: str, action_type: ActionType, action_id: str, label: str
) -> _Checked:
    """Build the kept action from the protocol fields, reporting every removed one."""
    out: list[ActionDiagnostic] = []
    style: Style | None = None
    title: str | None = None
    description: str | None = None
    risk: RiskLevel | None = None
    confirm = False
    target: Target | None = None
    params: Params | None = None
    for key, value in item.items():
        path = key_path(base, key)
        if key in ("id", "type", "label"):
            continue
        if key == "style":
            style = as_style(value)
            if style is None:
                out.append(_removed(path, "style must be primary, default or danger"))
        elif key == "title":
            title = _optional_text(
                value,
                path,
                "title",
                MAX_TITLE,
                f"title must be a non-blank string of at most {MAX_TITLE}",
                out,
            )
        elif key == "description":
            description = _optional_text(
                value,
                path,
                "description",
                MAX_DESCRIPTION,
                f"description must be a non-blank string of at most {MAX_DESCRIPTION}",
                out,
            )
        elif key == "riskLevel":
            risk = as_risk_level(value)
            if risk is None:
                out.append(_removed(path, "riskLevel must be LOW, MEDIUM or HIGH"))
        elif key == "requiresConfirmation":
            # Only the JSON literal true counts (seed 004 §3.1 "仅 true 有效"); 1 is not true.
            if value is True:
                confirm = True
            else:
                out.append(_removed(path, "requiresConfirmation is honoured only when true"))
        elif key == "target":
            target = _target(value, path, out)
        elif key == "params":
            params = _params(value, action_type, path, out)
        else:
            out.append(_removed(path, "this field is not part of the protocol"))
    action = AnswerAction(
        id=action_id,
        type=action_type,
        label=label,
        style=style,
        title=title,
        description=description,
        riskLevel=risk,
        requiresConfirmation=confirm,
        target=target,
        params=params,
    )
    return _Checked(action, tuple(out))


@typed
def sanitize(answer: AnswerValue, *, limits: Limits = DEFAULT_LIMITS) -> ActionSet:
    """Keep the valid actions of an answer and report every drop and removal.

    Input: a decoded JSON value: the wrapper ``{"answerData", "payload"}``,
    a bare answerData, or a bare payload (one with ``template``), see
    :func:`locate_actions`. Output: an :class:`ActionSet` whose ``actions`` are the first
    8 kept actions in input order, holding only protocol fields, and whose
    ``diagnostics`` carry one §12 code per dropped action (the first rule it fails, in
    the order not_object, type_unknown, id_invalid, id_reserved, text_unsafe on the id,
    id_duplicate, label_invalid, text_unsafe on the label, prompt_required, text_unsafe
    on a required prompt, chart_type_invalid, over_limit) and one
    ``action.field_removed`` or ``action.text_unsafe`` (title, description, a
    conversation.modify prompt) per removed field of a kept action. Paths are 1-based
    and relative to the container (``actions[3].params.arguments``); ``source`` names
    the container. A dropped action reports only its drop, not its field removals.
    Lengths are code points. ``id``, ``label`` and texts are kept verbatim (not
    trimmed).

    At most ``limits.max_diagnostics`` diagnostics (§1): past it, one
    ``limit.diagnostics`` summary (path ``None``, ``left_out`` counts by code) stands
    for the rest.

    Never raises on a decoded JSON value other than a string, non-string keys included
    (a non-object answer has no actions). Raises ``TypeError`` naming ``answer`` for a
    ``str`` (JSON text left undecoded: decode it first) or a value of no JSON type.
    Source rule: seed 004 §2, §3.1, §8; §12.
    """
    located = locate_actions(answer)
    if located is None:
        return ActionSet()
    source, raw = located
    if not isinstance(raw, list):
        return ActionSet(
            diagnostics=(
                ActionDiagnostic(
                    "actions.not_list",
                    "actions",
                    f"actions must be an array, not {json_type(raw)}; no action is shown.",
                ),
            ),
            source=source,
        )
    shown: list[AnswerAction] = []
    diagnostics: list[ActionDiagnostic] = []
    seen: dict[str, str] = {}  # id -> path of the action that first used it
    for index, item in enumerate(raw):
        base = f"actions[{index + 1}]"
        checked = _check_drop(item, base, seen)
        if isinstance(checked, ActionDiagnostic):
            diagnostics.append(checked)
            continue
        if not isinstance(item, dict):  # pragma: no cover - _check_drop guarantees a dict
            continue
        action_type, action_id, label = checked
        seen[action_id] = base
        if len(shown) >= MAX_SHOWN:
            diagnostics.append(
                _drop(
                    "action.over_limit",
                    base,
                    f"only the first {MAX_SHOWN} valid actions are shown",
                )
            )
            continue
        built = _build(item, base, action_type, action_id, label)
        shown.append(built.action)
        diagnostics.extend(built.removed)
    return ActionSet(
        actions=tuple(shown),
        diagnostics=capped(diagnostics, limits.max_diagnostics),
        source=source,
    )


@typed
def sanitize_json(text: str, *, limits: Limits = DEFAULT_LIMITS) -> ActionSet:
    """:func:`sanitize` on an answer given as JSON text, read strictly (§1, §12).

    For a backend that holds the answer as text: reading it here keeps what
    ``json.loads`` would silently resolve (of ``"type": "business.execute", "type":
    "view.detail"`` it keeps the last, an action without confirmation). Input: the JSON
    text of the answer (any shape :func:`sanitize` reads).

    Output: :func:`sanitize` of the value when the text is strict JSON. Otherwise no
    action at all and one :class:`ActionDiagnostic` per problem, in text order, with
    ``start``/``end``/``line``/``column`` set: ``json.syntax``, ``json.too_deep`` (over
    64 levels), ``json.constant`` (NaN, Infinity), ``json.duplicate_key``,
    ``json.number_too_large`` (over 4300 digits, or beyond a 64-bit float's range),
    ``json.lone_surrogate``; ``path`` is the 1-based place in the whole text
    (``answerData.actions[1].type``) or ``None``.

    At most ``limits.max_diagnostics`` diagnostics, as for :func:`sanitize` (§1).

    Raises ``TypeError`` when ``text`` is not a ``str``; never raises for bad text.
    """
    read = read_json_value(text, max_depth=limits.max_depth)
    if not read.findings:
        return sanitize(read.value, limits=limits)
    lines = LineIndex(text)
    out = []
    for f in sorted(read.findings, key=lambda f: f.start or 0):
        start = f.start or 0
        line, column = lines.line_col(start)
        out.append(
            ActionDiagnostic(
                f.code, _json_path(f.path), f.message, start, f.end or start, line, column
            )
        )
    return ActionSet(diagnostics=capped(out, limits.max_diagnostics))


def _json_path(path: Path) -> str | None:
    text = ""
    for part in path:
        text = f"{text}[{part + 1}]" if isinstance(part, int) else key_path(text, part)
    return text or None
