"""The JSON Schema of the ``questionnaire_async`` arguments (§7;
docs/protocol-responses.md section 2.2): :func:`tool_schema`, for an LLM tool definition.
"""

from __future__ import annotations

from typing import Any

from replykit.argcheck import typed
from replykit.questionnaire.limits import DEFAULT_LIMITS
from replykit.questionnaire.model import OTHER_VALUE
from replykit.questionnaire.payload import ACCEPTED_TYPES

#: The tool's name in a tool definition and in ``replykit tool``.
TOOL_NAME = "questionnaire_async"


def _option_schema() -> dict[str, Any]:
    # The reserved "other" value is no option (§4.2, §5): refused as written; with
    # blank characters around it, by the tool (trimmed, a value only it can judge).
    reserved = {"not": {"const": OTHER_VALUE}}
    return {
        "anyOf": [
            {
                "type": "string",
                "minLength": 1,
                **reserved,
                "description": "An option whose value is its label.",
            },
            {
                "type": "object",
                "properties": {
                    "value": {"type": "string", "minLength": 1, **reserved},
                    "label": {"type": ["string", "null"]},
                },
                "required": ["value"],
                "additionalProperties": False,
            },
        ]
    }


def or_null(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` that also accepts ``null``: the tool reads ``null`` as absent for every
    optional field, the value strict function-calling modes send for one (§7)."""
    return {**schema, "type": [schema["type"], "null"]}


def _question_schema(types: list[str], default: dict[str, Any], choice: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "id": or_null(
            {
                "type": "string",
                "description": "Stable question id; omitted or blank: q1, q2, ... by position.",
            }
        ),
        "type": {"type": "string", "enum": types},
        "text": {"type": "string", "minLength": 1, "description": "The question shown."},
        "title": or_null({"type": "string", "description": "Used as the text when text is blank."}),
    }
    required = ["type", "text"]
    if choice:
        properties["options"] = {
            "type": "array",
            "minItems": 1,
            "maxItems": DEFAULT_LIMITS.max_options,  # limit.options (§1)
            "items": _option_schema(),
        }
        required.append("options")
    else:  # the tool's own free-text output has "options": [] and "allow_other": false
        properties["options"] = {"type": ["array", "null"], "maxItems": 0}
    properties["default"] = or_null(default)
    properties["allow_other"] = (
        or_null({"type": "boolean", "description": "Offer an 'other' choice with free text."})
        if choice
        else {"enum": [False, None]}
    )
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _question_shapes() -> list[dict[str, Any]]:
    """The three question shapes the tool accepts, by type and default: single choice,
    multi choice, free text (§7)."""
    single = [t for t in ACCEPTED_TYPES if t == "single_choice"]
    multi = [t for t in ACCEPTED_TYPES if t in ("multi_choice", "multiple_choice")]
    free = [t for t in ACCEPTED_TYPES if t in ("free_text", "text")]
    text_default = {"type": "string", "description": "Preselected answer; empty for none."}
    return [
        _question_schema(
            single,
            {"type": "string", "description": "An option value, or empty for no default."},
            True,
        ),
        _question_schema(
            multi,
            {
                "type": "array",
                "maxItems": DEFAULT_LIMITS.max_options,
                "items": {"type": "string"},
                "description": "Option values selected in advance.",
            },
            True,
        ),
        _question_schema(free, text_default, False),
    ]


@typed
def tool_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the ``questionnaire_async`` arguments (§7).

    Output: a new ``dict`` each call, usable as the ``parameters``/``input_schema`` of
    an LLM tool definition: an object with optional ``title`` (string) and required
    ``questions`` (at least one), each question one of three shapes: single choice
    (``single_choice``; ``options`` required; ``default`` a string), multi choice
    (``multi_choice``/``multiple_choice``; ``default`` a list of strings), free text
    (``free_text``/``text``; ``default`` a string; no options). Every shape has ``id``,
    ``type``, ``text`` (required), ``title``; choices have ``options`` (strings or
    ``{value, label}``) and ``allow_other``; a free-text question only an empty
    ``options`` and ``allow_other`` ``false`` (the tool's own output). Every optional
    field may be ``null`` (read as absent). Everything inline (no ``$ref``), no other
    keys allowed: stricter than the tool only on a title in place of text, unknown
    keys, other spellings of a type and options on free text.

    What a schema cannot say is left to the tool, and an input the schema accepts can
    only fail on values: a blank text or option, a repeated id or option value, the
    reserved option value with blank characters around it, a default (or multi-choice
    default item) that is not an option
    (``question_text_required``, ``question_option_invalid``,
    ``question_id_duplicate``, ``default_value_not_in_options``), or on the size limits
    a schema cannot state (``limit.payload_size``, ``json.too_deep``). The counts of the
    default :class:`~replykit.questionnaire.limits.Limits` are ``maxItems`` (questions,
    options, a multi-choice default).
    """
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": TOOL_NAME,
        "description": (
            "Show the user a questionnaire and end the turn; the answers arrive in the "
            "next user message as a <questionnaire-response> JSON block."
        ),
        "type": "object",
        "properties": {
            "title": or_null(
                {"type": "string", "description": "Optional title of the questionnaire."}
            ),
            "questions": {
                "type": "array",
                "minItems": 1,
                "maxItems": DEFAULT_LIMITS.max_questions,  # limit.questions (§1)
                "items": {"anyOf": _question_shapes()},
            },
        },
        "required": ["questions"],
        "additionalProperties": False,
    }
