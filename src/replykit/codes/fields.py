"""Codes of the strict field table of fenced YAML: ``form.*``, ``question.*``
(docs/protocol.md §4.2).

Most messages end with a ``{hint}``: how the value was read, a mapping recorded on the
finding whose ``as`` names one of :data:`HINTS` (``{"as": "source", "source": "yes",
"actual": "boolean", "quoted": "\\"yes\\""}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from replykit.codes import rules
from replykit.codes._core import Code

#: The ``{hint}`` sentences by ``as``.
HINTS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "string": "it is the string {value}",
        "kind": "it is {actual}",
        "null": "it is empty (null)",
        "long": "YAML reads it as {actual}; quote it to keep the text",
        "source": "YAML reads {source} as {actual}; quote it to keep the text: {quoted}",
        "empty_list": "an empty list",
        "found_value": "found {value}",
        "found_kind": "found {actual}",
        "missing": "it is missing",
        "empty": "it is empty",
        "blank": "it is blank",
        "option_object": "strict fenced YAML takes options as strings, not {{value, label}} "
        "objects (those belong to XML+JSON and questionnaire_async)",
    }
)

#: The ``{hint}`` sentences by ``as``, in Chinese (templates of ``zh``).
HINTS_ZH: Final[Mapping[str, str]] = MappingProxyType(
    {
        "string": "它是字符串 {value}",
        "kind": "当前为{actual}",
        "null": "它为空（null）",
        "long": "YAML 把它读作{actual}；如需保留原文，请加引号",
        "source": "YAML 把 {source} 读作{actual}；如需保留原文，请加引号：{quoted}",
        "empty_list": "当前为空列表",
        "found_value": "当前为 {value}",
        "found_kind": "当前为{actual}",
        "missing": "当前缺失",
        "empty": "当前为空",
        "blank": "当前为空白",
        "option_object": "严格的 fenced YAML 只接受字符串形式的选项，不接受 {{value, label}} "
        "对象（这种写法属于 XML+JSON 和 questionnaire_async）",
    }
)

FORM_UNKNOWN_FIELD: Final = Code(
    "form.unknown_field",
    "error",
    rules.FIELDS,
    en={"": "unknown top-level field {field}; a fenced questionnaire has only title and questions"},
    meaning="a top-level key other than title/questions",
    example="`id: x`",
    summary_zh="顶层只允许 title 和 questions。",
    zh={
        "": "未知的顶层字段 {field}；围栏问卷只有 title 和 questions。",
    },
)
FORM_TITLE_REQUIRED: Final = Code(
    "form.title_required",
    "error",
    rules.FIELDS,
    en={"": "title is required: a non-blank string", "blank": "title must not be blank"},
    meaning="title missing or blank",
    example="no `title`",
    summary_zh="title 为必填项，必须是非空字符串。",
    zh={
        "": "title 为必填项：需要非空字符串。",
        "blank": "title 不能为空白。",
    },
)
FORM_TITLE_INVALID: Final = Code(
    "form.title_invalid",
    "error",
    rules.FIELDS,
    en={"": "title must be a string; {hint}"},
    meaning="title not a string",
    example="`title: 3`",
    summary_zh="title 必须是非空字符串。",
    zh={
        "": "title 必须是字符串；{hint}。",
    },
)
FORM_QUESTIONS_REQUIRED: Final = Code(
    "form.questions_required",
    "error",
    rules.FIELDS,
    en={"": "questions is required: a non-empty list of questions"},
    meaning="questions missing",
    example="no `questions`",
    summary_zh="questions 为必填项，必须是非空数组。",
    zh={
        "": "questions 为必填项：需要由问题组成的非空列表。",
    },
)
FORM_QUESTIONS_INVALID: Final = Code(
    "form.questions_invalid",
    "error",
    rules.FIELDS,
    en={"": "questions must be a non-empty list of questions; {hint}"},
    meaning="questions not a list, or empty",
    example="`questions: []`",
    summary_zh="questions 必须是非空数组。",
    zh={
        "": "questions 必须是由问题组成的非空列表；{hint}。",
    },
)
QUESTION_NOT_MAPPING: Final = Code(
    "question.not_mapping",
    "error",
    rules.FIELDS,
    en={"": "{path} must be a mapping with type, text and default; it is {actual}"},
    meaning="a question that is not a mapping",
    example="`- just text`",
    summary_zh="每个问题必须是映射。",
    zh={
        "": "{path} 必须是包含 type、text 和 default 的映射，{actual_clause}。",
    },
)
QUESTION_UNKNOWN_FIELD: Final = Code(
    "question.unknown_field",
    "error",
    rules.FIELDS,
    en={"": "unknown field {field} in {question}; allowed: {allowed_fields}"},
    meaning="a key outside the table",
    example="`id: a`",
    summary_zh="问题中含有不允许的字段。",
    zh={
        "": "{question} 中有未知字段 {field}；允许的字段：{allowed_fields}。",
    },
)
QUESTION_TYPE_REQUIRED: Final = Code(
    "question.type_required",
    "error",
    rules.FIELDS,
    en={"": "{path} is required: single_choice, multi_choice or free_text"},
    meaning="type missing",
    example="no `type`",
    summary_zh="问题缺少 type。",
    zh={
        "": "{path} 为必填项：single_choice、multi_choice 或 free_text。",
    },
)
QUESTION_TYPE_INVALID: Final = Code(
    "question.type_invalid",
    "error",
    rules.FIELDS,
    en={
        "": "{path} {given} is not a question type; use single_choice, multi_choice or free_text",
        "alias": "{path} {given} is an alias that strict fenced YAML does not accept; "
        "write {strict}",
        "not_string": "{path} must be a string; {hint}",
    },
    meaning="type not one of the three (aliases too)",
    example="`type: multiple_choice`",
    summary_zh="type 只能是 single_choice、multi_choice 或 free_text。",
    zh={
        "": "{path} 的值 {given} 不是题型；请使用 single_choice、multi_choice 或 free_text。",
        "alias": "{path} 的值 {given} 是严格的 fenced YAML 不接受的别名；请写作 {strict}。",
        "not_string": "{path} 必须是字符串；{hint}。",
    },
)
QUESTION_TEXT_REQUIRED: Final = Code(
    "question.text_required",
    "error",
    rules.FIELDS,
    en={"": "{path} is required", "blank": "{path} must not be blank"},
    meaning="text missing or blank",
    example='`text: ""`',
    summary_zh="问题缺少非空的 text。",
    zh={
        "": "{path} 为必填项。",
        "blank": "{path} 不能为空白。",
    },
)
QUESTION_TEXT_INVALID: Final = Code(
    "question.text_invalid",
    "error",
    rules.FIELDS,
    en={"": "{path} must be a string; {hint}"},
    meaning="text not a string",
    example="`text: 5`",
    summary_zh="text 必须是非空字符串。",
    zh={
        "": "{path} 必须是字符串；{hint}。",
    },
)
QUESTION_DEFAULT_REQUIRED: Final = Code(
    "question.default_required",
    "error",
    rules.FIELDS,
    en={
        "": "{question}.default is required (for example one of the options)",
        "multi_choice": "{question}.default is required (for example [])",
        "free_text": '{question}.default is required (for example "")',
    },
    meaning="default missing",
    example="no `default`",
    summary_zh="问题缺少 default。",
    zh={
        "": "{question}.default 为必填项（例如选项之一）。",
        "multi_choice": "{question}.default 为必填项（例如 []）。",
        "free_text": '{question}.default 为必填项（例如 ""）。',
    },
)
QUESTION_OPTIONS_REQUIRED: Final = Code(
    "question.options_required",
    "error",
    rules.FIELDS,
    en={"": "{path} is required for a choice question: a non-empty list of strings; {hint}"},
    meaning="a choice question without a non-empty options list",
    example="`options: []`",
    summary_zh="选择题必须提供非空字符串组成的 options。",
    zh={
        "": "选择题必须提供 {path}：由字符串组成的非空列表；{hint}。",
    },
)
QUESTION_OPTION_INVALID: Final = Code(
    "question.option_invalid",
    "error",
    rules.FIELDS,
    en={
        "": "{path} must be a non-blank string; {hint}",
        "reserved": "{path} {value} is the value of the 'other' choice; write another option",
    },
    meaning="an option that is not a non-blank string, or the value "
    "`__questionnaire_other__` of the 'other' choice (§4.2)",
    example="`- {value: a, label: A}`, `- 02142`",
    summary_zh="选项必须是非空字符串。",
    zh={
        "": "{path} 必须是非空字符串；{hint}。",
        "reserved": "{path} 的值 {value} 是“其他”选项的保留值；请换一个选项。",
    },
)
QUESTION_OPTIONS_FORBIDDEN: Final = Code(
    "question.options_forbidden",
    "error",
    rules.FIELDS,
    en={"": "a free_text question takes no options"},
    meaning="free_text with options",
    summary_zh="free_text 问题不能有 options。",
    zh={
        "": "free_text 问题不能有 options。",
    },
)
QUESTION_ALLOW_OTHER_FORBIDDEN: Final = Code(
    "question.allow_other_forbidden",
    "error",
    rules.FIELDS,
    en={"": "a free_text question takes no allow_other"},
    meaning="free_text with allow_other",
    summary_zh="free_text 问题不能有 allow_other。",
    zh={
        "": "free_text 问题不能有 allow_other。",
    },
)
QUESTION_ALLOW_OTHER_INVALID: Final = Code(
    "question.allow_other_invalid",
    "error",
    rules.FIELDS,
    en={
        "": "{path} must be true or false; {hint}",
        "yes_no": "{path} must be true or false; {hint} (YAML 1.2 reads only true/false as "
        "booleans, not yes/no/on/off)",
    },
    meaning="allow_other not a boolean",
    example="`allow_other: yes`",
    summary_zh="allow_other 必须是布尔值。",
    zh={
        "": "{path} 必须是 true 或 false；{hint}。",
        "yes_no": (
            "{path} 必须是 true 或 false；{hint}（YAML 1.2 只把 true/false 读作布尔值，yes/no/o"
            "n/off 不是）。"
        ),
    },
)
QUESTION_DEFAULT_INVALID: Final = Code(
    "question.default_invalid",
    "error",
    rules.FIELDS,
    en={
        "": "{path} must be a string; {hint}",
        "free_text": '{path} of a free_text question must be a string ("" for none); {hint}',
        "single_choice": "{path} of a single_choice question must be one of the options "
        "(a string); {hint}",
        "multi_choice": "{path} of a multi_choice question must be a list of options "
        "([] for none); {hint}",
        "any_type": "{path} must be a string or a list of strings, whatever the question's "
        "type; {hint}",
    },
    meaning="default of the wrong type",
    example="`default: null` on free_text",
    summary_zh="default 的类型不符合题型。",
    zh={
        "": "{path} 必须是字符串；{hint}。",
        "free_text": 'free_text 问题的 {path} 必须是字符串（无默认值时写 ""）；{hint}。',
        "single_choice": "single_choice 问题的 {path} 必须是选项之一（字符串）；{hint}。",
        "multi_choice": (
            "multi_choice 问题的 {path} 必须是由选项组成的列表（无默认值时写 []）；{hint}。"
        ),
        "any_type": "无论题型如何，{path} 都必须是字符串或字符串列表；{hint}。",
    },
)
QUESTION_DEFAULT_NOT_IN_OPTIONS: Final = Code(
    "question.default_not_in_options",
    "error",
    rules.FIELDS,
    en={"": "{path} {value} is not one of the options ({allowed})"},
    meaning="default (or a multi item) not an option (not reported when it names an option "
    "that failed to read, such as `{value: a}`: that option's error is the one)",
    example="`default: maybe`",
    summary_zh="default 必须属于 options。",
    zh={
        "": "{path} 的值 {value} 不是选项之一（{allowed}）。",
    },
)
QUESTION_DUPLICATE_OPTION: Final = Code(
    "question.duplicate_option",
    "warning",
    rules.YAML,
    en={"": "{path} repeats the option {value}"},
    meaning="an option repeated",
    example="`- a⏎- a`",
    summary_zh="选项重复。",
    zh={
        "": "{path} 重复了选项 {value}。",
    },
)
QUESTION_DUPLICATE_DEFAULT: Final = Code(
    "question.duplicate_default",
    "warning",
    rules.YAML,
    en={"": "{path} repeats the default {value}; it is selected once"},
    meaning="an item of a multi-choice default repeated; kept once (§4.2)",
    example="`default: [a, a]`",
    summary_zh="多选题的默认项重复，只选中一次。",
    zh={
        "": "{path} 重复了默认值 {value}；只选中一次。",
    },
)

CODES: Final = (
    FORM_UNKNOWN_FIELD,
    FORM_TITLE_REQUIRED,
    FORM_TITLE_INVALID,
    FORM_QUESTIONS_REQUIRED,
    FORM_QUESTIONS_INVALID,
    QUESTION_NOT_MAPPING,
    QUESTION_UNKNOWN_FIELD,
    QUESTION_TYPE_REQUIRED,
    QUESTION_TYPE_INVALID,
    QUESTION_TEXT_REQUIRED,
    QUESTION_TEXT_INVALID,
    QUESTION_DEFAULT_REQUIRED,
    QUESTION_OPTIONS_REQUIRED,
    QUESTION_OPTION_INVALID,
    QUESTION_OPTIONS_FORBIDDEN,
    QUESTION_ALLOW_OTHER_FORBIDDEN,
    QUESTION_ALLOW_OTHER_INVALID,
    QUESTION_DEFAULT_INVALID,
    QUESTION_DEFAULT_NOT_IN_OPTIONS,
    QUESTION_DUPLICATE_OPTION,
    QUESTION_DUPLICATE_DEFAULT,
)
