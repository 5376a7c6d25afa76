"""Producer lint: the seed's checklist for whoever emits actions (seed 004 §11).

Warnings only: :func:`~replykit.actions.sanitize` stays the authority on what is kept.
"""

from __future__ import annotations

import re
from typing import Final

from replykit.actions.model import (
    ACTION_FIELDS,
    BUSINESS_TYPES,
    MAX_DESCRIPTION,
    PARAMS_FIELDS,
    TARGET_FIELDS,
    ActionDiagnostic,
    capped,
    is_reserved_id,
    key_path,
    unsafe_char,
    unsafe_message,
    valid_text,
)
from replykit.actions.sanitize import locate_actions
from replykit.argcheck import typed
from replykit.limits import DEFAULT_LIMITS, Limits

#: Vague references a business prompt must not lean on (seed 004 §11 "它""那个").
VAGUE_ZH: Final[tuple[str, ...]] = ("它", "那个", "这个")
VAGUE_EN_RE: Final = re.compile(r"\b(?:it|that|this\s+one)\b", re.IGNORECASE)

# Field names (lower case, without "_" and "-") that carry what must never be sent
# (seed 004 §8 list, §11 "不传工具名、鉴权信息、令牌和任意执行参数").
_FORBIDDEN: Final[dict[str, str]] = {
    **dict.fromkeys(
        ("tool", "toolname", "tools", "toolid", "mcp", "mcptool", "function", "functionname"),
        "a tool name",
    ),
    **dict.fromkeys(("server", "servername", "mcpserver", "mcpservername"), "an MCP server name"),
    **dict.fromkeys(("url", "uri", "href", "link", "endpoint", "webhook"), "a URL"),
    **dict.fromkeys(
        ("callback", "onclick", "onconfirm", "handler", "script", "javascript", "js", "eval"),
        "JavaScript or a callback",
    ),
    **dict.fromkeys(("rpc", "method", "rpcmethod", "procedure"), "an RPC method name"),
    **dict.fromkeys(
        (
            "token",
            "accesstoken",
            "refreshtoken",
            "apikey",
            "authorization",
            "auth",
            "password",
            "secret",
            "credential",
            "credentials",
            "cookie",
            "bearer",
            "sessionid",
        ),
        "a credential",
    ),
    **dict.fromkeys(
        ("arguments", "argument", "args", "payload", "body", "data", "input"),
        "a business argument object",
    ),
}


def _category(key: object, value: object) -> str | None:
    """Why an out-of-protocol field is forbidden, or ``None`` when merely unknown."""
    name = key.lower().replace("_", "").replace("-", "") if isinstance(key, str) else ""
    found = _FORBIDDEN.get(name)
    if found is None and isinstance(value, dict | list):
        return "a business argument object"
    return found


def _forbidden(
    mapping: dict[object, object], allowed: tuple[str, ...], base: str
) -> list[ActionDiagnostic]:
    out: list[ActionDiagnostic] = []
    for key, value in mapping.items():
        if isinstance(key, str) and key in allowed:
            continue
        category = _category(key, value)
        if category is not None:
            out.append(
                ActionDiagnostic(
                    "lint.forbidden_field",
                    key_path(base, key),
                    f"this field looks like {category}; never send it with an action",
                )
            )
    return out


@typed
def has_vague_reference(prompt: str) -> bool:
    """True when ``prompt`` contains 它, 那个, 这个, or the words it, that, this one.

    Case-insensitive for English, whole words only. Source rule: seed 004 §11.
    Raises ``TypeError`` naming the argument when an argument has the wrong type.
    """
    return any(word in prompt for word in VAGUE_ZH) or VAGUE_EN_RE.search(prompt) is not None


def _structure(answer: dict[object, object]) -> list[ActionDiagnostic]:
    out: list[ActionDiagnostic] = []
    is_wrapper = "answerData" in answer or "payload" in answer
    answer_data = answer.get("answerData") if is_wrapper else None
    payload = answer.get("payload") if is_wrapper else None
    if not is_wrapper:
        if "template" in answer:
            payload = answer
        else:
            answer_data = answer
    elif "actions" in answer:
        out.append(
            ActionDiagnostic(
                "lint.actions_misplaced",
                "actions",
                "actions beside answerData/payload are never read; put them in answerData "
                "beside datasets",
            )
        )
    if isinstance(answer_data, dict):
        datasets = answer_data.get("datasets")
        if "actions" in answer_data and not isinstance(datasets, dict):
            out.append(
                ActionDiagnostic(
                    "lint.actions_not_beside_datasets",
                    "actions",
                    "answerData has actions but no datasets object beside them",
                )
            )
        if isinstance(datasets, dict):
            if "actions" in datasets:
                out.append(
                    ActionDiagnostic(
                        "lint.actions_not_beside_datasets",
                        "datasets.actions",
                        "actions inside datasets are never read; put them beside datasets",
                    )
                )
            for name, dataset in datasets.items():
                if isinstance(dataset, dict) and "actions" in dataset:
                    out.append(
                        ActionDiagnostic(
                            "lint.actions_not_beside_datasets",
                            key_path(key_path("datasets", name), "actions"),
                            "actions inside a dataset are never read; put them beside datasets",
                        )
                    )
        if (
            "actions" in answer_data
            and isinstance(payload, dict)
            and "actions" in payload
            and payload is not answer_data
        ):
            out.append(
                ActionDiagnostic(
                    "lint.payload_actions_ignored",
                    "actions",
                    "payload.actions is ignored because answerData has actions",
                )
            )
    return out


def _texts(item: dict[object, object], base: str) -> list[ActionDiagnostic]:
    """Reserved ids and unsafe characters (§12), whatever else the action gets wrong."""
    out: list[ActionDiagnostic] = []
    if is_reserved_id(item.get("id")):
        out.append(
            ActionDiagnostic(
                "lint.id_reserved",
                base + ".id",
                "this id is a name JavaScript objects inherit; clients drop the action",
            )
        )
    params = item.get("params")
    fields: list[tuple[str, object, bool]] = [
        (name, item.get(name), False) for name in ("id", "label", "title", "description")
    ]
    if isinstance(params, dict):
        fields.append(("params.prompt", params.get("prompt"), True))
    for name, value, prompt in fields:
        index = unsafe_char(value, prompt=prompt) if isinstance(value, str) else None
        if isinstance(value, str) and index is not None:
            out.append(
                ActionDiagnostic(
                    "lint.text_unsafe",
                    f"{base}.{name}",
                    unsafe_message(name, value, index) + "; clients drop or remove it",
                )
            )
    return out


def _action(item: dict[object, object], base: str) -> list[ActionDiagnostic]:
    out = _texts(item, base)
    action_type = item.get("type")
    params = item.get("params")
    business = isinstance(action_type, str) and action_type in BUSINESS_TYPES
    prompt = params.get("prompt") if isinstance(params, dict) else None
    if business and isinstance(prompt, str) and has_vague_reference(prompt):
        out.append(
            ActionDiagnostic(
                "lint.vague_reference",
                base + ".params.prompt",
                "a business prompt must name the object and the action, not refer to it "
                "vaguely (它, 那个, 这个, it, that, this one)",
            )
        )
    risk = item.get("riskLevel")
    if (business or risk == "HIGH") and not valid_text(item.get("description"), MAX_DESCRIPTION):
        out.append(
            ActionDiagnostic(
                "lint.description_missing",
                base + ".description",
                "a high-risk action needs a clear description of its effect",
            )
        )
    if business and risk not in ("MEDIUM", "HIGH"):
        out.append(
            ActionDiagnostic(
                "lint.risk_level_mismatch",
                base + ".riskLevel",
                f"{action_type} has business impact; declare riskLevel MEDIUM or HIGH",
            )
        )
    out.extend(_forbidden(item, ACTION_FIELDS, base))
    if isinstance(params, dict):
        out.extend(_forbidden(params, PARAMS_FIELDS, base + ".params"))
    target = item.get("target")
    if isinstance(target, dict):
        out.extend(_forbidden(target, TARGET_FIELDS, base + ".target"))
    return out


@typed
def lint(answer: object, *, limits: Limits = DEFAULT_LIMITS) -> tuple[ActionDiagnostic, ...]:
    """Warn about producer mistakes listed in seed 004 §11; input as for ``sanitize``.

    Output: ``lint.*`` diagnostics (same shape and 1-based paths as sanitize's), in
    order: structure, then each action in input order (dropped ones included):
    ``lint.answer_not_object`` (path ``None``), ``lint.actions_misplaced``,
    ``lint.actions_not_beside_datasets``, ``lint.payload_actions_ignored``,
    ``lint.id_reserved`` (an id JavaScript objects inherit), ``lint.text_unsafe``
    (control or bidi formatting characters in id, label, title, description or
    params.prompt, §12), ``lint.vague_reference`` (business prompts), ``lint.description_missing``
    (business.* or riskLevel HIGH), ``lint.risk_level_mismatch`` (business.* without
    MEDIUM/HIGH), ``lint.forbidden_field`` (tool/server names, URLs, callbacks, RPC
    methods, credentials, argument objects at action, params or target level).
    At most ``limits.max_diagnostics`` warnings, the rest counted by one
    ``limit.diagnostics`` summary (§1). Raises ``TypeError`` naming ``limits`` when it is not a
    :class:`~replykit.limits.Limits`, nothing else; looks only two levels deep, so
    nesting depth costs nothing.
    """
    if not isinstance(answer, dict):
        return (
            ActionDiagnostic(
                "lint.answer_not_object",
                None,
                "the answer must be a JSON object (answerData, payload or the wrapper)",
            ),
        )
    out = _structure(answer)
    located = locate_actions(answer)
    if located is not None and isinstance(located[1], list):
        for index, item in enumerate(located[1]):
            if isinstance(item, dict):
                out.extend(_action(item, f"actions[{index + 1}]"))
    return capped(out, limits.max_diagnostics)
