"""``questionnaire_async`` arguments, valid and invalid (§7)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any, Final

from hypothesis import strategies as st

from replykit.testing.strategies._common import JUNK, SAFE_WORDS, pick, subset


def _lenient_question(draw: st.DrawFn, index: int) -> Any:
    if draw(st.integers(0, 12)) == 0:
        return copy.deepcopy(pick(draw, JUNK))
    kind = pick(
        draw,
        [
            "single_choice",
            "multi_choice",
            "multiple_choice",
            "free_text",
            "text",
            " Single_Choice ",
            "TEXT",
            "choice",
            3,
        ],
    )
    q: dict[str, Any] = {"type": kind}
    id_kind = draw(st.integers(0, 5))
    if id_kind == 1:
        q["id"] = f"k{index}"
    elif id_kind == 2:
        q["id"] = "dup"
    elif id_kind == 3:
        q["id"] = pick(draw, ["", " ", "q1", "q2", 7])
    text_kind = draw(st.integers(0, 5))
    if text_kind <= 2:
        q["text"] = pick(draw, SAFE_WORDS)
    elif text_kind == 3:
        q["title"] = pick(draw, SAFE_WORDS)
    elif text_kind == 4:
        q["text"] = pick(draw, ["", " ", "\u3000", None, 5])
    values = [pick(draw, ("a", "b", "c", "继续", "😀")) for _ in range(draw(st.integers(0, 3)))]
    opt_kind = draw(st.integers(0, 5))
    if opt_kind <= 2:
        q["options"] = list(values)
    elif opt_kind == 3:
        q["options"] = [
            pick(draw, [{"value": v, "label": v.upper()}, {"value": v}, {"label": v}])
            for v in values
        ]
    elif opt_kind == 4:
        q["options"] = pick(draw, [[" "], [1], [None], "a", [{"value": ""}], ["a", "a"]])
    default_kind = draw(st.integers(0, 5))
    if default_kind == 1 and values:
        q["default"] = values[0]
    elif default_kind == 2:
        q["default"] = values[:2]
    elif default_kind == 3:
        q["default"] = pick(draw, ["", "zz", ["zz"], 0, None, [1]])
    if draw(st.integers(0, 3)) == 0:
        q["allow_other"] = pick(draw, [True, False, "yes", 1, None])
    return q


@st.composite
def tool_arguments(draw: st.DrawFn) -> Any:
    """``questionnaire_async`` arguments (seed "调用参数", §7): mostly an object with an
    optional ``title`` (string or junk) and ``questions`` (0-4 lenient questions:
    aliases and case in ``type``, given/blank/duplicate ids, ``text`` or ``title``,
    string or ``{value, label}`` options, defaults in and out of the options, junk
    ``allow_other``); sometimes ``questions`` missing or not a list, or the arguments
    not an object at all, or an extra key that the tool ignores. Half the time,
    instead, :func:`tool_one_rule`: valid arguments with exactly one rule at stake."""
    if draw(st.booleans()):
        return draw(_ONE_RULE)
    kind = draw(st.integers(0, 15))
    if kind == 0:
        return copy.deepcopy(pick(draw, JUNK))
    args: dict[str, Any] = {}
    title_kind = draw(st.integers(0, 4))
    if title_kind == 1:
        args["title"] = pick(draw, SAFE_WORDS)
    elif title_kind == 2:
        args["title"] = pick(draw, ["", 5, None, ["t"]])
    if kind == 1:
        args["questions"] = copy.deepcopy(pick(draw, JUNK))
    elif kind != 2:
        count = draw(st.integers(0, 4))
        args["questions"] = [_lenient_question(draw, i + 1) for i in range(count)]
    if draw(st.integers(0, 6)) == 0:
        args["extra"] = "ignored"
    return args


# ---------------------------------------------------------------- one rule broken
# Valid arguments with exactly one §7 rule at stake, so a tool that skips that one
# check shows it on its own (docs/fuzzing.md, "Fault families").

_WORDS: Final[tuple[str, ...]] = ("red", "blue", "继续", "调整", "A", "b c", "Ω", "Plan")
_CHOICE: Final[tuple[str, ...]] = ("single_choice", "multi_choice")


def _valid_question(draw: st.DrawFn, index: int) -> dict[str, Any]:
    kind = pick(draw, ("single_choice", "multi_choice", "free_text"))
    question: dict[str, Any] = {"type": kind, "text": pick(draw, _WORDS)}
    if draw(st.booleans()):
        question["id"] = f"k{index}"
    if kind == "free_text":
        if draw(st.booleans()):
            question["default"] = pick(draw, ("", "x", "默认"))
        return question
    values = subset(draw, _WORDS, 1, 3)
    if draw(st.integers(0, 2)) == 0:
        question["options"] = [{"value": v, "label": v.upper()} for v in values]
    else:
        question["options"] = list(values)
    if draw(st.booleans()):
        question["default"] = values[0] if kind == "single_choice" else values[:2]
    if draw(st.integers(0, 2)) == 0:
        question["allow_other"] = draw(st.booleans())
    return question


def _choice(draw: st.DrawFn, args: dict[str, Any]) -> dict[str, Any]:
    # A choice question of ``args`` (one is made when there is none).
    questions = args["questions"]
    found = [q for q in questions if q["type"] in _CHOICE]
    if found:
        return pick(draw, found)
    question = {"type": pick(draw, _CHOICE), "text": "Q", "options": ["a", "b"]}
    questions.append(question)
    return question


def _any(draw: st.DrawFn, args: dict[str, Any]) -> dict[str, Any]:
    question: dict[str, Any] = pick(draw, args["questions"])
    return question


def _set_default(draw: st.DrawFn, args: dict[str, Any], single: Any, multi: Any) -> None:
    question = _choice(draw, args)
    question["default"] = single if question["type"] == "single_choice" else multi


def _break_title(draw: st.DrawFn, args: dict[str, Any]) -> None:
    args["title"] = pick(draw, (5, ["T"], True, {"t": 1}))


def _break_questions(draw: st.DrawFn, args: dict[str, Any]) -> None:
    if draw(st.integers(0, 3)) == 0:
        del args["questions"]
    else:
        questions = args["questions"]
        args["questions"] = pick(draw, ("x", {"q": 1}, 1, json.dumps(questions)))


def _empty_questions(draw: st.DrawFn, args: dict[str, Any]) -> None:
    args["questions"] = []


def _not_object(draw: st.DrawFn, args: dict[str, Any]) -> None:
    questions = args["questions"]
    questions.insert(draw(st.integers(0, len(questions))), pick(draw, (1, "q", [], None)))


def _bad_type(draw: st.DrawFn, args: dict[str, Any]) -> None:
    question = _any(draw, args)
    if draw(st.integers(0, 3)) == 0:
        del question["type"]
    else:
        question["type"] = pick(draw, ("choice", "single", "", 3, "free text"))


def _no_text(draw: st.DrawFn, args: dict[str, Any]) -> None:
    question = _any(draw, args)
    if draw(st.booleans()):
        del question["text"]
    else:
        question["text"] = pick(draw, (" ", "\u3000", "\u200b", 5))


def _bad_id(draw: st.DrawFn, args: dict[str, Any]) -> None:
    _any(draw, args)["id"] = pick(draw, (3, True, ["q"], {"id": "q"}))


def _duplicate_id(draw: st.DrawFn, args: dict[str, Any]) -> None:
    questions = args["questions"]
    if len(questions) < 2:
        questions.append({"type": "free_text", "text": "More"})
    questions[0]["id"] = questions[-1]["id"] = pick(draw, ("dup", "q1", "k1"))


def _no_options(draw: st.DrawFn, args: dict[str, Any]) -> None:
    question = _choice(draw, args)
    question.pop("default", None)
    if draw(st.booleans()):
        del question["options"]
    else:
        question["options"] = []


def _bad_option(draw: st.DrawFn, args: dict[str, Any]) -> None:
    question = _choice(draw, args)
    options = question["options"]
    first = options[0]["value"] if isinstance(options[0], dict) else options[0]
    bad = pick(draw, (" ", 1, None, first, f" {first} ", "__questionnaire_other__", {"label": "L"}))
    options.append(bad)


def _default_type(draw: st.DrawFn, args: dict[str, Any]) -> None:
    if draw(st.integers(0, 2)) == 0:
        question = [q for q in args["questions"] if q["type"] == "free_text"]
        if question:
            question[0]["default"] = pick(draw, (5, ["x"], True))
            return
    _set_default(draw, args, ["a"], "a")


def _default_not_in_options(draw: st.DrawFn, args: dict[str, Any]) -> None:
    _set_default(draw, args, "zzz", ["zzz"])


def _default_items(draw: st.DrawFn, args: dict[str, Any]) -> None:
    question = _choice(draw, args)
    question["type"] = "multi_choice"
    question["default"] = [pick(draw, (1, None, True, ["a"]))]


def _allow_other(draw: st.DrawFn, args: dict[str, Any]) -> None:
    _choice(draw, args)["allow_other"] = pick(draw, ("yes", 1, "true", 0))


# Valid arguments that still depend on one normalizing rule of §7.
def _trim(draw: st.DrawFn, args: dict[str, Any]) -> None:
    pad = pick(draw, (" ", "\u00a0", "\u3000", "\u200b", "\t"))
    question = _any(draw, args)
    question["text"] = pad + question["text"] + pick(draw, (pad, ""))


def _null_optional(draw: st.DrawFn, args: dict[str, Any]) -> None:
    question = _any(draw, args)
    question[pick(draw, ("id", "default", "allow_other"))] = None
    if draw(st.booleans()):
        args["title"] = None


def _alias(draw: st.DrawFn, args: dict[str, Any]) -> None:
    question = _any(draw, args)
    question["type"] = {
        "multi_choice": "multiple_choice",
        "free_text": "text",
        "single_choice": " Single_Choice ",
    }[question["type"]]


def _repeat_default(draw: st.DrawFn, args: dict[str, Any]) -> None:
    question = _choice(draw, args)
    question["type"] = "multi_choice"
    first = question["options"][0]
    value = first["value"] if isinstance(first, dict) else first
    question["default"] = [value, pick(draw, (value, f" {value}"))]


def _text_from_title(draw: st.DrawFn, args: dict[str, Any]) -> None:
    question = _any(draw, args)
    question["title"] = question.pop("text")
    if draw(st.booleans()):
        question["text"] = " "


def _not_arguments(draw: st.DrawFn, args: dict[str, Any]) -> None:
    pass  # handled by tool_one_rule: the whole value is replaced


#: Each §7 rule the strategy breaks or leans on, by the code (or normalizing rule) it
#: exercises; ``tool_one_rule`` draws one.
TOOL_RULES: Final[dict[str, Callable[[st.DrawFn, dict[str, Any]], None]]] = {
    "title_invalid": _break_title,
    "questions_must_be_list": _break_questions,
    "questions_empty": _empty_questions,
    "question_not_object": _not_object,
    "question_type_invalid": _bad_type,
    "question_text_required": _no_text,
    "question_id_invalid": _bad_id,
    "question_id_duplicate": _duplicate_id,
    "question_options_required": _no_options,
    "question_option_invalid": _bad_option,
    "default_type_invalid": _default_type,
    "default_value_not_in_options": _default_not_in_options,
    "default_list_invalid_items": _default_items,
    "allow_other_type_invalid": _allow_other,
    "arguments_not_object": _not_arguments,
    "trim": _trim,
    "null_is_absent": _null_optional,
    "type_alias": _alias,
    "default_repeat": _repeat_default,
    "text_from_title": _text_from_title,
}
_RULE_NAMES: Final[tuple[str, ...]] = tuple(TOOL_RULES)


@st.composite
def tool_one_rule(draw: st.DrawFn) -> Any:
    """``questionnaire_async`` arguments (§7) that are valid but for exactly one rule:
    one of the ``questionnaire.start.*`` codes (each key of :data:`TOOL_RULES` named
    after its code: a non-string title, questions not a list or empty, a question not
    an object, a bad type, no text, a bad or repeated id, no options, a bad option, a
    default of the wrong type or not among the options, non-string default items, a
    non-boolean ``allow_other``, arguments not an object), or valid arguments that
    rest on one normalizing rule (a value to trim, ``null`` for an optional field, a
    type alias, a repeated multi-choice default, ``title`` for a missing ``text``)."""
    rule = pick(draw, _RULE_NAMES)
    args: dict[str, Any] = {}
    if draw(st.booleans()):
        args["title"] = pick(draw, _WORDS)
    args["questions"] = [_valid_question(draw, i + 1) for i in range(draw(st.integers(1, 3)))]
    if rule == "arguments_not_object":
        return pick(draw, ([args], json.dumps(args, ensure_ascii=False), None, 1))
    TOOL_RULES[rule](draw, args)
    return args


_ONE_RULE: Final = tool_one_rule()

__all__ = ["TOOL_RULES", "tool_arguments", "tool_one_rule"]
