"""Message texts of the ``questionnaire.start.*`` codes (§7), one table keyed by code.

A template is filled from a finding's ``details``: ``{path}``, ``{expected}`` and
``{actual}`` with an article (``a string``), ``{value}`` as short JSON, ``{allowed}``
and ``{invalid_items}`` as comma-separated short JSON items. Another locale is another
table with the same keys (issue 3 adds zh).
A key ``code#variant`` holds a variant of one code's message.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from replykit.payload.describe import article, brief

_P = "questionnaire.start."

MESSAGES_EN: Mapping[str, str] = MappingProxyType(
    {
        _P + "arguments_not_object": "The questionnaire arguments must be an object, not {actual}.",
        _P + "title_invalid": "{path} must be a string, not {actual}.",
        _P + "questions_must_be_list": "{path} must be an array of questions, not {actual}.",
        _P + "questions_must_be_list#missing": "{path} is required: an array of questions.",
        _P + "questions_empty": "{path} must contain at least one question.",
        _P + "question_not_object": "{path} must be an object, not {actual}.",
        _P + "question_type_invalid": "{path} {value} is not a question type; allowed: {allowed}.",
        _P + "question_text_required": "{path} is required: a non-blank text (or title).",
        _P + "question_id_invalid": "{path} must be a string, not {actual}.",
        _P + "question_id_duplicate": "{path} {value} is already used by an earlier question.",
        _P + "question_options_required": (
            "{path} is required for a choice question: a non-empty array of strings or "
            "{{value, label}} objects."
        ),
        _P + "question_option_invalid": (
            "{path} must be a non-blank string or a {{value, label}} object with a non-blank "
            "string value and a string label; got {value}."
        ),
        _P + "question_option_invalid#duplicate": (
            "{path} repeats the option value {value}; option values must be unique."
        ),
        _P + "question_option_invalid#reserved": (
            "{path} {value} is the value of the 'other' choice; use another option value."
        ),
        _P + "default_type_invalid": "{path} must be {expected}, not {actual}.",
        _P + "default_value_not_in_options": (
            "{path} {value} is not one of the option values: {allowed}."
        ),
        _P + "default_value_not_in_options#items": (
            "{path} holds items that are not option values: {invalid_items}; allowed: {allowed}."
        ),
        _P + "default_list_invalid_items": (
            "{path} holds items that are not strings: {invalid_items}; a multi-choice default "
            "is an array of option values."
        ),
        _P + "default_duplicate_item": (
            "{path} repeats the default item {value}; it is selected once."
        ),
        _P + "allow_other_type_invalid": "{path} must be a boolean, not {actual}.",
        _P + "ui_text_invalid": "{path} must be {expected}, not {actual}; it is ignored.",
        _P + "ui_text_invalid#too_long": (
            "{path} is longer than {limit} characters; it is ignored."
        ),
        _P + "timeout_seconds_invalid": (
            "{path} must be a non-negative number, not {value}; it is ignored."
        ),
    }
)


def render(
    code: str,
    details: Mapping[str, Any],
    *,
    variant: str | None = None,
    table: Mapping[str, str] = MESSAGES_EN,
) -> str:
    """The message for ``code`` (and ``variant``) filled from ``details``.

    Unknown codes give the code itself; missing parameters render as empty text.
    """
    if variant is None and details.get("actual") == "missing" and f"{code}#missing" in table:
        variant = "missing"  # "is required" reads better than "must be ..., not missing"
    template = table.get(f"{code}#{variant}" if variant else code) or table.get(code, code)
    fields: dict[str, str] = {"path": str(details.get("path") or "the arguments")}
    fields["limit"] = str(details.get("limit", ""))
    for key in ("expected", "actual"):
        word = str(details.get(key, ""))
        fields[key] = word if word in ("", "missing") else article(word)
    fields["value"] = brief(details.get("value")) if "value" in details else ""
    for key in ("allowed", "invalid_items"):
        fields[key] = _listing(details.get(key)) if key in details else ""
    return template.format(**fields)


def _listing(items: Any, limit: int = 10) -> str:
    if not isinstance(items, list | tuple):
        return brief(items)
    shown = ", ".join(brief(item) for item in items[:limit])
    return shown + (", …" if len(items) > limit else "")
