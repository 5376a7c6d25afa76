"""The YAML 1.2 core schema on plain scalars (docs/protocol.md §4.1; YAML 1.2.2 spec
10.3.2): what an unquoted, untagged scalar means, and when two resolved keys are equal."""

from __future__ import annotations

import math
import re
from typing import Any

from replykit.questionnaire.payload.describe import number_key, yaml_kind

# YAML 1.2.2 spec 10.3.2 (core schema), plain scalars only.
_NULL = frozenset({"", "~", "null", "Null", "NULL"})
_TRUE = frozenset({"true", "True", "TRUE"})
_FALSE = frozenset({"false", "False", "FALSE"})
_INT10 = re.compile(r"[-+]?[0-9]+")
_INT8 = re.compile(r"0o[0-7]+")
_INT16 = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?(?:\.inf|\.Inf|\.INF)")
_NAN = frozenset({".nan", ".NaN", ".NAN"})

# Python's default int(str) digit limit (a guard against quadratic conversion).
MAX_INT_DIGITS = 4300
# Every non-string plain scalar of the core schema starts with one of these.
SPECIAL_FIRST = frozenset("0123456789+-.~nNtTfF")
# ... and those of them that start only null and the booleans.
_WORD_FIRST = frozenset("~nNtTfF")


def resolve_plain(text: str) -> tuple[Any, bool]:
    """Resolve a plain (unquoted, untagged) scalar with the YAML 1.2 core schema.

    Returns ``(value, ok)``: ``value`` is ``None``, ``bool``, ``int``, ``float`` or the
    text itself; ``ok`` is False only for an integer of more than 4300 digits in any
    spelling (decimal with or without a sign, ``0o``, ``0x``; Python limits only the
    decimal conversion, but a number that long is refused alike), then ``value`` is a
    float placeholder (the float reading of a decimal, infinity for the others).
    """
    if not text or text[0] not in SPECIAL_FIRST:
        return (None, True) if not text else (text, True)  # fast path: plainly a string
    if text[0] in _WORD_FIRST:  # no number starts with a letter or '~'
        if text in _NULL:
            return None, True
        if text in _TRUE:
            return True, True
        return (False, True) if text in _FALSE else (text, True)
    if _INT10.fullmatch(text):
        if len(text) - (text[0] in "+-") > MAX_INT_DIGITS:
            return float(text), False
        try:
            return int(text, 10), True
        except ValueError:  # a lower limit set with sys.set_int_max_str_digits
            return float(text), False
    for pattern, base in ((_INT8, 8), (_INT16, 16)):
        if pattern.fullmatch(text):
            if len(text) - 2 > MAX_INT_DIGITS:
                return math.inf, False
            return int(text[2:], base), True
    if _FLOAT.fullmatch(text):
        return float(text), True
    if _INF.fullmatch(text):
        return (-math.inf if text.startswith("-") else math.inf), True
    if text in _NAN:
        return math.nan, True
    return text, True


def freeze_scalar(value: Any) -> Any:
    """The value as it is compared with other keys for ``yaml.duplicate_key``."""
    # Equality of resolved keys: the kind matters (true is not 1), NaN equals NaN.
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (yaml_kind(value), value)


def names_carried(value: str, excused: frozenset[str] | None) -> bool:
    """Whether the default ``value`` names what an option that failed to read carried
    (``excused``: their :func:`~replykit.questionnaire.payload.describe.carried_value`):
    the same text, or the same number however it is written (``1e3`` for an option
    ``1e3`` read as 1000.0, ``0x10`` for 16, ``-0`` for 0), read as the YAML 1.2 core
    schema reads a plain scalar (every JSON number is one of its spellings). Such a
    default gets no follow-on error: the option's own says it all (§4, §7)."""
    if not excused:
        return False
    if value in excused:
        return True
    number, ok = resolve_plain(value)
    if not ok or isinstance(number, bool) or not isinstance(number, int | float):
        return False
    return number_key(number) in excused
