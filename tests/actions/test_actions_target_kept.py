"""A removal never retargets: a render.change whose target names no chart is dropped
(docs/actions.md section 2, rule 11), so it can never change another chart."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit.actions import AnswerState, dispatch, parse_context, sanitize

NOW = datetime(2026, 8, 27, 7, tzinfo=UTC)
CONTEXT = parse_context({"charts": [{"componentId": "sales-chart", "dataShape": "temporal"}]})


def change(target: Any) -> dict[str, Any]:
    return {"id": "a", "type": "render.change", "label": "L", "target": target,
            "params": {"chartType": "line"}}  # fmt: skip


@pytest.mark.parametrize(
    "component_id", ["x" * 121, "", "   ", "\u200b", 5, None, {}, {"a": 1}, []]
)
def test_bad_component_id_drops_the_action(component_id: Any) -> None:
    result = sanitize({"actions": [change({"componentId": component_id})]})
    assert result.actions == ()
    assert [(d.code, d.path) for d in result.diagnostics] == [
        ("action.target_invalid", "actions[1].target.componentId")
    ]
    assert result.diagnostics[0].message == (
        "render.change names its chart in target.componentId, a non-blank string of at most "
        "120 characters; without it the action would change another chart; the action is "
        "dropped."
    )


@pytest.mark.parametrize(
    "target", ["sales-chart", 5, ["sales-chart"], True, {"chartId": "sales-chart"},
               {"dataset": "d", "componentID": "sales-chart"}],
)  # fmt: skip
def test_target_naming_no_chart_drops_the_action(target: Any) -> None:
    result = sanitize({"actions": [change(target)]})
    assert result.actions == ()
    assert [(d.code, d.path) for d in result.diagnostics] == [
        ("action.target_invalid", "actions[1].target")
    ]


@pytest.mark.parametrize(
    ("target", "code"), [(None, "action.field_removed"), ({}, "action.field_removed")]
)
def test_null_or_empty_target_is_only_removed(target: Any, code: str) -> None:
    result = sanitize({"actions": [change(target)]})
    assert [a.to_json() for a in result.actions] == [
        {"id": "a", "type": "render.change", "label": "L", "params": {"chartType": "line"}}
    ]
    assert [(d.code, d.path) for d in result.diagnostics] == [(code, "actions[1].target")]


def test_dataset_only_target_and_extra_keys_beside_a_good_id_are_kept() -> None:
    result = sanitize(
        {"actions": [change({"dataset": "d"}), dict(change({"componentId": "c", "x": 1}), id="b")]}
    )
    assert [a.target.to_json() for a in result.actions if a.target] == [
        {"dataset": "d"},
        {"componentId": "c"},
    ]
    assert [(d.code, d.path) for d in result.diagnostics] == [
        ("action.field_removed", "actions[2].target.x")
    ]


def test_dropped_action_claims_nothing_and_the_next_is_kept() -> None:
    result = sanitize({"actions": [change({"componentId": ""}), change({"componentId": "c"})]})
    assert [a.componentId for a in result.actions] == ["c"]


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        st.none(), st.integers(), st.text(max_size=3),
        st.dictionaries(st.sampled_from(["componentId", "dataset", "x"]),
                        st.one_of(st.none(), st.integers(), st.text(max_size=130)), max_size=3),
    )
)  # fmt: skip
def test_kept_render_change_targets_what_it_named(target: Any) -> None:
    """Whatever the target, a kept render.change either names the chart it was given or
    was given none; a click never changes a chart it did not name."""
    result = sanitize({"actions": [change(target)]})
    for action in result.actions:
        named = target.get("componentId") if isinstance(target, dict) else None
        assert action.componentId == named
        if named is None:
            assert target is None or (isinstance(target, dict) and set(target) <= {"dataset"})
        state, effect = dispatch(AnswerState(), action, "click", CONTEXT, NOW)
        if named not in (None, "sales-chart"):
            assert state.to_json()["chartPresentation"] == {}
            assert effect.to_json()["kind"] == "none"


@pytest.mark.parametrize("key", ["payload", "answerData"])
def test_actions_beside_a_wrapper_key_are_reported_not_lost_silently(key: str) -> None:
    answer = {"schemaVersion": "1.0", "datasets": {}, key: {"rows": []},
              "actions": [{"id": "a", "type": "view.detail", "label": "L"}]}  # fmt: skip
    result = sanitize(answer)
    assert (result.actions, result.source) == ((), None)
    assert [(d.code, d.path, d.message) for d in result.diagnostics] == [
        ("actions.misplaced", None,
         "this answer is read as the wrapper {answerData, payload} because it has the key "
         f"{key}, so the actions beside it are never read; no action from them is shown (put "
         f"them in answerData, or rename a business field named {key})"),
    ]  # fmt: skip


def test_a_wrapper_without_top_level_actions_reports_nothing_new() -> None:
    kept = sanitize({"answerData": {"actions": [{"id": "a", "type": "view.detail", "label": "L"}]}})
    assert [d.code for d in kept.diagnostics] == []
    both = sanitize({"answerData": {"actions": []}, "actions": []})
    assert [d.code for d in both.diagnostics] == ["actions.misplaced"]
