"""How payload values are named in diagnostic messages and ``details``."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from replykit.jsonout import portable
from replykit.text import trim_blank

_BRIEF_LIMIT = 60


def json_type(value: Any) -> str:
    """The JSON type name of a value JSON decodes to: ``null``, ``boolean``,
    ``number``, ``string``, ``array`` (a ``list``), ``object`` (a ``dict``); for any
    other Python value ``Python`` and its type name (``Python tuple``), since the
    readers that name a type take only what JSON decodes to and a ``tuple`` named
    ``array`` would read "must be an array, not an array"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "Python " + type(value).__name__


def yaml_kind(value: Any) -> str:
    """What the YAML 1.2 core schema made of a node, for messages: ``null``,
    ``boolean``, ``integer``, ``float``, ``string``, ``list``, ``mapping``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    return "Python " + type(value).__name__


def brief(value: Any, limit: int = _BRIEF_LIMIT) -> str:
    """A short JSON rendering of ``value`` for a message (cut at ``limit`` code points).

    ``NaN``/``Infinity`` are shown bare (a message is prose, not JSON); a value JSON
    cannot write (an ``int`` of over 4300 digits, a cycle, another type) is shown as
    :func:`~replykit.jsonout.portable` renders it. Never raises.
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = json.dumps(portable(value), ensure_ascii=False)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


#: Marks a number among the values failed options carry (compared by value, not text).
NUMBER_KEY = "\x00"


def number_key(number: int | float) -> str:
    """The key a number is compared by (:func:`carried_value`): the same for every
    spelling of one value (``1000``, ``1e3`` and ``1000.0``; ``-0`` and ``0``)."""
    if isinstance(number, float) and math.isfinite(number) and number.is_integer():
        number = int(number)
    return NUMBER_KEY + brief(number)


def carried_value(option: Any) -> str | None:
    """The option value an option item that failed to read was meant to give: a
    string itself, an object's string ``value``, a number (as :func:`number_key`, so a
    default that writes the same number otherwise names it too); else ``None``. A
    default naming it is not reported again as outside the options: the option's own
    error says it all (§4, §7; :func:`~replykit.questionnaire.payload.yaml_core.names_carried`)."""
    if isinstance(option, dict):
        option = option.get("value")
    if isinstance(option, str):
        return trim_blank(option)
    if isinstance(option, int | float) and not isinstance(option, bool):
        return number_key(option)
    return None


def a_json_type(value: Any) -> str:
    """What ``value`` is, for "must be X, not ..." in a message about JSON data:
    ``null``, else :func:`json_type` with its article (``a number``, ``an array``,
    ``a Python tuple``)."""
    return "null" if value is None else article(json_type(value))


def article(kind: str) -> str:
    """``kind`` with its indefinite article: ``an integer``, ``a list``; ``null`` bare
    (it is a value, as JSON and YAML name it, not a kind of value)."""
    if kind == "null":
        return kind
    return ("an " if kind[:1] in ("a", "e", "i", "o", "u") else "a ") + kind


def yaml_scalar(value: Any) -> str:
    """A non-string scalar as YAML 1.2 writes it, for messages: ``null``, ``true``,
    ``false``, ``.inf``, ``-.inf``, ``.nan``, a number's digits."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
    return brief(value)


def no_string(text: str) -> bool:
    """For a field no string is valid for (``type`` takes a known word, which YAML
    reads as a string anyway; a boolean; a list): never."""
    return False


def one_of(values: list[str] | None, excused: object = None) -> Callable[[str], bool] | None:
    """For a choice default: a string is valid when it is one of ``values``, the options
    read; any (``None``) when they were not all read (``values`` ``None``, or
    ``excused`` values of failed options given)."""
    return None if values is None or excused is not None else frozenset(values).__contains__


def kind_hint(
    value: Any, src: str | None, accepts: Callable[[str], bool] | None = None
) -> dict[str, Any]:
    """How YAML read a value written ``src`` in the payload (``None``: not known): the
    ``{hint}`` of :mod:`replykit.codes.fields` (the quoted spelling to use instead, for
    a non-string scalar). ``accepts``: whether the field would take the source text as
    a string (default: any string); the advice to quote it is given only where it
    would (``allow_other: null`` quoted is still no boolean)."""
    kind = yaml_kind(value)
    if isinstance(value, str):
        return {"as": "string", "value": value}
    if isinstance(value, dict | list):
        return {"as": "kind", "actual": kind}
    if value is None and not src:
        return {"as": "null"}
    if src is None or (accepts is not None and not accepts(src)):
        return {"as": "kind", "actual": kind}
    if len(src) > 40:
        return {"as": "long", "actual": kind}
    quoted = json.dumps(src, ensure_ascii=False)
    return {"as": "source", "source": src, "actual": kind, "quoted": quoted}
