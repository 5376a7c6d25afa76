"""Hypothesis properties of the payload readers: round trips and robustness."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from replykit.questionnaire.model import Questionnaire
from replykit.questionnaire.payload import (
    normalize_form,
    read_fenced_form,
    read_json,
    read_xml_request,
    read_xml_response,
    read_yaml,
)

from .strategies import json_values, strict_forms, to_fenced_yaml, to_json_payload, tool_forms
from forms import trim_form

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text biased toward the syntax the readers care about.
_SYNTAX = st.sampled_from(
    [*list("{}[]:,-?&*!|>'\"#%@` \n\t\r~."), "---", "...", "```", "\\u", "NaN", "- ", ": "]
)
hostile_text = st.one_of(
    st.text(),
    st.lists(st.one_of(_SYNTAX, st.text(max_size=3)), max_size=60).map("".join),
)


@SETTINGS
@given(strict_forms())
def test_fenced_yaml_round_trip(form: Questionnaire) -> None:
    payload = to_fenced_yaml(form)
    read = read_fenced_form(payload)
    assert read.findings == ()
    assert read.value == form


@SETTINGS
@given(tool_forms())
def test_xml_json_round_trip(form: Questionnaire) -> None:
    read = read_xml_request(to_json_payload(form))
    assert read.findings == ()
    assert read.value == form


@SETTINGS
@given(strict_forms())
def test_strict_forms_are_also_valid_xml_json(form: Questionnaire) -> None:
    # The same form as XML+JSON, read leniently: texts and options trimmed (§5, §7).
    trimmed = trim_form(form)
    assume(trimmed is not None)
    assert read_xml_request(to_json_payload(form)).value == trimmed


@SETTINGS
@given(tool_forms(extras=False))
def test_tool_normalization_is_idempotent(form: Questionnaire) -> None:
    once = normalize_form(form.to_json(), allow_extras=False)
    assert once.value == form
    assert once.value is not None
    twice = normalize_form(once.value.to_json(), allow_extras=False)
    assert twice.value == once.value


@SETTINGS
@given(hostile_text)
def test_readers_never_raise(text: str) -> None:
    for read in (
        read_yaml(text),
        read_json(text),
        read_fenced_form(text),
        read_xml_request(text),
        read_xml_response(text, "questionnaire-response"),
    ):
        for f in read.findings:
            assert f.severity in ("error", "warning")
            if f.start is not None:
                assert f.end is not None and 0 <= f.start <= f.end <= len(text)
        for start, end in read.spans.values():
            assert 0 <= start <= end <= len(text)


@SETTINGS
@given(json_values)
def test_structured_values_never_raise(value: Any) -> None:
    for allow_extras in (False, True):
        normalize_form(value, allow_extras=allow_extras)
        normalize_form({"questions": value, "ui_text": value}, allow_extras=allow_extras)
        normalize_form({"questions": [value]}, allow_extras=allow_extras)
    text = json.dumps({"answers": [value], "type": value})
    read_xml_response(text, "questionnaire")
    read_xml_request(json.dumps({"questions": [value]}))


@SETTINGS
@given(json_values)
def test_json_spans_point_at_the_values(value: Any) -> None:
    text = json.dumps({"v": value}, ensure_ascii=False, indent=1)
    read = read_json(text)
    assert read.findings == ()
    for path, (start, end) in read.spans.items():
        node: Any = read.value
        for part in path:
            node = node[part]
        assert json.loads(text[start:end]) == node
