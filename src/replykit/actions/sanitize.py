"""``sanitize``: from any JSON value to the kept actions and a diagnostic per loss.

Rules: §12 (docs/actions.md sections 1-4): where actions live (answerData first),
fields and limits, drop and removal rules, codes, reserved ids, unsafe characters,
1-based paths, the first 8 kept. Each loss is reported at a cursor that descends with
the reading (:mod:`replykit.findings`), its message the code's template.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
    ActionSink,
    ActionType,
    AnswerAction,
    AnswerValue,
    ChartType,
    Params,
    RiskLevel,
    Source,
    Style,
    Target,
    action_path,
    as_action_type,
    as_chart_type,
    as_risk_level,
    as_style,
    capped,
    is_reserved_id,
    path_key,
    unsafe_char,
    unsafe_params,
    unsafe_variant,
    valid_target,
    valid_text,
)
from replykit.argcheck import typed
from replykit.codes import actions as A
from replykit.findings import Cursor
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits
from replykit.questionnaire.payload.describe import json_type
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.text import LineIndex


@typed
def locate_actions(answer: AnswerValue) -> tuple[Source, object] | None:
    """Find the raw ``actions`` value and the container it came from (§12).

    Input: a decoded JSON value (not a ``str``: ``TypeError`` naming ``answer``, as for
    every wrong argument type). A dict with an ``answerData`` or ``payload`` key is the wrapper
    ``{"answerData": {...}, "payload": {...}}`` (a wrapper member that is not an object
    counts as absent); else a dict with ``template`` is a payload; else a dict is the
    answerData. answerData wins whenever it has an ``actions`` key, whatever its value
    (no fallback to the payload). A Python ``Mapping`` that is not a ``dict`` (a
    ``MappingProxyType``) is read as the object it holds, as the annotation allows, here
    and as a wrapper member; an ``actions`` value that is a ``tuple`` is returned as the
    ``list`` it holds (:func:`as_array`). Returns ``(source, raw_actions)`` or ``None`` when no
    container has an ``actions`` key or ``answer`` is no mapping. Raises nothing else.
    """
    container = as_object(answer)
    if not isinstance(container, dict):
        return None
    answer_data: object
    payload: object
    if "answerData" in container or "payload" in container:
        answer_data = as_object(container.get("answerData"))
        payload = as_object(container.get("payload"))
    elif "template" in container:
        answer_data, payload = None, container
    else:
        answer_data, payload = container, None
    if isinstance(answer_data, dict) and "actions" in answer_data:
        return "answerData", as_array(answer_data["actions"])
    if isinstance(payload, dict) and "actions" in payload:
        return "payload", as_array(payload["actions"])
    return None


def as_array(value: object) -> object:
    """``value`` as a ``list`` when it is a ``tuple`` (its items, in order), else itself:
    an ``actions`` array a Python caller hands over as a tuple is still one, as
    ``actions_html`` and ``render_html(actions=...)`` take it (docs/actions.md section
    1, docs/html.md section 4). Only the ``actions`` value is read so; the items
    themselves must be ``dict``s."""
    return list(value) if isinstance(value, tuple) else value


def as_object(value: object) -> object:
    """``value`` as a ``dict`` when it is another ``Mapping`` (its items, in order), else
    itself: a JSON object a Python caller hands over in a read-only view is still one
    (the answer and its wrapper members, for ``sanitize`` and ``lint`` alike)."""
    if isinstance(value, Mapping) and not isinstance(value, dict):
        return dict(value.items())
    return value


def _unsafe(
    at: Cursor, field: str, value: str, *, prompt: bool = False, removed: bool = False
) -> bool:
    """Report ``action.text_unsafe`` at ``at`` when ``value`` holds a character §12
    forbids (the action dropped, or with ``removed`` the field); True when it does."""
    index = unsafe_char(value, prompt=prompt)
    if index is None:
        return False
    variant = unsafe_variant(value, index, removed=removed)
    at.add(A.ACTION_TEXT_UNSAFE, variant=variant, **unsafe_params(field, value, index))
    return True


def _optional_text(
    value: object, at: Cursor, field: str, limit: int, reason: str, *, prompt: bool = False
) -> str | None:
    """An optional text kept, or ``None`` with its removal reported: the ``reason``
    variant of ``action.field_removed`` when not a non-blank string within ``limit``,
    else ``action.text_unsafe`` when it holds a forbidden character (§12)."""
    if not isinstance(value, str) or not valid_text(value, limit, prompt=prompt):
        at.add(A.ACTION_FIELD_REMOVED, variant=reason, limit=limit)
        return None
    if _unsafe(at, field, value, prompt=prompt, removed=True):
        return None
    return value


def _check_drop(
    item: object, at: Cursor, seen: Mapping[str, Cursor]
) -> tuple[ActionType, str, str] | None:
    """Apply the drop rules in their fixed order; the first that fails is reported
    (and ``None`` returned)."""
    if not isinstance(item, dict):
        at.add(A.ACTION_NOT_OBJECT, type=json_type(item))
        return None
    action_type = as_action_type(item.get("type"))
    if action_type is None:
        at.add(A.ACTION_TYPE_UNKNOWN, "type")
        return None
    action_id = item.get("id")
    if not isinstance(action_id, str) or not valid_text(action_id, MAX_ID):
        at.add(A.ACTION_ID_INVALID, "id", limit=MAX_ID)
        return None
    if is_reserved_id(action_id):
        at.add(A.ACTION_ID_RESERVED, "id")
        return None
    if _unsafe(at.descend("id"), "id", action_id):
        return None
    if action_id in seen:
        at.add(A.ACTION_ID_DUPLICATE, "id", first=action_path(seen[action_id].path))
        return None
    label = item.get("label")
    if not isinstance(label, str) or not valid_text(label, MAX_LABEL):
        at.add(A.ACTION_LABEL_INVALID, "label", limit=MAX_LABEL)
        return None
    if _unsafe(at.descend("label"), "label", label):
        return None
    params = item.get("params")
    if action_type in PROMPT_REQUIRED_TYPES and not (
        isinstance(params, dict) and valid_text(params.get("prompt"), MAX_PROMPT, prompt=True)
    ):
        at.add(
            A.ACTION_PROMPT_REQUIRED, "params", "prompt", action_type=action_type, limit=MAX_PROMPT
        )
        return None
    if (
        action_type in PROMPT_REQUIRED_TYPES
        and isinstance(params, dict)
        and _unsafe(at.descend("params", "prompt"), "params.prompt", params["prompt"], prompt=True)
    ):
        return None
    if action_type == "render.change" and not (
        isinstance(params, dict) and as_chart_type(params.get("chartType")) is not None
    ):
        at.add(A.ACTION_CHART_TYPE_INVALID, "params", "chartType")
        return None
    if action_type == "render.change" and _target_lost(item.get("target"), at):
        return None
    return action_type, action_id, label


def _target_lost(target: object, at: Cursor) -> bool:
    """Report ``action.target_invalid`` when a render.change ``target`` is given but
    names no chart that sanitize would keep: removing it would turn the action into an
    untargeted one that changes whichever chart fits (§12, docs/actions.md section 2).
    ``null`` and ``{}`` name nothing and are removals only."""
    if target is None:
        return False
    if not isinstance(target, dict):
        at.add(A.ACTION_TARGET_INVALID, "target", limit=MAX_TARGET)
        return True
    if "componentId" in target:
        chart = target["componentId"]
        if not valid_target(chart):
            at.add(A.ACTION_TARGET_INVALID, "target", "componentId", limit=MAX_TARGET)
            return True
        # No chart can have an id with an unsafe character or an inherited name
        # (ChartComponent refuses both): the click could only fail.
        if _unsafe(at.descend("target", "componentId"), "target.componentId", chart):
            return True
        if is_reserved_id(chart):
            at.add(A.ACTION_TARGET_INVALID, "target", "componentId", variant="reserved")
            return True
        return False
    if any(key != "dataset" for key in target):
        at.add(A.ACTION_TARGET_INVALID, "target", limit=MAX_TARGET)
        return True
    return False


def _target(value: object, at: Cursor) -> Target | None:
    if not isinstance(value, dict):
        at.add(A.ACTION_FIELD_REMOVED, variant="target_type", type=json_type(value))
        return None
    if not value:
        at.add(A.ACTION_FIELD_REMOVED, variant="target_empty")
        return None
    found: dict[str, str] = {}
    for key, sub in value.items():
        if key in ("dataset", "componentId"):
            if not valid_target(sub):
                at.add(
                    A.ACTION_FIELD_REMOVED, key, variant="target_field", field=key, limit=MAX_TARGET
                )
            elif _unsafe(at.descend(key), f"target.{key}", sub, removed=True):
                pass
            elif key == "componentId" and is_reserved_id(sub):
                at.add(A.ACTION_FIELD_REMOVED, key, variant="target_reserved")
            else:
                found[key] = sub
        else:
            at.add(A.ACTION_FIELD_REMOVED, path_key(key), variant="target_only")
    if not found:
        return None
    return Target(dataset=found.get("dataset"), componentId=found.get("componentId"))


def _params(value: object, action_type: ActionType, at: Cursor) -> Params | None:
    if not isinstance(value, dict):
        at.add(A.ACTION_FIELD_REMOVED, variant="params_type", type=json_type(value))
        return None
    if not value:
        at.add(A.ACTION_FIELD_REMOVED, variant="params_empty")
        return None
    prompt: str | None = None
    chart: ChartType | None = None
    for key, sub in value.items():
        if key == "prompt":
            if action_type in PROMPT_REQUIRED_TYPES:
                # Already checked by _check_drop; the isinstance only narrows the type.
                prompt = sub if isinstance(sub, str) else None
            elif action_type == "conversation.modify":
                prompt = _optional_text(
                    sub, at.descend(key), "params.prompt", MAX_PROMPT, "modify_prompt", prompt=True
                )
            else:
                at.add(
                    A.ACTION_FIELD_REMOVED, key, variant="unused_prompt", action_type=action_type
                )
        elif key == "chartType":
            if action_type == "render.change":
                chart = as_chart_type(sub)
            else:
                at.add(A.ACTION_FIELD_REMOVED, key, variant="unused_chart", action_type=action_type)
        else:
            at.add(A.ACTION_FIELD_REMOVED, path_key(key), variant="params_only")
    if prompt is None and chart is None:
        return None
    return Params(prompt=prompt, chartType=chart)


def _build(
    item: dict[Any, Any], at: Cursor, action_type: ActionType, action_id: str, label: str
) -> AnswerAction:
    """Build the kept action from the protocol fields, reporting every removed one."""
    style: Style | None = None
    title: str | None = None
    description: str | None = None
    risk: RiskLevel | None = None
    confirm = False
    target: Target | None = None
    params: Params | None = None
    for key, value in item.items():
        field = at.descend(path_key(key))
        if key in ("id", "type", "label"):
            continue
        if key == "style":
            style = as_style(value)
            if style is None:
                field.add(A.ACTION_FIELD_REMOVED, variant="style")
        elif key == "title":
            title = _optional_text(value, field, "title", MAX_TITLE, "title")
        elif key == "description":
            description = _optional_text(
                value, field, "description", MAX_DESCRIPTION, "description"
            )
        elif key == "riskLevel":
            risk = as_risk_level(value)
            if risk is None:
                field.add(A.ACTION_FIELD_REMOVED, variant="risk_level")
        elif key == "requiresConfirmation":
            # Only the JSON literal true counts (§12: "仅 true 有效"); 1 is not true.
            if value is True:
                confirm = True
            else:
                field.add(A.ACTION_FIELD_REMOVED, variant="confirmation")
        elif key == "target":
            target = _target(value, field)
        elif key == "params":
            params = _params(value, action_type, field)
        else:
            field.add(A.ACTION_FIELD_REMOVED)
    return AnswerAction(
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


def _misplaced(answer: AnswerValue, sink: ActionSink) -> None:
    """``actions.misplaced`` (path ``None``) when ``answer`` is read as the wrapper and
    also holds a top-level ``actions`` list that nothing reads: an answerData with a
    business field named ``payload`` or ``answerData`` would otherwise lose its buttons
    without a word (docs/actions.md section 1). A ``Mapping`` is read as the object it
    holds (:func:`as_object`), as everywhere the answer is read."""
    held = as_object(answer)
    if isinstance(held, dict) and "actions" in held:
        key = "answerData" if "answerData" in held else "payload" if "payload" in held else None
        if key is not None:
            sink.at().add(A.ACTIONS_MISPLACED, key=key)


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
    on a required prompt, chart_type_invalid, target_invalid, over_limit) and one
    ``action.field_removed`` or ``action.text_unsafe`` (title, description, a
    conversation.modify prompt) per removed field of a kept action, after one
    ``actions.misplaced`` (path ``None``) when the answer is read as the wrapper and also
    has a top-level ``actions`` key that nothing reads. Paths are 1-based
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
    Source rule: §12 (docs/actions.md section 1-4).
    """
    located = locate_actions(answer)
    sink = ActionSink()
    _misplaced(answer, sink)
    if located is None:
        return ActionSet(diagnostics=tuple(sink.diagnostics))
    source, raw = located
    actions = sink.at("actions")
    if not isinstance(raw, list):
        actions.add(A.ACTIONS_NOT_LIST, type=json_type(raw))
        return ActionSet(diagnostics=tuple(sink.diagnostics), source=source)
    shown: list[AnswerAction] = []
    seen: dict[str, Cursor] = {}  # id -> the action that first used it
    for index, item in enumerate(raw):
        at = actions.descend(index)
        checked = _check_drop(item, at, seen)
        if checked is None or not isinstance(item, dict):
            continue
        action_type, action_id, label = checked
        seen[action_id] = at
        if len(shown) >= MAX_SHOWN:
            at.add(A.ACTION_OVER_LIMIT, limit=MAX_SHOWN)
            continue
        # A dropped action reports only its drop: removals are reported once it is kept.
        shown.append(_build(item, at, action_type, action_id, label))
    return ActionSet(
        actions=tuple(shown),
        diagnostics=capped(sink.diagnostics, limits.max_diagnostics),
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

    A value that is not an object, a JSON string included (an answer encoded twice),
    has no actions and no diagnostic (docs/actions.md section 1).

    Raises ``TypeError`` when ``text`` is not a ``str``; never raises for bad text.
    """
    read = read_json_value(text, max_depth=limits.max_depth)
    if not read.findings:
        # A decoded string is a non-object answer here, not text left undecoded.
        return ActionSet() if isinstance(read.value, str) else sanitize(read.value, limits=limits)
    lines = LineIndex(text)
    out = []
    for f in sorted(read.findings, key=lambda f: f.start or 0):
        start = f.start or 0
        line, column = lines.line_col(start)
        out.append(
            ActionDiagnostic(
                f.code,
                action_path(f.path),
                f.message,
                start,
                f.end or start,
                line,
                column,
                params=f.params,
                variant=f.variant,
            )
        )
    return ActionSet(diagnostics=capped(out, limits.max_diagnostics))
