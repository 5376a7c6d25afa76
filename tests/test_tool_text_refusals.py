"""Tool arguments given as JSON text with refused tokens (§5, §7): the tool's own checks
still run on the rest, with the codes and paths the same text gets between
``<questionnaire>`` tags (docs/protocol-responses.md section 2)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from replykit import questionnaire_async_json, segment
from replykit.testing.strategies.tool import tool_arguments

SENTINEL = "refused-token-7f3"
REFUSED = ("NaN", "-Infinity", "1e400", "9" * 4301)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))]
    return [path]


def _replaced(value: Any, path: tuple[Any, ...]) -> Any:
    if not path:
        return SENTINEL
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {k: (_replaced(v, rest) if k == head else v) for k, v in value.items()}
    return [(_replaced(v, rest) if i == head else v) for i, v in enumerate(value)]


def _block_errors(text: str) -> list[tuple[str, str | None]]:
    result = segment("Intro <questionnaire>" + text + "</questionnaire>", message_id="m")
    (block,) = [s for s in result.segments if s.kind != "markdown"]
    return sorted((d.code, d.path) for d in block.diagnostics if d.severity == "error")


def _tool_errors(text: str) -> list[tuple[str, str | None]]:
    result = questionnaire_async_json(text, locale="en")
    assert result["success"] is False
    return sorted((e["code"], e["path"]) for e in result["errors"])


@given(tool_arguments(), st.data())
def test_refused_tokens_leave_the_same_errors_as_the_xml_form(args: Any, data: Any) -> None:
    assume(isinstance(args, dict))
    leaves = [p for p in _leaves(args) if p]
    assume(leaves)
    path = data.draw(st.sampled_from(leaves))
    token = data.draw(st.sampled_from(REFUSED))
    text = json.dumps(_replaced(args, path), ensure_ascii=False)
    text = text.replace(json.dumps(SENTINEL), token, 1)
    assume("</" not in text and "<questionnaire" not in text)
    assert _tool_errors(text) == _block_errors(text)


def test_a_repeated_key_keeps_the_first_value_and_reads_on() -> None:
    text = '{"questions": [{"type": "bogus", "type": "text", "text": "Q"}]}'
    expected = [
        ("json.duplicate_key", "questions[1].type"),
        ("questionnaire.start.question_type_invalid", "questions[1].type"),
    ]
    assert _tool_errors(text) == _block_errors(text) == expected


def test_no_error_on_a_refused_value_and_the_reading_errors_first() -> None:
    text = (
        '{"questions": [{"type": "multi_choice", "text": "Q", "options": ["a"],'
        ' "default": ["a", 1e400, 5]}]}'
    )
    result = questionnaire_async_json(text, locale="en")
    first, second = result["errors"]
    assert (first["code"], first["path"]) == ("json.number_too_large", "questions[1].default[2]")
    assert first["details"]["line"] == 1
    assert second["code"] == "questionnaire.start.default_list_invalid_items"
    assert second["details"]["invalid_items"] == [5]


def test_a_syntax_error_alone_stops_the_reading() -> None:
    result = questionnaire_async_json('{"questions": [{"type": "bogus"}], "title": [1', locale="en")
    assert [e["code"] for e in result["errors"]] == ["json.syntax"]


def test_a_non_object_with_a_refused_token_is_also_not_an_object() -> None:
    result = questionnaire_async_json("[NaN]", locale="en")
    codes = [e["code"] for e in result["errors"]]
    assert codes == ["json.constant", "questionnaire.start.arguments_not_object"]


def test_a_refused_root_is_a_number_and_a_lone_surrogate_is_told_once() -> None:
    for text, first, actual in (
        ("NaN", "json.constant", "number"),
        ("-Infinity", "json.constant", "number"),
        ("1e400", "json.number_too_large", "number"),
        ('"\\ud800"', "json.lone_surrogate", "string"),
        ('["\\ud800"]', "json.lone_surrogate", "array"),
    ):
        errors = questionnaire_async_json(text, locale="en")["errors"]
        assert [e["code"] for e in errors] == [first, "questionnaire.start.arguments_not_object"]
        assert errors[1]["details"]["actual"] == actual


def test_the_payload_size_limit_comes_first_and_alone() -> None:
    from replykit import Limits

    text = '{"title": "' + "x" * 300 + '", "title": "y", "questions": [NaN]}'
    errors = questionnaire_async_json(text, locale="en", limits=Limits(max_payload=100))["errors"]
    assert [e["code"] for e in errors] == ["limit.payload_size"]
