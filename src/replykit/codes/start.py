"""Codes of the lenient normalizer of ``questionnaire_async`` and XML+JSON requests:
``questionnaire.start.*`` (§7, stated in docs/protocol-responses.md section 2; §5 for
XML+JSON requests).

Parameters: ``path`` (1-based, ``questions[2].default``), ``expected``/``actual`` (JSON
type words), ``value``, ``allowed``, ``invalid_items``, ``limit``. The Chinese
templates write ``{actual_clause}`` (当前为… / 当前缺失).
"""

from __future__ import annotations

from typing import Final

from replykit.codes import rules
from replykit.codes._core import Code

_P = "questionnaire.start."

ARGUMENTS_NOT_OBJECT: Final = Code(
    _P + "arguments_not_object",
    "error",
    rules.TOOL,
    en={"": "The questionnaire arguments must be an object, not {actual}."},
    zh={"": "问卷参数必须是对象，{actual_clause}。"},
    meaning=(
        "the tool's arguments are not an object (an XML+JSON request's root: `json.not_object`)"
    ),
    example="`[1]` as arguments",
    summary_zh="问卷内容必须是对象。",
)
TITLE_INVALID: Final = Code(
    _P + "title_invalid",
    "error",
    rules.TOOL,
    en={"": "{path} must be a string, not {actual}."},
    zh={"": "{path} 必须是字符串，{actual_clause}。"},
    meaning="`title` present but not a string",
    example='`"title": 3`',
    summary_zh="title 必须是字符串。",
)
QUESTIONS_MUST_BE_LIST: Final = Code(
    _P + "questions_must_be_list",
    "error",
    rules.TOOL,
    en={
        "": "{path} must be an array of questions, not {actual}.",
        "missing": "{path} is required: an array of questions.",
    },
    zh={
        "": "{path} 必须是问题数组，{actual_clause}。",
        "missing": "缺少 {path}：需要一个问题数组。",
    },
    meaning="`questions` missing or not an array",
    example='`"questions": {}`',
    summary_zh="questions 必须是问题数组。",
)
QUESTIONS_EMPTY: Final = Code(
    _P + "questions_empty",
    "error",
    rules.TOOL,
    en={"": "{path} must contain at least one question."},
    zh={"": "{path} 至少需要包含一个问题。"},
    meaning="`questions` is an empty array",
    example='`"questions": []`',
    summary_zh="questions 至少需要包含一个问题。",
)
QUESTION_NOT_OBJECT: Final = Code(
    _P + "question_not_object",
    "error",
    rules.TOOL,
    en={"": "{path} must be an object, not {actual}."},
    zh={"": "{path} 必须是对象，{actual_clause}。"},
    meaning="a question that is not an object",
    example='`"questions": ["Why?"]`',
    summary_zh="每个问题必须是对象。",
)
QUESTION_TYPE_INVALID: Final = Code(
    _P + "question_type_invalid",
    "error",
    rules.TOOL,
    en={
        "": "{path} {value} is not a question type; allowed: {allowed}.",
        "missing": "{path} is required: a question type; allowed: {allowed}.",
    },
    zh={
        "": "{path} 的值 {value} 不是有效的题型；可用题型：{allowed}。",
        "missing": "缺少 {path}：需要题型；可用题型：{allowed}。",
    },
    meaning="`type` missing or not a type (aliases `multiple_choice`, `text` allowed)",
    example='`"type": "bogus"`',
    summary_zh="题型无效。",
)
QUESTION_TEXT_REQUIRED: Final = Code(
    _P + "question_text_required",
    "error",
    rules.TOOL,
    en={
        "": "{path} is required: a non-blank text (or title).",
        "not_string": "{path} must be a non-blank string, not {actual}; only a blank or "
        "missing text falls back to title.",
    },
    zh={
        "": "{path} 为必填项：需要非空的 text（或 title）。",
        "not_string": "{path} 必须是非空字符串，{actual_clause}；"
        "只有空白或缺失的 text 才改用 title。",
    },
    meaning="neither `text` nor `title` is a non-blank string, or `text` is not a string",
    example='`"text": " "`, `"text": 5`',
    summary_zh="问题需要非空的 text（或 title）。",
)
QUESTION_ID_INVALID: Final = Code(
    _P + "question_id_invalid",
    "error",
    rules.TOOL,
    en={"": "{path} must be a string, not {actual}."},
    zh={"": "{path} 必须是字符串，{actual_clause}。"},
    meaning="`id` present but not a string",
    example='`"id": 3`',
    summary_zh="问题 id 必须是字符串。",
)
QUESTION_ID_DUPLICATE: Final = Code(
    _P + "question_id_duplicate",
    "error",
    rules.TOOL,
    en={"": "{path} {value} is already used by an earlier question."},
    zh={"": "{path} 的值 {value} 已被前面的问题使用。"},
    meaning="an id (given, or the default `q<n>`) used by an earlier question",
    example='two questions with `"id": "a"`',
    summary_zh="问题 id 重复。",
)
QUESTION_OPTIONS_REQUIRED: Final = Code(
    _P + "question_options_required",
    "error",
    rules.TOOL,
    en={
        "": "{path} is required for a choice question: a non-empty array of strings or "
        "{{value, label}} objects."
    },
    zh={"": "选择题必须提供 {path}：由字符串或 {{value, label}} 对象组成的非空数组。"},
    meaning="a choice question without a non-empty `options` array",
    example='`"options": []`',
    summary_zh="选择题必须提供非空的 options。",
)
QUESTION_OPTION_INVALID: Final = Code(
    _P + "question_option_invalid",
    "error",
    rules.TOOL,
    en={
        "": "{path} must be a non-blank string or a {{value, label}} object with a non-blank "
        "string value and a string label; got {value}.",
        "duplicate": "{path} repeats the option value {value}; option values must be unique.",
        "reserved": "{path} {value} is the value of the 'other' choice; use another option value.",
    },
    zh={
        "": "{path} 必须是非空字符串，或 value 为非空字符串、label 为字符串的 "
        "{{value, label}} 对象；当前为 {value}。",
        "duplicate": "{path} 重复了选项值 {value}；选项值必须互不相同。",
        "reserved": "{path} 的值 {value} 是“其他”选项的保留值；请换一个选项值。",
    },
    meaning="an option that is neither a non-blank string nor a `{value, label}` object, a "
    "repeated option value, or the value `__questionnaire_other__` of the 'other' choice",
    example='`"options": ["a", "a"]`',
    summary_zh="选项无效或重复。",
)
DEFAULT_TYPE_INVALID: Final = Code(
    _P + "default_type_invalid",
    "error",
    rules.TOOL,
    en={"": "{path} must be {expected}, not {actual}."},
    zh={"": "{path} 必须是{expected}，{actual_clause}。"},
    meaning="`default` of the wrong JSON type for the question type",
    example='`"default": 1` on free text',
    summary_zh="default 的类型不符合题型。",
)
DEFAULT_VALUE_NOT_IN_OPTIONS: Final = Code(
    _P + "default_value_not_in_options",
    "error",
    rules.TOOL,
    en={
        "": "{path} {value} is not one of the option values: {allowed}.",
        "items": "{path} holds items that are not option values: {invalid_items}; "
        "allowed: {allowed}.",
    },
    zh={
        "": "{path} 的值 {value} 不是选项值之一：{allowed}。",
        "items": "{path} 含有不属于选项值的项：{invalid_items}；可选值：{allowed}。",
    },
    meaning="a single-choice default, or string items of a multi-choice default, that are "
    "no option value (not reported for a value an option that failed to read carries: no "
    "follow-on error)",
    example='`"default": "z"` with options `["a"]`',
    summary_zh="default 必须是选项值之一。",
)
DEFAULT_LIST_INVALID_ITEMS: Final = Code(
    _P + "default_list_invalid_items",
    "error",
    rules.TOOL,
    en={
        "": "{path} holds items that are not strings: {invalid_items}; a multi-choice "
        "default is an array of option values."
    },
    zh={"": "{path} 含有不是字符串的项：{invalid_items}；多选的默认值是选项值组成的数组。"},
    meaning="items of a multi-choice default that are not strings",
    example='`"default": ["a", 1]`',
    summary_zh="default 中含有不是字符串的项。",
)
DEFAULT_DUPLICATE_ITEM: Final = Code(
    _P + "default_duplicate_item",
    "warning",
    rules.TOOL,
    en={"": "{path} repeats the default item {value}; it is selected once."},
    zh={"": "{path} 重复了默认项 {value}；只选中一次。"},
    meaning="a multi-choice default item equal (after trimming) to an earlier one; kept once "
    "(§5; the tool keeps it once silently)",
    example='`"default": ["a", " a "]`',
    summary_zh="多选题的默认项重复，只选中一次。",
)
ALLOW_OTHER_TYPE_INVALID: Final = Code(
    _P + "allow_other_type_invalid",
    "error",
    rules.TOOL,
    en={"": "{path} must be a boolean, not {actual}."},
    zh={"": "{path} 必须是布尔值，{actual_clause}。"},
    meaning="`allow_other` present but not a boolean",
    example='`"allow_other": "yes"`',
    summary_zh="allow_other 必须是布尔值。",
)
UI_TEXT_INVALID: Final = Code(
    _P + "ui_text_invalid",
    "warning",
    rules.TOOL,
    en={
        "": "{path} must be {expected}, not {actual}; it is ignored.",
        "too_long": "{path} is longer than {limit|character}; it is ignored.",
        "blank": "{path} is blank; it is ignored and the default text is shown.",
    },
    zh={
        "": "{path} 必须是{expected}，{actual_clause}；已忽略。",
        "too_long": "{path} 超过 {limit} 个字符；已忽略。",
        "blank": "{path} 为空白；已忽略，改用默认文字。",
    },
    meaning="`ui_text` not an object, or a known key with a non-string value, a blank one "
    "(§1) or one longer than 64 code points; dropped (the default text is shown)",
    example='`"ui_text": {"other": 1}`',
    summary_zh="ui_text 的值无效，已忽略。",
)
TIMEOUT_SECONDS_INVALID: Final = Code(
    _P + "timeout_seconds_invalid",
    "warning",
    rules.TOOL,
    en={
        "": "{path} must be a non-negative number, not {value}; it is ignored.",
        "too_large": "{path} {shown} is too large to read as a number; it is ignored.",
    },
    zh={
        "": "{path} 必须是非负数，当前为 {value}；已忽略。",
        "too_large": "{path} {shown} 过大，无法读作数字；已忽略。",
    },
    meaning="`timeout_seconds` not a finite number ≥ 0 (a Sage tag attribute, §9, whose "
    "value is not a whole JSON number token, too), or a number too large to read; dropped",
    example='`"timeout_seconds": -1`',
    summary_zh="timeout_seconds 必须是非负数，已忽略。",
)

CODES: Final = (
    ARGUMENTS_NOT_OBJECT,
    TITLE_INVALID,
    QUESTIONS_MUST_BE_LIST,
    QUESTIONS_EMPTY,
    QUESTION_NOT_OBJECT,
    QUESTION_TYPE_INVALID,
    QUESTION_TEXT_REQUIRED,
    QUESTION_ID_INVALID,
    QUESTION_ID_DUPLICATE,
    QUESTION_OPTIONS_REQUIRED,
    QUESTION_OPTION_INVALID,
    DEFAULT_TYPE_INVALID,
    DEFAULT_VALUE_NOT_IN_OPTIONS,
    DEFAULT_LIST_INVALID_ITEMS,
    DEFAULT_DUPLICATE_ITEM,
    ALLOW_OTHER_TYPE_INVALID,
    UI_TEXT_INVALID,
    TIMEOUT_SECONDS_INVALID,
)
