"""An answer whose ``type`` is refused gets no follow-on error that depends on its type
(docs/protocol-responses.md, §7): the shape of ``answer``, ``values``, ``value``,
``label`` and ``labels`` is judged by the type, so only what every type asks is checked
besides the type's own error."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import segment

TYPE_ERROR = ("response.answer_invalid", "answers[1].type")
SHAPES = st.sampled_from([["a"], "a", 5, None, {"a": 1}, [5], True])


def _diagnostics(answer: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    body = {"type": "questionnaire_response", "questionnaire_id": "m", "status": "submitted"}
    message = (
        "<questionnaire-response>"
        + json.dumps({**body, "answers": [answer]})
        + "</questionnaire-response>"
    )
    return [(d.code, d.path, d.message) for s in segment(message).segments for d in s.diagnostics]


def test_the_reported_case() -> None:
    answer = {"question_id": "q1", "type": "multiple_choice", "answer": ["a"]}
    assert _diagnostics(answer) == [
        (
            *TYPE_ERROR,
            "answers[1].type must be single_choice, multi_choice or free_text; "
            'found "multiple_choice"',
        )
    ]


def test_what_every_type_asks_is_still_checked() -> None:
    answer = {"question_id": 5, "type": "bogus", "question": 3, "other_text": 4}
    assert [(code, path) for code, path, _ in _diagnostics(answer)] == [
        ("response.answer_invalid", "answers[1].question_id"),
        TYPE_ERROR,
        ("response.answer_invalid", "answers[1].question"),
        ("response.answer_invalid", "answers[1].answer"),
        ("response.answer_invalid", "answers[1].other_text"),
    ]
    assert _diagnostics(answer)[3][2] == (
        "answers[1].answer must be a string or a list of strings; it is missing"
    )


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(["multiple_choice", "text", "", 5, None, ["single_choice"]]),
    st.fixed_dictionaries(
        {},
        optional={
            "answer": SHAPES,
            "values": SHAPES,
            "value": SHAPES,
            "label": SHAPES,
            "labels": SHAPES,
        },
    ),
)
def test_a_refused_type_has_no_follow_on(atype: Any, fields: dict[str, Any]) -> None:
    answer = {"question_id": "q1", "type": atype, **fields}
    expected = [TYPE_ERROR] + (
        [] if "answer" in fields else [("response.answer_invalid", "answers[1].answer")]
    )
    assert [(code, path) for code, path, _ in _diagnostics(answer)] == expected
