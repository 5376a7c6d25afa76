"""Plain ``str`` for the caller's ``str`` subclasses: every public function and class
of replykit returns and keeps plain ``str``, never an instance of a subclass the
caller passed in (:func:`replykit.argcheck.typed` calls :func:`plain` on each
argument that is not already a plain scalar).

A subclass may carry behaviour (an overridden ``__eq__``, ``__hash__`` or ``__str__``)
and must be importable wherever a pickled result is loaded; replykit's results are
data, so they hold none of it.
"""

from __future__ import annotations

from typing import Any

#: Types passed on untouched (no subclass of ``str`` inside, nothing to look at).
SCALARS: frozenset[type] = frozenset({str, int, float, bool, type(None)})
_CONTAINERS = (dict, list, tuple)


def _flat(value: Any) -> bool:
    """True for a plain scalar, or a ``list``/``tuple`` of plain scalars."""
    kind = type(value)
    if kind in SCALARS:
        return True
    return (kind is list or kind is tuple) and SCALARS.issuperset(map(type, value))


def _flat_dict(value: Any) -> bool:
    """True for a ``dict`` whose keys are plain scalars and whose values are
    :func:`_flat` (a stored chat message, the usual details and params)."""
    return (
        type(value) is dict
        and SCALARS.issuperset(map(type, value))
        and all(map(_flat, value.values()))
    )


def _needs(value: Any) -> bool:
    """True when a ``str`` subclass sits in ``value`` or in the ``dict``, ``list`` and
    ``tuple`` containers it holds (keys included); each container is looked at once."""
    seen: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind in SCALARS:
            continue
        if isinstance(item, str):
            return True
        if kind not in _CONTAINERS or id(item) in seen:
            continue
        seen.add(id(item))
        if kind is dict:
            stack.extend(item.keys())
            stack.extend(item.values())
        else:
            stack.extend(item)
    return False


def _copy(value: Any, active: set[int]) -> Any:
    kind = type(value)
    if kind is not str and isinstance(value, str):
        return str.__str__(value)
    if kind not in _CONTAINERS or id(value) in active:
        return value  # a container inside itself is passed on as given
    active.add(id(value))
    try:
        if kind is dict:
            return {_copy(k, active): _copy(v, active) for k, v in value.items()}
        return kind(_copy(item, active) for item in value)
    finally:
        active.discard(id(value))


def plain(value: Any) -> Any:
    """``value`` with every ``str`` subclass instance replaced by the plain ``str`` of
    its characters (``str.__str__``, whatever the subclass overrides), inside
    ``dict``, ``list`` and ``tuple`` containers too (copied only when one holds such a
    string). Any other value, and a value holding no such string, is returned as is."""
    kind = type(value)
    if kind in SCALARS:
        return value
    if kind is dict:  # the usual details and params: scalars and lists of them, no walk
        if _flat_dict(value):
            return value
    elif _flat(value):
        return value
    elif kind is list or kind is tuple:
        for item in value:
            if type(item) not in SCALARS and not _flat_dict(item):
                break
        else:
            return value  # a conversation of plain messages: no walk
    if not _needs(value):
        return value
    try:
        return _copy(value, set())
    except RecursionError:  # nested deeper than Python recurses: passed on as given
        return value
