"""Localized texts of issue 3 (PROTOCOL-DECISIONS §7, §8): zh (the default) and en.

Every table is a read-only mapping keyed by a diagnostic code (or a ``ui_text`` key).

- ``questionnaire.start.*`` messages of ``questionnaire_async`` (§7): the English table is
  :data:`replykit.payload.messages.MESSAGES_EN` (imported, not copied);
  :data:`START_MESSAGES_ZH` has the same keys. :func:`render_start` fills either.
- :data:`DIAGNOSTICS_ZH`: one Chinese sentence per code that :func:`replykit.segment`
  reports, used by Self-check (§8) for its localized diagnostics.
- :data:`UI_TEXT_DEFAULTS`: the §7 display-text defaults per locale.
- Self-check repair instructions and the ``questionnaire_async`` success message.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal

from replykit.payload.describe import brief
from replykit.payload.messages import MESSAGES_EN, render

Locale = Literal["zh", "en"]
LOCALES: tuple[Locale, ...] = ("zh", "en")

_P = "questionnaire.start."

#: Chinese templates of the ``questionnaire.start.*`` codes (§7), same keys as
#: :data:`~replykit.payload.messages.MESSAGES_EN` (``code#variant`` for a variant).
#: Fields: ``{path}``, ``{expected}``, ``{actual_clause}`` (当前为… / 当前缺失),
#: ``{value}`` (short JSON), ``{allowed}``, ``{invalid_items}`` (short JSON items).
START_MESSAGES_ZH: Mapping[str, str] = MappingProxyType(
    {
        _P + "arguments_not_object": "问卷参数必须是对象，{actual_clause}。",
        _P + "title_invalid": "{path} 必须是字符串，{actual_clause}。",
        _P + "questions_must_be_list": "{path} 必须是问题数组，{actual_clause}。",
        _P + "questions_must_be_list#missing": "缺少 {path}：需要一个问题数组。",
        _P + "questions_empty": "{path} 至少需要包含一个问题。",
        _P + "question_not_object": "{path} 必须是对象，{actual_clause}。",
        _P + "question_type_invalid": "{path} 的值 {value} 不是有效的题型；可用题型：{allowed}。",
        _P + "question_text_required": "{path} 为必填项：需要非空的 text（或 title）。",
        _P + "question_id_invalid": "{path} 必须是字符串，{actual_clause}。",
        _P + "question_id_duplicate": "{path} 的值 {value} 已被前面的问题使用。",
        _P + "question_options_required": (
            "选择题必须提供 {path}：由字符串或 {{value, label}} 对象组成的非空数组。"
        ),
        _P + "question_option_invalid": (
            "{path} 必须是非空字符串，或 value 为非空字符串、label 为字符串的 "
            "{{value, label}} 对象；当前为 {value}。"
        ),
        _P + "question_option_invalid#duplicate": (
            "{path} 重复了选项值 {value}；选项值必须互不相同。"
        ),
        _P + "question_option_invalid#reserved": (
            "{path} 的值 {value} 是“其他”选项的保留值；请换一个选项值。"
        ),
        _P + "default_type_invalid": "{path} 必须是{expected}，{actual_clause}。",
        _P + "default_value_not_in_options": "{path} 的值 {value} 不是选项值之一：{allowed}。",
        _P + "default_value_not_in_options#items": (
            "{path} 含有不属于选项值的项：{invalid_items}；可选值：{allowed}。"
        ),
        _P + "default_list_invalid_items": (
            "{path} 含有不是字符串的项：{invalid_items}；多选的默认值是选项值组成的数组。"
        ),
        _P + "default_duplicate_item": "{path} 重复了默认项 {value}；只选中一次。",
        _P + "allow_other_type_invalid": "{path} 必须是布尔值，{actual_clause}。",
        _P + "ui_text_invalid": "{path} 必须是{expected}，{actual_clause}；已忽略。",
        _P + "ui_text_invalid#too_long": "{path} 超过 {limit} 个字符；已忽略。",
        _P + "timeout_seconds_invalid": "{path} 必须是非负数，当前为 {value}；已忽略。",
    }
)

# The words the normalizer puts in details["expected"] / details["actual"].
_WORDS_ZH: Mapping[str, str] = MappingProxyType(
    {
        "null": "null",
        "boolean": "布尔值",
        "number": "数字",
        "string": "字符串",
        "array": "数组",
        "object": "对象",
        "array of strings": "字符串数组",
        "non-blank string": "非空字符串",
        "non-empty array": "非空数组",
        "empty array": "空数组",
        "non-negative number": "非负数",
        "non-blank string or {value, label} object": "非空字符串或 {value, label} 对象",
    }
)


def check_locale(locale: str) -> Locale:
    """Return ``locale`` as a :data:`Locale`; raises ``ValueError`` unless it is ``zh`` or
    ``en``."""
    if locale == "zh":
        return "zh"
    if locale == "en":
        return "en"
    raise ValueError(f"locale must be 'zh' or 'en', got {locale!r}")


def start_variant(code: str, details: Mapping[str, Any], english: str) -> str | None:
    """Which message variant of ``code`` produced the English message ``english``.

    Findings of ``normalize_form`` keep their rendered English message but not the
    variant name, so the variant (``duplicate`` for a repeated option value) is found by
    rendering each ``code#variant`` of the English table with ``details`` and comparing.
    Returns ``None`` for the plain message.
    """
    prefix = code + "#"
    for key in MESSAGES_EN:
        if key.startswith(prefix):
            variant = key[len(prefix) :]
            if render(code, details, variant=variant) == english:
                return variant
    return None


def _listing_zh(items: Any, limit: int = 10) -> str:
    if not isinstance(items, list | tuple):
        return brief(items)
    shown = "、".join(brief(item) for item in items[:limit])
    return shown + ("、…" if len(items) > limit else "")


def render_start(
    code: str, details: Mapping[str, Any], *, variant: str | None = None, locale: Locale = "zh"
) -> str:
    """The message of one ``questionnaire.start.*`` finding in ``locale`` (§7).

    Input: the finding's ``code`` and ``details`` (``path``, ``expected``, ``actual``,
    ``value``, ``allowed``, ``invalid_items``), an optional ``variant``. ``en`` renders
    :data:`~replykit.payload.messages.MESSAGES_EN` with the payload's own renderer;
    ``zh`` renders :data:`START_MESSAGES_ZH`. An unknown code gives the code itself.
    """
    if locale == "en":
        return render(code, details, variant=variant)
    table = START_MESSAGES_ZH
    template = table.get(f"{code}#{variant}" if variant else code) or table.get(code, code)
    actual = str(details.get("actual", ""))
    expected = str(details.get("expected", ""))
    fields = {
        "path": str(details.get("path") or "问卷参数"),
        "limit": str(details.get("limit", "")),
        "expected": _WORDS_ZH.get(expected, expected),
        "actual_clause": (
            "当前缺失" if actual in ("", "missing") else f"当前为{_WORDS_ZH.get(actual, actual)}"
        ),
        "value": brief(details.get("value")) if "value" in details else "",
        "allowed": _listing_zh(details.get("allowed")) if "allowed" in details else "",
        "invalid_items": (
            _listing_zh(details.get("invalid_items")) if "invalid_items" in details else ""
        ),
    }
    return template.format(**fields)


def start_success_message(count: int, locale: Locale = "zh") -> str:
    """The ``message`` of a successful ``questionnaire_async`` result (§7); ``count`` is
    the number of questions."""
    if locale == "en":
        return f"Questionnaire started; waiting for the user's reply ({count} questions)."
    return f"问卷已发起并等待用户回复，共 {count} 题。"


#: The §7 display-text defaults, per locale, keyed by ``ui_text`` key.
UI_TEXT_DEFAULTS: Mapping[Locale, Mapping[str, str]] = MappingProxyType(
    {
        "zh": MappingProxyType(
            {
                "answer_title": "问卷回答",
                "question_fallback": "问题",
                "answer_separator": "：",
                "list_separator": "、",
                "other": "其他",
                "unanswered": "未填写",
                "unselected": "未选择",
            }
        ),
        "en": MappingProxyType(
            {
                "answer_title": "Questionnaire answers",
                "question_fallback": "Question",
                "answer_separator": ": ",
                "list_separator": ", ",
                "other": "Other",
                "unanswered": "Not answered",
                "unselected": "Not selected",
            }
        ),
    }
)

#: One Chinese sentence per code that ``segment()`` reports (§2-§8), for Self-check.
#: A code missing here keeps its English message.
DIAGNOSTICS_ZH: Mapping[str, str] = MappingProxyType(
    {
        "fence.unclosed": "问卷围栏没有结束围栏，一直延续到消息末尾。",
        "fence.no_preface": "fenced 问卷前必须有非空的普通说明文字。",
        "name.unregistered": "该名称不是注册的问卷名称，前端会把它当作普通 Markdown 显示。",
        "near_miss.case": "问卷名称必须全部小写。",
        "near_miss.extra_words": "开始围栏的信息字符串只能是问卷名称，后面不能有其他文字。",
        "near_miss.tilde": "问卷围栏必须使用反引号，不能使用波浪号。",
        "near_miss.short_fence": "问卷开始围栏至少需要三个反引号。",
        "near_miss.in_container": "问卷围栏不能放在引用块或列表项中，必须位于顶层。",
        "near_miss.unclosed_tag": "问卷开始标签之后没有同名的结束标签。",
        "near_miss.tag_attributes": "问卷开始标签不能带属性，尖括号内也不能有空格。",
        "near_miss.fence_indent": (
            "问卷开始围栏前有全角空格、不换行空格或零宽字符等，Markdown 不把它们当作缩进："
            "这一行只是普通文字，不是围栏，请删除这些字符。"
        ),
        "yaml.empty": "问卷内容为空。",
        "yaml.nested_fence": (
            "问卷内部不能嵌套其他代码围栏；结束围栏必须独占一行，后面不能有其他文字。"
        ),
        "yaml.syntax": "YAML 语法错误。",
        "yaml.multiple_documents": "问卷内容只能是一个 YAML 文档。",
        "yaml.json_payload": "围栏内容必须是块状 YAML，不能是 JSON 或流式写法。",
        "yaml.root_not_mapping": "YAML 顶层必须是映射。",
        "yaml.duplicate_key": "YAML 中存在重复的键。",
        "yaml.alias": "不允许使用 YAML 锚点或别名。",
        "yaml.tag": "不允许使用 YAML 显式标签。",
        "yaml.key_not_string": "YAML 的键必须是字符串。",
        "yaml.number_too_large": "数字过大。",
        "yaml.lone_surrogate": "YAML 字符串的转义表示不成对的代理项（\\udXXX），它不是字符。",
        "yaml.too_deep": "YAML 嵌套层级过深。",
        "json.syntax": "JSON 语法错误。",
        "json.constant": "JSON 中不允许 NaN 或 Infinity。",
        "json.duplicate_key": "JSON 中存在重复的键。",
        "json.not_object": "JSON 负载必须是一个对象。",
        "json.string_payload": "JSON 负载是一个包含 JSON 的字符串，必须直接写成对象。",
        "json.number_too_large": "数字过大：超过 4300 位，或超出 64 位浮点数的范围。",
        "json.lone_surrogate": "JSON 字符串中含有不成对的代理项（\\udXXX），无法写成 UTF-8。",
        "json.too_deep": "JSON 嵌套层级过深。",
        "form.unknown_field": "顶层只允许 title 和 questions。",
        "form.title_required": "title 为必填项，必须是非空字符串。",
        "form.title_invalid": "title 必须是非空字符串。",
        "form.questions_required": "questions 为必填项，必须是非空数组。",
        "form.questions_invalid": "questions 必须是非空数组。",
        "question.not_mapping": "每个问题必须是映射。",
        "question.unknown_field": "问题中含有不允许的字段。",
        "question.type_required": "问题缺少 type。",
        "question.type_invalid": "type 只能是 single_choice、multi_choice 或 free_text。",
        "question.text_required": "问题缺少非空的 text。",
        "question.text_invalid": "text 必须是非空字符串。",
        "question.default_required": "问题缺少 default。",
        "question.default_invalid": "default 的类型不符合题型。",
        "question.default_not_in_options": "default 必须属于 options。",
        "question.options_required": "选择题必须提供非空字符串组成的 options。",
        "question.option_invalid": "选项必须是非空字符串。",
        "question.options_forbidden": "free_text 问题不能有 options。",
        "question.allow_other_forbidden": "free_text 问题不能有 allow_other。",
        "question.allow_other_invalid": "allow_other 必须是布尔值。",
        "question.duplicate_option": "选项重复。",
        "question.duplicate_default": "多选题的默认项重复，只选中一次。",
        "response.type_mismatch": "回答的 type 与标签名称不对应。",
        "response.questionnaire_id_missing": "回答缺少 questionnaire_id。",
        "response.answers_invalid": "回答的 answers 必须是数组。",
        "response.answer_invalid": "回答中的某一项不符合格式。",
        "response.status_unknown": "回答的 status 应为 submitted。",
        _P + "arguments_not_object": "问卷内容必须是对象。",
        _P + "title_invalid": "title 必须是字符串。",
        _P + "questions_must_be_list": "questions 必须是问题数组。",
        _P + "questions_empty": "questions 至少需要包含一个问题。",
        _P + "question_not_object": "每个问题必须是对象。",
        _P + "question_type_invalid": "题型无效。",
        _P + "question_text_required": "问题需要非空的 text（或 title）。",
        _P + "question_id_invalid": "问题 id 必须是字符串。",
        _P + "question_id_duplicate": "问题 id 重复。",
        _P + "question_options_required": "选择题必须提供非空的 options。",
        _P + "question_option_invalid": "选项无效或重复。",
        _P + "default_type_invalid": "default 的类型不符合题型。",
        _P + "default_value_not_in_options": "default 必须是选项值之一。",
        _P + "default_list_invalid_items": "default 中含有不是字符串的项。",
        _P + "allow_other_type_invalid": "allow_other 必须是布尔值。",
        _P + "default_duplicate_item": "多选题的默认项重复，只选中一次。",
        _P + "ui_text_invalid": "ui_text 的值无效，已忽略。",
        _P + "timeout_seconds_invalid": "timeout_seconds 必须是非负数，已忽略。",
    }
)


def diagnostic_message(code: str, english: str, path: str | None, locale: Locale) -> str:
    """A ``segment()`` diagnostic's message in ``locale`` (§8).

    ``en`` returns ``english`` unchanged; ``zh`` returns the sentence of
    :data:`DIAGNOSTICS_ZH`, prefixed with ``path`` (``questions[2].default：…``) when the
    diagnostic is about a place inside a payload, or ``english`` for an unknown code.
    """
    if locale == "en":
        return english
    zh = DIAGNOSTICS_ZH.get(code)
    if zh is None:
        return english
    return f"{path}：{zh}" if path else zh


def repair_prompt(
    problems: list[str], names: tuple[str, ...], locale: Locale, *, more: int = 0
) -> str:
    """The one Self-check repair instruction for the model (§8).

    Input: one line per problem (already localized), the registered names (``names``,
    standard name first), ``more``: how many problems are not listed (said in one line
    after the list when above 0). Output: a paragraph asking for the complete
    questionnaire again, allowing a switch of encoding under the same registered name.
    """
    listed = "\n".join(f"- {p}" for p in problems)
    if more:
        listed += (
            f"\n- 另有 {more} 个问题未列出。"
            if locale == "zh"
            else (f"\n- {more} more problem{'s' if more != 1 else ''} not listed.")
        )
    if locale == "en":
        return (
            "Your last reply contains a questionnaire block that fails the protocol check, "
            "so the user cannot answer it:\n"
            f"{listed}\n"
            "Write the complete questionnaire again, every question included, not only "
            "the corrected part, with ordinary explanatory text before it. Use a fenced "
            "YAML block opened by ```questionnaire on its own line, or XML+JSON "
            "<questionnaire>{...}</questionnaire>; you may switch between these two "
            "encodings as long as you keep the same registered name. Registered names: "
            f"{', '.join(names)}."
        )
    return (
        "你上一条回复中的问卷没有通过协议校验，用户无法作答：\n"
        f"{listed}\n"
        "请重新输出完整的问卷（包含全部问题，不要只输出修改的部分），并在问卷前保留普通说明文字。"
        "可以使用独占一行的 ```questionnaire 开始的 fenced YAML，"
        "或 XML+JSON 形式的 <questionnaire>{...}</questionnaire>；"
        "只要保持同一个注册名称，就可以在这两种编码之间切换。"
        f"注册名称：{'、'.join(names)}。"
    )


def problem_line(
    line: int, column: int, code: str, message: str, english: str, locale: Locale
) -> str:
    """One problem of a repair instruction: position (1-based line and column, in code
    points), code and localized message. In ``zh`` the English message of
    ``segment()`` follows in brackets when it differs, since it names the exact value
    (``'Questionnaire' must be lower case``) and the instruction is read by a model."""
    if locale == "en":
        return f"line {line}, column {column} [{code}]: {message}"
    extra = f"（{english}）" if english != message else ""
    return f"第 {line} 行第 {column} 列 [{code}]：{message}{extra}"


#: Chinese messages of the limit codes a ``questionnaire_async`` call can report (§1),
#: and of a lone surrogate in its arguments, filled from the finding's ``details``
#: (``path``, ``limit``, ``actual``).
LIMIT_MESSAGES_ZH: Mapping[str, str] = MappingProxyType(
    {
        "limit.payload_size": "参数作为 JSON 文本超过 {limit} 个字符，未读取。",
        "limit.questions": "{path} 有 {actual} 项，超过上限 {limit}，未读取。",
        "limit.options": "{path} 有 {actual} 项，超过上限 {limit}，未读取。",
        "json.too_deep": "参数的嵌套层级超过 {limit} 层。",
        "json.lone_surrogate": "{path} 含有不成对的代理项（不是字符），严格 JSON 无法如实表示。",
    }
)


def limit_message(code: str, details: Mapping[str, Any], english: str, locale: Locale) -> str:
    """The message of a limit finding (``limit.*``, ``json.too_deep``,
    ``json.lone_surrogate``) in ``locale``:
    ``english`` for ``en`` or a code without a Chinese template."""
    template = LIMIT_MESSAGES_ZH.get(code)
    if locale == "en" or template is None:
        return english
    return template.format(
        path=details.get("path") or "参数", limit=details.get("limit"), actual=details.get("actual")
    )


#: Messages of the ``tool_result.*`` codes of
#: :func:`replykit.tool.questionnaire_from_tool_result`, per locale.
TOOL_RESULT_MESSAGES: Mapping[Locale, Mapping[str, str]] = MappingProxyType(
    {
        "zh": MappingProxyType(
            {
                "tool_result.invalid": "工具结果必须是对象。",
                "tool_result.error_invalid": (
                    "{path} 不是 {{code, path, message, details}} 错误对象。"
                ),
                "tool_result.failed": "问卷工具调用失败，但没有给出错误信息。",
            }
        ),
        "en": MappingProxyType(
            {
                "tool_result.invalid": "The tool result must be an object.",
                "tool_result.error_invalid": (
                    "{path} is not a {{code, path, message, details}} error object."
                ),
                "tool_result.failed": "The questionnaire tool call failed without listing errors.",
            }
        ),
    }
)
