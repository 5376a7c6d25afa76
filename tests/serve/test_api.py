"""The playground's endpoints as functions: the same answers as the library (§2-§8,
§12), and a clear refusal for a request without the documented shape."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from replykit import OTHER_VALUE, build_response, segment, self_check
from replykit.jsonout import dumps
from replykit.markdown_it.bound import output_limit
from replykit.serve import api
from replykit.serve.assets import PAGES, load_assets, load_examples

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {e["name"]: e for e in load_examples()}
MIXED = EXAMPLES["mixed"]["text"]
NOW = datetime(2026, 8, 27, 7, 0, tzinfo=UTC)


def test_analyze_reports_what_segment_and_self_check_report() -> None:
    for example in EXAMPLES.values():
        out = api.analyze({"text": example["text"], "locale": "zh"})
        result = segment(example["text"], message_id="message")
        assert [(s["kind"], s["start"], s["end"]) for s in out["segments"]] == [
            (s.kind, s.start, s.end) for s in result.segments
        ]
        assert out["diagnostics"] == [d.to_json() for d in result.diagnostics]
        checked = self_check({"role": "assistant", "content": example["text"]}, locale="zh")
        assert out["self_check"]["passed"] is checked.passed
        assert out["self_check"]["repair_prompt"] == checked.repair_prompt
        assert out["decoded"] is None


def test_analyze_follows_the_profile_and_compat_switches() -> None:
    text = "```acme-questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: A?\n```\n"
    client = api.analyze({"text": text})["segments"][0]
    product = api.analyze({"text": text, "profile": "product:acme"})["segments"][0]
    assert (client["registered"], product["registered"]) == (False, True)
    stored = json.dumps("<questionnaire>{}</questionnaire>")
    assert api.analyze({"text": stored, "compat": "sage"})["decoded"] is not None
    assert api.analyze({"text": stored})["decoded"] is None


def test_rendered_forms_carry_the_block_and_question_ids() -> None:
    html = api.analyze({"text": MIXED})["html"]
    assert html.count('<form class="replykit-form"') == 2
    assert 'data-replykit-block="message_q1"' in html
    assert 'data-question-id="q2" data-question-type="multi_choice"' in html
    assert f'name="message_q1:q2" value="{OTHER_VALUE}"' in html


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ({}, "text"),
        ({"text": 1}, "text"),
        ({"text": "", "profile": "nobody"}, "profile"),
        ({"text": "", "compat": "other"}, "compat"),
        ({"text": "", "locale": "fr"}, "locale"),
        ({"text": "", "message_id": "m" * 129}, "message_id"),
    ],
)
def test_a_bad_field_is_named(request_: dict[str, Any], field: str) -> None:
    with pytest.raises(api.RequestError, match=f"^{field}:"):
        api.analyze(request_)


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({}, "text: is required (a string)"),
        ({"text": None}, "text: must be a string, not null"),
        ({"text": "x", "message_id": None}, "message_id: must be a string, not null"),
    ],
)
def test_a_missing_field_is_called_missing_and_a_null_null(
    request_: dict[str, Any], message: str
) -> None:
    with pytest.raises(api.RequestError) as refused:
        api.analyze(request_)
    assert str(refused.value) == message
    with pytest.raises(api.RequestError) as refused:
        api.respond({"text": MIXED, "block_id": "message_q1"})
    assert str(refused.value) == "answers: is required (an object)"


def test_respond_gives_exactly_build_responses_result() -> None:
    form = segment(MIXED, message_id="message").segments[1]
    assert form.questionnaire is not None and form.id is not None
    answers = {"q1": "Resume it", "q2": {"value": [OTHER_VALUE], "other_text": "canary"}}
    out = api.respond({"text": MIXED, "block_id": form.id, "answers": answers, "locale": "zh"})
    built = build_response(form.questionnaire, answers, questionnaire_id=form.id, locale="zh")
    assert out == built.to_json()


def test_respond_lists_answers_that_do_not_fit_and_refuses_a_missing_form() -> None:
    out = api.respond({"text": MIXED, "block_id": "message_q1", "answers": {"q1": "nope"}})
    assert [d["code"] for d in out["diagnostics"]] == ["answer.value_not_in_options"]
    assert out["diagnostics"][0]["path"] == "q1"
    with pytest.raises(api.RequestError, match=r"^block_id:"):
        api.respond({"text": MIXED, "block_id": "message_q9", "answers": {}})
    with pytest.raises(api.RequestError, match=r"^answers:"):
        api.respond({"text": MIXED, "block_id": "message_q1", "answers": []})


def _actions(**extra: Any) -> dict[str, Any]:
    example = EXAMPLES["actions"]
    request = {"answer": example["answer"], "context": json.loads(example["context"]), **extra}
    return api.actions(request, clock=lambda: NOW)


def test_actions_walk_confirmation_and_state() -> None:
    first = _actions()
    assert [b["action"]["id"] for b in first["buttons"]] == [
        "detail",
        "chart-line",
        "continue",
        "create-order",
        "cancel-task",
        "auto.conversation.modify",
    ]
    assert [b["confirm"] for b in first["buttons"]][3:5] == [True, True]
    assert first["effect"] is None and first["source"] == "answerData"
    click = _actions(event={"action_id": "create-order", "kind": "click"})
    assert click["effect"]["kind"] == "show_confirmation"
    assert click["state"]["actionStates"]["create-order"] == {
        "status": "confirming",
        "message": "Waiting for confirmation",
        "updatedAt": "2026-08-27T07:00:00.000Z",
    }
    confirm = _actions(state=click["state"], event={"action_id": "create-order", "kind": "confirm"})
    assert confirm["effect"] == {
        "kind": "chat_send",
        "actionId": "create-order",
        "prompt": "Create a work order for HXN5-001",
    }


@pytest.mark.parametrize(
    "extra",
    [
        {"context": {"unknown": 1}},
        {"state": {"actionStates": {"x": {"status": "flying"}}}},
        {"event": {"action_id": "create-order", "kind": "explode"}},
        {"event": {"action_id": "nowhere", "kind": "click"}},
        {"event": "click"},
    ],
)
def test_actions_refuse_a_bad_context_state_or_event(extra: dict[str, Any]) -> None:
    with pytest.raises(api.RequestError):
        _actions(**extra)


def test_a_broken_answer_is_diagnostics_not_an_error() -> None:
    out = api.actions({"answer": '{"actions": [1, 2'})
    assert out["buttons"] == [] and out["diagnostics"][0]["code"] == "json.syntax"


def test_every_page_file_and_example_is_package_data() -> None:
    assets = load_assets()
    assert set(assets.pages) == set(PAGES)
    assert all(body for body, _ in assets.pages.values())
    index = json.loads((ROOT / "src/replykit/serve/examples/index.json").read_text("utf-8"))
    assert [e["name"] for e in index] == list(EXAMPLES)
    # The examples the README uses are the ones the playground ships, byte for byte.
    for name in ("task_paused", "mixed"):
        assert EXAMPLES[name]["text"] == (ROOT / "examples" / f"{name}.md").read_text("utf-8")


def test_the_page_knows_replykits_other_value() -> None:
    script = (ROOT / "src/replykit/serve/static/app.js").read_text("utf-8")
    assert f'const OTHER_VALUE = "{OTHER_VALUE}";' in script


@pytest.mark.parametrize(
    "text",
    ["\u3000~~~Questionnaire x\n" * 3000, "<questionnaire>{}</questionnaire>" * 3000],
    ids=["near-miss-lines", "candidates-on-one-line"],
)
def test_the_analyze_answer_keeps_its_bound_on_dense_diagnostics(text: str) -> None:
    # docs/serve.md section 3: 16 x the request's fields plus 256 KiB, the whole answer.
    answer = api.analyze({"text": text})
    limit = output_limit(text, "message", "client", "", "en")
    assert len(dumps(answer, compact=True).encode("utf-8")) <= limit


def test_diagnostics_past_the_bound_are_counted_not_lost() -> None:
    text = "\u3000~~~Questionnaire x\n" * 3000  # four near-misses a line
    answer = api.analyze({"text": text})
    full = segment(text).diagnostics
    left_out = answer["diagnostics_left_out"]
    assert left_out > 0 and len(answer["diagnostics"]) + left_out == len(full)
    assert answer["diagnostics"] == [d.to_json() for d in full[: len(answer["diagnostics"])]]
    check = answer["self_check"]
    assert check["diagnostics_left_out"] > 0 and check["passed"] is False


def test_a_small_answer_has_no_left_out_field() -> None:
    answer = api.analyze({"text": "Hi"})
    assert "diagnostics_left_out" not in answer
    assert "diagnostics_left_out" not in answer["self_check"]
