"""JSON Schemas (draft 2020-12) of the XML+JSON payloads (§5, §7).

:func:`form_schema` is the request payload, the JSON between ``<questionnaire>`` and
``</questionnaire>``; :func:`response_schema` the response payload, between
``<questionnaire-response>`` and ``</questionnaire-response>``. The tool's arguments
are :func:`replykit.questionnaire.conversation.tool.tool_schema` and the answer actions
:func:`replykit.actions.action_schema`. Each describes what a producer should write
(no keys outside the protocol), everything inline (no ``$ref``).
"""

from __future__ import annotations

from typing import Any

from replykit.argcheck import typed
from replykit.questionnaire.conversation.tool import or_null, tool_schema
from replykit.questionnaire.limits import DEFAULT_LIMITS, answer_list_limit
from replykit.questionnaire.payload import UI_TEXT_KEYS
from replykit.questionnaire.scan.grammar import family_parts


def _response_type_pattern() -> str:
    """A response's ``type``: a family name with ``_`` for ``-``, then ``_response``
    (the grammar's family pattern, §7)."""
    return f"^{family_parts().name_pattern('_')}_response$"


_SCHEMA = "https://json-schema.org/draft/2020-12/schema"


@typed
def form_schema() -> dict[str, Any]:
    """The JSON Schema of an XML+JSON request payload (docs/protocol.md §5).

    Output: a new ``dict`` each call. The questions are those of
    :func:`~replykit.questionnaire.conversation.tool.tool_schema` (the same lenient reader, §5):
    optional ``title``,
    required ``questions`` (at least one; single choice, multi choice or free text, with
    optional ``id``, ``default`` and ``allow_other``), plus the XML+JSON extras
    ``ui_text`` (an object of the seven display-text keys, each a string) and
    ``timeout_seconds`` (a number, at least 0). No other keys.

    A payload the schema accepts can still be invalid on values only: a blank text or
    option, a repeated id or option value, a default that is not an option (the
    ``questionnaire.start.*`` codes of those rules); a blank ``ui_text`` value is
    dropped with the warning ``ui_text_invalid``.
    """
    schema = tool_schema()
    schema["title"] = "questionnaire request payload"
    schema["description"] = (
        "The JSON object between <questionnaire> and </questionnaire> (or a registered "
        "NAME-questionnaire) in an assistant message: a form the client shows as a card."
    )
    schema["properties"]["ui_text"] = or_null(
        {
            "type": "object",
            "description": (
                "Display texts used when the answers are shown (all optional; a blank "
                "or over-long value is dropped with a warning and the default is used)."
            ),
            "properties": {key: {"type": ["string", "null"]} for key in UI_TEXT_KEYS},
            "additionalProperties": False,
        }
    )
    schema["properties"]["timeout_seconds"] = or_null(
        {
            "type": "number",
            "minimum": 0,
            "description": "Seconds the client waits for an answer.",
        }
    )
    return schema


def _answer(kind: str, value: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    text = {"type": "string"}
    return {
        "type": "object",
        "properties": {
            "question_id": {"type": "string", "minLength": 1},
            "question": {**text, "description": "The question text, for the reader."},
            "type": {"const": kind},
            "answer": value,
            **extra,
        },
        "required": ["question_id", "type", "answer"],
        "additionalProperties": False,
    }


@typed
def response_schema() -> dict[str, Any]:
    """The JSON Schema of an XML+JSON response payload (§5, §7; docs/protocol-responses.md).

    Output: a new ``dict`` each call: an object with ``type`` (``questionnaire_response``,
    or ``NAME_questionnaire_response`` for a ``NAME-questionnaire-response`` tag: it must
    match the tag), ``questionnaire_id`` (the id of the form answered), ``status``
    (``submitted``) and ``answers``, each one of three shapes by ``type``:
    ``single_choice`` (``answer``, ``value``, ``label``, ``other_text`` strings),
    ``multi_choice`` (``answer``, ``values``, ``labels`` lists of strings, ``other_text``)
    or ``free_text`` (``answer`` a string); ``question_id`` required, ``question``
    optional. No other keys. The count limits of the default
    :class:`~replykit.questionnaire.limits.Limits` are ``maxItems``: ``answers`` (questions)
    and a multi-choice answer's lists (options, and one "other" text).

    What a schema cannot say is checked against the form by
    :func:`~replykit.questionnaire.conversation.responses.check_answers`: a blank id, values that
    are not options,
    ``answer`` differing from ``value``/``values``.
    """
    text = {"type": "string"}
    # A multi-choice answer lists at most every option and an "other" text (limit.options).
    texts = {"type": "array", "items": text, "maxItems": answer_list_limit(DEFAULT_LIMITS)}
    return {
        "$schema": _SCHEMA,
        "title": "questionnaire response payload",
        "description": (
            "The JSON object between <questionnaire-response> and </questionnaire-response> "
            "(or NAME-questionnaire-response) in the user message that answers a form."
        ),
        "type": "object",
        "properties": {
            "type": {"type": "string", "pattern": _response_type_pattern()},
            "questionnaire_id": {"type": "string", "minLength": 1},
            "status": {"const": "submitted"},
            "answers": {
                "type": "array",
                "maxItems": DEFAULT_LIMITS.max_questions,  # limit.questions (§1)
                "items": {
                    "anyOf": [
                        _answer(
                            "single_choice",
                            text,
                            {"value": text, "label": text, "other_text": text},
                        ),
                        _answer(
                            "multi_choice",
                            texts,
                            {"values": texts, "labels": texts, "other_text": text},
                        ),
                        _answer("free_text", text, {}),
                    ]
                },
            },
        },
        "required": ["type", "questionnaire_id", "status", "answers"],
        "additionalProperties": False,
    }
