"""``action_schema``: the JSON Schema of an action list that sanitize keeps whole."""

from __future__ import annotations

from typing import Any

from replykit.actions.model import (
    ACTION_TYPES,
    CHART_TYPES,
    MAX_DESCRIPTION,
    MAX_ID,
    MAX_LABEL,
    MAX_PROMPT,
    MAX_SHOWN,
    MAX_TARGET,
    MAX_TITLE,
    PROMPT_ALLOWED,
    PROMPT_REQUIRED_TYPES,
    RESERVED_IDS,
    RISK_LEVELS,
    STYLES,
    UNSAFE_RANGES,
)
from replykit.argcheck import typed
from replykit.text import is_blank


def non_blank_pattern() -> str:
    """A regex matching a string that holds a non-blank BMP character (§1 blank).

    Built from the pinned blank table of :mod:`replykit.text` with ``\\uXXXX`` escapes,
    which ECMA-262 and Python read alike. Blank characters outside the BMP (a few
    format characters such as U+E0020) are not excluded: the schema is there slightly
    looser than sanitize.
    """
    ranges: list[tuple[int, int]] = []
    for code in range(0x10000):
        if 0xD800 <= code <= 0xDFFF or not is_blank(chr(code)):
            continue
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    parts = [f"\\u{lo:04X}" if lo == hi else f"\\u{lo:04X}-\\u{hi:04X}" for lo, hi in ranges]
    return "[^" + "".join(parts) + "]"


def unsafe_pattern(*, prompt: bool = False) -> str:
    """A regex matching a string that holds a character §12 forbids in action texts.

    C0, DEL, C1, bidi embeddings/overrides and isolates, with ``\\uXXXX`` escapes
    (ECMA-262 and Python read them alike); with ``prompt`` true, tab and line breaks
    are left out (allowed in ``params.prompt``).
    """
    parts: list[str] = []
    for lo, hi in UNSAFE_RANGES:
        run: list[int] = []
        for code in [*range(lo, hi + 1), -1]:
            if code >= 0 and not (prompt and chr(code) in PROMPT_ALLOWED):
                run.append(code)
                continue
            if run:
                first, last = run[0], run[-1]
                parts.append(f"\\u{first:04X}" + (f"-\\u{last:04X}" if last > first else ""))
                run = []
    return "[" + "".join(parts) + "]"


def _text(limit: int, pattern: str, unsafe: str) -> dict[str, Any]:
    return {
        "type": "string",
        "minLength": 1,
        "maxLength": limit,
        "pattern": pattern,
        "not": {"pattern": unsafe},
    }


def _when(types: list[str], then: dict[str, Any]) -> dict[str, Any]:
    return {
        "if": {"required": ["type"], "properties": {"type": {"enum": types}}},
        "then": then,
    }


@typed
def action_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a valid ``actions`` array, for producers.

    Output: a fresh JSON-serializable dict. It states every rule sanitize applies
    except three JSON Schema cannot say: ids unique within the list, blank
    characters outside the BMP (see :func:`non_blank_pattern`), and lone surrogates.
    Ids that JavaScript objects inherit are excluded (as action ids and as
    ``target.componentId``), and id, label, title, description, prompt and the target
    fields must not match :func:`unsafe_pattern` (§12). ``maxLength`` counts
    code points, as sanitize does. At most 8 items (more are dropped as over_limit);
    no field outside the protocol (``additionalProperties: false``); params per type.
    Never raises. Source rule: §12; seed 004 "3. 通用结构", "3.1 通用参数", "4. 已支持事件",
    "8. 校验与拒绝规则".
    """
    blank_free = non_blank_pattern()
    unsafe = unsafe_pattern()
    prompt = _text(MAX_PROMPT, blank_free, unsafe_pattern(prompt=True))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Answer actions (replykit, seed 004)",
        "description": "The actions array beside datasets in answer.data, or in AnswerPayload.",
        "type": "array",
        "maxItems": MAX_SHOWN,
        "items": {"$ref": "#/$defs/action"},
        "$defs": {
            "action": {
                "type": "object",
                "required": ["id", "type", "label"],
                "additionalProperties": False,
                "properties": _action_fields(blank_free, unsafe),
                "allOf": _params_by_type(prompt),
            }
        },
    }


def _action_fields(blank_free: str, unsafe: str) -> dict[str, Any]:
    """The schema of each field an action may have, whatever its type (§12)."""
    action_id = _text(MAX_ID, blank_free, unsafe)
    action_id["allOf"] = [{"not": {"enum": list(RESERVED_IDS)}}]
    # Target ids: no unsafe character either, and no chart may be named by an inherited
    # name (sanitize removes the field, or drops a render.change).
    dataset = _text(MAX_TARGET, blank_free, unsafe)
    component = _text(MAX_TARGET, blank_free, unsafe)
    component["allOf"] = [{"not": {"enum": list(RESERVED_IDS)}}]
    return {
        "id": action_id,
        "type": {"enum": list(ACTION_TYPES)},
        "label": _text(MAX_LABEL, blank_free, unsafe),
        "style": {"enum": list(STYLES)},
        "title": _text(MAX_TITLE, blank_free, unsafe),
        "description": _text(MAX_DESCRIPTION, blank_free, unsafe),
        "riskLevel": {"enum": list(RISK_LEVELS)},
        "requiresConfirmation": {"const": True},
        "target": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": False,
            "properties": {
                "dataset": dataset,
                "componentId": component,
            },
        },
        "params": {"type": "object", "minProperties": 1},
    }


def _params_by_type(prompt: dict[str, Any]) -> list[dict[str, Any]]:
    """Which ``params`` each action type requires, allows or forbids (§12)."""
    without_params: list[str] = [
        t for t in ACTION_TYPES if t not in PROMPT_REQUIRED_TYPES and t != "conversation.modify"
    ]
    without_params.remove("render.change")
    return [
        _when(
            sorted(PROMPT_REQUIRED_TYPES),
            {
                "required": ["params"],
                "properties": {
                    "params": {
                        "required": ["prompt"],
                        "additionalProperties": False,
                        "properties": {"prompt": prompt},
                    }
                },
            },
        ),
        _when(
            ["conversation.modify"],
            {
                "properties": {
                    "params": {
                        "additionalProperties": False,
                        "properties": {"prompt": prompt},
                    }
                }
            },
        ),
        _when(
            ["render.change"],
            {
                "required": ["params"],
                "properties": {
                    "params": {
                        "required": ["chartType"],
                        "additionalProperties": False,
                        "properties": {"chartType": {"enum": list(CHART_TYPES)}},
                    }
                },
            },
        ),
        _when(without_params, {"not": {"required": ["params"]}}),
    ]
