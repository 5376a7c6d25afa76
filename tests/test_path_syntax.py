"""One path syntax (docs/protocol.md §2): a list index ``[n]`` 1-based, an
identifier-like key ``.name``, any other key as a JSON string in brackets, in every
renderer (``segment()``, the tool's strict reading, answers, answer actions)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import (
    AnswersError,
    build_response,
    build_response_json,
    format_path,
    questionnaire_async,
    questionnaire_async_json,
    questionnaire_from_tool_result,
    segment,
)
from replykit.actions.diagnostic import action_path, key_path
from replykit.diagnostics import join_key

FENCED = (
    "Intro\n\n```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: Q\n"
    '    default: ""\n    "a.b": 1\n    "c[2]": 1\n    "": 1\n    "a\\nb": 1\n'
    '    "x y": 1\n    "é": 1\n    plain_1: 1\n```\n'
)


def test_fenced_unknown_keys_are_unambiguous() -> None:
    paths = [d.path for d in segment(FENCED).diagnostics]
    assert paths == [
        'questions[1]["a.b"]',
        'questions[1]["c[2]"]',
        'questions[1][""]',
        'questions[1]["a\\nb"]',
        'questions[1]["x y"]',
        'questions[1]["é"]',
        "questions[1].plain_1",
    ]


def test_answers_and_strict_json_use_the_same_syntax() -> None:
    opened = questionnaire_from_tool_result(
        questionnaire_async(title="T", questions=[{"type": "free_text", "text": "Q"}]), "c"
    )
    form = opened.questionnaire
    assert form is not None
    with pytest.raises(AnswersError) as unknown:
        build_response(form, {"a.b": "x"}, questionnaire_id="c")
    assert [f.details["path"] for f in unknown.value.findings] == ['["a.b"]']
    with pytest.raises(AnswersError) as dup:
        build_response_json(form, '{"q-1": {"": 1, "": 2}}', questionnaire_id="c")
    assert [f.details["path"] for f in dup.value.findings] == ['["q-1"][""]']
    arguments = '{"title": "T", "questions": [{"type": "text", "text": "Q"}], "x.y": 1, "x.y": 2}'
    result = questionnaire_async_json(arguments, locale="en")
    assert [e["path"] for e in result["errors"]] == ['["x.y"]']


@given(st.lists(st.one_of(st.integers(0, 5), st.text(max_size=4)), min_size=1, max_size=4))
def test_every_renderer_writes_a_path_one_way(path: list[int | str]) -> None:
    shown = format_path(tuple(path))
    assert shown == action_path(path)
    text = ""
    for part in path:
        text = f"{text}[{part + 1}]" if isinstance(part, int) else key_path(text, part)
    assert shown == text
    # Read back: the parts come out again, so no two paths look alike.
    assert _parse(shown or "") == path


def _parse(text: str) -> list[int | str]:
    """The parts of a path written by the rule of §2."""
    parts: list[int | str] = []
    decoder = json.JSONDecoder()
    i = 0
    while i < len(text):
        if text.startswith('["', i):
            key, end = decoder.raw_decode(text, i + 1)
            parts.append(key)
            i = end + 1
        elif text[i] == "[":
            end = text.index("]", i)
            parts.append(int(text[i + 1 : end]) - 1)
            i = end + 1
        else:
            start = i + (text[i] == ".")
            end = start
            while end < len(text) and text[end] not in ".[":
                end += 1
            parts.append(text[start:end])
            i = end
    return parts


def test_join_key_examples() -> None:
    assert join_key("", "title") == "title"
    assert join_key("questions[1]", "a.b") == 'questions[1]["a.b"]'
    assert join_key("", "") == '[""]'
    assert join_key("x", "\ud800") == 'x["\\ud800"]'
    assert join_key("x", "$ok_1") == "x.$ok_1"
    assert join_key("x", "1st") == 'x["1st"]'
