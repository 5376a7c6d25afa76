"""Options every entry point reads the same way: a hand-built ``Profile`` is checked as
``product()`` checks its name (§6); a bad ``REPLYKIT_YAML_LOADER`` fails at the start
of every call, whatever the message holds (§1.2); the JSON-text entry points take
``limits`` as their Python-value twins do (§1.5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from replykit import (
    AnswersError,
    Limits,
    Profile,
    Questionnaire,
    StreamSegmenter,
    build_response,
    build_response_json,
    product,
    questionnaire_async,
    questionnaire_async_json,
    questionnaire_from_tool_result,
    segment,
    self_check,
)
from replykit.cli import main
from replykit.markdown_it import questionnaire_plugin, render_html, render_segments
from replykit.questionnaire.payload.yaml_loader import ENV_VAR

NAMESPACE = "product namespace must match [a-z0-9]+, got "
FAMILY = "request name must match (?:[a-z0-9]+-)?questionnaire, got "


@pytest.mark.parametrize(
    ("request_name", "message"),
    [
        ("Foo", FAMILY + "'Foo'"),
        ("questionnaire-response", FAMILY + "'questionnaire-response'"),
        ("Questionnaire", FAMILY + "'Questionnaire'"),
        ("a-b-questionnaire", NAMESPACE + "'a-b'"),
        ("A-questionnaire", NAMESPACE + "'A'"),
        ("-questionnaire", NAMESPACE + "''"),
    ],
)
def test_a_hand_built_profile_refuses_names_no_block_has(request_name: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        Profile("mine", frozenset({"questionnaire", request_name}))
    assert str(info.value) == message


@pytest.mark.parametrize("namespace", ["A", "a-b", ""])
def test_product_and_profile_give_the_same_error(namespace: str) -> None:
    with pytest.raises(ValueError) as by_product:
        product(namespace)
    with pytest.raises(ValueError) as by_hand:
        Profile("mine", frozenset({f"{namespace}-questionnaire"}))
    assert str(by_product.value) == str(by_hand.value) == NAMESPACE + repr(namespace)


def test_a_hand_built_profile_of_good_names_registers_them() -> None:
    mine = Profile("mine", frozenset({"questionnaire", "x1-questionnaire"}))
    assert mine.requests == product("x1").requests
    seg = segment("<x1-questionnaire>{}</x1-questionnaire>", profile=mine).segments[0]
    assert seg.registered is True


BAD_LOADER = "REPLYKIT_YAML_LOADER must be one of auto, c, pure; got 'bogus'"


def test_a_bad_loader_fails_every_call_up_front(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, "bogus")
    calls = [
        lambda: segment(""),
        lambda: segment("no block here"),
        lambda: segment('<questionnaire>{"questions":[]}</questionnaire>'),
        StreamSegmenter,
        lambda: self_check([]),
        lambda: self_check([{"role": "assistant", "content": "no block"}]),
        lambda: render_html("text"),
        lambda: render_segments("text"),
        lambda: questionnaire_plugin(MarkdownIt()),
    ]
    for call in calls:
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value) == BAD_LOADER


def test_the_stream_fails_at_construction_not_mid_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = StreamSegmenter()  # built while the variable is good
    stream.push("Intro\n\n```questionnaire\ntitle: T\n")
    monkeypatch.setenv(ENV_VAR, "bogus")
    with pytest.raises(ValueError) as info:
        StreamSegmenter()
    assert str(info.value) == BAD_LOADER


def test_the_cli_fails_before_reading_any_input(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENV_VAR, "bogus")
    missing = tmp_path / "absent.md"  # never read: the variable is checked first
    for command in ("segment", "stream"):
        assert main([command, str(missing)]) == 2
        assert capsys.readouterr().err == f"replykit {command}: error: {BAD_LOADER}\n"


QUESTIONS = [{"type": "free_text", "text": f"Q{i}"} for i in range(5)]


def test_questionnaire_async_json_takes_limits() -> None:
    limits = Limits(max_questions=3)
    text = json.dumps({"title": "T", "questions": QUESTIONS})
    by_value = questionnaire_async(title="T", questions=QUESTIONS, limits=limits)
    by_text = questionnaire_async_json(text, limits=limits)
    assert by_text == by_value
    assert [e["code"] for e in by_text["errors"]] == ["limit.questions"]
    assert by_text["errors"][0]["details"] == {"path": "questions", "limit": 3, "actual": 5}


def test_questionnaire_async_json_caps_the_reading_findings() -> None:
    text = "{" + ",".join('"a":1' for _ in range(10)) + "}"
    errors = questionnaire_async_json(text, limits=Limits(max_diagnostics=3), locale="en")["errors"]
    assert [e["code"] for e in errors] == ["json.duplicate_key"] * 2 + ["limit.diagnostics"]
    # The reading goes on past the repeated keys: the missing questions are reported too.
    assert errors[2]["details"]["left_out"] == [
        {"code": "json.duplicate_key", "severity": "error", "count": 7},
        {"code": "questionnaire.start.questions_must_be_list", "severity": "error", "count": 1},
    ]
    deep = '{"title":' + "[" * 5 + "]" * 5 + "}"
    shallow = questionnaire_async_json(deep, limits=Limits(max_depth=4), locale="en")
    assert [e["code"] for e in shallow["errors"]] == ["json.too_deep"]


def _form() -> Questionnaire:
    opened = questionnaire_from_tool_result(questionnaire_async(questions=QUESTIONS), "c1")
    assert opened.questionnaire is not None
    return opened.questionnaire


def test_build_response_json_takes_limits() -> None:
    form = _form()
    limits = Limits(max_diagnostics=3)
    answers = {f"x{i}": "a" for i in range(6)}  # six unknown questions
    with pytest.raises(AnswersError) as by_value:
        build_response(form, answers, questionnaire_id="c1", limits=limits)
    with pytest.raises(AnswersError) as by_text:
        build_response_json(form, json.dumps(answers), questionnaire_id="c1", limits=limits)
    assert by_text.value.findings == by_value.value.findings
    assert len(by_text.value.findings) == 3
    assert by_text.value.findings[-1].code == "limit.diagnostics"
    text = "{" + ",".join('"q1":"a"' for _ in range(10)) + "}"
    with pytest.raises(AnswersError) as dup:
        build_response_json(form, text, questionnaire_id="c1", limits=limits)
    assert [f.code for f in dup.value.findings] == ["json.duplicate_key"] * 2 + [
        "limit.diagnostics"
    ]
    assert dup.value.findings[2].details["left_out"] == [
        {"code": "json.duplicate_key", "severity": "error", "count": 7}
    ]
