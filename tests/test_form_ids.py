"""One rule for the ids of forms (docs/protocol.md §6): every id that becomes a form's
id or the ``questionnaire_id`` an answer names (a ``tool_call_id``, ``build_response``'s
and ``check_answers``' ``questionnaire_id``, ``respond --id``, the playground's
``block_id``) follows the message-id rule, or is a block id of a message id that does;
each entry point refuses the same ids with the same reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from replykit import (
    build_response,
    build_response_json,
    check_answers,
    questionnaire_async,
    questionnaire_from_tool_result,
    segment,
)
from replykit.cli import main
from replykit.questionnaire.model import Response
from replykit.serve import api

FORM = 'Hi <questionnaire>{"questions":[{"type":"text","text":"Q"}]}</questionnaire>\n'
RESULT = questionnaire_async(title="T", questions=[{"type": "free_text", "text": "Q"}])

REFUSED = [
    ("", "is empty or only blank characters"),
    ("\u200b", "is empty or only blank characters"),
    ("a\ud800", "holds a surrogate code point, which JSON cannot carry"),
    ("a\ud800_q1", "holds a surrogate code point, which JSON cannot carry"),
    ("x" * 129, "is longer than 128 characters"),
    ("x" * 100_000, "is longer than 128 characters"),
    ("x" * 129 + "_q1", "is longer than 128 characters"),  # its message id is too long
    ("x" * 128 + "_q01", "is longer than 128 characters"),  # not a block id
    ("x" * 128 + "_q" + "1" * 20, "is longer than 128 characters"),
]
# A block id repeats a message id of up to 128 code points.
ACCEPTED = ["a", "call_1", "x" * 128, "x" * 128 + "_q1", "x" * 128 + "_q" + "9" * 19]


def _form_reasons(form_id: str) -> set[str]:
    form = questionnaire_from_tool_result(RESULT, "call").questionnaire
    assert form is not None
    reasons = set()
    calls = {
        "tool_call_id": lambda: questionnaire_from_tool_result(RESULT, form_id),
        "questionnaire_id": lambda: build_response(form, {}, questionnaire_id=form_id),
    }
    calls_too = [
        lambda: build_response_json(form, "{}", questionnaire_id=form_id),
        lambda: check_answers(form, segment_response(), questionnaire_id=form_id),
    ]
    for name, call in calls.items():
        with pytest.raises(ValueError) as info:
            call()
        reasons.add(str(info.value).replace(name, "ID"))
    for call in calls_too:
        with pytest.raises(ValueError) as info:
            call()
        reasons.add(str(info.value).replace("questionnaire_id", "ID"))
    return reasons


def segment_response() -> Response:
    text = (
        '<questionnaire-response>{"type":"questionnaire_response","questionnaire_id":"m_q1",'
        '"status":"submitted","answers":[]}</questionnaire-response>'
    )
    response = segment(text).segments[0].response
    assert response is not None
    return response


@pytest.mark.parametrize(("form_id", "reason"), REFUSED)
def test_every_entry_refuses_the_same_form_ids(form_id: str, reason: str) -> None:
    assert _form_reasons(form_id) == {f"ID {reason}"}
    with pytest.raises(api.RequestError) as info:
        api.respond({"text": FORM, "block_id": form_id, "answers": {}})
    assert str(info.value) == f"block_id: {reason}"


@pytest.mark.parametrize("form_id", ACCEPTED)
def test_a_form_opened_under_an_accepted_id_can_be_answered(form_id: str) -> None:
    opened = questionnaire_from_tool_result(RESULT, form_id)
    assert opened.id == form_id and opened.questionnaire is not None
    built = build_response(opened.questionnaire, {"q1": "x"}, questionnaire_id=form_id)
    assert f'"questionnaire_id":"{form_id}"' in built.agent_text


def test_a_block_of_the_longest_message_id_can_be_answered() -> None:
    message_id = "m" * 128
    seg = segment(FORM, message_id=message_id).segments[1]
    assert seg.id == message_id + "_q1" and seg.questionnaire is not None
    built = build_response(seg.questionnaire, {}, questionnaire_id=seg.id)
    assert f'"questionnaire_id":"{seg.id}"' in built.agent_text


@pytest.mark.parametrize(("form_id", "reason"), REFUSED)
def test_respond_refuses_the_same_block_ids(
    form_id: str, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    message, answers = tmp_path / "m.md", tmp_path / "a.json"
    message.write_text(FORM, encoding="utf-8")
    answers.write_text("{}", encoding="utf-8")
    if "\ud800" in form_id:  # from the command line, only an undecodable byte
        reason = "is not valid UTF-8"
    argv = ["respond", "--message", str(message), "--answers", str(answers)]
    assert main([*argv, "--message-id", "m", "--id", form_id]) == 2
    assert capsys.readouterr().err == f"replykit respond: error: --id {reason}\n"
