"""Responses (§7; docs/protocol-responses.md section 1): build_response, initial_answers,
check_answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from replykit.diagnostics import format_path
from replykit.questionnaire.conversation.responses import (
    OTHER_VALUE,
    AnswersError,
    build_response,
    check_answers,
    initial_answers,
    resolve_ui_text,
)
from replykit.questionnaire.model import Answer, Option, Question, Questionnaire, Response
from replykit.questionnaire.payload import response_type
from replykit.questionnaire.profiles import CLIENT, SELF_CHECK
from replykit.questionnaire.segmentation.segmenter import segment

from forms import valid_forms

SEED = Path(__file__).parent / "data" / "seed"

FORM = Questionnaire(
    "T",
    (
        Question(
            "q1", "single_choice", "Pick one", (Option("a", "A"), Option("b", "B")), "a", True
        ),
        Question(
            "q2", "multi_choice", "Pick many", (Option("x", "X"), Option("y", "Y")), ("x",), False
        ),
        Question("q3", "free_text", "Why?", (), "", False),
    ),
)


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def _only_form(text: str, message_id: str) -> tuple[str, Questionnaire]:
    forms = [s for s in segment(text, message_id=message_id).segments if s.questionnaire]
    assert len(forms) == 1 and forms[0].id is not None and forms[0].questionnaire is not None
    return forms[0].id, forms[0].questionnaire


# --- the seed's example -----------------------------------------------------------------


def test_seed_response_example_is_reproduced_exactly() -> None:
    # Seed "Inline 回答协议": the answer to the paused-task form, default kept.
    qid, form = _only_form(_read(SEED / "fenced_task_paused.md"), "MESSAGE_ID")
    built = build_response(form, {}, questionnaire_id=qid)
    assert built.agent_text == _read(SEED / "xml_response.md").rstrip("\n")
    assert built.agent_text == (
        '<questionnaire-response>{"type":"questionnaire_response","questionnaire_id":'
        '"MESSAGE_ID_q1","status":"submitted","answers":[{"question_id":"q1","question":'
        '"是否继续当前任务？","type":"single_choice","answer":"继续","value":"继续","label":'
        '"继续"}]}</questionnaire-response>'
    )
    assert built.display_text == "问卷回答\n是否继续当前任务？：继续"
    assert built.answers == (
        Answer("q1", "single_choice", "继续", "是否继续当前任务？", "继续", "继续"),
    )
    # Answering explicitly gives the same text.
    assert build_response(form, {"q1": "继续"}, questionnaire_id=qid) == built


def test_seed_sage_form_answer_uses_its_name() -> None:
    qid, form = _only_form(_read(SEED / "xml_sage_project.md"), "m")
    built = build_response(form, {"q1": "调整"}, name="sage-questionnaire", questionnaire_id=qid)
    assert built.agent_text == (
        '<sage-questionnaire-response>{"type":"sage_questionnaire_response",'
        '"questionnaire_id":"m_q1","status":"submitted","answers":[{"question_id":"q1",'
        '"question":"下一步如何处理？","type":"single_choice","answer":"调整","value":"调整",'
        '"label":"调整"}]}</sage-questionnaire-response>'
    )


# --- shapes, order, escaping, display ---------------------------------------------------


def test_all_three_types_with_other_and_escaping() -> None:
    built = build_response(
        FORM,
        {
            "q1": {"value": OTHER_VALUE, "other_text": "mine </questionnaire-response>"},
            "q2": ["y", "x"],
            "q3": "because",
        },
        questionnaire_id="m_q1",
        locale="en",
    )
    assert built.agent_text == (
        '<questionnaire-response>{"type":"questionnaire_response","questionnaire_id":"m_q1",'
        '"status":"submitted","answers":[{"question_id":"q1","question":"Pick one",'
        '"type":"single_choice","answer":"__questionnaire_other__",'
        '"value":"__questionnaire_other__","label":"Other",'
        '"other_text":"mine \\u003c/questionnaire-response>"},'
        '{"question_id":"q2","question":"Pick many","type":"multi_choice","answer":["y","x"],'
        '"values":["y","x"],"labels":["Y","X"]},'
        '{"question_id":"q3","question":"Why?","type":"free_text","answer":"because"}]}'
        "</questionnaire-response>"
    )
    assert built.display_text == (
        "Questionnaire answers\n"
        "Pick one: Other, mine </questionnaire-response>\n"
        "Pick many: Y, X\n"
        "Why?: because"
    )
    assert built.to_json() == {
        "agent_text": built.agent_text,
        "display_text": built.display_text,
        "answers": [a.to_json() for a in built.answers],
    }
    # It reads back as the same response, and the answer still holds "</".
    seg = segment(built.agent_text, message_id="u").segments
    assert len(seg) == 1 and seg[0].valid and seg[0].response is not None
    assert seg[0].response.answers == built.answers
    assert seg[0].response.answers[0].other_text == "mine </questionnaire-response>"


def test_empty_answers_show_unselected_and_unanswered_zh() -> None:
    built = build_response(
        FORM, {"q1": "", "q2": [], "q3": " \u3000"}, questionnaire_id="m_q1", locale="zh"
    )
    assert built.display_text == "问卷回答\nPick one：未选择\nPick many：未选择\nWhy?：未填写"
    assert built.answers[0] == Answer("q1", "single_choice", "", "Pick one", "", "")
    assert built.answers[1] == Answer("q2", "multi_choice", (), "Pick many", values=(), labels=())
    assert built.answers[2].answer == " \u3000"


def test_multi_other_lists_labels_then_other_text() -> None:
    form = attrs.evolve(FORM, questions=(attrs.evolve(FORM.questions[1], allow_other=True),))
    built = build_response(
        form, {"q2": {"value": ["x", OTHER_VALUE], "other_text": "z"}}, questionnaire_id="i"
    )
    assert built.answers[0] == Answer(
        "q2",
        "multi_choice",
        ("x", OTHER_VALUE),
        "Pick many",
        values=("x", OTHER_VALUE),
        labels=("X", "其他"),
        other_text="z",
    )
    assert built.display_text == "问卷回答\nPick many：X、其他、z"
    assert built.agent_text.endswith(
        '"labels":["X","其他"],"other_text":"z"}]}</questionnaire-response>'
    )


def test_ui_text_precedence_argument_then_form_then_locale() -> None:
    form = attrs.evolve(FORM, ui_text=(("other", "Something else"), ("answer_title", "Form title")))
    assert resolve_ui_text(form, None, "en") == {
        "answer_title": "Form title",
        "question_fallback": "Question",
        "answer_separator": ": ",
        "list_separator": ", ",
        "other": "Something else",
        "unanswered": "Not answered",
        "unselected": "Not selected",
    }
    built = build_response(
        form,
        {"q1": {"value": OTHER_VALUE, "other_text": ""}, "q3": ""},
        questionnaire_id="i",
        ui_text={"answer_title": "Mine", "answer_separator": " = "},
        locale="en",
    )
    assert (
        built.display_text == "Mine\nPick one = Something else\nPick many = X\nWhy? = Not answered"
    )
    # The other label in the JSON follows the same precedence; an empty other_text is kept.
    assert built.answers[0].label == "Something else"
    assert built.answers[0].other_text == ""


def test_question_fallback_for_a_blank_question_text() -> None:
    form = Questionnaire("", (Question("k", "free_text", "\u200b", (), "x"),))
    assert build_response(form, {}, questionnaire_id="i").display_text == "问卷回答\n问题：x"


def test_initial_answers_are_the_defaults() -> None:
    draft = initial_answers(FORM)
    assert draft == {"q1": "a", "q2": ["x"], "q3": ""}
    assert build_response(FORM, draft, questionnaire_id="i") == build_response(
        FORM, {}, questionnaire_id="i"
    )


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"name": "Questionnaire"}, ValueError),
        ({"name": "foo-questionnaire-response"}, ValueError),
        ({"questionnaire_id": " "}, ValueError),
        ({"questionnaire_id": 3}, TypeError),
        ({"ui_text": {"title": "x"}}, ValueError),
        ({"ui_text": {"other": 1}}, TypeError),
        ({"locale": "fr"}, ValueError),
    ],
)
def test_bad_arguments_raise(kwargs: dict[str, Any], error: type[Exception]) -> None:
    call: dict[str, Any] = {"questionnaire_id": "i", **kwargs}
    with pytest.raises(error):
        build_response(FORM, {}, **call)


def test_answers_must_be_a_mapping() -> None:
    with pytest.raises(TypeError):
        build_response(FORM, ["a"], questionnaire_id="i")  # type: ignore[arg-type]


# --- answers that do not fit: one row per code --------------------------------------------

BUILD_ERRORS: list[tuple[dict[str, Any], str | None, str, dict[str, Any]]] = [
    (
        {"q9": "a"},
        "answer.unknown_question",
        "q9",
        {"path": "q9", "value": "q9", "allowed": ["q1", "q2", "q3"]},
    ),
    (
        {"q1": ["a"]},
        "answer.type_mismatch",
        "q1",
        {"path": "q1", "question_id": "q1", "expected": "string"},
    ),
    (
        {"q2": "x"},
        "answer.values_not_list",
        "q2",
        {"path": "q2", "question_id": "q2", "expected": "array of strings"},
    ),
    (
        {"q1": "c"},
        "answer.value_not_in_options",
        "q1",
        {"path": "q1", "question_id": "q1", "value": "c", "allowed": ["a", "b"]},
    ),
    (
        {"q2": ["x", "z"]},
        "answer.value_not_in_options",
        "q2[2]",
        {"path": "q2[2]", "question_id": "q2", "value": "z", "allowed": ["x", "y"]},
    ),
    (
        {"q2": [OTHER_VALUE]},
        "answer.other_not_allowed",
        "q2[1]",
        {"path": "q2[1]", "question_id": "q2", "value": OTHER_VALUE},
    ),
    (
        {"q3": {"value": "t", "other_text": "x"}},
        "answer.other_not_allowed",
        "q3.other_text",
        {"path": "q3.other_text", "question_id": "q3"},
    ),
    (
        {"q1": {"value": "a", "other_text": "t"}},
        "answer.other_text_unexpected",
        "q1.other_text",
        {"path": "q1.other_text", "question_id": "q1"},
    ),
    ({"q1": {"other_text": "t"}}, "answer.field_invalid", "q1.value", {"path": "q1.value"}),
    (
        {"q1": {"value": "a", "label": "A"}},
        "answer.field_invalid",
        "q1.label",
        {"path": "q1.label", "allowed": ["value", "other_text"]},
    ),
    (
        {"q1": {"value": OTHER_VALUE, "other_text": 3}},
        "answer.type_mismatch",
        "q1.other_text",
        {"path": "q1.other_text", "expected": "string"},
    ),
    (
        {"q2": ["x", 2]},
        "answer.type_mismatch",
        "q2[2]",
        {"path": "q2[2]", "question_id": "q2", "expected": "string"},
    ),
    (
        {"q3": None},
        "answer.type_mismatch",
        "q3",
        {"path": "q3", "question_id": "q3", "expected": "string"},
    ),
    (
        {"q1": ""},  # single choice: "" is "no answer", but not in a multi list
        None,
        "",
        {},
    ),
    (
        {"q2": [""]},
        "answer.value_not_in_options",
        "q2[1]",
        {"path": "q2[1]", "question_id": "q2", "value": "", "allowed": ["x", "y"]},
    ),
]


@pytest.mark.parametrize(("answers", "code", "path", "details"), BUILD_ERRORS)
def test_build_reports_each_code(
    answers: dict[str, Any], code: str | None, path: str, details: dict[str, Any]
) -> None:
    if code is None:
        build_response(FORM, answers, questionnaire_id="i")
        return
    with pytest.raises(AnswersError) as info:
        build_response(FORM, answers, questionnaire_id="i")
    assert [(f.code, format_path(f.path), dict(f.details)) for f in info.value.findings] == [
        (code, path, details)
    ]
    assert isinstance(info.value, ValueError)


def test_build_collects_every_problem() -> None:
    with pytest.raises(AnswersError) as info:
        build_response(FORM, {"zz": 1, "q1": "c", "q2": "x", "q3": 5}, questionnaire_id="i")
    assert [(f.code, format_path(f.path)) for f in info.value.findings] == [
        ("answer.value_not_in_options", "q1"),
        ("answer.values_not_list", "q2"),
        ("answer.type_mismatch", "q3"),
        ("answer.unknown_question", "zz"),
    ]


# --- check_answers: one row per code ------------------------------------------------------

GOOD = build_response(FORM, {}, questionnaire_id="m_q1")
A1, A2, A3 = GOOD.answers


def _response(*answers: Answer, qid: str = "m_q1") -> Response:
    return Response("questionnaire_response", qid, "submitted", answers)


CHECK_ERRORS: list[tuple[Response, str, str, dict[str, Any]]] = [
    (
        _response(A1, A2, A3, qid="other"),
        "answer.questionnaire_id_mismatch",
        "questionnaire_id",
        {"path": "questionnaire_id", "expected": "m_q1", "value": "other"},
    ),
    (
        _response(A1, A2, A3, attrs.evolve(A3, question_id="q4")),
        "answer.unknown_question",
        "answers[4].question_id",
        {"path": "answers[4].question_id", "value": "q4", "allowed": ["q1", "q2", "q3"]},
    ),
    (
        _response(A1, A2, A3, A3),
        "answer.duplicate",
        "answers[4].question_id",
        {"path": "answers[4].question_id", "value": "q3"},
    ),
    (
        _response(A1, A2, attrs.evolve(A3, type="single_choice")),
        "answer.type_mismatch",
        "answers[3].type",
        {
            "path": "answers[3].type",
            "question_id": "q3",
            "expected": "free_text",
            "value": "single_choice",
        },
    ),
    (
        _response(attrs.evolve(A1, answer="c", value="c", label=None), A2, A3),
        "answer.value_not_in_options",
        "answers[1].value",
        {"path": "answers[1].value", "question_id": "q1", "value": "c", "allowed": ["a", "b"]},
    ),
    (
        _response(A1, attrs.evolve(A2, answer=("x", "w"), values=("x", "w"), labels=None), A3),
        "answer.value_not_in_options",
        "answers[2].values[2]",
        {
            "path": "answers[2].values[2]",
            "question_id": "q2",
            "value": "w",
            "allowed": ["x", "y"],
        },
    ),
    (
        _response(
            A1, attrs.evolve(A2, answer=(OTHER_VALUE,), values=(OTHER_VALUE,), labels=None), A3
        ),
        "answer.other_not_allowed",
        "answers[2].values[1]",
        {"path": "answers[2].values[1]", "question_id": "q2", "value": OTHER_VALUE},
    ),
    (
        _response(A1, A2, attrs.evolve(A3, other_text="x")),
        "answer.other_not_allowed",
        "answers[3].other_text",
        {"path": "answers[3].other_text", "question_id": "q3"},
    ),
    (
        _response(attrs.evolve(A1, other_text="x"), A2, A3),
        "answer.other_text_unexpected",
        "answers[1].other_text",
        {"path": "answers[1].other_text", "question_id": "q1"},
    ),
    (
        _response(attrs.evolve(A1, value="b"), A2, A3),
        "answer.inconsistent",
        "answers[1].value",
        {"path": "answers[1].value", "question_id": "q1", "value": "b", "expected": "a"},
    ),
    (
        _response(A1, attrs.evolve(A2, labels=("X", "Y")), A3),
        "answer.inconsistent",
        "answers[2].labels",
        {"path": "answers[2].labels", "question_id": "q2", "value": ["X", "Y"]},
    ),
    (
        _response(A1, A2),
        "answer.missing",
        "answers",
        {"path": "answers", "question_id": "q3"},
    ),
    (
        _response(attrs.evolve(A1, label="Z"), A2, A3),
        "answer.label_mismatch",
        "answers[1].label",
        {"path": "answers[1].label", "question_id": "q1", "value": "Z", "expected": "A"},
    ),
]


@pytest.mark.parametrize(("response", "code", "path", "details"), CHECK_ERRORS)
def test_check_answers_reports_each_code(
    response: Response, code: str, path: str, details: dict[str, Any]
) -> None:
    findings = check_answers(FORM, response, questionnaire_id="m_q1")
    assert [(f.code, format_path(f.path), dict(f.details)) for f in findings] == [
        (code, path, details)
    ]
    assert findings[0].severity == ("warning" if code == "answer.label_mismatch" else "error")


def test_an_answer_of_the_wrong_shape_cannot_be_built() -> None:
    """The response reader reports these shapes (``response.answer_invalid``); the model
    refuses them, so ``check_answers`` never sees one."""
    with pytest.raises(TypeError, match="'answer'"):
        attrs.evolve(A1, answer=["a"], value=None)
    with pytest.raises(ValueError, match="answer of a single_choice answer must be a str"):
        attrs.evolve(A1, answer=("a",), value=None)
    with pytest.raises(ValueError, match="answer of a multi_choice answer must be a tuple"):
        attrs.evolve(A2, answer="x", values=None)


def test_check_answers_accepts_the_built_response() -> None:
    assert check_answers(FORM, _response(*GOOD.answers), questionnaire_id="m_q1") == ()
    # Without an expected id, the id is not compared.
    assert check_answers(FORM, _response(*GOOD.answers, qid="x")) == ()


def test_check_answers_on_a_response_read_by_segment() -> None:
    text = (
        '<questionnaire-response>{"type":"questionnaire_response","questionnaire_id":"m_q1",'
        '"status":"submitted","answers":[{"question_id":"q1","type":"single_choice",'
        '"answer":"b"},{"question_id":"q2","type":"multi_choice","answer":"x"}]}'
        "</questionnaire-response>"
    )
    seg = segment(text, message_id="u").segments[0]
    # The reader itself rejects a multi answer that is not a list.
    assert not seg.valid and seg.response is None
    ok = text.replace('"answer":"x"', '"answer":["x","q"]')
    seg = segment(ok, message_id="u").segments[0]
    assert seg.response is not None
    assert [(f.code, format_path(f.path)) for f in check_answers(FORM, seg.response)] == [
        ("answer.value_not_in_options", "answers[2].answer[2]"),
        ("answer.missing", "answers"),
    ]


# --- properties ----------------------------------------------------------------------------

_CHARS = st.characters(exclude_categories=["Cs"])
_TRICKY = st.sampled_from(
    [
        "</questionnaire-response>",
        "</sage-questionnaire-response>",
        "<\\/questionnaire-response>",
        "<questionnaire-response>",
        "<!--",
        "-->",
        "```",
        "\\u003c/",
        '"',
        "\\",
        "\r\n",
        "\r",
        "\u2028",
        "\ufeff",
        "&lt;/questionnaire-response&gt;",
        "`",
    ]
)
_ANSWER_TEXT = st.lists(st.one_of(st.text(alphabet=_CHARS, max_size=6), _TRICKY), max_size=4).map(
    "".join
)
_NAMES = st.sampled_from(sorted(SELF_CHECK.requests))


@st.composite
def _answers(draw: st.DrawFn, form: Questionnaire) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for q in form.questions:
        if draw(st.booleans()):
            continue  # left out: takes the default
        if q.type == "free_text":
            out[q.id] = draw(_ANSWER_TEXT)
            continue
        values = [o.value for o in q.options] + ([OTHER_VALUE] if q.allow_other else [])
        value: str | list[str]
        if q.type == "single_choice":
            value = draw(st.sampled_from([*values, ""]))
            chosen = [value]
        else:
            chosen = draw(st.lists(st.sampled_from(values), unique=True))
            value = chosen
        if OTHER_VALUE in chosen and draw(st.booleans()):
            out[q.id] = {"value": value, "other_text": draw(_ANSWER_TEXT)}
        else:
            out[q.id] = value
    return out


@given(st.data())
def test_built_responses_read_back_equal_and_fit(data: st.DataObject) -> None:
    form = data.draw(valid_forms())
    answers = data.draw(_answers(form))
    name = data.draw(_NAMES)
    qid = data.draw(st.sampled_from(["m_q1", "call_abc", "会话_q2"]))
    built = build_response(form, answers, name=name, questionnaire_id=qid, locale="en")
    result = segment(built.agent_text, message_id="u", profile=SELF_CHECK)
    assert result.diagnostics == ()
    assert len(result.segments) == 1
    seg = result.segments[0]
    assert seg.kind == "questionnaire_response" and seg.valid and seg.name == f"{name}-response"
    assert seg.response == Response(response_type(name), qid, "submitted", built.answers)
    assert check_answers(form, seg.response, questionnaire_id=qid) == ()
    # No answer text can close the block early: the closer is the last thing.
    assert built.agent_text.count(f"</{name}-response>") == 1
    # One display line per question, after the title line.
    assert built.display_text.split("\n")[0] == "Questionnaire answers"


@given(st.data())
def test_client_profile_reads_standard_responses(data: st.DataObject) -> None:
    form = data.draw(valid_forms())
    built = build_response(form, data.draw(_answers(form)), questionnaire_id="m_q1")
    seg = segment(built.agent_text, message_id="u", profile=CLIENT).segments
    assert len(seg) == 1 and seg[0].response is not None
    assert seg[0].response.answers == built.answers


@given(st.data())
def test_any_answer_outside_the_options_is_reported(data: st.DataObject) -> None:
    form = data.draw(valid_forms())
    choices = [q for q in form.questions if q.type != "free_text"]
    assume(choices)
    q = data.draw(st.sampled_from(choices))
    known = {o.value for o in q.options} | {OTHER_VALUE, ""}
    bad = data.draw(
        st.text(alphabet=_CHARS, min_size=1, max_size=8).filter(lambda s: s not in known)
    )
    raw: Any = bad if q.type == "single_choice" else [bad]
    with pytest.raises(AnswersError) as info:
        build_response(form, {q.id: raw}, questionnaire_id="i")
    path = (q.id,) if q.type == "single_choice" else (q.id, 0)
    assert [(f.code, f.path) for f in info.value.findings] == [
        ("answer.value_not_in_options", path)
    ]
    # The same answer in a response is reported by check_answers.
    good = build_response(form, {}, questionnaire_id="i")
    answers = [
        (
            attrs.evolve(a, answer=bad, value=bad, label=None)
            if a.question_id == q.id and q.type == "single_choice"
            else attrs.evolve(a, answer=(bad,), values=(bad,), labels=None)
            if a.question_id == q.id
            else a
        )
        for a in good.answers
    ]
    findings = check_answers(
        form, Response("questionnaire_response", "i", "submitted", tuple(answers))
    )
    index = next(i for i, a in enumerate(answers) if a.question_id == q.id)
    where = (
        ("answers", index, "value")
        if q.type == "single_choice"
        else ("answers", index, "values", 0)
    )
    assert [(f.code, f.path) for f in findings] == [("answer.value_not_in_options", where)]


def test_entities_in_answers_survive_sage_decoding() -> None:
    """An answer holding an entity-escaped closer cannot close its block even when the
    §9 compatibility mode decodes entities first: ``&`` is written ``\\u0026``."""
    from replykit import build_response as build
    from replykit import segment as seg

    form_text = (
        "Intro\n\n```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n"
        '    text: Q\n    default: ""\n```\n'
    )
    form = seg(form_text).segments[1].questionnaire
    assert form is not None
    answer = "&lt;/questionnaire-response&gt; & </questionnaire-response>"
    built = build(form, {"q1": answer}, questionnaire_id="m_q1")
    assert "&" not in built.agent_text
    for compat in (None, "sage"):
        (block,) = seg(built.agent_text, compat=compat).segments
        assert block.valid and block.response is not None
        assert block.response.answers[0].answer == answer
