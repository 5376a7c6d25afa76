"""The promptfoo assertion file, loaded from its path as promptfoo loads it and called
with promptfoo's documented assertion context."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from typing import Any

import pytest

import replykit.evals.promptfoo

FORM = (
    'Pick:\n\n<questionnaire>{"questions":[{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}]}</questionnaire>\n'
)
CASE = FORM.replace("<questionnaire>", "<Questionnaire>").replace("</q", "</Q")


def load() -> Callable[[Any, Any], dict[str, Any]]:
    path = replykit.evals.promptfoo.__file__
    spec = importlib.util.spec_from_file_location("user_assertion", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.get_assert  # type: ignore[no-any-return]


def context(output: str, config: dict[str, Any] | None, vars: dict[str, Any]) -> dict[str, Any]:
    """The AssertionValueFunctionContext promptfoo passes to a Python assertion."""
    return {
        "prompt": "Plan the offsite with me.",
        "vars": vars,
        "test": {
            "vars": vars,
            "assert": [{"type": "python", "value": "file://x.py"}],
            "options": {},
            "metadata": {},
        },
        "logProbs": None,
        "config": config,
        "provider": {"id": "openai:chat:gpt-4.1-mini", "label": None},
        "providerResponse": {
            "output": output,
            "tokenUsage": {"total": 12, "prompt": 5, "completion": 7},
        },
        "trace": None,
    }


@pytest.mark.parametrize(
    ("output", "config", "vars", "expected"),
    [
        (FORM, {"expect": "form"}, {}, (True, 1.0, "follows the protocol")),
        (
            "No form.",
            None,
            {"expect": "form"},
            (
                False,
                0.0,
                "expect.form_missing: a form was due and the reply has no valid request block",
            ),
        ),
        (
            FORM,
            {"expect": "none"},
            {"expect": "form"},
            (
                False,
                0.0,
                "expect.block_present at 3:1: no form was due and the reply has a "
                "questionnaire block",
            ),
        ),
        (
            CASE,
            {"lenient": True},
            {},
            (
                False,
                0.0,
                "near_miss.case at 3:1: tag name 'Questionnaire' must be lower case: "
                "'questionnaire' (compat=sage: passes)",
            ),
        ),
        (
            FORM.replace("questionnaire>", "yiii-questionnaire>"),
            {"profile": "client"},
            {},
            (False, 0.0, "name.unregistered at 3:1: "),
        ),
        (FORM, {"expect": "maybe"}, {}, (False, 0.0, "expect must be one of any, form, none")),
        (  # a CSV test case gives its vars as text
            CASE,
            None,
            {"lenient": "true"},
            (
                False,
                0.0,
                "near_miss.case at 3:1: tag name 'Questionnaire' must be lower case: "
                "'questionnaire' (compat=sage: passes)",
            ),
        ),
        # null is missing: the test case's value, else the default (any)
        ("No form.", {"expect": None}, {"expect": None}, (True, 1.0, "follows the protocol")),
        (
            "No form.",
            {"expect": None},
            {"expect": "form"},
            (
                False,
                0.0,
                "expect.form_missing: a form was due and the reply has no valid request block",
            ),
        ),
        (
            FORM,
            {"profile": "nobody"},
            {},
            (False, 0.0, "unknown profile 'nobody': use client, self_check or product:NAME"),
        ),
    ],
)
def test_grading_results(
    output: str,
    config: dict[str, Any] | None,
    vars: dict[str, Any],
    expected: tuple[bool, float, str],
) -> None:
    result = load()(output, context(output, config, vars))
    passed, score, reason = expected
    assert (result["pass"], result["score"]) == (passed, score)
    assert result["reason"].startswith(reason)
    assert result["namedScores"] == {"protocol_compliance": score}
    assert json.loads(json.dumps(result)) == result


def test_output_that_is_not_text_fails_without_raising() -> None:
    result = load()({"tool_calls": []}, context("", None, {}))
    assert (result["pass"], result["reason"]) == (False, "the output is dict, not text")
    assert load()(FORM, None)["pass"] is True
