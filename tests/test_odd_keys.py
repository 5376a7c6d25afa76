"""Mapping keys that are not strings (possible from Python, never from JSON) in every
entry point that takes Python values: an ``int`` past 4300 digits (``str()`` refuses
it), an object whose ``__str__`` and ``__repr__`` raise, a tuple holding such an int.
Each is reported (a diagnostic, or the entry point's documented error) with a short
path or message, never raised as Python's own error (§1: the documented errors only,
bounded output)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from replykit import call_questionnaire_async, questionnaire_async
from replykit.actions import AnswerState, ContextError, StateError, lint, parse_context, sanitize
from replykit.actions.diagnostic import key_path
from replykit.jsonout import KEY_TEXT_MAX, key_text, shown_repr

BIG = 10**5000


class _Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no text")

    def __repr__(self) -> str:
        raise RuntimeError("no text")


ODD_KEYS = [BIG, _Unprintable(), (BIG,), -(10**6000)]
ACTION = {"id": "a", "type": "view.detail", "label": "L"}


def test_key_text_and_shown_repr_never_raise_and_stay_short() -> None:
    assert key_text(BIG) == "1e+5000"
    assert key_text(-(10**6000) - 5) == "-1e+6000"
    assert key_text(_Unprintable()) == "<_Unprintable>"
    assert key_text((1, 2)) == "(1, 2)"  # what str() gives, when it can
    assert key_text("k") == "k"
    assert shown_repr("k") == "'k'"
    assert shown_repr(BIG) == "1e+5000"
    long = key_text(tuple(range(10_000)))
    assert len(long) == KEY_TEXT_MAX and long.endswith("...")
    assert len(shown_repr("x" * 10**6)) == KEY_TEXT_MAX


@pytest.mark.parametrize("key", ODD_KEYS, ids=["big-int", "unprintable", "tuple", "negative"])
@pytest.mark.parametrize(
    "where",
    [
        lambda k: {"actions": [{**ACTION, k: 1}]},
        lambda k: {"actions": [{**ACTION, "params": {k: 1}}]},
        lambda k: {"actions": [{**ACTION, "target": {k: 1}}]},
    ],
    ids=["action", "params", "target"],
)
def test_sanitize_and_lint_remove_an_odd_key_with_a_short_path(
    key: object, where: Callable[[object], Any]
) -> None:
    result = sanitize(where(key))
    paths = [d.path or "" for d in result.diagnostics]
    assert paths and all(len(p) < 2 * KEY_TEXT_MAX for p in paths)
    assert any(key_text(key) in p for p in paths)
    assert all(len(d.path or "") < 2 * KEY_TEXT_MAX for d in lint(where(key)))


@pytest.mark.parametrize("key", ODD_KEYS, ids=["big-int", "unprintable", "tuple", "negative"])
def test_odd_keys_are_read_as_the_same_string_keys_would_be(key: object) -> None:
    # The tool refuses a key JSON cannot carry (json.key_not_string, at the mapping
    # holding it, its key shown short: docs/protocol-responses.md section 2); keys the
    # actions' container does not know are ignored (§12), whatever their type.
    def question(k: object) -> dict[object, object]:
        return {"type": "free_text", "text": "Q", k: 1}

    result = questionnaire_async(title="T", questions=[question(key)], locale="en")
    (error,) = result["errors"]
    assert (error["code"], error["path"]) == ("json.key_not_string", "questions[1]")
    assert error["details"]["key"] == key_text(key) and len(error["message"]) < 2 * KEY_TEXT_MAX
    args: dict[object, object] = {"title": "T", "questions": [question("x")]}
    (top,) = call_questionnaire_async({**args, key: 1}, locale="en")["errors"]
    assert (top["code"], top["path"]) == ("json.key_not_string", None)
    assert top["message"].startswith(f"the arguments have the key {key_text(key)}, which is")
    assert sanitize({"actions": [ACTION], key: 1}) == sanitize({"actions": [ACTION], "x": 1})


@pytest.mark.parametrize("key", ODD_KEYS, ids=["big-int", "unprintable", "tuple", "negative"])
def test_context_and_state_refuse_an_odd_key_with_their_own_errors(key: object) -> None:
    with pytest.raises(ContextError) as context:
        parse_context({key: 1})
    assert str(context.value).startswith(f'context["{key_text(key)}"]: unknown key')
    with pytest.raises(StateError) as state:
        AnswerState.from_json({key: 1})
    assert str(state.value) == f'state["{key_text(key)}"]: unknown key'
    with pytest.raises(StateError) as record:
        AnswerState.from_json({"actionStates": {key: {}}})
    expected = key_path("state.actionStates", key)
    assert str(record.value) == f"{expected}: keys must be strings"
    with pytest.raises(StateError) as chart:
        AnswerState.from_json({"chartPresentation": {key: "bar"}})
    # "bar" is a chart type: the key is the problem (docs/actions.md section 7).
    assert str(chart.value) == f"{key_path('state.chartPresentation', key)}: keys must be strings"
