"""Producer lint: the checklist for whoever emits actions (§12; docs/actions.md section 9).

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
    ActionSink,
    capped,
    is_reserved_id,
    kept_text,
    path_key,
    unsafe_char,
    unsafe_params,
    unsafe_variant,
)
from replykit.actions.sanitize import as_object, locate_actions
from replykit.argcheck import typed
from replykit.codes import actions as A
from replykit.findings import Cursor
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits

#: Vague references a business prompt must not lean on (§12; docs/actions.md section 9).
VAGUE_ZH: Final[tuple[str, ...]] = ("它", "那个", "这个")
# The pronouns standing alone: not 它 inside 其它 ("other"), not 这个 before a period of
# time (这个月 "this month", 这个季度, 这个星期, 这个周, 这个年度), which name their object.
VAGUE_ZH_RE: Final = re.compile(r"(?<!其)它|那个|这个(?!月|季度|星期|周|年度)")
# ASCII words and spaces: "取消it" still holds the word it, "this\u3000one" does not.
VAGUE_EN_RE: Final = re.compile(r"\b(?:it|that|this[ \t]+one)\b", re.IGNORECASE | re.ASCII)

# Field names (lower case, without "_" and "-") that carry what must never be sent
# (§12; docs/actions.md section 9: no tool names, credentials, tokens or execution arguments).
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


def _forbidden(mapping: dict[object, object], allowed: tuple[str, ...], at: Cursor) -> None:
    for key, value in mapping.items():
        if isinstance(key, str) and key in allowed:
            continue
        category = _category(key, value)
        if category is not None:
            at.add(A.LINT_FORBIDDEN_FIELD, path_key(key), category=category)


@typed
def has_vague_reference(prompt: str) -> bool:
    """True when ``prompt`` contains 它, 那个, 这个, or the words it, that, this one.

    Standalone pronouns only: 其它 ("other") and 这个 before a period of time (这个月,
    这个季度, 这个星期, 这个周, 这个年度) are not vague. Case-insensitive for English,
    whole ASCII words only (``this`` and ``one`` apart by spaces or tabs).
    Source rule: §12 (docs/actions.md section 9).
    Raises ``TypeError`` naming the argument when an argument has the wrong type.
    """
    return VAGUE_ZH_RE.search(prompt) is not None or VAGUE_EN_RE.search(prompt) is not None


def _structure(answer: dict[object, object], at: Cursor) -> None:
    is_wrapper = "answerData" in answer or "payload" in answer
    # Wrapper members, datasets and each dataset: a Mapping is the object it holds.
    answer_data = as_object(answer.get("answerData")) if is_wrapper else None
    payload = as_object(answer.get("payload")) if is_wrapper else None
    if not is_wrapper:
        if "template" in answer:
            payload = answer
        else:
            answer_data = answer
    elif "actions" in answer:
        at.add(A.LINT_ACTIONS_MISPLACED, "actions")
    # In a wrapper every path starts at the wrapper, so two places never share a path.
    data_at = at.descend("answerData") if is_wrapper else at
    if isinstance(answer_data, dict):
        datasets = as_object(answer_data.get("datasets"))
        if "actions" in answer_data and not isinstance(datasets, dict):
            data_at.add(A.LINT_ACTIONS_NOT_BESIDE_DATASETS, "actions")
        if isinstance(datasets, dict):
            if "actions" in datasets:
                data_at.add(
                    A.LINT_ACTIONS_NOT_BESIDE_DATASETS, "datasets", "actions", variant="in_datasets"
                )
            for name, member in datasets.items():
                dataset = as_object(member)
                if isinstance(dataset, dict) and "actions" in dataset:
                    data_at.add(
                        A.LINT_ACTIONS_NOT_BESIDE_DATASETS,
                        "datasets",
                        path_key(name),
                        "actions",
                        variant="in_dataset",
                    )
        if (
            "actions" in answer_data
            and isinstance(payload, dict)
            and "actions" in payload
            and payload is not answer_data
        ):
            at.add(A.LINT_PAYLOAD_ACTIONS_IGNORED, "payload", "actions")


def _texts(item: dict[object, object], at: Cursor) -> None:
    """Reserved ids and unsafe characters (§12), whatever else the action gets wrong."""
    if is_reserved_id(item.get("id")):
        at.add(A.LINT_ID_RESERVED, "id")
    params = item.get("params")
    fields: list[tuple[str, object, bool]] = [
        (name, item.get(name), False) for name in ("id", "label", "title", "description")
    ]
    if isinstance(params, dict):
        fields.append(("params.prompt", params.get("prompt"), True))
    target = item.get("target")
    if isinstance(target, dict):
        fields += [(f"target.{name}", target.get(name), False) for name in TARGET_FIELDS]
    for name, value, prompt in fields:
        index = unsafe_char(value, prompt=prompt) if isinstance(value, str) else None
        if isinstance(value, str) and index is not None:
            at.add(
                A.LINT_TEXT_UNSAFE,
                *name.split("."),
                variant=unsafe_variant(value, index),
                **unsafe_params(name, value, index),
            )


def _action(item: dict[object, object], at: Cursor) -> None:
    _texts(item, at)
    action_type = item.get("type")
    params = item.get("params")
    business = isinstance(action_type, str) and action_type in BUSINESS_TYPES
    prompt = params.get("prompt") if isinstance(params, dict) else None
    if business and isinstance(prompt, str) and has_vague_reference(prompt):
        at.add(A.LINT_VAGUE_REFERENCE, "params", "prompt")
    risk = item.get("riskLevel")
    # A description sanitize removes (blank, too long, unsafe) is as good as missing.
    if (business or risk == "HIGH") and not kept_text(item.get("description"), MAX_DESCRIPTION):
        at.add(A.LINT_DESCRIPTION_MISSING, "description")
    # A declared riskLevel must be right; an absent one is fine: business.* is always
    # confirmed (seed 004 "6. 确认策略"), and the seed's own 4.7 example declares none.
    if business and "riskLevel" in item and risk not in ("MEDIUM", "HIGH"):
        at.add(A.LINT_RISK_LEVEL_MISMATCH, "riskLevel", action_type=action_type)
    _forbidden(item, ACTION_FIELDS, at)
    if isinstance(params, dict):
        _forbidden(params, PARAMS_FIELDS, at.descend("params"))
    target = item.get("target")
    if isinstance(target, dict):
        _forbidden(target, TARGET_FIELDS, at.descend("target"))


@typed
def lint(answer: object, *, limits: Limits = DEFAULT_LIMITS) -> tuple[ActionDiagnostic, ...]:
    """Warn about producer mistakes (§12; docs/actions.md section 9); input as for ``sanitize``.

    Output: ``lint.*`` diagnostics (same shape and 1-based paths as sanitize's; in the
    wrapper ``{"answerData", "payload"}`` every path starts at the wrapper:
    ``answerData.actions[1].id``, ``payload.actions``, the wrapper's own ``actions``), in
    order: structure, then each action in input order (dropped ones included):
    ``lint.answer_not_object`` (path ``None``), ``lint.actions_misplaced``,
    ``lint.actions_not_beside_datasets``, ``lint.payload_actions_ignored``,
    ``lint.id_reserved`` (an id JavaScript objects inherit), ``lint.text_unsafe``
    (control or bidi formatting characters in id, label, title, description or
    params.prompt, §12), ``lint.vague_reference`` (business prompts),
    ``lint.description_missing`` (business.* or riskLevel HIGH without a description
    sanitize keeps: one that is blank, too long or unsafe counts as missing),
    ``lint.risk_level_mismatch`` (business.* that declares a riskLevel other than
    MEDIUM/HIGH), ``lint.forbidden_field`` (tool/server names,
    URLs, callbacks, RPC methods, credentials, argument objects at action, params or
    target level).
    At most ``limits.max_diagnostics`` warnings, the rest counted by one
    ``limit.diagnostics`` summary (§1). Raises ``TypeError`` naming ``limits`` when it is not a
    :class:`~replykit.questionnaire.limits.Limits`, nothing else; looks only two levels deep, so
    nesting depth costs nothing.
    """
    sink = ActionSink()
    container = as_object(answer)
    if not isinstance(container, dict):
        sink.at().add(A.LINT_ANSWER_NOT_OBJECT)
        return tuple(sink.diagnostics)
    answer = container
    _structure(answer, sink.at())
    located = locate_actions(answer)
    if located is not None and isinstance(located[1], list):
        wrapper = "answerData" in answer or "payload" in answer
        root = sink.at(located[0], "actions") if wrapper else sink.at("actions")
        for index, item in enumerate(located[1]):
            if isinstance(item, dict):
                _action(item, root.descend(index))
    return capped(sink.diagnostics, limits.max_diagnostics)
