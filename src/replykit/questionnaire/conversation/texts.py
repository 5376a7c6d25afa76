"""Localized texts other than diagnostic messages (§7, §8): zh (the default) and en.

Diagnostic messages in both locales are the registry's (:mod:`replykit.codes`): every
code's templates, and the one Chinese sentence per code Self-check shows
(:func:`diagnostic_message`). Here:

- :data:`UI_TEXT_DEFAULTS`: the §7 display-text defaults per locale.
- Self-check repair instructions and the ``questionnaire_async`` success message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from replykit.codes import Locale, lookup
from replykit.textout import quoted

__all__ = [
    "LOCALES",
    "PROBLEM_PREFIX",
    "UI_TEXT_DEFAULTS",
    "Locale",
    "check_locale",
    "diagnostic_message",
    "problem_line",
    "repair_prompt",
    "start_success_message",
]

LOCALES: tuple[Locale, ...] = ("zh", "en")
#: What starts each problem line of a repair instruction.
PROBLEM_PREFIX = "- "


def check_locale(locale: str) -> Locale:
    """Return ``locale`` as a :data:`Locale`; raises ``ValueError`` unless it is ``zh`` or
    ``en``."""
    if locale == "zh":
        return "zh"
    if locale == "en":
        return "en"
    raise ValueError(f"locale must be 'zh' or 'en', got {quoted(locale)}")


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


def diagnostic_message(code: str, english: str, path: str | None, locale: Locale) -> str:
    """A ``segment()`` diagnostic's message in ``locale`` (§8).

    ``en`` returns ``english`` unchanged; ``zh`` returns the code's
    :attr:`~replykit.codes.Code.summary_zh`, prefixed with ``path``
    (``questions[2].default：…``) when the diagnostic is about a place inside a payload,
    or ``english`` for a code without one. A summary that starts with the field's own
    name says the path there instead, once (``questions[2].default 的类型…``, not
    ``questions[2].default：default 的类型…``).
    """
    if locale == "en":
        return english
    found = lookup(code)
    zh = None if found is None else found.summary_zh
    if zh is None:
        return english
    if not path:
        return zh
    field = last_field(path)
    if field is not None and zh.startswith(field) and not _WORD.match(zh, len(field)):
        return path + zh[len(field) :]
    return f"{path}：{zh}"


# The word characters that end a path, then its indices (``default`` of
# ``questions[2].default``, ``options[3]``). The search starts only where a run of word
# characters starts: retrying inside a run that is not the path's end made it quadratic.
_TAIL = re.compile(r"(?<!\w)\w++(?:\[\d+\])*+\Z")
_NAME = re.compile(r"[^A-Za-z_]*([A-Za-z_]\w*)")
_WORD = re.compile(r"\w")


def last_field(path: str) -> str | None:
    """The last field name of a rendered ``path``: the identifier that ends it, before any
    ``[n]`` indices, from its first ASCII letter or ``_`` (``default`` of
    ``questions[2].default``; ``None`` for ``questions[2]`` or a quoted key). Linear."""
    tail = _TAIL.search(path)
    name = None if tail is None else _NAME.match(tail.group())
    return None if name is None else name[1]


def repair_prompt(
    problems: list[str],
    names: tuple[str, ...],
    locale: Locale,
    *,
    more: int = 0,
    forms: bool = True,
    responses: bool = False,
    form_names: tuple[str, ...] = ("questionnaire",),
    form_blocks: int = 1,
    response_name: str = "questionnaire-response",
) -> str:
    """The one Self-check repair instruction for the model (§8;
    docs/protocol-responses.md section 3).

    Input: one line per problem (already localized), the registered names (``names``,
    standard name first), ``more``: how many problems are not listed (said in one line
    after the list when above 0); ``forms``: a questionnaire block is broken;
    ``responses``: the reply holds a response block (well formed or a near-miss of
    one); ``form_names``: the registered names of the broken blocks, each once, in
    order (at least one), which the examples of both encodings use; ``form_blocks``:
    how many blocks are broken (above 1: the plural wording); ``response_name``: the
    response block's name. Output: a paragraph asking for the complete questionnaire(s)
    again, allowing a switch of encoding as long as each keeps its own registered name
    (``forms``), and asking to remove the response block (``responses``); a reply with
    only a response block is never told it holds a broken questionnaire.
    Raises nothing (the caller passes its own checked values).
    """
    listed = "\n".join(f"{PROBLEM_PREFIX}{p}" for p in problems)
    if more:
        listed += (
            f"\n{PROBLEM_PREFIX}另有 {more} 个问题未列出。"
            if locale == "zh"
            else (f"\n{PROBLEM_PREFIX}{more} more problem{'s' if more != 1 else ''} not listed.")
        )
    if not forms:
        return _response_prompt(listed, locale, response_name)
    form = _form_prompt(listed, names, locale, form_names or ("questionnaire",), form_blocks > 1)
    if responses:
        return form + "\n" + _REMOVE_RESPONSE[locale].format(response=response_name)
    return form


_REMOVE_RESPONSE: Mapping[Locale, str] = MappingProxyType(
    {
        "en": "Also remove the questionnaire response block (<{response}>): a response is "
        "the user's answer and only the user's next message carries it.",
        "zh": "另外请删除回答块（<{response}>）：回答是用户的答复，只能由用户的下一条消息携带。",
    }
)


def _response_prompt(listed: str, locale: Locale, response: str) -> str:
    if locale == "en":
        return (
            f"Your last reply contains a questionnaire response block (<{response}>), which "
            "is the user's answer to a questionnaire and belongs only in the user's next "
            f"message:\n{listed}\n"
            "Write the reply again without the response block. Do not answer for the "
            "user: to ask the user something, write a complete questionnaire with ordinary "
            "explanatory text before it; to talk about answers, use plain text."
        )
    return (
        f"你上一条回复中包含回答块（<{response}>），它是用户对问卷的答复，"
        f"只能出现在用户的下一条消息中：\n{listed}\n"
        "请去掉回答块后重新输出回复，不要替用户作答：如需向用户提问，请输出完整的问卷，"
        "并在问卷前保留普通说明文字；如需说明答案，请使用普通文字。"
    )


def _form_prompt(
    listed: str, names: tuple[str, ...], locale: Locale, own: tuple[str, ...], plural: bool
) -> str:
    if locale == "en":
        head = (
            "Your last reply contains questionnaire blocks that fail the protocol check, "
            "so the user cannot answer them:\n"
            if plural
            else "Your last reply contains a questionnaire block that fails the protocol "
            "check, so the user cannot answer it:\n"
        )
        write = (
            "Write each of these questionnaires again complete, every question included, "
            "not only the corrected part, with ordinary explanatory text before it. "
            if plural
            else "Write the complete questionnaire again, every question included, not only "
            "the corrected part, with ordinary explanatory text before it. "
        )
        return f"{head}{listed}\n{write}{_encodings_en(own)} Registered names: {', '.join(names)}."
    head = (
        "你上一条回复中有多个问卷没有通过协议校验，用户无法作答：\n"
        if plural
        else "你上一条回复中的问卷没有通过协议校验，用户无法作答：\n"
    )
    write = (
        "请逐一重新输出完整的问卷（每个都包含全部问题，不要只输出修改的部分），"
        if plural
        else "请重新输出完整的问卷（包含全部问题，不要只输出修改的部分），"
    ) + "并在问卷前保留普通说明文字。"
    return f"{head}{listed}\n{write}{_encodings_zh(own)}注册名称：{'、'.join(names)}。"


def _encodings_en(own: tuple[str, ...]) -> str:
    """The sentence on the two encodings: one name, or each failing block's own."""
    if len(own) == 1:
        name = own[0]
        return (
            f"Use a fenced YAML block opened by ```{name} on its own line, or XML+JSON "
            f"<{name}>{{...}}</{name}>; you may switch between these two encodings as long "
            f"as you keep the same registered name ({name})."
        )
    examples = "; ".join(f"```{n} or <{n}>{{...}}</{n}>" for n in own)
    return (
        f"Each questionnaire keeps its own registered name ({', '.join(own)}): use a fenced "
        "YAML block opened by ```NAME on its own line, or XML+JSON <NAME>{...}</NAME>, NAME "
        f"being that questionnaire's name ({examples}); you may switch between these two "
        "encodings as long as each questionnaire keeps its own registered name."
    )


def _encodings_zh(own: tuple[str, ...]) -> str:
    if len(own) == 1:
        name = own[0]
        return (
            f"可以使用独占一行的 ```{name} 开始的 fenced YAML，"
            f"或 XML+JSON 形式的 <{name}>{{...}}</{name}>；"
            f"只要保持同一个注册名称（{name}），就可以在这两种编码之间切换。"
        )
    examples = "；".join(f"```{n} 或 <{n}>{{...}}</{n}>" for n in own)
    return (
        f"每个问卷保持各自的注册名称（{'、'.join(own)}）：可以使用独占一行的 ```NAME 开始的 "
        "fenced YAML，或 XML+JSON 形式的 <NAME>{...}</NAME>，NAME 为该问卷自己的名称"
        f"（{examples}）；只要每个问卷保持自己的注册名称，就可以在这两种编码之间切换。"
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
