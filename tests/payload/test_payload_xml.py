"""XML+JSON request and response payloads (§5, §7), with the seed's examples."""

from __future__ import annotations

import pytest

from replykit.diagnostics import format_path
from replykit.questionnaire.model import Answer, Option, Question, Questionnaire, Response
from replykit.questionnaire.payload.xml_form import (
    read_xml_request,
    read_xml_response,
    response_type,
)

SEED_LOOP = (
    '{"title":"执行路径正在重复","questions":[{"id":"loop_recovery_action","type":"free_text",'
    '"text":"请说明你希望我接下来如何处理","default":""}]}'
)
SEED_SAGE = (
    '{"title":"项目确认","questions":[{"type":"single_choice","text":"下一步如何处理？",'
    '"options":["继续","调整"],"default":"继续"}]}'
)
SEED_RESPONSE = (
    '{"type":"questionnaire_response","questionnaire_id":"MESSAGE_ID_q1","status":"submitted",'
    '"answers":[{"question_id":"q1","question":"是否继续当前任务？","type":"single_choice",'
    '"answer":"继续","value":"继续","label":"继续"}]}'
)


def test_seed_loop_recovery() -> None:
    read = read_xml_request(SEED_LOOP)
    assert read.findings == ()
    assert read.value == Questionnaire(
        title="执行路径正在重复",
        questions=(
            Question(
                id="loop_recovery_action",
                type="free_text",
                text="请说明你希望我接下来如何处理",
                default="",
            ),
        ),
    )


def test_seed_sage_project() -> None:
    read = read_xml_request(SEED_SAGE)
    assert read.findings == ()
    assert read.value == Questionnaire(
        title="项目确认",
        questions=(
            Question(
                id="q1",
                type="single_choice",
                text="下一步如何处理？",
                options=(Option("继续", "继续"), Option("调整", "调整")),
                default="继续",
            ),
        ),
    )


def test_seed_response() -> None:
    read = read_xml_response(SEED_RESPONSE, "questionnaire-response")
    assert read.findings == ()
    assert read.value == Response(
        type="questionnaire_response",
        questionnaire_id="MESSAGE_ID_q1",
        status="submitted",
        answers=(
            Answer(
                question_id="q1",
                type="single_choice",
                answer="继续",
                question="是否继续当前任务？",
                value="继续",
                label="继续",
            ),
        ),
    )
    assert read.value.to_json() == __import__("json").loads(SEED_RESPONSE)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("questionnaire", "questionnaire_response"),
        ("questionnaire-response", "questionnaire_response"),
        ("sage-questionnaire", "sage_questionnaire_response"),
        ("sage-questionnaire-response", "sage_questionnaire_response"),
    ],
)
def test_response_type(name: str, expected: str) -> None:
    assert response_type(name) == expected


def test_request_findings_have_payload_offsets() -> None:
    src = (
        '{"questions": [{"type": "single_choice", "text": "T", "options": ["a"], "default": "b"}]}'
    )
    (f,) = read_xml_request(src).findings
    assert f.code == "questionnaire.start.default_value_not_in_options"
    assert f.start is not None and src[f.start : f.end] == '"b"'
    missing = '{"questions": [{"type": "single_choice", "text": "T"}]}'
    (g,) = read_xml_request(missing).findings
    assert g.code == "questionnaire.start.question_options_required"
    assert g.start is not None and missing[g.start : g.end] == missing[15:-2]


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ('{"questions": [NaN]}', "json.constant"),
        ("[1]", "json.not_object"),
        ("{“title”: 1}", "json.syntax"),
        ("{" * 100, "json.too_deep"),
    ],
)
def test_request_json_errors(payload: str, code: str) -> None:
    read = read_xml_request(payload)
    assert code in [f.code for f in read.findings]
    assert read.value is None


def _resp(**fields: object) -> str:
    import json

    base: dict[str, object] = {
        "type": "questionnaire_response",
        "questionnaire_id": "m_q1",
        "status": "submitted",
        "answers": [],
    }
    base.update(fields)
    return json.dumps({k: v for k, v in base.items() if v is not ...})


# (payload, code, severity, path)
RESPONSE_CASES = [
    (_resp(type="sage_questionnaire_response"), "response.type_mismatch", "error", "type"),
    (_resp(type=...), "response.type_mismatch", "error", "type"),
    (_resp(questionnaire_id=...), "response.questionnaire_id_missing", "error", "questionnaire_id"),
    (_resp(questionnaire_id=3), "response.questionnaire_id_missing", "error", "questionnaire_id"),
    (_resp(status="draft"), "response.status_unknown", "warning", "status"),
    (_resp(status=...), "response.status_unknown", "warning", "status"),
    (_resp(answers={}), "response.answers_invalid", "error", "answers"),
    (_resp(answers=...), "response.answers_invalid", "error", "answers"),
    (_resp(answers=[1]), "response.answer_invalid", "error", "answers[1]"),
    (
        _resp(answers=[{"type": "free_text", "answer": ""}]),
        "response.answer_invalid",
        "error",
        "answers[1].question_id",
    ),
    (
        _resp(answers=[{"question_id": "q1", "type": "rating", "answer": ""}]),
        "response.answer_invalid",
        "error",
        "answers[1].type",
    ),
    (
        _resp(answers=[{"question_id": "q1", "type": "single_choice", "answer": ["a"]}]),
        "response.answer_invalid",
        "error",
        "answers[1].answer",
    ),
    (
        _resp(answers=[{"question_id": "q1", "type": "single_choice", "answer": "a", "label": 1}]),
        "response.answer_invalid",
        "error",
        "answers[1].label",
    ),
    (
        _resp(answers=[{"question_id": "q1", "type": "multi_choice", "answer": "a"}]),
        "response.answer_invalid",
        "error",
        "answers[1].answer",
    ),
    (
        _resp(answers=[{"question_id": "q1", "type": "multi_choice", "answer": [], "labels": [2]}]),
        "response.answer_invalid",
        "error",
        "answers[1].labels[1]",
    ),
    (
        _resp(answers=[{"question_id": "q1", "type": "free_text"}]),
        "response.answer_invalid",
        "error",
        "answers[1].answer",
    ),
]


@pytest.mark.parametrize(("payload", "code", "severity", "path"), RESPONSE_CASES)
def test_response_codes(payload: str, code: str, severity: str, path: str) -> None:
    read = read_xml_response(payload, "questionnaire-response")
    hits = [f for f in read.findings if f.code == code]
    assert len(hits) == 1, read.findings
    f = hits[0]
    assert (f.severity, format_path(f.path)) == (severity, path)
    assert f.start is not None and f.end is not None
    assert (read.value is None) == (severity == "error")


def test_multi_and_other_answers() -> None:
    payload = _resp(
        answers=[
            {
                "question_id": "q1",
                "type": "multi_choice",
                "answer": ["a", "__questionnaire_other__"],
                "values": ["a", "__questionnaire_other__"],
                "labels": ["A", "其他"],
                "other_text": "</x>",
            },
            {"question_id": "q2", "type": "free_text", "answer": ""},
        ]
    )
    read = read_xml_response(payload, "questionnaire")
    assert read.findings == ()
    assert read.value is not None
    a1, a2 = read.value.answers
    assert a1.answer == ("a", "__questionnaire_other__")
    assert a1.labels == ("A", "其他") and a1.other_text == "</x>"
    assert a2 == Answer(question_id="q2", type="free_text", answer="")
