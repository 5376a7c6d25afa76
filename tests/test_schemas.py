"""``replykit schema form|response|actions|tool``: the JSON Schemas of the XML+JSON
payloads say what segment() reads (§5, §7)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import (
    Option,
    Question,
    Questionnaire,
    build_response,
    form_schema,
    response_schema,
    segment,
    tool_schema,
)
from replykit.actions import action_schema
from replykit.cli.tool import add_parser
from replykit.questionnaire.payload import UI_TEXT_KEYS
from replykit.text import is_blank

from forms import SCHEMA_STRINGS

P = "questionnaire.start."
# Only values can make a payload the schema accepts invalid (blank, repeated, not an option).
VALUE_LEVEL = {
    P + "question_text_required",
    P + "question_option_invalid",
    P + "question_id_duplicate",
    P + "default_value_not_in_options",
    P + "default_list_invalid_items",
}
POOL = list(SCHEMA_STRINGS)
TYPES = ["questionnaire_response", "sage_questionnaire_response"]


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values ``schema`` accepts (the keywords the two payload schemas use)."""
    known = {
        "$schema", "title", "description", "type", "properties", "required", "pattern", "not",
        "additionalProperties", "items", "minItems", "minLength", "minimum", "enum",
        "const", "anyOf", "maxItems",
    }  # fmt: skip
    assert set(schema) <= known, set(schema) - known
    if isinstance(schema.get("type"), list):  # ["string", "null"]: either
        return st.one_of([from_schema({**schema, "type": t}) for t in schema["type"]])
    if schema.get("type") == "null":
        return st.none()
    if "anyOf" in schema:
        return st.one_of([from_schema(s) for s in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "const" in schema:
        return st.just(schema["const"])
    kind = schema["type"]
    if kind == "string":
        if "pattern" in schema:
            return st.sampled_from([t for t in TYPES if re.search(schema["pattern"], t)])
        refused = schema.get("not", {}).get("const")
        return st.sampled_from(
            [s for s in POOL if len(s) >= schema.get("minLength", 0) and s != refused]
        )
    if kind == "boolean":
        return st.booleans()
    if kind == "number":
        return st.one_of(st.integers(schema["minimum"], 10**6), st.floats(schema["minimum"], 1e6))
    if kind == "array":
        if schema.get("maxItems") == 0:
            return st.just([])
        return st.lists(
            from_schema(schema["items"]), min_size=schema.get("minItems", 0), max_size=3
        )
    assert kind == "object" and schema["additionalProperties"] is False
    props = schema["properties"]
    required = set(schema.get("required", ()))
    return st.fixed_dictionaries(
        {k: from_schema(v) for k, v in props.items() if k in required},
        optional={k: from_schema(v) for k, v in props.items() if k not in required},
    )


def accepts(schema: dict[str, Any], value: Any) -> bool:
    """A validator for the same keywords (to show the schemas are not vacuous)."""
    if isinstance(schema.get("type"), list):
        return any(accepts({**schema, "type": t}, value) for t in schema["type"])
    if schema.get("type") == "null":
        return value is None
    if "anyOf" in schema:
        return any(accepts(s, value) for s in schema["anyOf"])
    if "enum" in schema and not any(value is e or value == e for e in schema["enum"]):
        return False
    if "const" in schema and value != schema["const"]:
        return False
    kind = schema.get("type")
    if kind == "string":
        return (
            isinstance(value, str)
            and len(value) >= schema.get("minLength", 0)
            and re.search(schema.get("pattern", ""), value) is not None
        )
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
    if kind == "array":
        return (
            isinstance(value, list)
            and len(value) >= schema.get("minItems", 0)
            and len(value) <= schema.get("maxItems", len(value))
            and all(accepts(schema["items"], v) for v in value)
        )
    if kind == "object":
        props = schema["properties"]
        return (
            isinstance(value, dict)
            and all(k in value for k in schema.get("required", ()))
            and all(k in props and accepts(props[k], v) for k, v in value.items())
        )
    return True


def form_block(payload: Any) -> str:
    return f"Please answer.\n\n<questionnaire>{json.dumps(payload)}</questionnaire>\n"


@given(from_schema(form_schema()))
def test_every_form_the_schema_accepts_is_read_or_fails_only_on_values(payload: Any) -> None:
    assert accepts(form_schema(), payload)
    (block,) = [s for s in segment(form_block(payload)).segments if s.kind != "markdown"]
    errors = {d.code for d in block.diagnostics if d.severity == "error"}
    assert errors <= VALUE_LEVEL, block.diagnostics
    assert block.valid == (not errors)
    if block.valid:
        assert block.questionnaire is not None
        # null reads as absent (§7), for the object and for each of its texts; a blank
        # text is dropped with a warning (§5)
        given = (payload.get("ui_text") or {}).items()
        ui_text = {k: v for k, v in given if v is not None and not is_blank(v)}
        assert dict(block.questionnaire.ui_text) == ui_text
        assert block.questionnaire.timeout_seconds == payload.get("timeout_seconds")


def test_form_schema_is_the_tool_schema_plus_the_xml_extras() -> None:
    form, tool = form_schema(), tool_schema()
    assert form["properties"]["questions"] == tool["properties"]["questions"]
    assert set(form["properties"]) == {"title", "questions", "ui_text", "timeout_seconds"}
    assert sorted(form["properties"]["ui_text"]["properties"]) == sorted(UI_TEXT_KEYS)
    assert form == form_schema() and form is not form_schema()
    example = {
        "title": "执行路径正在重复",
        "questions": [{"id": "loop", "type": "free_text", "text": "如何处理", "default": ""}],
    }
    assert accepts(form, example)
    for bad in (
        {},
        {**example, "ui_text": {"unknown": "x"}},
        {**example, "ui_text": {"other": 1}},
        {**example, "timeout_seconds": -1},
        {**example, "timeout_seconds": "30"},
        {**example, "extra": 1},
    ):
        assert not accepts(form, bad), bad


@given(from_schema(response_schema()))
def test_every_response_the_schema_accepts_is_read_as_valid(payload: dict[str, Any]) -> None:
    ids = [payload["questionnaire_id"], *(a["question_id"] for a in payload["answers"])]
    tag = payload["type"].removesuffix("_response").replace("_", "-") + "-response"
    text = f"<{tag}>{json.dumps(payload)}</{tag}>"
    (block,) = segment(text).segments
    errors = [d for d in block.diagnostics if d.severity == "error"]
    if all(i.strip("\u200b ") for i in ids):
        assert block.valid, errors
        assert block.response is not None
        assert [a.to_json() for a in block.response.answers] == payload["answers"]
    else:  # blank ids: values a schema's minLength cannot see
        assert {d.code for d in errors} <= {
            "response.questionnaire_id_missing",
            "response.answer_invalid",
        }


@pytest.mark.parametrize(("answers", "items"), [(1000, 1), (1001, 1), (1, 1001), (1, 1002)])
def test_response_schema_states_the_count_limits(answers: int, items: int) -> None:
    # At the limits of the default Limits the schema and segment() agree (limit.questions,
    # limit.options: a multi-choice answer lists every option and an "other" text).
    multi = {"type": "multi_choice", "answer": ["a"] * items, "values": ["a"] * items}
    payload = {
        "type": "questionnaire_response", "questionnaire_id": "m_q1", "status": "submitted",
        "answers": [{**multi, "question_id": f"q{i}"} for i in range(answers)],
    }  # fmt: skip
    text = f"<questionnaire-response>{json.dumps(payload)}</questionnaire-response>"
    (block,) = segment(text).segments
    assert accepts(response_schema(), payload) is block.valid
    assert block.valid is (answers <= 1000 and items <= 1001)


def test_built_responses_satisfy_the_response_schema() -> None:
    form = Questionnaire(
        "T",
        (
            Question("q1", "single_choice", "Pick", (Option("a", "A"),), "a", True),
            Question("q2", "multi_choice", "Many", (Option("a", "A"), Option("b", "B")), ()),
            Question("q3", "free_text", "Why", (), ""),
        ),
    )
    built = build_response(
        form,
        {"q1": {"value": "__questionnaire_other__", "other_text": "x"}, "q2": ["b"]},
        name="sage-questionnaire",
        questionnaire_id="m_q1",
    )
    payload = json.loads(built.agent_text.split(">", 1)[1].rsplit("<", 1)[0])
    assert accepts(response_schema(), payload), payload
    assert not accepts(response_schema(), {**payload, "status": "draft"})
    assert not accepts(response_schema(), {**payload, "type": "questionnaire"})


@pytest.mark.parametrize(
    ("which", "schema"),
    [
        ("tool", tool_schema),
        ("form", form_schema),
        ("response", response_schema),
        ("actions", action_schema),
    ],
)
def test_schema_command_prints_each(which: str, schema: Any, capsys: Any) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["schema", which])
    assert args.func(args) == 0
    assert json.loads(capsys.readouterr().out) == schema()
