"""§9 ``filter_invalid_questions`` changes nothing but the questions it leaves out: ids,
paths, offsets and checks of the kept questions are those of the strict reading."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import CLIENT, segment
from replykit.diagnostics import Diagnostic
from replykit.questionnaire.compat import Compat
from replykit.questionnaire.model import Question
from replykit.questionnaire.payload.lenient import normalize_form
from replykit.strategies import tool_arguments

FILTER = Compat(filter_invalid_questions=True)


def xml(questions: list[Any]) -> str:
    return "Intro <questionnaire>" + json.dumps({"questions": questions}) + "</questionnaire>"


def kept(text: str) -> tuple[bool, list[tuple[str, str]], list[tuple[str, str | None]]]:
    result = segment(text, message_id="m", profile=CLIENT, compat="sage")
    block = result.segments[1]
    form = block.questionnaire
    ids = [] if form is None else [(q.id, q.text) for q in form.questions]
    return block.valid, ids, [(d.code, d.path) for d in result.diagnostics]


def test_default_ids_stay_by_payload_position() -> None:
    # Dropping question 1 does not renumber C: it keeps q3 and clashes with nothing.
    text = xml(
        [
            {"type": "bogus", "text": "X"},
            {"id": "q2", "type": "text", "text": "B"},
            {"type": "text", "text": "C"},
        ]
    )
    assert kept(text) == (
        True,
        [("q2", "B"), ("q3", "C")],
        [("compat.question_dropped", "questions[1]")],
    )


def test_a_later_default_id_is_not_reused() -> None:
    text = xml([{"type": "text", "text": "A"}, {"type": "bogus"}, {"type": "text", "text": "D"}])
    assert kept(text) == (
        True,
        [("q1", "A"), ("q3", "D")],
        [("compat.question_dropped", "questions[2]")],
    )


def test_duplicates_are_checked_among_the_payload_ids() -> None:
    # C repeats the default id q1 of the dropped question 1: a strict error of its own.
    text = xml(
        [
            {"type": "bogus", "text": "X"},
            {"id": "q1", "type": "text", "text": "C"},
            {"type": "text", "text": "D"},
        ]
    )
    strict = segment(text, message_id="m", profile=CLIENT).diagnostics
    assert [(d.code, d.path) for d in strict] == [
        ("questionnaire.start.question_type_invalid", "questions[1].type"),
        ("questionnaire.start.question_id_duplicate", "questions[2].id"),
    ]
    assert kept(text) == (
        True,
        [("q3", "D")],
        [("compat.question_dropped", "questions[1]"), ("compat.question_dropped", "questions[2]")],
    )


def _position(d: Diagnostic) -> int | None:
    """The 0-based question a diagnostic is about, or ``None``."""
    if not d.path.startswith("questions["):
        return None
    return int(d.path.split("[")[1].split("]")[0]) - 1


def _question_errors(diagnostics: tuple[Diagnostic, ...]) -> set[int]:
    return {p for d in diagnostics if d.severity == "error" and (p := _position(d)) is not None}


def _alone(raw: dict[str, Any], qid: str) -> Question:
    """The question as it reads alone, its id given explicitly."""
    read = normalize_form({"questions": [{**raw, "id": qid}]}, allow_extras=True)
    assert read.value is not None
    return read.value.questions[0]


@settings(max_examples=300, deadline=None)
@given(tool_arguments().filter(lambda a: isinstance(a, dict)), st.sampled_from([None, 2]))
def test_kept_questions_are_the_strict_questions_without_errors(
    args: dict[str, Any], indent: int | None
) -> None:
    text = "Intro <questionnaire>" + json.dumps(args, indent=indent) + "</questionnaire>"
    strict = segment(text, message_id="m", profile=CLIENT)
    relaxed = segment(text, message_id="m", profile=CLIENT, compat=FILTER)
    s_block, r_block = strict.segments[1], relaxed.segments[1]
    bad = _question_errors(strict.diagnostics)
    questions = args.get("questions")
    others = [d for d in strict.diagnostics if d.severity == "error" and d.path and
              not d.path.startswith("questions[")]  # fmt: skip
    if s_block.valid or others or not isinstance(questions, list) or len(bad) == len(questions):
        assert relaxed.diagnostics == strict.diagnostics
        assert r_block.questionnaire == s_block.questionnaire
        return
    dropped = [d for d in relaxed.diagnostics if d.code == "compat.question_dropped"]
    assert [d.path for d in dropped] == [f"questions[{i + 1}]" for i in sorted(bad)]
    # Every other diagnostic, kept questions' warnings included, is the strict one.
    rest = [d for d in relaxed.diagnostics if d.code != "compat.question_dropped"]
    assert rest == [d for d in strict.diagnostics if _position(d) not in bad]
    assert r_block.valid and r_block.questionnaire is not None
    expected = []
    for i, raw in enumerate(questions):
        if i not in bad:
            given_id = raw.get("id")
            blank = not isinstance(given_id, str) or not given_id.strip()
            expected.append(_alone(raw, f"q{i + 1}" if blank else given_id))
    assert list(r_block.questionnaire.questions) == expected
