"""The tool and XML+JSON normalizer never replace a value the caller sent (§5, §7): only
a blank or missing ``text`` falls back to ``title``; a ``text`` of another type is
``question_text_required`` naming that type, on both readings of XML+JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import call_questionnaire_async, segment

CODE = "questionnaire.start.question_text_required"
NOT_TEXT = [(5, "number", "a number"), (1.5, "number", "a number"), (True, "boolean", "a boolean")]
NOT_TEXT += [(["Q"], "array", "an array"), ({"t": "Q"}, "object", "an object")]


@pytest.mark.parametrize(("text", "kind", "named"), NOT_TEXT)
@pytest.mark.parametrize("title", [None, "T"])
def test_a_text_that_is_not_a_string_is_an_error_even_beside_a_title(
    text: Any, kind: str, named: str, title: str | None
) -> None:
    question = {"type": "single_choice", "text": text, "options": ["a"]}
    if title is not None:
        question["title"] = title
    result = call_questionnaire_async({"questions": [question]}, locale="en")
    assert result["success"] is False
    assert result["errors"] == [
        {
            "code": CODE,
            "path": "questions[1].text",
            "message": f"questions[1].text must be a non-blank string, not {named}; only a "
            "blank or missing text falls back to title.",
            "details": {
                "path": "questions[1].text",
                "expected": "non-blank string",
                "actual": kind,
            },
        }
    ]
    zh = call_questionnaire_async({"questions": [question]})["errors"][0]["message"]
    assert zh.startswith("questions[1].text 必须是非空字符串，当前为")


@pytest.mark.parametrize("text", [None, "", " \u3000"])
def test_a_blank_or_missing_text_still_falls_back_to_the_title(text: str | None) -> None:
    question = {"type": "free_text", "text": text, "title": " T "}
    result = call_questionnaire_async({"questions": [question]})
    assert result["success"] is True
    assert result["questions"][0]["text"] == "T"


def _xml(payload: dict[str, Any]) -> list[tuple[str, str | None]]:
    text = "Intro <questionnaire>" + json.dumps(payload) + "</questionnaire>"
    return [(d.code, d.path) for d in segment(text).diagnostics]


@given(st.sampled_from(NOT_TEXT), st.booleans(), st.integers(0, 2))
def test_xml_json_requests_report_the_same(case: Any, titled: bool, before: int) -> None:
    # Valid questions before it, so the fast reading gets far before it gives up.
    questions: list[dict[str, Any]] = [{"type": "text", "text": "Q"}] * before
    bad: dict[str, Any] = {"type": "text", "text": case[0]}
    if titled:
        bad["title"] = "T"
    assert _xml({"questions": [*questions, bad]}) == [(CODE, f"questions[{before + 1}].text")]
