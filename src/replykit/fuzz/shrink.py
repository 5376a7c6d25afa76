"""Greedy delta debugging to a 1-minimal input (docs/fuzzing.md, "Shrinking").

Text (a ``segment`` message): first whole lines, then the members of every JSON
object and array written in the text (an XML+JSON payload: a key with its value, a
list item, with the comma between them), then single characters (code points) are
removed while the predicate still holds, in chunks that halve down to one unit; then
each character that needs a second look (an invisible, format or non-ASCII character,
a CR) is replaced by a plain one (``a``, a space for a blank, ``\\n`` for a CR) where
the predicate still holds; the passes repeat until none changes anything. The result is *1-minimal*:
removing any one line (with its line ending, §1: ``\\n``, ``\\r\\n`` or a lone
``\\r``), any one JSON member or any one character loses the property.

JSON (tool arguments, answers): the same, structurally: no list element and no object
key (with its value) can be removed, then no line and no character of any string
value; then a string that occurs more than once is shrunk in every place at once
(duplicate ids stay duplicates). Keys are never shortened.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from replykit.text import iter_lines
from replykit.textout import is_unsafe

#: JSON values parsed inside a text to find members, at most (each parse is linear).
MAX_JSON_STARTS = 64
_BLANKS = frozenset(
    "\t\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u202f\u205f\u3000"
)

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


class _Json:
    """A strict-enough JSON reader that records where each member of each object and
    array starts and ends (for the member pass of :func:`shrink_text`)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.containers: list[list[tuple[int, int]]] = []

    def _ws(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in " \t\r\n":
            i += 1
        return i

    def _string(self, i: int) -> int:
        i += 1
        while i < len(self.text):
            ch = self.text[i]
            if ch == "\\":
                i += 2
                continue
            if ch == '"':
                return i + 1
            if ch < " ":
                raise ValueError(i)
            i += 1
        raise ValueError(i)

    def value(self, i: int, depth: int = 0) -> int:
        """The end of the JSON value starting at ``i``; raises ``ValueError``."""
        if depth > 64 or i >= len(self.text):
            raise ValueError(i)
        ch = self.text[i]
        if ch == '"':
            return self._string(i)
        if ch in "{[":
            close = "}" if ch == "{" else "]"
            members: list[tuple[int, int]] = []
            j = self._ws(i + 1)
            if j < len(self.text) and self.text[j] == close:
                self.containers.append(members)
                return j + 1
            while True:
                start = j
                if ch == "{":
                    if j >= len(self.text) or self.text[j] != '"':
                        raise ValueError(j)
                    j = self._ws(self._string(j))
                    if j >= len(self.text) or self.text[j] != ":":
                        raise ValueError(j)
                    j = self._ws(j + 1)
                j = self.value(j, depth + 1)
                members.append((start, j))
                j = self._ws(j)
                if j < len(self.text) and self.text[j] == ",":
                    j = self._ws(j + 1)
                    continue
                if j < len(self.text) and self.text[j] == close:
                    self.containers.append(members)
                    return j + 1
                raise ValueError(j)
        k = i
        while k < len(self.text) and (self.text[k].isalnum() or self.text[k] in "+-."):
            k += 1
        if k == i:
            raise ValueError(i)
        return k


def json_member_spans(text: str) -> list[tuple[int, int]]:
    """The spans that remove one member of a JSON object or array written in ``text``
    (with the comma that joins it to its neighbour), outer containers first. Only
    containers that parse as JSON (numbers and literals read loosely) count; at most
    :data:`MAX_JSON_STARTS` parse attempts."""
    spans: list[tuple[int, int]] = []
    i, tries = 0, 0
    while i < len(text) and tries < MAX_JSON_STARTS:
        if text[i] not in "{[":
            i += 1
            continue
        tries += 1
        reader = _Json(text)
        try:
            end = reader.value(i)
        except ValueError:
            i += 1
            continue
        for members in reversed(reader.containers):  # the outer container was closed last
            for j, (start, stop) in enumerate(members):
                if j + 1 < len(members):
                    spans.append((start, members[j + 1][0]))
                elif j > 0:
                    spans.append((members[j - 1][1], stop))
                else:
                    spans.append((start, stop))
        i = end
    return spans


def _remove_members(text: str, check: Callable[[str], bool]) -> tuple[str, bool]:
    changed = False
    progress = True
    while progress:
        progress = False
        for start, end in json_member_spans(text):
            candidate = text[:start] + text[end:]
            if check(candidate):
                text, changed, progress = candidate, True, True
                break
    return text, changed


def _plain(ch: str) -> str | None:
    """A plain stand-in for a character that needs a second look, else ``None``."""
    if ch == "\r":
        return "\n"
    if ch in _BLANKS:
        return " "
    if is_unsafe(ch) and ch not in "\n\r":
        return " "
    if ord(ch) > 0x7E:
        return "a"
    return None


def _simplify(text: str, check: Callable[[str], bool]) -> tuple[str, bool]:
    changed = False
    for i, ch in enumerate(text):
        plain = _plain(ch)
        if plain is None:
            continue
        candidate = text[:i] + plain + text[i + 1 :]
        if check(candidate):
            text, changed = candidate, True
    return text, changed


def shrink_text(text: str, holds: Callable[[str], bool]) -> str:
    """A 1-minimal sub-sequence of ``text`` for which ``holds`` is true, with plain
    characters where the odd ones are not needed (module docstring).

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
        text, by_member = _remove_members(text, check)
        chars, by_char = _remove_units(list(text), lambda u: check("".join(u)))
        text = "".join(chars)
        text, by_plain = _simplify(text, check)
        if not (by_member or by_char or by_plain):
            # The line pass ended with a single-line pass that removed nothing from
            # this very text, and so did the member and character passes: 1-minimal.
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
    and then no line or character of a string value (of one string, or of every copy
    of a repeated one at once) can be removed without making ``holds`` false. Raises
    what ``holds`` raises.
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
            reduced = _reduce_together(value, check)
        if reduced is None:
            return value
        value = reduced


def _replace_all(value: Any, old: str, new: str) -> Any:
    """``value`` with every string equal to ``old`` (keys left alone) made ``new``."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_replace_all(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: _replace_all(item, old, new) for key, item in value.items()}
    return value


def _reduce_together(value: Any, check: Callable[[Any], bool]) -> Any | None:
    """One reduction of a string that occurs more than once, shrunk in every place at
    once (two ids that must stay equal to stay duplicates), or ``None``."""
    seen: dict[str, int] = {}
    for _, node in _paths(value):
        if isinstance(node, str) and node:
            seen[node] = seen.get(node, 0) + 1
    for text, count in seen.items():
        if count < 2:
            continue

        def everywhere(candidate: str, old: str = text) -> bool:
            return check(_replace_all(value, old, candidate))

        shrunk = shrink_text(text, everywhere)
        if shrunk != text:
            return _replace_all(value, text, shrunk)
    return None


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
