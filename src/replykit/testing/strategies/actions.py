"""Answer-actions inputs near every limit (§12)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Final

from hypothesis import strategies as st

from replykit.actions.model import (
    ACTION_TYPES,
    CHART_TYPES,
    MAX_DESCRIPTION,
    MAX_ID,
    MAX_LABEL,
    MAX_SHOWN,
    MAX_TITLE,
    PROMPT_REQUIRED_TYPES,
)
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
    answerData whose ``actions`` is not a list, or junk. Half the time, instead, an
    answer of keepable actions with one thing a client is known to get wrong: a
    ``url`` (:func:`url_answers`), a repeated id (:func:`duplicate_id_answers`) or a
    text over its limit in UTF-16 units only (:func:`utf16_label_answers`)."""
    if draw(st.booleans()):
        return draw(_FAMILIES)
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


# ---------------------------------------------------------------- fault families
# Valid actions with exactly one thing a client is known to get wrong, so that the
# difference shows on its own (docs/fuzzing.md, "Fault families").

_LABELS: Final[tuple[str, ...]] = ("OK", "继续", "Details", "Retry", "Show as table")
#: Characters outside the BMP: one code point here, two UTF-16 units in JavaScript.
_ASTRAL: Final[tuple[str, ...]] = ("😀", "𝔘", "🎉", "𠀀")


def _keepable(draw: st.DrawFn, index: int) -> dict[str, Any]:
    # An action every rule of docs/actions.md keeps as it is.
    action_type = pick(draw, _ACTION_TYPES)
    item: dict[str, Any] = {"id": f"a{index}", "type": action_type, "label": pick(draw, _LABELS)}
    if action_type in PROMPT_REQUIRED_TYPES:
        item["params"] = {"prompt": pick(draw, ("Go on", "继续处理", "Do it"))}
    elif action_type == "render.change":
        item["params"] = {"chartType": pick(draw, _CHARTS)}
    if draw(st.integers(0, 3)) == 0:
        item["style"] = pick(draw, ("primary", "default", "danger"))
    return item


def _keepable_list(draw: st.DrawFn, low: int = 1, high: int = 4) -> list[dict[str, Any]]:
    return [_keepable(draw, i + 1) for i in range(draw(st.integers(low, high)))]


def _wrapped(draw: st.DrawFn, items: list[Any]) -> dict[str, Any]:
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return {"actions": items}
    if kind == 1:
        return {"answerData": {"actions": items}}
    return {"template": "t", "actions": items}


@st.composite
def url_answers(draw: st.DrawFn) -> dict[str, Any]:
    """An answer of keepable actions, one with a ``url`` at the top level, in
    ``params`` or in ``target`` (§12: removed, ``action.field_removed``)."""
    items = _keepable_list(draw)
    item = pick(draw, items)
    where = draw(st.integers(0, 2))
    url = pick(draw, ("https://example.invalid/", "javascript:alert(1)", "/api/run"))
    if where == 0:
        item["url"] = url
    elif where == 1:
        item.setdefault("params", {})["url"] = url
    else:
        item["target"] = {"componentId": "c1", "url": url}
    return _wrapped(draw, items)


@st.composite
def duplicate_id_answers(draw: st.DrawFn) -> dict[str, Any]:
    """An answer of keepable actions, one repeating an earlier id (§12: the first
    kept one wins, ``action.id_duplicate``); also the id of an action dropped by an
    earlier rule (which claims nothing, so the repeat is kept) or of one over the
    limit of 8 (which still claims its id)."""
    kind = draw(st.integers(0, 3))
    if kind == 3:
        items = _keepable_list(draw, MAX_SHOWN + 1, MAX_SHOWN + 1)
        items.append({**_keepable(draw, 99), "id": items[-1]["id"]})
        return _wrapped(draw, items)
    items = _keepable_list(draw)
    first = pick(draw, items)
    repeat = {**_keepable(draw, 99), "id": first["id"]}
    if kind == 2:
        first["label"] = pick(draw, ("", "x" * (MAX_LABEL + 1)))
    items.insert(draw(st.integers(items.index(first) + 1, len(items))), repeat)
    return _wrapped(draw, items)


def _units_over(draw: st.DrawFn, limit: int) -> str:
    # At most ``limit`` code points but more than ``limit`` UTF-16 units.
    size = draw(st.integers(limit // 2 + 1, limit))
    astral = draw(st.integers(limit + 1 - size, size))
    return pick(draw, _ASTRAL) * astral + pick(draw, ("a", "工")) * (size - astral)


@st.composite
def utf16_label_answers(draw: st.DrawFn) -> dict[str, Any]:
    """An answer of keepable actions, one whose label (or id, title, description)
    is within its limit in code points but over it in UTF-16 units (§12: kept; a
    32-emoji label is 64 units)."""
    items = _keepable_list(draw)
    item = pick(draw, items)
    field = pick(draw, ("label", "label", "label", "id", "title", "description"))
    limits = {"label": MAX_LABEL, "id": MAX_ID, "title": MAX_TITLE, "description": MAX_DESCRIPTION}
    item[field] = _units_over(draw, limits[field])
    return _wrapped(draw, items)


_FAMILIES: Final = st.one_of(url_answers(), duplicate_id_answers(), utf16_label_answers())

__all__ = [
    "action_lists",
    "actions",
    "answers",
    "duplicate_id_answers",
    "url_answers",
    "utf16_label_answers",
]
