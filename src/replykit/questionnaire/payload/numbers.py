"""One rule for a number written as text (§1.3, §9): a tag attribute, a command-line
option and a JSON field all read a number the way strict JSON does.

A number is an RFC 8259 number token, whole: an optional ``-``, ASCII digits with no
leading zero, an optional fraction and exponent (``30``, ``2.5``, ``1e3``); nothing
before or after it (``30abc``, ``0x10``, `` 30``, ``NaN``, ``+1`` and ``1_000`` are not
numbers). One that cannot be read exactly (over 4300 digits, or beyond a float's range
so that it would read as infinity) is too large. An integer is a number with neither
fraction nor exponent.
"""

from __future__ import annotations

import math
import re
from typing import Final, Literal, TypeGuard

from replykit.questionnaire.payload.json_strict import number_problem

_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")

#: Why a text is not read as a number: not a number token, or too large to read exactly.
Problem = Literal["not_number", "too_large"]


def read_number(text: str) -> tuple[int | float | None, Problem | None]:
    """The number ``text`` spells and ``None``, or ``None`` and why it is none.

    An integer token gives an ``int``, one with a fraction or exponent a ``float``
    (``"1e3"`` gives ``1000.0``); a negative zero is positive zero of its type
    (``"-0.0"`` and ``"-0e0"`` give ``0.0``, ``"-0"`` gives ``0``). Never raises.
    """
    m = _NUMBER.fullmatch(text)
    if m is None:
        return None, "not_number"
    if number_problem(text) is not None:
        return None, "too_large"
    if m.group(1) is None and m.group(2) is None:
        return int(text), None
    return unsigned_zero(float(text)), None


def unsigned_zero(value: int | float) -> int | float:
    """``value``, a negative zero (``-0.0``) written as positive zero of the same type
    (``0.0``); every other number unchanged (§1.3: an ``int`` has no negative zero, so
    ``-0`` is already ``0``). A number the reader keeps never carries a sign ≥ 0 rules
    out."""
    return 0.0 if isinstance(value, float) and value == 0 else value


def is_timeout(value: object) -> TypeGuard[int | float]:
    """Whether ``value`` is a valid ``timeout_seconds``: a finite ``int`` or ``float``
    (not a ``bool``) of at least 0 (§7)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return value >= 0 and (isinstance(value, int) or math.isfinite(value))
