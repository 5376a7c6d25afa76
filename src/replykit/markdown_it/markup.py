"""Escaping for the HTML the renderer writes (docs/html.md section 5).

Every string that comes from a message goes through :func:`esc` (text and attribute
values alike) or :func:`id_part` (a question id inside an ``id`` or ``name``). Nothing
else writes message text into HTML.
"""

from __future__ import annotations

import html
import re

from replykit.textout import escape as line_escape

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


#: On every element whose text is the message's own: a bidi isolate, so an override
#: in it cannot reorder the page around it (docs/html.md section 5).
AUTO = ' dir="auto"'


def isolated(value: str) -> str:
    """Message text quoted inside the renderer's own sentence (a diagnostic's message or
    path): its controls, bidi overrides and isolates written as ``\\uXXXX`` (§1.4), the
    rest escaped, in a ``<bdi>``, so neither can reorder the sentence around it."""
    return f"<bdi>{esc(line_escape(value))}</bdi>"


def attr(name: str, value: str) -> str:
    """`` name="value"`` with ``value`` escaped; ``name`` is the renderer's own. A
    carriage return is written ``&#13;``: written as itself, an HTML parser would read
    it as a line feed, and an id read back would not be the id (docs/html.md section 3)."""
    return f' {name}="{esc(value).replace(chr(13), "&#13;")}"'


def id_part(value: str) -> str:
    """A block or question id as part of an HTML ``id`` or ``name``: ``%``, ``:`` and ASCII white
    space percent-encoded (``a:b`` -> ``a%3Ab``), so ``{block}:{question}:{suffix}``
    splits one way only and two questions never share an id. Escape the result with
    :func:`attr` like any other value."""
    return _ID_UNSAFE.sub(lambda m: f"%{ord(m.group()):02X}", value)
