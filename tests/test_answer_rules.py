"""Each ``answer.*`` rule has one home (§7; docs/protocol-responses.md section 1.2): the
registry's code is reported by exactly one function of ``src``, which building and
checking both call, so the two sides cannot word a rule differently."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

import replykit
from replykit.codes import CODES, Code
from replykit.codes import responses as registry
from replykit.questionnaire.conversation.responses import (
    OTHER_VALUE,
    AnswersError,
    build_response,
    check_answers,
)
from replykit.questionnaire.model import Answer, Option, Question, Questionnaire, Response

SRC = Path(replykit.__file__).parent
ANSWER_CODES = sorted(name for name in CODES if name.startswith("answer."))
#: Constant name in the registry module -> code name.
CONSTANTS = {
    name: value.name
    for name, value in vars(registry).items()
    if isinstance(value, Code) and value.name.startswith("answer.")
}


def _reporters() -> dict[str, set[str]]:
    """Code name -> the innermost functions (``module:function``) that name its registry
    constant or spell the code as a string, outside the registry itself."""
    found: dict[str, set[str]] = defaultdict(set)

    def visit(node: ast.AST, where: str, module: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            where = f"{module}:{node.name}"
        name = None
        if isinstance(node, ast.Name):
            name = CONSTANTS.get(node.id)
        elif isinstance(node, ast.Attribute):
            name = CONSTANTS.get(node.attr)
        elif isinstance(node, ast.Constant) and node.value in ANSWER_CODES:
            name = node.value
        if name is not None:
            found[name].add(where)
        for child in ast.iter_child_nodes(node):
            visit(child, where, module)

    for path in sorted(SRC.rglob("*.py")):
        module = str(path.relative_to(SRC))
        if module.startswith("codes/"):
            continue
        visit(ast.parse(path.read_text(encoding="utf-8")), f"{module}:<module>", module)
    return found


def test_the_registry_lists_every_answer_constant() -> None:
    assert sorted(CONSTANTS.values()) == ANSWER_CODES
    assert len(ANSWER_CODES) == 13


def test_each_answer_code_is_reported_by_exactly_one_function() -> None:
    reporters = _reporters()
    assert {code: len(reporters[code]) for code in ANSWER_CODES} == dict.fromkeys(
        ANSWER_CODES, 1
    ), {code: sorted(reporters[code]) for code in ANSWER_CODES}
    homes = [next(iter(reporters[code])) for code in ANSWER_CODES]
    # ... all in the rules module, and no function reports two of them.
    assert all(h.startswith("questionnaire/conversation/responses/rules.py:") for h in homes)
    assert len(set(homes)) == len(homes)


FORM = Questionnaire(
    "T",
    (
        Question("q1", "single_choice", "One", (Option("a", "A"), Option("b", "B")), "a"),
        Question("q2", "multi_choice", "Many", (Option("x", "X"), Option("y", "Y")), ()),
        Question("q3", "free_text", "Why", (), ""),
    ),
)


def _built(answers: dict[str, object]) -> list[tuple[str, str, str]]:
    with pytest.raises(AnswersError) as err:
        build_response(FORM, answers, questionnaire_id="m_q1")
    return [(f.code, f.details["path"], f.message) for f in err.value.findings]


def _checked(*answers: Answer) -> list[tuple[str, str, str]]:
    response = Response("questionnaire_response", "m_q1", "submitted", answers)
    return [(f.code, f.details["path"], f.message) for f in check_answers(FORM, response)]


A2 = Answer("q2", "multi_choice", ("x",), values=("x",), labels=("X",))
A3 = Answer("q3", "free_text", "t")


def test_building_and_checking_word_a_shared_rule_the_same_way() -> None:
    """The rules both sides apply give the same message from the same rule, only the
    path differs (from the question id, or into the response JSON)."""
    assert _built({"q1": "z"}) == [
        ("answer.value_not_in_options", "q1", 'q1: "z" is not an option value of question q1')
    ]
    a1 = Answer("q1", "single_choice", "z", value="z")
    assert _checked(a1, A2, A3) == [
        (
            "answer.value_not_in_options",
            "answers[1].value",
            'answers[1].value: "z" is not an option value of question q1',
        )
    ]
    assert _built({"q1": OTHER_VALUE}) == [
        (
            "answer.other_not_allowed",
            "q1",
            "q1: question q1 does not allow an 'other' answer",
        )
    ]
    a1 = Answer("q1", "single_choice", OTHER_VALUE)
    assert _checked(a1, A2, A3) == [
        (
            "answer.other_not_allowed",
            "answers[1].answer",
            "answers[1].answer: question q1 does not allow an 'other' answer",
        )
    ]
    a1 = Answer("q1", "single_choice", "a")
    assert _shapes(_built({"zz": "a"})) == _shapes(
        _checked(a1, A2, A3, Answer("zz", "free_text", ""))
    )
    assert _shapes(_built({"q2": ["x", "x"]})) == _shapes(
        _checked(a1, Answer("q2", "multi_choice", ("x", "x")), A3)
    )
    assert _shapes(_built({"q3": {"value": "t", "other_text": "o"}})) == _shapes(
        _checked(a1, A2, Answer("q3", "free_text", "t", other_text="o"))
    )


def _shapes(found: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """Code and message with the path it starts with taken out."""
    return [(code, message.removeprefix(path)) for code, path, message in found]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # "value" repeats "answer": the finding is at "value", as the docs' table says.
        (Answer("q1", "single_choice", "z", value="z"), ["answers[1].value"]),
        # "value" holds an option but "answer" does not: the value judged is in "answer".
        (Answer("q1", "single_choice", "z", value="a"), ["answers[1].answer"]),
        (Answer("q1", "single_choice", "z"), ["answers[1].answer"]),
    ],
)
def test_a_value_not_in_options_is_placed_where_it_is_written(
    answer: Answer, expected: list[str]
) -> None:
    found = [f for f in _checked(answer, A2, A3) if f[0] == "answer.value_not_in_options"]
    assert [path for _, path, _ in found] == expected
    assert all('"z"' in message for _, _, message in found)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (("z",), "answers[2].values[1]"),
        (("x",), "answers[2].answer[1]"),
        (None, "answers[2].answer[1]"),
    ],
)
def test_a_multi_choice_value_not_in_options_is_placed_where_it_is_written(
    values: tuple[str, ...] | None, expected: str
) -> None:
    a1 = Answer("q1", "single_choice", "a")
    a2 = Answer("q2", "multi_choice", ("z",), values=values)
    found = [f for f in _checked(a1, a2, A3) if f[0] == "answer.value_not_in_options"]
    assert [path for _, path, _ in found] == [expected]
