"""Strict JSON out (§1): every JSON text replykit writes, and values safe to write.

- :func:`dumps`: RFC 8259 JSON text; never ``NaN``/``Infinity`` (``allow_nan=False`` is
  the last guard), a lone surrogate written as a ``\\udXXX`` escape so the text is
  always valid UTF-8.
- :func:`portable`: a copy of a caller's value that strict JSON can hold, for the
  ``details`` of results (a Python caller may pass ``float("inf")``).
- :func:`displayable`: text with lone surrogates replaced, for display texts.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

_LONE = re.compile("[\ud800-\udfff]")
#: Containers nested deeper than this are shown as ``"…"`` by :func:`portable`.
PORTABLE_DEPTH = 64


def _escape_lone(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def dumps(
    value: Any, *, indent: int | None = None, compact: bool = False, ascii_only: bool = False
) -> str:
    """``value`` as strict RFC 8259 JSON text (§1).

    Input: a plain value (``dict`` with ``str`` keys, ``list``/``tuple``, ``str``,
    ``int``, finite ``float``, ``bool``, ``None``). ``indent``: spaces per level (``None``
    for one line); ``compact``: no spaces after ``,`` and ``:``; ``ascii_only``: escape
    every non-ASCII character. Output: the text; characters are kept as they are
    (``ascii_only`` false) except a lone surrogate, written as a ``\\udXXX`` escape so
    the text always encodes as UTF-8.

    Raises ``ValueError`` for a non-finite float or an ``int`` of more than 4300 digits
    and ``TypeError`` for a type JSON has no counterpart for: values from a caller go
    through :func:`portable` first.
    """
    separators = (",", ":") if compact else None
    text = json.dumps(
        value, ensure_ascii=ascii_only, allow_nan=False, indent=indent, separators=separators
    )
    # With ensure_ascii off, a raw surrogate can only stand inside a string literal.
    return text if ascii_only else _LONE.sub(_escape_lone, text)


def escape_lone(text: str) -> str:
    """``text`` with each lone surrogate written as a ``\\udXXX`` escape (six ASCII
    characters), so it encodes as UTF-8: how a diagnostic's message and path show a
    surrogate that came from a payload or a caller (§1)."""
    return _LONE.sub(_escape_lone, text)


def displayable(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD, so it encodes as UTF-8 (§1).
    For display texts; JSON output keeps the code point as an escape (:func:`dumps`)."""
    return _LONE.sub("\ufffd", text)


def _big_int(value: int) -> str:
    """An integer beyond a float's range as scientific notation: its first 17 digits
    (truncated) and the exponent, ``"1.2345e+400"``. Never converts the whole int to
    ``str`` (Python refuses that past 4300 digits)."""
    magnitude = abs(value)
    digits = magnitude.bit_length() * 30102 // 100000  # log10 from below
    while 10**digits <= magnitude:
        digits += 1
    head = str(magnitude // 10 ** max(digits - 17, 0)).rstrip("0") or "0"
    mantissa = head[0] + ("." + head[1:] if len(head) > 1 else "")
    return f"{'-' if value < 0 else ''}{mantissa}e+{digits - 1}"


#: The most code points a key that is not a string is written with (§1: bounded output).
KEY_TEXT_MAX = 200


#: Key types whose ``str()`` is their value, the same in every run (a number, a
#: boolean, ``None``, bytes; a ``str`` inside a tuple key).
_VALUE_TYPES = (str, bytes, bool, int, float, complex, type(None))


def _written_by_value(key: object) -> bool:
    """True when ``str(key)`` shows only values (:data:`_VALUE_TYPES`, tuples of them),
    never a memory address (``<object object at 0x...>``) or a hash order (a
    ``frozenset``). Looks at the first :data:`KEY_TEXT_MAX` parts in the order ``str()``
    writes them, each at least one character of it, so past them nothing is shown."""
    stack, seen = [key], 0
    while stack and seen < KEY_TEXT_MAX:
        part = stack.pop()
        seen += 1
        if type(part) is tuple:
            stack.extend(reversed(part))
        elif type(part) not in _VALUE_TYPES:
            return False
    return True


def key_text(key: object) -> str:
    """How a mapping key that is not a string (possible from Python, never from JSON)
    is written in a path or a message, the same in every run (docs/protocol.md §2):
    its ``str()`` when that shows only values (a number, a boolean, ``None``, bytes, a
    tuple of such values or strings), but an ``int`` of more than 4300 digits in
    scientific notation (Python refuses ``str()`` past that); any other key by its type,
    ``<TypeName>`` (an ``object()`` key is ``<object>``, never ``<object object at
    0x...>``; a ``frozenset`` is ``<frozenset>``, as its order changes between runs), as
    is a key whose ``str()`` fails; at most :data:`KEY_TEXT_MAX` code points (cut with
    ``...``). A string key is returned as it is. Input: any object. Never raises (§1)."""
    if isinstance(key, str):
        return key
    if not _written_by_value(key):
        return shown_text(f"<{type(key).__name__}>")
    return _bounded(str, key)


def shown_repr(value: object) -> str:
    """``repr(value)`` for an error message about a caller's value: never raises (an
    ``int`` of more than 4300 digits in scientific notation, ``<TypeName>`` when
    ``repr()`` itself fails) and at most :data:`KEY_TEXT_MAX` code points (cut with
    ``...``), so a message stays one short line whatever the value (§1)."""
    return _bounded(repr, value)


def shown_text(text: str, limit: int = KEY_TEXT_MAX) -> str:
    """``text`` (a name, word or value taken from the input) as a message shows it: at
    most ``limit`` code points (:data:`KEY_TEXT_MAX` unless given), cut with ``...``
    (§1: bounded output)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _bounded(write: Callable[[object], str], value: object) -> str:
    try:
        text = write(value)
    except Exception:  # an int past 4300 digits, deep nesting, or the object's own method
        text = _big_int(value) if isinstance(value, int) else f"<{type(value).__name__}>"
    return shown_text(text)


def _scalar(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        try:
            float(value)
        except OverflowError:
            return _big_int(int(value))
        return int(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return float(value)
    return f"<{type(value).__name__}>"


def _key(key: Any) -> str:
    if isinstance(key, str):
        return str(key)
    if key is None or isinstance(key, bool):
        return json.dumps(key)
    shown = _scalar(key)
    return shown if isinstance(shown, str) else json.dumps(shown)


def portable(value: Any) -> Any:
    """A new copy of ``value`` that :func:`dumps` can always write (§1).

    Mappings become ``dict`` (keys as ``str``: numbers, booleans and null as JSON writes
    them), lists and tuples ``list``; strings, booleans, ``None``, finite floats and
    integers within a 64-bit float's range are kept. Replaced by strings: ``NaN``,
    ``Infinity``, ``-Infinity`` for non-finite floats; an integer beyond a float's range
    by scientific notation (``"1e+400"``, first 17 digits); any other type by
    ``"<typename>"``; a container inside itself by ``"<cycle>"``; containers nested
    deeper than 64 levels by ``"…"``. Lone surrogates stay (:func:`dumps` escapes
    them). Iterative: never recurses, never raises.
    """
    holder: list[Any] = [None]
    active: set[int] = set()  # ids of the containers on the current path
    work: list[tuple[Any, Any, Any, int] | int] = [(value, holder, 0, 0)]
    while work:
        item = work.pop()
        if isinstance(item, int):
            active.discard(item)
            continue
        src, target, slot, depth = item
        is_map = isinstance(src, Mapping)
        if not is_map and not isinstance(src, list | tuple):
            target[slot] = _scalar(src)
            continue
        if id(src) in active:
            target[slot] = "<cycle>"
            continue
        if depth >= PORTABLE_DEPTH:
            target[slot] = "…"
            continue
        active.add(id(src))
        work.append(id(src))
        children: list[tuple[Any, Any, Any, int]] = []
        if is_map:
            new_map: dict[str, Any] = {}
            for k, v in src.items():
                key = _key(k)
                new_map[key] = None
                children.append((v, new_map, key, depth + 1))
            target[slot] = new_map
        else:
            new_list: list[Any] = [None] * len(src)
            children.extend((v, new_list, i, depth + 1) for i, v in enumerate(src))
            target[slot] = new_list
        work.extend(reversed(children))
    return holder[0]
