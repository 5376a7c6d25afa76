"""The characters and names no action text or id may hold (§12; docs/actions.md
section 2): the names a JavaScript object inherits (reserved ids) and the control, bidi
and surrogate characters that can make a button read as another. Split from
:mod:`replykit.actions.model`, which imports everything here as before.
"""

from __future__ import annotations

import re
from typing import Any, Final

#: Ids a JavaScript object inherits (§12 ``action.id_reserved``): a client that keys
#: persisted state by id would read or overwrite the prototype's member instead.
RESERVED_IDS: Final[tuple[str, ...]] = (
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "toLocaleString",
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
)
_RESERVED: Final[frozenset[str]] = frozenset(RESERVED_IDS)
#: Characters that can make a button read as another (§12 ``action.text_unsafe``):
#: C0 controls, DEL, C1 controls, bidi embeddings/overrides and isolates.
UNSAFE_RANGES: Final[tuple[tuple[int, int], ...]] = (
    (0x00, 0x1F),
    (0x7F, 0x9F),
    (0x202A, 0x202E),
    (0x2066, 0x2069),
)
#: Line breaks (§1) and the tab, allowed in ``params.prompt`` only.
PROMPT_ALLOWED: Final[str] = "\t\n\r"


def _unsafe_re(allowed: str) -> re.Pattern[str]:
    chars = "".join(
        chr(c) for lo, hi in UNSAFE_RANGES for c in range(lo, hi + 1) if chr(c) not in allowed
    )
    # A surrogate code point too: no UTF-8 or JSON text can carry one (§1).
    return re.compile("[" + re.escape(chars) + "\ud800-\udfff]")


_UNSAFE_RE: Final = _unsafe_re("")
_UNSAFE_PROMPT_RE: Final = _unsafe_re(PROMPT_ALLOWED)


def is_reserved_id(value: object) -> bool:
    """True when ``value`` is one of :data:`RESERVED_IDS` (exact, case-sensitive), §12."""
    return isinstance(value, str) and value in _RESERVED


def unsafe_char(value: str, *, prompt: bool = False) -> int | None:
    """Index (code points) of the first character of ``value`` that §12 forbids, or ``None``.

    Forbidden: C0 controls U+0000-U+001F, DEL and C1 controls U+007F-U+009F, bidi
    embeddings and overrides U+202A-U+202E, isolates U+2066-U+2069, and surrogate code
    points U+D800-U+DFFF (a Python caller's lone surrogate, §1). With ``prompt``
    true, tab, ``\\n`` and ``\\r`` are allowed (a prompt may span lines). Never raises.
    """
    found = (_UNSAFE_PROMPT_RE if prompt else _UNSAFE_RE).search(value)
    return None if found is None else found.start()


def unsafe_params(field: str, value: str, index: int) -> dict[str, Any]:
    """The parameters of an ``action.text_unsafe``/``lint.text_unsafe`` message for
    ``field`` (§12): the code point (``codepoint``, hex) and its 1-based character
    ``position``, never the value."""
    return {"field": field, "codepoint": f"{ord(value[index]):04X}", "position": index + 1}


def unsafe_variant(value: str, index: int, *, removed: bool = False) -> str | None:
    """The message variant of an unsafe character at ``index``: ``surrogate`` for a
    surrogate code point, ``removed`` when the field is removed, both joined."""
    surrogate = 0xD800 <= ord(value[index]) <= 0xDFFF
    parts = (["surrogate"] if surrogate else []) + (["removed"] if removed else [])
    return "_".join(parts) or None
