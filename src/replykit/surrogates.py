"""Lone surrogates in values a Python caller passes (docs/protocol.md §1).

A surrogate code point (U+D800-U+DFFF) is half of a UTF-16 pair, not a character. JSON
cannot carry one faithfully: written as a ``\\udXXX`` escape, a high one directly
followed by a low one reads back as a single character (``"\\ud800\\udc00"`` is
U+10000). Every text reader refuses them (``json.lone_surrogate``,
``yaml.lone_surrogate``); these helpers find them in Python values that reach a form or
an answer without a reader: tool arguments, answers, a form built by hand.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from replykit.codes.payload import JSON_KEY_NOT_STRING, JSON_LONE_SURROGATE
from replykit.diagnostics import Finding, Path, format_path
from replykit.jsonout import key_text
from replykit.questionnaire.payload.describe import json_type

_LONE = re.compile("[\ud800-\udfff]")


def first_lone_surrogate(text: str) -> str | None:
    """The first surrogate code point in ``text``, or ``None``. In a Python ``str`` every
    one is lone: a pair of them is two code points, never one character."""
    found = _LONE.search(text)
    return None if found is None else found.group()


def lone_surrogate_finding(path: Path, char: str) -> Finding:
    """The ``json.lone_surrogate`` error for the string at ``path`` holding ``char``;
    ``details["path"]`` is the 1-based path (``questions[1].text``)."""
    where = format_path(path)
    return JSON_LONE_SURROGATE.finding(
        path,
        variant="value" if where else "root_value",
        details={"path": where},
        path=where,
        shown=f"U+{ord(char):04X}",
    )


def lone_surrogates(value: Any) -> Iterator[tuple[Path, str]]:
    """``(path, surrogate)`` for every string (mapping keys too, at the entry's path) in
    a JSON-like ``value`` (mappings, lists, tuples) that holds a surrogate, in document
    order. Iterative; the caller bounds the value's size first (a cyclic value never
    ends)."""
    stack: list[tuple[Any, Path]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            char = first_lone_surrogate(item)
            if char is not None:
                yield path, char
        elif isinstance(item, Mapping):
            for key, child in reversed(list(item.items())):
                where = (*path, key_text(key))
                stack.append((child, where))
                if isinstance(key, str):
                    stack.append((key, where))
        elif isinstance(item, list | tuple):
            stack.extend((child, (*path, i)) for i, child in reversed(list(enumerate(item))))


class _Key:
    """A mapping key that is not a string, on the walk of :func:`refused_values`."""

    __slots__ = ("key",)

    def __init__(self, key: object) -> None:
        self.key = key


def key_not_string_finding(path: Path, key: object) -> Finding:
    """The ``json.key_not_string`` error for ``key`` of the mapping at ``path``;
    ``details``: ``path`` (1-based, ``None`` at the root), ``key`` (written by
    :func:`~replykit.jsonout.key_text`, bounded) and ``actual`` (its type)."""
    where = format_path(path)
    shown, actual = key_text(key), json_type(key)
    return JSON_KEY_NOT_STRING.finding(
        path, variant=None if where else "root",
        details={"path": where, "key": shown, "actual": actual},
        path=where, key=shown, actual=actual,
    )  # fmt: skip


def refused_values(value: Any) -> Iterator[tuple[str, Callable[[], Finding]]]:
    """The errors of a Python caller's JSON-like ``value`` (mappings, lists, tuples)
    that JSON cannot carry, in document order (docs/protocol.md §1.3;
    docs/protocol-responses.md section 2): ``json.lone_surrogate`` for a string (a key
    too) holding a surrogate, at its path, and ``json.key_not_string`` for a mapping key
    that is not a string, at the mapping's path. Each as ``(code, build)``: the finding
    is built only when ``build()`` is called, so a capped reader past its cap only
    counts the code (§2.1). Iterative; the caller bounds the value's size first (a
    cyclic value never ends). Never raises."""
    stack: list[tuple[Any, Path]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            char = first_lone_surrogate(item)
            if char is not None:
                yield (
                    JSON_LONE_SURROGATE.name,
                    functools.partial(lone_surrogate_finding, path, char),
                )
        elif isinstance(item, _Key):
            yield (
                JSON_KEY_NOT_STRING.name,
                functools.partial(key_not_string_finding, path, item.key),
            )
        elif isinstance(item, Mapping):
            for key, child in reversed(list(item.items())):
                where = (*path, key_text(key))
                stack.append((child, where))
                stack.append((key, where) if isinstance(key, str) else (_Key(key), path))
        elif isinstance(item, list | tuple):
            stack.extend((child, (*path, i)) for i, child in reversed(list(enumerate(item))))
