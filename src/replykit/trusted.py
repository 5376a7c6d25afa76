"""Building model values the library's own readers already checked.

The model classes (``model.py``, ``diagnostics.py``) check argument types
(:func:`replykit.argcheck.typed`) and their invariants (``__attrs_post_init__``) when
anyone builds one: the public API's guarantee that an instance that exists is valid.
A reader builds values only from what it accepted (docs/architecture.md, "The model"),
so on its hot path both checks only repeat its own: :func:`trusted` gives a builder
that sets the fields and nothing else. ``tests/test_trusted.py`` proves every object
``segment()`` returns passes the checked constructor and the invariants, and each
builder equal to its class's constructor.
"""

from __future__ import annotations

import operator
import typing
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs

T = TypeVar("T")


def trusted(cls: type[T]) -> Callable[..., T]:
    """A builder of the frozen attrs class ``cls``: the parameters of its ``__init__``
    (names, order, defaults and factories), the same instance as ``cls(...)`` for
    arguments that pass its checks, with no type check and no ``__attrs_post_init__``.

    A field's converter (a plain function) still runs: it changes the value, it does
    not check it. Only for values a reader built from what it accepted. Raises
    ``TypeError`` at once for a class that is not attrs, or whose fields validate or
    convert with an ``attrs.Converter`` (a builder would skip that work, not just a
    check)."""
    if not attrs.has(cls):
        raise TypeError(f"trusted() needs an attrs class, not {cls!r}")
    namespace: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "_cls": cls}
    params, body = [], []
    for a in attrs.fields(cls):
        plain_converter = a.converter is None or not isinstance(a.converter, attrs.Converter)
        if not plain_converter or a.validator is not None or not a.init:
            raise TypeError(f"trusted() cannot build {cls.__name__}: field {a.name!r}")
        name = a.alias or a.name
        value = name
        if a.converter is not None:  # a conversion is work, not a check: it still runs
            namespace[f"_c_{name}"] = a.converter
            value = f"_c_{name}({name})"
        if isinstance(a.default, attrs.Factory):  # type: ignore[arg-type]
            namespace[f"_f_{name}"] = a.default.factory
            params.append(f"{name}=_NOTHING")
            value = f"_f_{name}() if {name} is _NOTHING else {value}"
        elif a.default is not attrs.NOTHING:
            namespace[f"_d_{name}"] = a.default
            params.append(f"{name}=_d_{name}")
        else:
            params.append(name)
        body.append(f"    _set(self, {a.name!r}, {value})\n")
    namespace["_NOTHING"] = attrs.NOTHING
    source = (
        f"def build({', '.join(params)}):\n    self = _new(_cls)\n{''.join(body)}    return self\n"
    )
    exec(compile(source, f"<replykit.trusted {cls.__name__}>", "exec"), namespace)
    return typing.cast(Callable[..., T], namespace["build"])


class Rebuild(Generic[T]):
    """Copies of the frozen attrs class ``cls``'s values with some fields changed
    (:meth:`rebuilt`), built by :func:`trusted`: cheaper than ``attrs.evolve``, which
    runs the checked constructor again. Only for a value the library built itself,
    moved in ways that keep its invariants (an offset shifted with the text it
    points into). Raises ``TypeError`` as :func:`trusted` does."""

    def __init__(self, cls: type[T]) -> None:
        names = tuple(a.name for a in attrs.fields(cls))  # type: ignore[arg-type]
        self._build = trusted(cls)
        self._values = operator.attrgetter(*names)
        self._index = {name: i for i, name in enumerate(names)}

    def rebuilt(self, obj: T, **changes: Any) -> T:
        """``obj`` with the fields named in ``changes`` set to their values."""
        values = list(self._values(obj))
        for name, value in changes.items():
            values[self._index[name]] = value
        return self._build(*values)
