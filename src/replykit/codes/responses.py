"""Codes of the conversation side: ``response.*`` (a response payload),
``tool_result.*`` (opening a form from a tool result) and ``answer.*`` (answers
checked against their form) (docs/protocol-responses.md sections 1 and 2.1).

``{hint}`` is a mapping as in :mod:`replykit.codes.fields` (``{"as": "missing"}``,
``{"as": "found_value", "value": 3}``).
"""

from __future__ import annotations

from typing import Final

from replykit.codes import rules
from replykit.codes._core import Code

# ---------------------------------------------------------------- response payloads

RESPONSE_TYPE_MISMATCH: Final = Code(
    "response.type_mismatch",
    "error",
    rules.RESPONSE,
    en={"": "type must be {quoted_type} for this tag; {hint}"},
    meaning="`type` does not match the tag name",
    example="`sage_questionnaire_response` in `<questionnaire-response>`",
    summary_zh="回答的 type 与标签名称不对应。",
    zh={
        "": "此标签的 type 必须是 {quoted_type}；{hint}。",
    },
)
RESPONSE_QUESTIONNAIRE_ID_MISSING: Final = Code(
    "response.questionnaire_id_missing",
    "error",
    rules.RESPONSE,
    en={
        "": "questionnaire_id is required: the id of the questionnaire answered",
        "invalid": "questionnaire_id must be a non-blank string (the id of the questionnaire "
        "answered), not {value}",
    },
    meaning="no `questionnaire_id`",
    summary_zh="回答缺少 questionnaire_id。",
    zh={
        "": "questionnaire_id 为必填项：所回答问卷的 id。",
        "invalid": "questionnaire_id 必须是非空字符串（所回答问卷的 id），当前为 {value}。",
    },
)
RESPONSE_ANSWERS_INVALID: Final = Code(
    "response.answers_invalid",
    "error",
    rules.RESPONSE,
    en={"": "answers must be a list; {hint}"},
    meaning="`answers` missing or not a list",
    example='`{"answers": {}}`',
    summary_zh="回答的 answers 必须是数组。",
    zh={
        "": "answers 必须是列表；{hint}。",
    },
)
RESPONSE_ANSWER_INVALID: Final = Code(
    "response.answer_invalid",
    "error",
    rules.RESPONSE,
    en={
        "": "{path} must be {shape}; {hint}",
        "type": "{path} must be single_choice, multi_choice or free_text; {hint}",
    },
    meaning="an answer of the wrong shape",
    example='`{"question_id": 3}`',
    summary_zh="回答中的某一项不符合格式。",
    zh={
        "": "{path} 必须是{shape}；{hint}。",
        "type": "{path} 必须是 single_choice、multi_choice 或 free_text；{hint}。",
    },
)
RESPONSE_STATUS_UNKNOWN: Final = Code(
    "response.status_unknown",
    "warning",
    rules.RESPONSE,
    en={"": "status is expected to be 'submitted'; {hint}"},
    meaning="status other than `submitted`",
    example='`"status": "draft"`',
    summary_zh="回答的 status 应为 submitted。",
    zh={
        "": "status 应为 'submitted'；{hint}。",
    },
)

# ---------------------------------------------------------------- tool results (§7)

TOOL_RESULT_INVALID: Final = Code(
    "tool_result.invalid",
    "error",
    rules.TOOL_RESULT,
    en={"": "The tool result must be an object."},
    zh={"": "工具结果必须是对象。"},
    meaning="the tool result is not an object",
    example="`[]` as the result",
    doc="responses",
)
TOOL_RESULT_ERROR_INVALID: Final = Code(
    "tool_result.error_invalid",
    "error",
    rules.TOOL_RESULT,
    en={
        "": "{path} is not a {{code, path, message, details}} error object.",
        "blank": "{path} has a blank code or message; an error entry must say what is wrong.",
    },
    zh={
        "": "{path} 不是 {{code, path, message, details}} 错误对象。",
        "blank": "{path} 的 code 或 message 为空；错误条目必须说明出了什么问题。",
    },
    meaning="an entry of a failed result's `errors` that is not an error object, has a "
    "blank `code` or `message`, or whose `details` exceed the limits",
    example='`"errors": [3]`',
    doc="responses",
)
TOOL_RESULT_FAILED: Final = Code(
    "tool_result.failed",
    "error",
    rules.TOOL_RESULT,
    en={"": "The questionnaire tool call failed without listing errors."},
    zh={"": "问卷工具调用失败，但没有给出错误信息。"},
    meaning="a failed result with no usable `errors`",
    example='`{"success": false}`',
    doc="responses",
)
TOOL_RESULT_INCONSISTENT: Final = Code(
    "tool_result.inconsistent",
    "error",
    rules.TOOL_RESULT,
    en={
        "": "{path} contradicts the result: it must be {want}, not {value}.",
        "missing": "{path} is missing: the result must have it, {want}.",
    },
    zh={
        "": "{path} 与结果自相矛盾：应为 {want}，当前为 {value}。",
        "missing": "缺少 {path}：结果必须有它，应为 {want}。",
    },
    meaning="a result whose `status`, `question_count` or `validation_passed` contradicts "
    "its `success` (or its `questions`)",
    example='`{"success": true, "status": "error", ...}`',
    doc="responses",
)

# ---------------------------------------------------------------- answers (§7)
# One template set per code, shared by building (``build_response``, paths from the
# question id: ``q2[1]``) and checking (``check_answers``, paths into the response:
# ``answers[2].values[1]``): each rule is one function of
# ``replykit.questionnaire.conversation.responses.rules``. ``{question}`` is the
# question id; ``{value}`` a value as short JSON.


def _answer(
    name: str, en: dict[str, str], meaning: str, example: str = "", *, zh: dict[str, str]
) -> Code:
    return Code(
        "answer." + name,
        "warning" if name == "label_mismatch" else "error",
        rules.ANSWERS,
        en=en,
        meaning=meaning,
        example=example,
        doc="responses",
        zh=zh,
    )


ANSWER_UNKNOWN_QUESTION: Final = _answer(
    "unknown_question",
    {"": "{path}: the form has no question with id {value}"},
    "no such question",
    '`{"zz": "a"}`',
    zh={
        "": "{path}：问卷中没有 id 为 {value} 的问题。",
    },
)
ANSWER_DUPLICATE: Final = _answer(
    "duplicate",
    {"": "question {question!r} is answered more than once"},
    "a question answered a second time",
    zh={
        "": "问题 {question!r} 被回答了不止一次。",
    },
)
ANSWER_MISSING: Final = _answer(
    "missing",
    {"": "question {question!r} has no answer"},
    "a question of the form has no answer",
    zh={
        "": "问题 {question!r} 没有回答。",
    },
)
ANSWER_TYPE_MISMATCH: Final = _answer(
    "type_mismatch",
    {
        "": "{path} must be {expected} for the {type} question {question}",
        "choice": "{path} must be {expected} (an option value) for the {type} question {question}",
        "type": "question {question!r} is {type}, the answer says {given}",
        "item": "{path} must be {expected} (an option value)",
        "other_text": "{path} must be {expected}",
    },
    "the answer's type is not the question's type",
    '`{"q1": 3}` for a single choice',
    zh={
        "": "{type} 问题 {question} 的 {path} 必须是{expected}。",
        "choice": "{type} 问题 {question} 的 {path} 必须是{expected}（一个选项值）。",
        "type": "问题 {question!r} 是 {type}，回答却写的是 {given}。",
        "item": "{path} 必须是{expected}（一个选项值）。",
        "other_text": "{path} 必须是{expected}。",
    },
)
ANSWER_VALUES_NOT_LIST: Final = _answer(
    "values_not_list",
    {"": "{path} must be a list of option values for the multi_choice question {question}"},
    "a multi-choice answer that is not a list",
    '`{"q1": "a"}` for a multi choice',
    zh={
        "": "multi_choice 问题 {question} 的 {path} 必须是由选项值组成的列表。",
    },
)
ANSWER_VALUE_NOT_IN_OPTIONS: Final = _answer(
    "value_not_in_options",
    {"": "{path}: {value} is not an option value of question {question}"},
    "not an option value",
    '`{"q1": "z"}`',
    zh={
        "": "{path}：{value} 不是问题 {question} 的选项值。",
    },
)
ANSWER_OTHER_NOT_ALLOWED: Final = _answer(
    "other_not_allowed",
    {
        "": "{path}: question {question} does not allow an 'other' answer",
        "free_text": "{path}: a free_text question has no 'other' answer",
    },
    '"other" without `allow_other`; `other_text` on free text',
    zh={
        "": "{path}：问题 {question} 不允许“其他”回答。",
        "free_text": "{path}：free_text 问题没有“其他”回答。",
    },
)
ANSWER_OTHER_TEXT_UNEXPECTED: Final = _answer(
    "other_text_unexpected",
    {"": "{path}: other_text is only allowed with the value {other}"},
    '`other_text` when "other" was not chosen',
    zh={
        "": "{path}：只有值为 {other} 时才允许 other_text。",
    },
)
ANSWER_FIELD_INVALID: Final = _answer(
    "field_invalid",
    {
        "": "{path} is not an answer field; use value and other_text",
        "value_required": "{path} is required in an answer object",
    },
    "an answer object without `value`, or with a key other than `value` and `other_text`",
    zh={
        "": "{path} 不是回答的字段；请使用 value 和 other_text。",
        "value_required": "回答对象中必须有 {path}。",
    },
)
ANSWER_DUPLICATE_VALUE: Final = _answer(
    "duplicate_value",
    {"": "{path}: {value} is already chosen earlier in the answer to question {question}"},
    "a value repeated in a multi-choice answer",
    '`["a", "a"]`',
    zh={
        "": "{path}：{value} 已在问题 {question} 的回答中更早选过。",
    },
)
ANSWER_QUESTIONNAIRE_ID_MISMATCH: Final = _answer(
    "questionnaire_id_mismatch",
    {"": "the response answers {given!r}, not {expected_id!r}"},
    "the id differs from `questionnaire_id` (only checked when that argument is given)",
    zh={
        "": "该回答对应的是 {given!r}，而不是 {expected_id!r}。",
    },
)
ANSWER_INCONSISTENT: Final = _answer(
    "inconsistent",
    {
        "": "{path} differs from answer",
        "labels": "{path} must have one label per value",
    },
    "`answer` and `value`/`values` disagree, or the number of labels differs from the "
    "number of values",
    zh={
        "": "{path} 与 answer 不一致。",
        "labels": "{path} 必须为每个值提供一个标签。",
    },
)
ANSWER_LABEL_MISMATCH: Final = _answer(
    "label_mismatch",
    {"": "{path}: the label of {given!r} is {label!r}, not {given_label!r}"},
    'a label that is not the one `build_response` writes: the option\'s label; `""` for an '
    'unanswered single choice; for "other", the `other` display text (the `ui_text` '
    "argument's, else the form's, else 其他 or Other, either locale)",
    zh={
        "": "{path}：{given!r} 的标签是 {label!r}，而不是 {given_label!r}。",
    },
)

# ---------------------------------------------------------------- Self-check

SELFCHECK_RESPONSE_IN_REPLY: Final = Code(
    "selfcheck.response_in_reply",
    "error",
    rules.SELF_CHECK,
    en={
        "": "<{name}> is a user's answer: it belongs in the next user message, never in an "
        "assistant reply ({total|response block} in this reply)"
    },
    meaning="the inspected assistant reply holds a response block (valid or not); a "
    "response is the user's answer, sent as the next user message",
    example="`<questionnaire-response>{...}</questionnaire-response>` in the reply",
    summary_zh="回答块是用户的回答，只能出现在下一条用户消息中，不能出现在 assistant 回复中。",
    zh={
        "": "<{name}> 是用户的回答：它只能出现在下一条用户消息中，不能出现在 assistant 回复中"
        "（本条回复中有 {total} 个回答块）。",
    },
)

CODES: Final = (
    SELFCHECK_RESPONSE_IN_REPLY,
    RESPONSE_TYPE_MISMATCH,
    RESPONSE_QUESTIONNAIRE_ID_MISSING,
    RESPONSE_ANSWERS_INVALID,
    RESPONSE_ANSWER_INVALID,
    RESPONSE_STATUS_UNKNOWN,
    TOOL_RESULT_INVALID,
    TOOL_RESULT_ERROR_INVALID,
    TOOL_RESULT_FAILED,
    TOOL_RESULT_INCONSISTENT,
    ANSWER_UNKNOWN_QUESTION,
    ANSWER_DUPLICATE,
    ANSWER_MISSING,
    ANSWER_TYPE_MISMATCH,
    ANSWER_VALUES_NOT_LIST,
    ANSWER_VALUE_NOT_IN_OPTIONS,
    ANSWER_OTHER_NOT_ALLOWED,
    ANSWER_OTHER_TEXT_UNEXPECTED,
    ANSWER_FIELD_INVALID,
    ANSWER_DUPLICATE_VALUE,
    ANSWER_QUESTIONNAIRE_ID_MISMATCH,
    ANSWER_INCONSISTENT,
    ANSWER_LABEL_MISMATCH,
)
