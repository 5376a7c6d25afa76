"""Escaping for the HTML the renderer writes (docs/html.md section 5).

Every string that comes from a message goes through :func:`esc` (text and attribute
values alike) or :func:`id_part` (a question id inside an ``id`` or ``name``). Nothing
else writes message text into HTML.
"""

from __future__ import annotations

import html
import re

_LONE = re.compile("[\ud800-\udfff]")
# Characters an id or name part must not hold: the separator, the escape itself and
# ASCII white space (an HTML id holds none).
_ID_UNSAFE = re.compile(r"[%:\t\n\f\r ]")


def text_safe(value: str) -> str:
    """``value`` with NUL and lone surrogates replaced by U+FFFD: an HTML parser replaces
    NUL anyway, and a lone surrogate cannot be encoded as UTF-8 (§1.3)."""
    return _LONE.sub("\ufffd", value.replace("\0", "\ufffd"))


def esc(value: str) -> str:
    """``value`` escaped for HTML text and double-quoted attribute values: ``& < > " '``
    as character references, NUL and lone surrogates as U+FFFD."""
    return html.escape(text_safe(value), quote=True)


def attr(name: str, value: str) -> str:
    """`` name="value"`` with ``value`` escaped; ``name`` is the renderer's own."""
    return f' {name}="{esc(value)}"'


def id_part(value: str) -> str:
    """A block or question id as part of an HTML ``id`` or ``name``: ``%``, ``:`` and ASCII white
    space percent-encoded (``a:b`` -> ``a%3Ab``), so ``{block}:{question}:{suffix}``
    splits one way only and two questions never share an id. Escape the result with
    :func:`attr` like any other value."""
    return _ID_UNSAFE.sub(lambda m: f"%{ord(m.group()):02X}", value)
