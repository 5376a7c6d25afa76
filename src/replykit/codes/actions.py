"""Codes of answer actions (docs/actions.md sections 4 and 9): ``actions.*`` and
``action.*`` of ``sanitize``, ``lint.*`` of the producer lint. Actions have no
severity (§12): a drop, a removal or a warning is said by the code.

Parameters: ``limit`` (a length), ``type`` (a JSON type word), ``action_type``,
``field``, ``codepoint``/``position`` of an unsafe character, ``first`` (the path of an
earlier action), ``category`` (what a forbidden field looks like).
"""

from __future__ import annotations

from typing import Final

from replykit.codes import rules
from replykit.codes._core import Code, Rule

_DROPPED = "; the action is dropped."
_REMOVED = "; the field is removed."
_UNSAFE = (
    "{field} holds U+{codepoint} at character {position}, a control or bidi formatting "
    "character that could make the button read as another"
)


def _action(name: str, en: dict[str, str], meaning: str, rule: Rule = rules.ACTIONS) -> Code:
    return Code(
        name,
        None,
        rule,
        en=en,
        meaning=meaning,
        doc="actions",
    )


def _lint(name: str, en: str, meaning: str) -> Code:
    return Code("lint." + name, None, rules.LINT, en={"": en}, meaning=meaning, doc="actions")


ACTIONS_NOT_LIST: Final = _action(
    "actions.not_list",
    {"": "actions must be an array, not {type}; no action is shown."},
    "the chosen `actions` value is not an array",
)
ACTION_NOT_OBJECT: Final = _action(
    "action.not_object",
    {"": "An action must be an object, not {type}" + _DROPPED},
    "element is not an object",
)
ACTION_TYPE_UNKNOWN: Final = _action(
    "action.type_unknown",
    {"": "type is missing or not one of the 8 supported events" + _DROPPED},
    "`type` missing or not one of the 8 events",
)
ACTION_ID_INVALID: Final = _action(
    "action.id_invalid",
    {"": "id must be a non-blank string of at most {limit|character}" + _DROPPED},
    "`id` not a string, blank, or > 80",
)
ACTION_ID_RESERVED: Final = _action(
    "action.id_reserved",
    {
        "": "id is a name JavaScript objects inherit, which a client keying state by id "
        "would confuse with the object's own member" + _DROPPED
    },
    "`id` is a name JavaScript objects inherit (`__proto__`, `constructor`, `toString` ...)",
)
ACTION_ID_DUPLICATE: Final = _action(
    "action.id_duplicate",
    {"": "id is already used by {first} (the first one wins)" + _DROPPED},
    "`id` used by an earlier kept action",
)
ACTION_LABEL_INVALID: Final = _action(
    "action.label_invalid",
    {"": "label must be a non-blank string of at most {limit|character}" + _DROPPED},
    "`label` not a string, blank, or > 32",
)
ACTION_PROMPT_REQUIRED: Final = _action(
    "action.prompt_required",
    {
        "": "{action_type} needs params.prompt, a non-blank string of at most "
        "{limit|character}" + _DROPPED
    },
    "continue/business.*: prompt missing, not a string, blank, or > 800",
)
ACTION_CHART_TYPE_INVALID: Final = _action(
    "action.chart_type_invalid",
    {
        "": "render.change needs params.chartType: bar, row, line, area, donut, scatter or "
        "table" + _DROPPED
    },
    "render.change: chartType missing or unsupported",
)
ACTION_OVER_LIMIT: Final = _action(
    "action.over_limit",
    {"": "only the first {limit} valid actions are shown" + _DROPPED},
    "valid, but after the first 8 valid actions",
    rules.ACTIONS_LIMITS,
)
ACTION_FIELD_REMOVED: Final = _action(
    "action.field_removed",
    {
        k: v + _REMOVED
        for k, v in {
            "": "this field is not part of the protocol",
            "style": "style must be primary, default or danger",
            "title": "title must be a non-blank string of at most {limit}",
            "description": "description must be a non-blank string of at most {limit}",
            "risk_level": "riskLevel must be LOW, MEDIUM or HIGH",
            "confirmation": "requiresConfirmation is honoured only when true",
            "target_type": "target must be an object, not {type}",
            "target_empty": "target is empty",
            "target_field": "target.{field} must be a non-blank string of at most "
            "{limit|character}",
            "target_only": "target holds only dataset and componentId",
            "params_type": "params must be an object, not {type}",
            "params_empty": "params is empty",
            "modify_prompt": "conversation.modify prompt must be a non-blank string of at "
            "most {limit|character} (the default prompt applies)",
            "unused_prompt": "{action_type} does not use params.prompt",
            "unused_chart": "{action_type} does not use params.chartType",
            "params_only": "params holds only prompt and chartType",
        }.items()
    },
    "an optional field with a bad value, a param the type does not use, or a field outside "
    "the protocol; limits: title 80, description 240, target fields 120, modify prompt 800",
)
ACTION_TEXT_UNSAFE: Final = _action(
    "action.text_unsafe",
    {"": _UNSAFE + _DROPPED, "removed": _UNSAFE + _REMOVED},
    'a control or bidi formatting character, e.g. `"label": "\\u202eetelpmoC"`',
)

LINT_ANSWER_NOT_OBJECT: Final = _lint(
    "answer_not_object",
    "the answer must be a JSON object (answerData, payload or the wrapper)",
    "the input is not an object",
)
LINT_ACTIONS_MISPLACED: Final = _lint(
    "actions_misplaced",
    "actions beside answerData/payload are never read; put them in answerData beside datasets",
    "`actions` sits beside `answerData`/`payload` in the wrapper, where nothing reads it",
)
LINT_ACTIONS_NOT_BESIDE_DATASETS: Final = Code(
    "lint.actions_not_beside_datasets",
    None,
    rules.LINT,
    en={
        "": "answerData has actions but no datasets object beside them",
        "in_datasets": "actions inside datasets are never read; put them beside datasets",
        "in_dataset": "actions inside a dataset are never read; put them beside datasets",
    },
    meaning="answerData has actions but no `datasets` object, or actions are nested in datasets",
    doc="actions",
)
LINT_PAYLOAD_ACTIONS_IGNORED: Final = _lint(
    "payload_actions_ignored",
    "payload.actions is ignored because answerData has actions",
    "both answerData and payload have actions; the payload's are ignored",
)
LINT_ID_RESERVED: Final = _lint(
    "id_reserved",
    "this id is a name JavaScript objects inherit; clients drop the action",
    "the id is a name JavaScript objects inherit; clients drop the action",
)
LINT_TEXT_UNSAFE: Final = _lint(
    "text_unsafe",
    _UNSAFE + "; clients drop or remove it",
    "a control or bidi formatting character (tab and line breaks allowed in prompts)",
)
LINT_VAGUE_REFERENCE: Final = _lint(
    "vague_reference",
    "a business prompt must name the object and the action, not refer to it vaguely "
    "(它, 那个, 这个, it, that, this one)",
    "a business prompt contains 它, 那个, 这个, or the whole words it, that, this one "
    "(case-insensitive)",
)
LINT_DESCRIPTION_MISSING: Final = _lint(
    "description_missing",
    "a high-risk action needs a clear description of its effect",
    "business.* or riskLevel HIGH without a valid description",
)
LINT_RISK_LEVEL_MISMATCH: Final = _lint(
    "risk_level_mismatch",
    "{action_type} has business impact; declare riskLevel MEDIUM or HIGH",
    "business.* without riskLevel MEDIUM or HIGH",
)
LINT_FORBIDDEN_FIELD: Final = _lint(
    "forbidden_field",
    "this field looks like {category}; never send it with an action",
    "at action, params or target level: a field named like a tool (`tool`, `toolName`, "
    "`function`), an MCP server (`server`, `mcpServer`), a URL (`url`, `href`, `endpoint`), "
    "a callback (`callback`, `onClick`, `script`), an RPC method (`rpc`, `method`), a "
    "credential (`token`, `apiKey`, `authorization`, `password`, `secret`, `cookie`), or an "
    "argument object (`arguments`, `args`, `payload`, `body`, `data`, `input`, or any "
    "unknown field whose value is an object or array)",
)

CODES: Final = (
    ACTIONS_NOT_LIST,
    ACTION_NOT_OBJECT,
    ACTION_TYPE_UNKNOWN,
    ACTION_ID_INVALID,
    ACTION_ID_RESERVED,
    ACTION_ID_DUPLICATE,
    ACTION_LABEL_INVALID,
    ACTION_PROMPT_REQUIRED,
    ACTION_CHART_TYPE_INVALID,
    ACTION_OVER_LIMIT,
    ACTION_FIELD_REMOVED,
    ACTION_TEXT_UNSAFE,
    LINT_ANSWER_NOT_OBJECT,
    LINT_ACTIONS_MISPLACED,
    LINT_ACTIONS_NOT_BESIDE_DATASETS,
    LINT_PAYLOAD_ACTIONS_IGNORED,
    LINT_ID_RESERVED,
    LINT_TEXT_UNSAFE,
    LINT_VAGUE_REFERENCE,
    LINT_DESCRIPTION_MISSING,
    LINT_RISK_LEVEL_MISMATCH,
    LINT_FORBIDDEN_FIELD,
)
