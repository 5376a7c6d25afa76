"""A parsed response keeps every protocol field as the caller sent it (§5, §7): a
``status`` that is not the string ``submitted`` is a warning and stays what it was, of
whatever JSON type; nothing is replaced by a made-up value."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import segment
from replykit.frozen import thaw

HEAD = '{"type":"questionnaire_response","questionnaire_id":"m_q1"'
ANSWER = '{"question_id":"q1","type":"free_text","answer":"x","question":"Q"}'
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2)
    ),
    max_leaves=4,
)


def _read(status: str | None) -> Any:
    field = "" if status is None else f',"status":{status}'
    text = f'<questionnaire-response>{HEAD}{field},"answers":[{ANSWER}]}}</questionnaire-response>'
    seg = segment(text).segments[0]
    return seg


@pytest.mark.parametrize(
    ("status", "kept", "found"),
    [
        ("1", 1, "found 1"),
        ("true", True, "found true"),
        ("null", None, "found null"),
        ("[1]", [1], "found [1]"),
        ('"draft"', "draft", 'found "draft"'),
        (None, None, "it is missing"),
    ],
)
def test_a_status_other_than_submitted_is_kept_as_sent(
    status: str | None, kept: Any, found: str
) -> None:
    seg = _read(status)
    assert seg.valid is True
    # Kept as sent (1 stays 1, not True), stored frozen: a list is a FrozenList.
    assert seg.response.status == kept and type(thaw(seg.response.status)) is type(kept)
    shown = seg.response.to_json()["status"]
    assert shown == kept and type(shown) is type(kept)
    assert [(d.code, d.severity, d.path, d.message) for d in seg.diagnostics] == [
        (
            "response.status_unknown",
            "warning",
            "status",
            f"status is expected to be 'submitted'; {found}",
        )
    ]


@given(JSON)
def test_every_status_value_survives_the_round_trip(status: Any) -> None:
    seg = _read(json.dumps(status))
    assert seg.valid is True
    assert seg.response.to_json()["status"] == status
    answer = seg.response.answers[0]
    assert answer.to_json() == json.loads(ANSWER)


def test_the_html_card_shows_a_status_as_sent() -> None:
    from replykit.markdown_it.render import render_html

    text = (
        f'<questionnaire-response>{HEAD},"status":[1,"<"],"answers":[]}}</questionnaire-response>'
    )
    assert 'data-status="[1,&quot;&lt;&quot;]"' in render_html(text)
    text = (
        f'<questionnaire-response>{HEAD},"status":"draft","answers":[]}}</questionnaire-response>'
    )
    assert 'data-status="draft"' in render_html(text)
