"""Greedy delta debugging to a 1-minimal input (docs/fuzzing.md, "Shrinking").

Text (a ``segment`` message): first whole lines, then single characters (code
points) are removed while the predicate still holds, in chunks that halve down to one
unit, and the two passes repeat until neither removes anything. The result is
*1-minimal*: removing any one line (with its line ending, §1: ``\\n``, ``\\r\\n`` or a
lone ``\\r``) or any one character loses the property.

JSON (tool arguments, answers): the same, structurally: no list element and no object
key (with its value) can be removed, then no line and no character of any string
value. Keys are never shortened.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from replykit.text import iter_lines

T = TypeVar("T")
Path = tuple[str | int, ...]


def lines_of(text: str) -> list[str]:
    """``text`` split into lines that keep their line endings (§1 line endings only;
    U+2028 and friends do not end a line). ``"".join(lines_of(t)) == t``."""
    return [text[start:end] for start, _, end in iter_lines(text)]


def _remove_units(units: list[T], holds: Callable[[list[T]], bool]) -> tuple[list[T], bool]:
    """Remove chunks of ``units`` (sizes halving to 1) while ``holds`` stays true; stop
    after a full single-unit pass that removes nothing. Returns (units, changed)."""
    changed = False
    chunk = max(len(units) // 2, 1)
    while units:
        removed = False
        i = 0
        while i < len(units):
            candidate = units[:i] + units[i + chunk :]
            if holds(candidate):
                units = candidate
                removed = changed = True
            else:
                i += chunk
        if chunk == 1:
            if not removed:
                break
        else:
            chunk = max(chunk // 2, 1)
    return units, changed


def shrink_text(text: str, holds: Callable[[str], bool]) -> str:
    """A 1-minimal sub-sequence of ``text`` for which ``holds`` is true.

    Input: ``text`` for which ``holds(text)`` is true (not re-checked) and a pure
    predicate. Output: the shrunk text (``text`` itself when nothing can go). Never
    calls ``holds`` twice on the same string. Raises what ``holds`` raises.
    """
    cache: dict[str, bool] = {text: True}

    def check(candidate: str) -> bool:
        if candidate not in cache:
            cache[candidate] = holds(candidate)
        return cache[candidate]

    while True:
        lines, _ = _remove_units(lines_of(text), lambda u: check("".join(u)))
        text = "".join(lines)
        chars, by_char = _remove_units(list(text), lambda u: check("".join(u)))
        text = "".join(chars)
        if not by_char:
            # The line pass ended with a single-line pass that removed nothing from
            # this very text, and so did the character pass: 1-minimal.
            return text


def _get(value: Any, path: Path) -> Any:
    for part in path:
        value = value[part]
    return value


def _replace(value: Any, path: Path, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, list) and isinstance(head, int):
        out = list(value)
        out[head] = _replace(value[head], rest, new)
        return out
    if isinstance(value, dict):
        copy = dict(value)
        copy[head] = _replace(value[head], rest, new)
        return copy
    return value  # pragma: no cover - paths come from _paths


def _paths(value: Any, path: Path = ()) -> list[tuple[Path, Any]]:
    out: list[tuple[Path, Any]] = [(path, value)]
    if isinstance(value, list):
        for i, item in enumerate(value):
            out.extend(_paths(item, (*path, i)))
    elif isinstance(value, dict):
        for key, item in value.items():
            out.extend(_paths(item, (*path, key)))
    return out


def shrink_json(value: Any, holds: Callable[[Any], bool]) -> Any:
    """A 1-minimal reduction of a JSON value for which ``holds`` is true.

    Input: a JSON-like value (``dict``, ``list``, scalars) for which ``holds`` is true
    and a pure predicate. Output: a value from which no list element, no object entry,
    and then no line or character of a string value can be removed without making
    ``holds`` false. Raises what ``holds`` raises.
    """
    cache: dict[str, bool] = {}

    def check(candidate: Any) -> bool:
        key = json.dumps(candidate, sort_keys=False, default=repr)
        if key not in cache:
            cache[key] = holds(candidate)
        return cache[key]

    while True:
        reduced = _reduce_once(value, check)
        if reduced is None:
            return value
        value = reduced


def _reduce_once(value: Any, check: Callable[[Any], bool]) -> Any | None:
    """One successful reduction of ``value`` (the first node, in document order, that
    loses an element, an entry or characters), or ``None`` when none is possible."""
    for path, node in _paths(value):

        def at(new: Any, p: Path = path) -> bool:
            return check(_replace(value, p, new))

        if isinstance(node, list) and node:
            kept, changed = _remove_units(list(node), at)
            if changed:
                return _replace(value, path, kept)
        elif isinstance(node, dict) and node:
            items, changed = _remove_units(list(node.items()), lambda u: at(dict(u)))
            if changed:
                return _replace(value, path, dict(items))
        elif isinstance(node, str) and node:
            text = shrink_text(node, at)
            if text != node:
                return _replace(value, path, text)
    return None
