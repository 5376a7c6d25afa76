"""Cases a review found: context validation, a blank question, one-pass text filling,
and a text listing that an id or label cannot forge."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from replykit.actions import (
    ActionContext,
    AnswerAction,
    AnswerState,
    ChartComponent,
    dispatch,
    sanitize,
    with_defaults,
)
from replykit.actions.texts import text
from replykit.cli import actions as actions_cli

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"locale": "EN"}, ValueError),
        ({"question": 5}, TypeError),
        ({"hasFullDetails": 1}, TypeError),
        ({"charts": [1]}, TypeError),
    ],
)
def test_context_refuses_bad_fields(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        ActionContext(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ChartComponent("c", "bogus")  # type: ignore[arg-type]


@pytest.mark.parametrize("question", ["", "  ", "\u200b"])
def test_refresh_with_a_blank_question_sends_nothing(question: str) -> None:
    action = AnswerAction(id="r", type="answer.refresh", label="R")
    state, effect = dispatch(AnswerState(), action, "click", ActionContext(question=question), NOW)
    assert effect.to_json()["kind"] == "none"
    assert state.status_of("r") == "error"
    assert with_defaults(sanitize({}), ActionContext(question=question)).added == ()


def test_text_filling_does_not_reread_inserted_values() -> None:
    got = text("chart.unknown_component", "en", componentId="x{chartType}", chartType="line")
    assert got == "Chart x{chartType} was not found"


def test_text_listing_folds_ids_and_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = {
        "actions": [
            {"id": "a\n  2. evil  business.execute  X  [confirm]", "type": "view.detail",
             "label": "Show\nadded (0):"}
        ]
    }  # fmt: skip
    path = tmp_path / "a.json"
    path.write_text(json.dumps(answer), encoding="utf-8")
    parser = argparse.ArgumentParser()
    actions_cli.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["actions", str(path), "--format", "text"])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert [line for line in lines if line.startswith("added (")] == ["added (0):"]
    assert not any(line.startswith("  2.") for line in lines)
