"""Comparing an adapter's answer with replykit's, on the fields the adapter produces.

Rules (docs/fuzzing.md, "Classes and rule tags"):

- only fields the adapter's answer holds are compared; a field it leaves out is not;
- a field name outside the protocol (not in :data:`KNOWN_FIELDS` and not in replykit's
  answer at that place) is ignored, except inside a kept action (and its ``params`` and
  ``target``), where every field is compared: a field that sanitizing should have
  removed is a disagreement (§12; seed 004 "8. 校验与拒绝规则"); ``message`` fields are
  never compared;
- a known field replykit leaves out compares as ``null``;
- a Markdown segment is compared on ``kind``, ``start``, ``end`` and ``text`` only;
- ``diagnostics`` and ``errors`` lists are multisets: both sides are projected on the
  fields the adapter's entries have, then compared sorted;
- other lists compare element by element; JSON scalars compare by JSON type
  (``true`` is not ``1``; ``30`` equals ``30.0``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from replykit.jsonout import key_text

PathPart = str | int
#: Every field name the adapter protocol knows (segments, diagnostics, forms, answers,
#: questionnaire_async results and errors, actions).
KNOWN_FIELDS: Final[frozenset[str]] = frozenset(
    {
        # segment responses
        "segments", "diagnostics", "kind", "start", "end", "text", "encoding", "name",
        "registered", "valid", "id", "questionnaire", "response",
        # diagnostics (left_out and count: the summary of the diagnostics cap, §1)
        "code", "severity", "line", "column", "path", "left_out", "count",
        # forms
        "title", "questions", "type", "options", "default", "allow_other", "value",
        "label", "ui_text", "timeout_seconds",
        # responses
        "questionnaire_id", "status", "answers", "question_id", "question", "answer",
        "values", "labels", "other_text",
        # questionnaire_async results
        "success", "validation_passed", "question_count", "should_end", "error_code",
        "errors", "details",
        # actions
        "actions", "style", "description", "riskLevel", "requiresConfirmation", "target",
        "params", "dataset", "componentId", "prompt", "chartType",
    }
)  # fmt: skip
#: Never compared: localized or free-form text.
IGNORED_FIELDS: Final[frozenset[str]] = frozenset({"message"})
#: Lists whose order is not part of the protocol.
MULTISET_FIELDS: Final[frozenset[str]] = frozenset({"diagnostics", "errors"})
_MARKDOWN_FIELDS: Final[frozenset[str]] = frozenset({"kind", "start", "end", "text"})
# Which field of an object is looked at first (boundaries before contents).
_ORDER: Final[dict[str, int]] = {
    name: i
    for i, name in enumerate(
        (
            "segments", "result", "kind", "start", "end", "encoding", "name", "registered",
            "id", "success", "validation_passed", "status", "error_code", "valid",
            "diagnostics", "errors", "questionnaire", "response", "actions",
        )
    )
}  # fmt: skip


@attrs.frozen
class Difference:
    """The first field where two answers differ.

    ``path``: keys and 0-based list indices from the response's root
    (``("segments", 2, "end")``); ``expected``: replykit's value there (``None`` when
    absent); ``actual``: the adapter's value (for a multiset list, both are the
    projected, sorted lists).

    It holds JSON values as exchanged with the adapter (plain ``dict`` and ``list``), so it does
    not hash.
    """

    path: tuple[PathPart, ...]
    expected: Any
    actual: Any

    @property
    def pointer(self) -> str:
        """``path`` as a JSON Pointer (RFC 6901), e.g. ``/segments/2/end``."""
        parts = (str(p).replace("~", "~0").replace("/", "~1") for p in self.path)
        return "".join("/" + p for p in parts)


def same_scalar(a: Any, b: Any) -> bool:
    """JSON equality of two scalars: booleans only equal booleans, numbers compare by
    value whatever their Python type, strings and ``null`` by type and value."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and a == b


def _norm(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {key_text(k): _norm(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_norm(v) for v in value]
    return value


def _canonical(value: Any) -> str:
    return json.dumps(_norm(value), sort_keys=True, ensure_ascii=True, default=str)


def _project(item: Any, keys: Sequence[str]) -> Any:
    if not isinstance(item, Mapping):
        return item
    return {k: item.get(k) for k in keys}


def _multiset(expected: Any, actual: list[Any], path: tuple[PathPart, ...]) -> Difference | None:
    if not isinstance(expected, list):
        return Difference(path, expected, actual)
    keys: list[str] = []
    for item in actual:
        if isinstance(item, Mapping):
            for k in item:
                if k in KNOWN_FIELDS and k not in IGNORED_FIELDS and k not in keys:
                    keys.append(k)
    if not keys:
        keys = ["code"]
    mine = sorted((_project(x, keys) for x in expected), key=_canonical)
    theirs = sorted((_project(x, keys) for x in actual), key=_canonical)
    if _canonical(mine) == _canonical(theirs):
        return None
    return Difference(path, mine, theirs)


def _keys(
    expected: Mapping[str, Any], actual: Mapping[str, Any], markdown: bool, kept_action: bool
) -> list[str]:
    keys = [
        k
        for k in actual
        if isinstance(k, str)
        and k not in IGNORED_FIELDS
        # Inside a kept action every field counts: one outside the protocol (a tool
        # name, a URL, an argument object) is exactly what sanitizing must remove.
        and (kept_action or k in expected or k in KNOWN_FIELDS)
        and (not markdown or k in _MARKDOWN_FIELDS)
    ]
    return sorted(keys, key=lambda k: (_ORDER.get(k, len(_ORDER)), k))


def _diff(expected: Any, actual: Any, path: tuple[PathPart, ...]) -> Difference | None:
    if isinstance(actual, Mapping):
        if not isinstance(expected, Mapping):
            return Difference(path, expected, actual)
        in_segments = len(path) >= 2 and path[-2] == "segments"
        markdown = in_segments and expected.get("kind") == "markdown"
        kept_action = "actions" in path
        for k in _keys(expected, actual, markdown, kept_action):
            sub = (*path, k)
            value = actual[k]
            if k in MULTISET_FIELDS and isinstance(value, list):
                found = _multiset(expected.get(k), value, sub)
            else:
                found = _diff(expected.get(k), value, sub)
            if found is not None:
                return found
        return None
    if isinstance(actual, list):
        if not isinstance(expected, list):
            return Difference(path, expected, actual)
        for i in range(max(len(expected), len(actual))):
            if i >= len(expected) or i >= len(actual):
                return Difference(
                    (*path, i),
                    expected[i] if i < len(expected) else None,
                    actual[i] if i < len(actual) else None,
                )
            found = _diff(expected[i], actual[i], (*path, i))
            if found is not None:
                return found
        return None
    if isinstance(expected, Mapping | list) or not same_scalar(expected, actual):
        return Difference(path, expected, actual)
    return None


def value_difference(
    expected: Any, actual: Any, path: tuple[PathPart, ...] = ()
) -> Difference | None:
    """The first difference of two values by the rules of :func:`first_difference`
    (``path`` is prefixed to the difference's path), or ``None``. Never raises."""
    return _diff(expected, actual, path)


def first_difference(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> Difference | None:
    """The first field where ``actual`` (an adapter's response, ``id`` removed) departs
    from ``expected`` (replykit's), or ``None`` when they agree on every compared field.

    Fields are visited boundaries first (``segments`` before ``diagnostics``; in a
    segment ``kind``, ``start``, ``end``, then ``encoding``, ``name``, ``registered``,
    ``id``, ``valid``, ``diagnostics``, the form), objects by that order, lists by
    index. Never raises.
    """
    return _diff(expected, {k: v for k, v in actual.items() if k != "id"}, ())
