"""Public constructors refuse what the readers refuse, with one-line messages naming the
field (docs/actions.md sections 2, 11 and 12)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from replykit.actions import (
    ActionContext,
    ActionSet,
    AnswerAction,
    AnswerState,
    ChartComponent,
    ContextError,
    Params,
    Target,
    dispatch,
    format_timestamp,
    lint,
    parse_context,
    sanitize,
)


def act(action_id: str = "a") -> AnswerAction:
    return AnswerAction(id=action_id, type="view.detail", label="L")


BAD_IDS = [
    ("", "must be a non-blank string of at most 120 characters"),
    ("   ", "must be a non-blank string of at most 120 characters"),
    ("\u200b", "must be a non-blank string of at most 120 characters"),
    ("x" * 121, "must be a non-blank string of at most 120 characters"),
    ("c\u202e", "holds U+202E at character 2, which a componentId refuses"),
    ("c\x07", "holds U+0007 at character 2, which a componentId refuses"),
    ("c\ud800", "holds U+D800 at character 2, which a componentId refuses"),
    ("constructor", "must not be a name JavaScript objects inherit"),
]


@pytest.mark.parametrize(("component_id", "problem"), BAD_IDS)
def test_chart_ids_are_refused_alike_by_constructor_and_context(
    component_id: str, problem: str
) -> None:
    with pytest.raises(ValueError) as info:
        ChartComponent(component_id, "temporal")
    assert str(info.value) == f"componentId {problem}"
    assert len(info.value.args) == 1
    with pytest.raises(ContextError) as ctx:
        parse_context({"charts": [{"componentId": component_id, "dataShape": "temporal"}]})
    assert str(ctx.value) == f"context.charts[1].componentId: {problem}"


def test_a_chart_id_of_120_characters_is_registered_and_targetable() -> None:
    chart = ChartComponent("x" * 120, "temporal")
    kept = sanitize({"actions": [{"id": "a", "type": "render.change", "label": "L",
                                  "target": {"componentId": "x" * 120},
                                  "params": {"chartType": "line"}}]})  # fmt: skip
    assert kept.actions[0].componentId == chart.componentId


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: ActionContext(locale="fr"), "locale must be one of 'zh', 'en', not 'fr'"),  # type: ignore[arg-type]
        (lambda: ChartComponent("c", "pie"),  # type: ignore[arg-type]
         "dataShape must be one of 'categorical', 'ordinal', 'temporal', 'numeric_xy', not 'pie'"),
        (lambda: ActionContext(question="q\udc00"),
         "question must not hold a surrogate code point (JSON cannot carry one)"),
        (lambda: ActionContext(charts=(ChartComponent("c", "temporal"),
                                       ChartComponent("c", "ordinal"))),
         "charts: componentIds must be unique"),
        (lambda: ActionSet(actions=tuple(act(str(i)) for i in range(9))),
         "actions holds 9 actions; at most 8"),
        (lambda: ActionSet(actions=(act(), act())), "actions: id 'a' is used by an earlier action"),
        (lambda: ActionSet(actions=(act(),), added=(act(),)),
         "added: id 'a' is used by an earlier action"),
        (lambda: act("a\ud800"),
         "id must not hold control, bidi formatting or surrogate characters"),
        (lambda: AnswerAction(id="a", type="view.detail", label="L\udfff"),
         "label must not hold control, bidi formatting or surrogate characters"),
        (lambda: Target(componentId="c\ud800"), "componentId must not hold a surrogate code point"),
        (lambda: Params(prompt="p\ud800"), "prompt must not hold a surrogate code point"),
    ],
)  # fmt: skip
def test_constructors_refuse_with_one_line_naming_the_field(
    build: Callable[[], Any], message: str
) -> None:
    with pytest.raises(ValueError) as info:
        build()
    assert info.value.args == (message,)


def test_context_file_refuses_a_surrogate_question_with_its_path() -> None:
    with pytest.raises(ContextError) as info:
        parse_context({"question": "q\ud800"})
    assert str(info.value) == "context.question: must not hold a surrogate code point"


def test_sanitize_drops_or_removes_surrogates_instead_of_raising() -> None:
    result = sanitize({"actions": [
        {"id": "a\ud800", "type": "view.detail", "label": "L"},
        {"id": "b", "type": "view.detail", "label": "L", "title": "t\udc00",
         "target": {"dataset": "\ud800"}},
        {"id": "c", "type": "render.change", "label": "L", "target": {"componentId": "\ud800"},
         "params": {"chartType": "line"}},
    ]})  # fmt: skip
    assert [a.to_json() for a in result.actions] == [
        {"id": "b", "type": "view.detail", "label": "L"}
    ]
    assert [(d.code, d.path, d.message) for d in result.diagnostics] == [
        ("action.text_unsafe", "actions[1].id", "id holds U+D800 at character 2, a surrogate "
         "code point that no UTF-8 or JSON text can carry; the action is dropped."),
        ("action.text_unsafe", "actions[2].title", "title holds U+DC00 at character 2, a "
         "surrogate code point that no UTF-8 or JSON text can carry; the field is removed."),
        ("action.text_unsafe", "actions[2].target.dataset", "target.dataset holds U+D800 at "
         "character 1, a surrogate code point that no UTF-8 or JSON text can carry; the field "
         "is removed."),
        ("action.text_unsafe", "actions[3].target.componentId", "target.componentId holds "
         "U+D800 at character 1, a surrogate code point that no UTF-8 or JSON text can carry; "
         "the action is dropped."),
    ]  # fmt: skip
    assert [(w.code, w.path) for w in lint({"datasets": {}, "actions": [
        {"id": "a\ud800", "type": "view.detail", "label": "L"}]})] == [
        ("lint.text_unsafe", "actions[1].id")
    ]  # fmt: skip


@pytest.mark.parametrize(
    "now",
    [
        datetime(9999, 12, 31, 23, tzinfo=timezone(timedelta(hours=-5))),
        datetime(1, 1, 1, 0, 0, tzinfo=timezone(timedelta(hours=5))),
    ],
)
def test_a_now_outside_utc_is_a_documented_value_error(now: datetime) -> None:
    with pytest.raises(ValueError) as info:
        format_timestamp(now)
    assert info.value.args == ("now cannot be expressed in UTC",)
    with pytest.raises(ValueError) as info:
        dispatch(AnswerState(), act(), "click", ActionContext(), now)
    assert info.value.args == ("now cannot be expressed in UTC",)
    docs = (Path(__file__).parents[2] / "docs" / "actions.md").read_text(encoding="utf-8")
    assert "now cannot be expressed in UTC" in docs
