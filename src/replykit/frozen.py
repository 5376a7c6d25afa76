"""Immutable, hashable JSON-like values for the mapping and JSON fields of replykit's
frozen classes (``Finding.details``, ``Diagnostic.params``, ``Response.status`` ...),
so that every exported frozen class hashes and nothing inside one can be changed.

:class:`FrozenDict` and :class:`FrozenList` are ``dict`` and ``list`` subclasses that
refuse every change: they compare equal to the plain containers with the same items,
``json.dumps`` writes them as before, and ``isinstance(x, dict)`` still holds, so code
reading these fields sees no difference. :func:`freeze` makes a deep immutable copy;
:func:`thaw` a deep plain one (what a ``to_json()`` returns).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NoReturn

_SCALARS = frozenset({str, int, float, bool, type(None)})


def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError(f"'{type(self).__name__}' object is immutable")


class FrozenDict(dict[Any, Any]):
    """A ``dict`` that refuses every change and hashes by its items (values must
    hash: :func:`freeze` makes them). ``copy()`` and ``dict(x)`` give a plain ``dict``.
    """

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (dict(self),)

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict:
        return self

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


class FrozenList(list[Any]):
    """A ``list`` that refuses every change and hashes as a tuple of its items.
    ``list(x)`` and ``x.copy()`` give a plain ``list``."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (list(self),)

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenList:
        return self

    def copy(self) -> list[Any]:
        """A plain ``list`` with the same items."""
        return list(self)

    def __repr__(self) -> str:
        return f"FrozenList({list.__repr__(self)})"


def _children(value: Any) -> Iterable[Any]:
    return value.values() if isinstance(value, Mapping) else value


def _rebuild(value: Any, kinds: tuple[type, type], done: Callable[[Any], Any]) -> Any:
    mapping, sequence = kinds
    if isinstance(value, Mapping):
        return mapping({key: done(item) for key, item in value.items()})
    if type(value) is tuple:
        return tuple(done(item) for item in value)
    return sequence(done(item) for item in value)


def _container(value: Any) -> bool:
    if type(value) in _SCALARS:
        return False
    return isinstance(value, Mapping | list) or type(value) is tuple


def _flat(value: Any) -> Any:
    """The frozen copy of a ``dict`` or ``list`` whose items are scalars or such lists
    (the usual details and params), else ``None``: no walk needed."""
    if type(value) is dict:
        items = value.values()
        if _SCALARS.issuperset(map(type, items)):
            return FrozenDict(value)
        if all(type(item) in _SCALARS or _flat_list(item) for item in items):
            return FrozenDict({k: _flat(v) if type(v) is list else v for k, v in value.items()})
    elif _flat_list(value):
        return FrozenList(value)
    return None


def _flat_list(value: Any) -> bool:
    return type(value) is list and _SCALARS.issuperset(map(type, value))


def _convert(value: Any, kinds: tuple[type, type]) -> Any:
    """``value`` with every container rebuilt by :func:`_rebuild`, depth first without
    recursion; a container inside itself raises ``ValueError``."""
    if not _container(value):
        return value
    done: dict[int, Any] = {}
    active: set[int] = set()
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        item, expanded = stack.pop()
        if not _container(item) or id(item) in done:
            continue
        if expanded:
            active.discard(id(item))
            done[id(item)] = _rebuild(item, kinds, lambda c: done.get(id(c), c))
            continue
        if id(item) in active:
            raise ValueError("a value that contains itself cannot be frozen")
        active.add(id(item))
        stack.append((item, True))
        stack.extend((child, False) for child in _children(item))
    return done[id(value)]


def freeze(value: Any) -> Any:
    """A deep immutable copy of ``value``: mappings become :class:`FrozenDict`, lists
    :class:`FrozenList`, tuples tuples of frozen items; any other value is kept as
    it is, sets too (not JSON: what reports show of them names their type), and a
    ``FrozenDict`` holding an unhashable one does not hash.
    Raises ``ValueError`` for a container that contains itself."""
    kind = type(value)
    if kind is FrozenDict or kind is FrozenList:
        return value
    flat = _flat(value) if kind is dict or kind is list else None
    return flat if flat is not None else _convert(value, (FrozenDict, FrozenList))


def freeze_mapping(value: Mapping[str, Any]) -> Mapping[str, Any]:
    """:func:`freeze` of a mapping field (typed for attrs converters)."""
    frozen: Mapping[str, Any] = freeze(value)
    return frozen


def thaw(value: Any) -> Any:
    """A deep plain copy of ``value``: every mapping a ``dict``, every list a
    ``list`` (tuples stay tuples; other values are kept)."""
    return _convert(value, (dict, list))
