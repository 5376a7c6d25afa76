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
_SURROGATE = (
    "{field} holds U+{codepoint} at character {position}, a surrogate code point that no "
    "UTF-8 or JSON text can carry"
)
_SURROGATE_ZH = (
    "{field} 的第 {position} 个字符是 U+{codepoint}，这是 UTF-8 或 JSON 文本无法携带的代理码位"
)


def _action(
    name: str,
    en: dict[str, str],
    meaning: str,
    rule: Rule = rules.ACTIONS,
    *,
    zh: dict[str, str],
) -> Code:
    return Code(name, None, rule, en=en, meaning=meaning, doc="actions", zh=zh)


def _lint(name: str, en: str, meaning: str, *, zh: dict[str, str]) -> Code:
    return Code(
        "lint." + name, None, rules.LINT, en={"": en}, meaning=meaning, doc="actions", zh=zh
    )


ACTIONS_NOT_LIST: Final = _action(
    "actions.not_list",
    {"": "actions must be an array, not {type}; no action is shown."},
    "the chosen `actions` value is not an array",
    zh={
        "": "actions 必须是数组，不能是 {type}；不显示任何动作。",
    },
)
ACTIONS_MISPLACED: Final = _action(
    "actions.misplaced",
    {
        "": "this answer is read as the wrapper {{answerData, payload}} because it has the key "
        "{key}, so the actions beside it are never read; no action from them is shown (put "
        "them in answerData, or rename a business field named {key})"
    },
    "the answer has an `answerData` or `payload` key, so it is read as the wrapper, and "
    "also a top-level `actions` key, which the wrapper never reads (path `null`)",
    zh={
        "": "该回答有 {key} 键，因此按 {{answerData, payload}} 外层包装读取，与之并列的 actions "
        "永远不会被读取，不显示其中任何动作（请把它们放进 answerData，或给名为 {key} 的业务字段"
        "改名）。",
    },
)
ACTION_NOT_OBJECT: Final = _action(
    "action.not_object",
    {"": "an action must be an object, not {type}" + _DROPPED},
    "element is not an object",
    zh={
        "": "动作必须是对象，不能是 {type}；该动作被丢弃。",
    },
)
ACTION_TYPE_UNKNOWN: Final = _action(
    "action.type_unknown",
    {"": "type is missing or not one of the 8 supported events" + _DROPPED},
    "`type` missing or not one of the 8 events",
    zh={
        "": "type 缺失或不是支持的 8 种事件之一；该动作被丢弃。",
    },
)
ACTION_ID_INVALID: Final = _action(
    "action.id_invalid",
    {"": "id must be a non-blank string of at most {limit|character}" + _DROPPED},
    "`id` not a string, blank, or > 80",
    zh={
        "": "id 必须是不超过 {limit} 个字符的非空字符串；该动作被丢弃。",
    },
)
ACTION_ID_RESERVED: Final = _action(
    "action.id_reserved",
    {
        "": "id is a name JavaScript objects inherit, which a client keying state by id "
        "would confuse with the object's own member" + _DROPPED
    },
    "`id` is a name JavaScript objects inherit (`__proto__`, `constructor`, `toString` ...)",
    zh={
        "": "id 是 JavaScript 对象继承的名称，按 id 保存状态的客户端会把它与对象自身的成员混淆"
        "；该动作被丢弃。",
    },
)
ACTION_ID_DUPLICATE: Final = _action(
    "action.id_duplicate",
    {"": "id is already used by {first} (the first one wins)" + _DROPPED},
    "`id` used by an earlier kept action",
    zh={
        "": "id 已被 {first} 使用（以第一个为准）；该动作被丢弃。",
    },
)
ACTION_LABEL_INVALID: Final = _action(
    "action.label_invalid",
    {"": "label must be a non-blank string of at most {limit|character}" + _DROPPED},
    "`label` not a string, blank, or > 32",
    zh={
        "": "label 必须是不超过 {limit} 个字符的非空字符串；该动作被丢弃。",
    },
)
ACTION_PROMPT_REQUIRED: Final = _action(
    "action.prompt_required",
    {
        "": "{action_type} needs params.prompt, a non-blank string of at most "
        "{limit|character}" + _DROPPED
    },
    "continue/business.*: prompt missing, not a string, blank, or > 800",
    zh={
        "": "{action_type} 需要 params.prompt：不超过 {limit} 个字符的非空字符串；该动作被丢弃。",
    },
)
ACTION_CHART_TYPE_INVALID: Final = _action(
    "action.chart_type_invalid",
    {
        "": "render.change needs params.chartType: bar, row, line, area, donut, scatter or "
        "table" + _DROPPED
    },
    "render.change: chartType missing or unsupported",
    zh={
        "": "render.change 需要 params.chartType：bar、row、line、area、donut、scatter 或 table"
        "；该动作被丢弃。",
    },
)
ACTION_TARGET_INVALID: Final = _action(
    "action.target_invalid",
    {
        "": "render.change names its chart in target.componentId, a non-blank string of at "
        "most {limit|character}; without it the action would change another chart" + _DROPPED,
        "reserved": "render.change names its chart in target.componentId, which is a name "
        "JavaScript objects inherit: a client keys chart state by it, so no chart has it"
        + _DROPPED,
    },
    "render.change: `target` given (not null) but names no chart: not an object, a "
    "`componentId` that is not a non-blank string of at most 120 or is a name JavaScript "
    "objects inherit, or only keys other than `dataset`",
    zh={
        "": "render.change 用 target.componentId 指定图表，它必须是不超过 {limit} 个字符的非空字符"
        "串；否则该动作会修改另一张图表；该动作被丢弃。",
        "reserved": "render.change 用 target.componentId 指定图表，而它是 JavaScript 对象继承的"
        "名称：客户端按它保存图表状态，没有图表使用它；该动作被丢弃。",
    },
)
ACTION_OVER_LIMIT: Final = _action(
    "action.over_limit",
    {"": "only the first {limit} valid actions are shown" + _DROPPED},
    "valid, but after the first 8 valid actions",
    rules.ACTIONS_LIMITS,
    zh={
        "": "只显示前 {limit} 个有效动作；该动作被丢弃。",
    },
)
ACTION_FIELD_REMOVED: Final = _action(
    "action.field_removed",
    {
        k: v + _REMOVED
        for k, v in {
            "": "this field is not part of the protocol",
            "style": "style must be primary, default or danger",
            "title": "title must be a non-blank string of at most {limit|character}",
            "description": "description must be a non-blank string of at most {limit|character}",
            "risk_level": "riskLevel must be LOW, MEDIUM or HIGH",
            "confirmation": "requiresConfirmation is honoured only when true",
            "target_type": "target must be an object, not {type}",
            "target_empty": "target is empty",
            "target_field": "target.{field} must be a non-blank string of at most "
            "{limit|character}",
            "target_only": "target holds only dataset and componentId",
            "target_reserved": "target.componentId is a name JavaScript objects inherit, "
            "which no chart has",
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
    zh={
        "": "该字段不属于协议；已移除该字段。",
        "style": "style 必须是 primary、default 或 danger；已移除该字段。",
        "title": "title 必须是不超过 {limit} 个字符的非空字符串；已移除该字段。",
        "description": "description 必须是不超过 {limit} 个字符的非空字符串；已移除该字段。",
        "risk_level": "riskLevel 必须是 LOW、MEDIUM 或 HIGH；已移除该字段。",
        "confirmation": "requiresConfirmation 只有为 true 时才生效；已移除该字段。",
        "target_type": "target 必须是对象，不能是 {type}；已移除该字段。",
        "target_empty": "target 为空；已移除该字段。",
        "target_field": "target.{field} 必须是不超过 {limit} 个字符的非空字符串；已移除该字段。",
        "target_only": "target 只能包含 dataset 和 componentId；已移除该字段。",
        "target_reserved": (
            "target.componentId 是 JavaScript 对象继承的名称，没有图表使用它；已移除该字段。"
        ),
        "params_type": "params 必须是对象，不能是 {type}；已移除该字段。",
        "params_empty": "params 为空；已移除该字段。",
        "modify_prompt": (
            "conversation.modify 的 prompt 必须是不超过 {limit} 个字符的非空字符串（将使用默认"
            "提示）；已移除该字段。"
        ),
        "unused_prompt": "{action_type} 不使用 params.prompt；已移除该字段。",
        "unused_chart": "{action_type} 不使用 params.chartType；已移除该字段。",
        "params_only": "params 只能包含 prompt 和 chartType；已移除该字段。",
    },
)
ACTION_TEXT_UNSAFE: Final = _action(
    "action.text_unsafe",
    {
        "": _UNSAFE + _DROPPED,
        "removed": _UNSAFE + _REMOVED,
        "surrogate": _SURROGATE + _DROPPED,
        "surrogate_removed": _SURROGATE + _REMOVED,
    },
    'a control or bidi formatting character, e.g. `"label": "\\u202eetelpmoC"`',
    zh={
        "": "{field} 的第 {position} 个字符是 U+{codepoint}，这是可能让按钮被误读的控制字符或双"
        "向格式字符；该动作被丢弃。",
        "removed": (
            "{field} 的第 {position} 个字符是 U+{codepoint}，这是可能让按钮被误读的控制字符或双"
            "向格式字符；已移除该字段。"
        ),
        "surrogate": _SURROGATE_ZH + "；该动作被丢弃。",
        "surrogate_removed": _SURROGATE_ZH + "；已移除该字段。",
    },
)

LINT_ANSWER_NOT_OBJECT: Final = _lint(
    "answer_not_object",
    "the answer must be a JSON object (answerData, payload or the wrapper)",
    "the input is not an object",
    zh={
        "": "回答必须是 JSON 对象（answerData、payload 或外层包装）。",
    },
)
LINT_ACTIONS_MISPLACED: Final = _lint(
    "actions_misplaced",
    "actions beside answerData/payload are never read; put them in answerData beside datasets",
    "`actions` sits beside `answerData`/`payload` in the wrapper, where nothing reads it",
    zh={
        "": "与 answerData/payload 并列的 actions 永远不会被读取；请把它放进 answerData，与 dat"
        "asets 并列。",
    },
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
    zh={
        "": "answerData 中有 actions，但旁边没有 datasets 对象。",
        "in_datasets": "datasets 内部的 actions 永远不会被读取；请把它放在 datasets 旁边。",
        "in_dataset": "单个数据集内部的 actions 永远不会被读取；请把它放在 datasets 旁边。",
    },
)
LINT_PAYLOAD_ACTIONS_IGNORED: Final = _lint(
    "payload_actions_ignored",
    "payload.actions is ignored because answerData has actions",
    "both answerData and payload have actions; the payload's are ignored",
    zh={
        "": "answerData 已有 actions，因此 payload.actions 被忽略。",
    },
)
LINT_ID_RESERVED: Final = _lint(
    "id_reserved",
    "this id is a name JavaScript objects inherit; clients drop the action",
    "the id is a name JavaScript objects inherit; clients drop the action",
    zh={
        "": "这个 id 是 JavaScript 对象继承的名称；客户端会丢弃该动作。",
    },
)
LINT_TEXT_UNSAFE: Final = Code(
    "lint.text_unsafe",
    None,
    rules.LINT,
    en={
        "": _UNSAFE + "; clients drop or remove it",
        "surrogate": _SURROGATE + "; clients drop or remove it",
    },
    meaning="a control or bidi formatting character (tab and line breaks allowed in prompts)",
    doc="actions",
    zh={
        "": "{field} 的第 {position} 个字符是 U+{codepoint}，这是可能让按钮被误读的控制字符或双"
        "向格式字符；客户端会丢弃或移除它。",
        "surrogate": _SURROGATE_ZH + "；客户端会丢弃或移除它。",
    },
)
LINT_VAGUE_REFERENCE: Final = _lint(
    "vague_reference",
    "a business prompt must name the object and the action, not refer to it vaguely "
    "(它, 那个, 这个, it, that, this one)",
    "a business prompt contains the pronoun 它, 那个 or 这个 standing alone (not 其它 "
    '"other", not 这个 before a period of time: 这个月, 这个季度, 这个星期, 这个周, 这个年度), '
    "or the whole ASCII words it, that, this one (case-insensitive)",
    zh={
        "": "业务提示必须写明对象和动作，不能含糊指代（它、那个、这个、it、that、this one）。",
    },
)
LINT_DESCRIPTION_MISSING: Final = _lint(
    "description_missing",
    "a high-risk action needs a clear description of its effect",
    "business.* or riskLevel HIGH without a description `sanitize` keeps: a missing one, "
    "and one it removes (not a string, blank, over 240 characters, or holding an unsafe "
    "character, which also gets `lint.text_unsafe`)",
    zh={
        "": "高风险动作需要清楚说明其影响的 description。",
    },
)
LINT_RISK_LEVEL_MISMATCH: Final = _lint(
    "risk_level_mismatch",
    "{action_type} has business impact; its riskLevel must be MEDIUM or HIGH (or left out)",
    "business.* that declares a riskLevel other than MEDIUM or HIGH (`LOW`, or a value "
    "that is no risk level); an absent riskLevel is fine",
    zh={
        "": "{action_type} 会产生业务影响；请声明 riskLevel 为 MEDIUM 或 HIGH。",
    },
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
    zh={
        "": "这个字段看起来像{category}；永远不要随动作发送它。",
    },
)

CODES: Final = (
    ACTIONS_NOT_LIST,
    ACTIONS_MISPLACED,
    ACTION_NOT_OBJECT,
    ACTION_TYPE_UNKNOWN,
    ACTION_ID_INVALID,
    ACTION_ID_RESERVED,
    ACTION_ID_DUPLICATE,
    ACTION_LABEL_INVALID,
    ACTION_PROMPT_REQUIRED,
    ACTION_CHART_TYPE_INVALID,
    ACTION_TARGET_INVALID,
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
