"""Answer-actions inputs near every limit (§12)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Final

from hypothesis import strategies as st

from replykit.actions.model import ACTION_TYPES, CHART_TYPES
from replykit.testing.strategies._common import JUNK, pick

# The whitelists come from the model, so the strategies follow any change to them.
_ACTION_TYPES: Final[tuple[str, ...]] = ACTION_TYPES
_CHARTS: Final[tuple[str, ...]] = CHART_TYPES
_TARGETS: Final[tuple[Any, ...]] = (
    {"componentId": "c1"},
    {"dataset": "d"},
    {},
    {"componentId": ""},
    "c1",
    {"componentId": "c" * 121},
    {"url": "x"},
)


def _near(draw: st.DrawFn, limit: int, usual: Sequence[str] = ()) -> str:
    """A text at, under or over ``limit`` code points: ASCII, BMP CJK, astral emoji
    (over the limit in UTF-16 units but not in code points), a blank one, or one of
    the ``usual`` values."""
    kind = draw(st.integers(0, 5 if usual else 2))
    if kind >= 3:
        return pick(draw, usual)
    if kind == 2:
        return pick(draw, ("", " ", "\u3000", "\u200b"))
    size = pick(draw, (1, limit // 2 + 1, limit - 1, limit, limit + 1))
    return pick(draw, ("a", "工", "😀")) * size


@st.composite
def actions(draw: st.DrawFn) -> Any:
    """One action object (seed 004 "3. 通用结构", §12), mostly keepable, with fields near their
    limits, wrong types, fields outside the protocol, reserved ids and texts holding
    control or bidi characters (tab and line breaks in prompts); sometimes not an
    object."""
    if draw(st.integers(0, 15)) == 0:
        return copy.deepcopy(pick(draw, JUNK))
    action_type = pick(draw, (*_ACTION_TYPES, "tool.call", "View.Detail", None))
    item: dict[str, Any] = {
        "id": _near(draw, 80, ("a1", "a2", "a1", "constructor", "__proto__", "a\x00b")),
        "type": action_type,
        "label": _near(draw, 32, ("OK", "继续", "\u202eetelpmoC\u202c", "a\tb")),
    }
    params: dict[str, Any] = {}
    if draw(st.integers(0, 3)):
        params["prompt"] = _near(draw, 800, ("Go on", "继续处理", "a\r\nb\tc", "a\x1b[0m"))
    if draw(st.integers(0, 2)) == 0 or action_type == "render.change":
        params["chartType"] = pick(draw, (*_CHARTS, "pie", "BAR"))
    if draw(st.integers(0, 5)) == 0:
        params["arguments"] = {"x": 1}
    with_params: bool = bool(params) or draw(st.booleans())
    if with_params:
        item["params"] = params if draw(st.integers(0, 8)) else copy.deepcopy(pick(draw, JUNK))
    if draw(st.integers(0, 4)) == 0:
        item["style"] = pick(draw, ("primary", "default", "danger", "link", 1))
    if draw(st.integers(0, 4)) == 0:
        item["title"] = _near(draw, 80, ("Sure?", "t\u2066x"))
    if draw(st.integers(0, 4)) == 0:
        item["description"] = _near(draw, 240, ("Stops the task.", "d\x85"))
    if draw(st.integers(0, 4)) == 0:
        item["riskLevel"] = pick(draw, ("LOW", "MEDIUM", "HIGH", "high", None))
    if draw(st.integers(0, 4)) == 0:
        item["requiresConfirmation"] = pick(draw, (True, False, "true", 1))
    if draw(st.integers(0, 4)) == 0:
        item["target"] = copy.deepcopy(pick(draw, _TARGETS))
    if draw(st.integers(0, 4)) == 0:
        item["tool"] = "shell"
    if draw(st.integers(0, 4)) == 0:
        item["url"] = "https://example.invalid/"
    return item


_ACTION: Final = actions()


@st.composite
def action_lists(draw: st.DrawFn) -> Any:
    """The value of an ``actions`` key: mostly a list of 0-11 :func:`actions` (more
    than the 8 shown, duplicate ids), sometimes junk (not a list, §12
    ``actions.not_list``)."""
    if draw(st.integers(0, 12)) == 0:
        return copy.deepcopy(pick(draw, JUNK))
    return [draw(_ACTION) for _ in range(draw(st.integers(0, 11)))]


_ACTION_LISTS: Final = action_lists()


@st.composite
def answers(draw: st.DrawFn) -> Any:
    """A ``sanitize_actions`` input (§12): the wrapper ``{"answerData", "payload"}``
    with either or both, a bare payload (has ``template``), a bare answerData, an
    answerData whose ``actions`` is not a list, or junk."""
    kind = draw(st.integers(0, 6))
    lists = _ACTION_LISTS
    if kind == 0:
        return {"answerData": {"actions": draw(lists)}, "payload": {"actions": draw(lists)}}
    if kind == 1:
        return {"payload": {"template": "t", "actions": draw(lists)}}
    if kind == 2:
        return {"template": "t", "actions": draw(lists)}
    if kind == 3:
        return {"answerData": {"summary": "s"}, "payload": {"actions": draw(lists)}}
    if kind == 4:
        return copy.deepcopy(pick(draw, JUNK))
    return {"actions": draw(lists), "schemaVersion": pick(draw, [1, "2", None])}


__all__ = ["action_lists", "actions", "answers"]
