"""How payload values are named in diagnostic messages and ``details``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

_BRIEF_LIMIT = 60


def json_type(value: Any) -> str:
    """The JSON type name of a plain Python value: ``null``, ``boolean``, ``number``,
    ``string``, ``array``, ``object`` (the Python type name for anything else)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


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
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    return type(value).__name__


def brief(value: Any) -> str:
    """A short JSON rendering of ``value`` for a message (cut at 60 code points)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    if len(text) > _BRIEF_LIMIT:
        text = text[: _BRIEF_LIMIT - 1] + "…"
    return text


def article(kind: str) -> str:
    """``kind`` with its indefinite article: ``an integer``, ``a list``."""
    return ("an " if kind[:1] in ("a", "e", "i", "o", "u") else "a ") + kind
