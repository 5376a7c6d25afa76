"""``questionnaire_async`` arguments, valid and invalid (§7)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from replykit.testing.strategies._common import JUNK, SAFE_WORDS, pick


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
    not an object at all, or an extra key that the tool ignores."""
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


__all__ = ["tool_arguments"]
