"""Argument types of the public API, checked from the annotations.

:func:`typed` wraps a public function or a frozen attrs class: each argument passed is
checked against its annotation before the body runs, and a wrong type raises
``TypeError("NAME() argument 'ARG' must be EXPECTED, not ACTUAL")``. Values are each
function's own business (they raise ``ValueError`` or are reported as diagnostics);
this module decides only types, so a JSON text passed where decoded JSON is expected,
``None`` for a string or a generator for a list fails at once with the argument named,
instead of as an ``AttributeError`` deep inside or a silently empty result.

Supported annotations: classes (``int`` excludes ``bool``; ``float`` takes ``int``),
``None``, ``Any``/``object`` (anything), ``Literal`` (the literals' types), unions,
``tuple[X, ...]``, ``tuple[X, Y]``, ``frozenset[X]`` and ``Mapping[K, V]`` (checked
item by item, linear in their size), ``Sequence[X]`` and ``Iterable[X]`` (neither
``str``, ``bytes`` nor a mapping, whose iteration gives its keys; their items are
input data the callee reads and reports with its own paths, and an iterator can be
read only once). Any other annotation is refused
when the decorator runs, so a new public signature cannot go unchecked.
"""

from __future__ import annotations

import functools
import inspect
import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from replykit.plain import SCALARS, plain
from replykit.text import NOT_A_LIST, with_article

T = TypeVar("T")

# Returns None when the value fits, else what it is ("int", "a tuple whose item 2 is int").
_Check = Callable[[object], str | None]


def type_name(value: object) -> str:
    """``None`` for ``None``, else the name of the value's type."""
    return "None" if value is None else type(value).__name__


def _instance(cls: type) -> _Check:
    if cls is int:
        return lambda v: None if isinstance(v, int) and not isinstance(v, bool) else type_name(v)
    if cls is float:
        return lambda v: (
            None if isinstance(v, int | float) and not isinstance(v, bool) else type_name(v)
        )
    return lambda v: None if isinstance(v, cls) else type_name(v)


def _items(container: type | tuple[type, ...], kind: str, hint: Any | None) -> _Check:
    item = None if hint is None else _compile(hint)
    exact = frozenset() if hint is None else _exact_types(hint)

    def check(value: object) -> str | None:
        # Text, binary data or a mapping is never a list: iterating would read characters,
        # byte values or keys.
        if not isinstance(value, container) or isinstance(value, (*NOT_A_LIST, Mapping)):
            return type_name(value)
        if item is not None:
            for index, element in enumerate(typing.cast(Iterable[object], value)):
                if type(element) in exact:
                    continue
                problem = item(element)
                if problem is not None:
                    return f"{with_article(kind)} whose item {index} is {problem}"
        return None

    return check


def _mapping(key: _Check | None, value_check: _Check | None) -> _Check:
    def check(value: object) -> str | None:
        if not isinstance(value, Mapping):
            return type_name(value)
        for k, v in value.items():
            problem = None if key is None else key(k)
            if problem is not None:
                return f"a mapping with a key of type {problem}"
            problem = None if value_check is None else value_check(v)
            if problem is not None:
                return f"a mapping whose value at {k!r} is {problem}"
        return None

    return check


def _union(checks: list[_Check]) -> _Check:
    def check(value: object) -> str | None:
        problems = []
        for c in checks:
            problem = c(value)
            if problem is None:
                return None
            problems.append(problem)
        # The most specific account: a container's item, else the value's type.
        return max(problems, key=len)

    return check


def _alternatives(names: list[str]) -> str:
    """``a, b or c``: one list, not ``a or b or c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _describe(hint: Any) -> str:
    if hint is Any or hint is object:
        return "any value"
    if hint is None or hint is type(None):
        return "None"
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return _alternatives(sorted({type(a).__name__ for a in args}))
    if origin in (typing.Union, types.UnionType):
        return _alternatives([_describe(a) for a in args])
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a tuple of {_describe(args[0])}"
        return "a tuple (" + ", ".join(_describe(a) for a in args) + ")"
    if origin in (frozenset, Sequence, Iterable):
        name = {frozenset: "a frozenset", Sequence: "a sequence", Iterable: "an iterable"}
        items = "" if args[0] in (Any, object) else f" of {_describe(args[0])}"
        return name[origin] + items
    if origin is Mapping:
        if args[1] in (Any, object):
            return (
                "a mapping"
                if args[0] in (Any, object)
                else f"a mapping with {args[0].__name__} keys"
            )
        return f"a mapping of {_describe(args[0])} to {_describe(args[1])}"
    return str(getattr(hint, "__name__", hint))


def _compile(hint: Any) -> _Check | None:
    """The check of one annotation; ``None`` when any value fits."""
    if hint is Any or hint is object:
        return None
    if hint is None or hint is type(None):
        return lambda v: None if v is None else type_name(v)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return _union([_instance(t) for t in {type(a) for a in args}])
    if origin in (typing.Union, types.UnionType):
        checks = [_compile(a) for a in args]
        if any(c is None for c in checks):
            return None
        return _union([c for c in checks if c is not None])
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _items(tuple, "tuple", args[0])
        fixed = [_compile(a) for a in args]

        def check_fixed(value: object) -> str | None:
            if not isinstance(value, tuple) or len(value) != len(fixed):
                return (
                    type_name(value)
                    if not isinstance(value, tuple)
                    else "a tuple of another length"
                )
            for index, (check, element) in enumerate(zip(fixed, value, strict=True)):
                problem = None if check is None else check(element)
                if problem is not None:
                    return f"a tuple whose item {index} is {problem}"
            return None

        return check_fixed
    if origin is frozenset:
        return _items(frozenset, "frozenset", args[0])
    if origin is Sequence:
        return _items(Sequence, "sequence", None)
    if origin is Iterable:
        return _items(Iterable, "iterable", None)
    if origin is Mapping:
        return _mapping(_compile(args[0]), _compile(args[1]))
    if isinstance(hint, type) and origin is None:
        return _instance(hint)
    raise TypeError(f"argcheck cannot check the annotation {hint!r}")


def _hints(annotations: Mapping[str, Any], module: str) -> dict[str, Any]:
    holder = types.SimpleNamespace(__annotations__=dict(annotations))
    namespace = vars(sys.modules[module])
    return typing.get_type_hints(holder, globalns=namespace, localns=namespace)


def _exact_types(hint: Any) -> frozenset[type]:
    """Types whose every value fits ``hint`` (a fast path: ``type(v) in ...``)."""
    if hint is None or hint is type(None):
        return frozenset({type(None)})
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return frozenset({str}) if all(type(a) is str for a in args) else frozenset()
    if origin in (typing.Union, types.UnionType):
        return frozenset().union(*(_exact_types(a) for a in args))
    if isinstance(hint, type) and origin is None:
        return frozenset({hint, int}) if hint is float else frozenset({hint})
    return frozenset()  # containers: their items must be looked at


def _passing_types(hint: Any) -> frozenset[type]:
    """Types whose every value passes the check of ``hint`` without a look at its items,
    but may hold a ``str`` subclass to make plain: ``list`` and ``tuple`` for a
    ``Sequence`` or ``Iterable`` (whose items the callee reads and reports on), ``dict``
    for a mapping of any keys to any values."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return frozenset().union(*(_passing_types(a) for a in args))
    if origin in (Sequence, Iterable):
        return frozenset({list, tuple})
    if origin is Mapping and all(a in (Any, object) for a in args):
        return frozenset({dict})
    return frozenset()


def _failure(where: str, name: str, hint: Any, check: _Check) -> Callable[[object], Any]:
    """The slow path of one argument: raise ``TypeError`` unless it fits, else return
    it with ``str`` subclasses made plain (:func:`replykit.plain.plain`)."""
    expected = _describe(hint)
    # A str where decoded JSON (an object or array) belongs is JSON text left undecoded.
    wants_json = check({}) is None or check([]) is None

    def fail(value: object) -> Any:
        problem = check(value)
        if problem is not None:
            hint_text = (
                " (JSON text? decode it first)" if wants_json and isinstance(value, str) else ""
            )
            raise TypeError(
                f"{where} argument '{name}' must be {expected}, not {problem}{hint_text}"
            )
        return plain(value)

    return fail


def _checked(
    target: Callable[..., Any], where: str, hints: Mapping[str, Any], *, method: bool
) -> Callable[..., Any]:
    """A function with ``target``'s signature that checks each argument, then calls it.

    Written out as source, as attrs writes ``__init__``, so a value that fits costs one
    set lookup (model classes are built once per option of a form)."""
    # "_type": a field may be called "type".
    namespace: dict[str, Any] = {"_target": target, "_type": type, "_plain": plain}
    namespace["_scalars"] = SCALARS
    params, call, body = [], [], []
    for index, p in enumerate(inspect.signature(target).parameters.values()):
        n = p.name
        if method and index == 0:
            params.append(n)
            call.append(n)
            continue
        if p.kind is p.VAR_POSITIONAL:
            params.append(f"*{n}")
            call.append(f"*{n}")
            continue
        if p.kind is p.VAR_KEYWORD:
            params.append(f"**{n}")
            call.append(f"**{n}")
            continue
        if p.kind is p.KEYWORD_ONLY and not any(x.startswith("*") for x in params):
            params.append("*")
        default = ""
        if p.default is not p.empty:
            namespace[f"_d_{n}"] = p.default
            default = f"=_d_{n}"
        params.append(f"{n}{default}")
        call.append(f"{n}={n}" if p.kind is p.KEYWORD_ONLY else n)
        check = _compile(hints[n]) if n in hints else None
        # A default is the callee's own value (attrs factories show as NOTHING): not checked.
        unless_default = f" and {n} is not _d_{n}" if default else ""
        if check is None:  # any value: only made plain
            body.append(f"    if _type({n}) not in _scalars:\n        {n} = _plain({n})\n")
            continue
        namespace[f"_t_{n}"] = _exact_types(hints[n])
        namespace[f"_f_{n}"] = _failure(where, n, hints[n], check)
        slow = f"        {n} = _f_{n}({n})\n"
        passing = _passing_types(hints[n])
        if passing:  # a list where a sequence belongs: only made plain, not checked again
            namespace[f"_p_{n}"] = passing
            slow = f"        {n} = _plain({n}) if _type({n}) in _p_{n} else _f_{n}({n})\n"
        body.append(f"    if _type({n}) not in _t_{n}{unless_default}:\n{slow}")
    source = (
        f"def checked({', '.join(params)}):\n{''.join(body)}    return _target({', '.join(call)})\n"
    )
    exec(compile(source, f"<replykit.argcheck {where}>", "exec"), namespace)
    return typing.cast(Callable[..., Any], functools.wraps(target)(namespace["checked"]))


def _class_hints(cls: type) -> dict[str, Any]:
    """``__init__``'s parameter types: a field's own, or its converter's parameter."""
    hints: dict[str, Any] = {}
    for a in attrs.fields(cls):
        if not a.init:
            continue
        name = a.alias or a.name
        if a.converter is None:
            if a.type is not None:
                hints.update(_hints({name: a.type}, cls.__module__))
            continue
        converter = typing.cast(Callable[..., Any], a.converter)
        parameter = next(iter(inspect.signature(converter).parameters.values()))
        if parameter.annotation is not parameter.empty:
            resolved = _hints({name: parameter.annotation}, converter.__module__)
            hints.update(resolved)
    return hints


def typed(obj: T) -> T:
    """Check argument types of the public function or class ``obj``.

    Input: a function, or a class made by ``attrs.frozen`` (its ``__init__`` is replaced
    by a checking one; a field with a converter is checked against the converter's
    parameter, as attrs annotates ``__init__``), or another class whose own
    ``__init__`` is annotated (an exception that carries findings). Output: ``obj``
    itself (a class) or a wrapper with the same signature and docstring (a function).
    Defaults are not checked. Raises ``TypeError`` at decoration when an annotation is
    of a form this module cannot check. A call with a wrong-typed argument raises
    ``TypeError`` naming the callable and the argument before the body runs. The one
    other change: an argument holding an instance of a ``str`` subclass (itself, or in
    a ``dict``, ``list`` or ``tuple``) is passed on with plain ``str`` instead
    (:func:`replykit.plain.plain`), so no result holds the caller's subclass.
    """
    if isinstance(obj, type):
        init = typing.cast(Any, obj).__init__
        hints = _class_hints(obj) if attrs.has(obj) else _hints(_annotations(init), obj.__module__)
        typing.cast(Any, obj).__init__ = _checked(init, f"{obj.__name__}()", hints, method=True)
        return obj
    function = typing.cast(Callable[..., Any], obj)
    hints = _hints(_annotations(function), function.__module__)
    return typing.cast(T, _checked(function, f"{function.__name__}()", hints, method=False))


def _annotations(function: Callable[..., Any]) -> dict[str, Any]:
    """The annotations of ``function``'s named parameters, as written."""
    return {
        n: p.annotation
        for n, p in inspect.signature(function).parameters.items()
        if p.annotation is not p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    }
