"""Codes of the limits and the diagnostics cap (``limit.*``, docs/protocol.md §1.5 and
§2.1) and of Sage compatibility (``compat.*``, §9)."""

from __future__ import annotations

from typing import Final

from replykit.codes import rules
from replykit.codes._core import Code

LIMIT_PAYLOAD_SIZE: Final = Code(
    "limit.payload_size",
    "error",
    rules.LIMITS,
    en={
        "": "the payload has {size|character} (a line ending counts as one); the limit is {limit}",
        "arguments": "the arguments are longer than {limit|character} as JSON text, so they "
        "are not read",
    },
    zh={
        "": "负载有 {size} 个字符（换行计为一个），超过上限 {limit}，未读取。",
        "arguments": "参数作为 JSON 文本超过 {limit} 个字符，未读取。",
    },
    meaning="a payload (or the tool's arguments as JSON text) longer than `max_payload` "
    "(code points, a line ending counting as one); not read",
    example="a 2 MB payload",
)
LIMIT_QUESTIONS: Final = Code(
    "limit.questions",
    "error",
    rules.LIMITS,
    en={"": "{what} has {size|item}; the limit is {limit}, so it is not read"},
    zh={"": "{path} 有 {size} 项，超过上限 {limit}，未读取。"},
    meaning="`questions` (or a response's `answers`) longer than `max_questions`; the "
    "payload is read no further",
    example="3001 questions",
)
LIMIT_OPTIONS: Final = Code(
    "limit.options",
    "error",
    rules.LIMITS,
    en={"": "{what} has {size|item}; the limit is {limit}, so it is not read"},
    zh={"": "{path} 有 {size} 项，超过上限 {limit}，未读取。"},
    meaning="a question's `options` or multi-choice `default` (or a response answer's list) "
    "longer than `max_options`; read no further",
    example="1001 options",
)
LIMIT_DIAGNOSTICS: Final = Code(
    "limit.diagnostics",
    "warning",
    rules.CAP,
    en={
        "": "{total} more diagnostics are left out (the limit is {limit}): {left_out}",
        "one": "{total} more diagnostic is left out (the limit is {limit}): {left_out}",
    },
    zh={
        "": "另有 {total} 条诊断未列出（上限 {limit} 条）：{left_out}。",
        "one": "另有 {total} 条诊断未列出（上限 {limit} 条）：{left_out}。",
    },
    meaning="the summary of what the diagnostics cap left out, with `left_out` counts (§2.1)",
    example="999 non-mapping questions: 199 kept, the summary counts 800",
)
COMPAT_QUESTION_DROPPED: Final = Code(
    "compat.question_dropped",
    "warning",
    rules.COMPAT,
    en={"": "question {number} has errors and is left out (Sage compatibility)"},
    meaning="a question with a `questionnaire.start.*` error left out under "
    "`filter_invalid_questions` (§9); covers the question",
    example='`{"type": "bogus", "text": "a"}`',
    zh={
        "": "第 {number} 个问题有错误，已被省略（Sage 兼容）。",
    },
)
COMPAT_ATTRIBUTE_CONFLICT: Final = Code(
    "compat.attribute_conflict",
    "warning",
    rules.COMPAT,
    en={
        "": "the tag gives the attribute {name} again ({value}); the first one decides",
        "json_field": "the tag's attribute {name} ({value}) replaces the JSON field {name} "
        "({field})",
    },
    zh={
        "": "标签再次给出属性 {name}（{value}）；以第一个为准。",
        "json_field": "标签属性 {name}（{value}）取代了 JSON 字段 {name}（{field}）。",
    },
    meaning="under `tag_attributes` (§9), an attribute the opening tag repeats (the first "
    "decides; covers the repeat), or one given beside the JSON field it stands for (the "
    "attribute wins; covers the attribute's value)",
    example='`<questionnaire timeout_seconds="30" timeout_seconds="40">`',
)

CODES: Final = (
    LIMIT_PAYLOAD_SIZE,
    LIMIT_QUESTIONS,
    LIMIT_OPTIONS,
    LIMIT_DIAGNOSTICS,
    COMPAT_QUESTION_DROPPED,
    COMPAT_ATTRIBUTE_CONFLICT,
)
