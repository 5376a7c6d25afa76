"""Human-readable output made inert (docs/protocol.md §1.4).

Every text view (``--format text``, the fuzz ``report.txt``, the one-line errors on
standard error) prints values that come from input. :func:`escape` is the one
function they all use: it writes each character that could forge an output line,
hide text or reach a terminal as a control (C0/C1 controls, line and paragraph
separators, bidi overrides and isolates and every other format character, lone
surrogates) as a JSON-style escape: ``\\n``, ``\\r``, ``\\t``, else ``\\uXXXX`` (a
character outside the BMP as its UTF-16 pair, as JSON writes it), so a value that
was already JSON-encoded stays valid JSON. Backslashes are left alone, so escaping
is idempotent; the JSON output (``--format json``) is the exact record.

Protocol values (``agent_text``, ``display_text``, prompts) keep their line breaks:
:func:`value_lines` splits one into escaped lines that a view prints as a block whose
lines carry a marker (:data:`CONTINUATION`) no line of the view starts with.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Categories Cc, Cf, Zl, Zp and Cs, pinned from Unicode 15.1 (Python 3.13's
# unicodedata, a superset of 14.0 and 15.0) so the output is the same on every install.
_UNSAFE_RANGES: tuple[tuple[int, int], ...] = (
    (0x0000, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD), (0x0600, 0x0605),
    (0x061C, 0x061C), (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891),
    (0x08E2, 0x08E2), (0x180E, 0x180E), (0x200B, 0x200F), (0x2028, 0x202E),
    (0x2060, 0x2064), (0x2066, 0x206F), (0xD800, 0xDFFF), (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F),
)  # fmt: skip

_UNSAFE_RE = re.compile(
    "["
    + "".join(
        f"\\U{lo:08x}" if lo == hi else f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in _UNSAFE_RANGES
    )
    + "]"
)
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_LINE_END_RE = re.compile(r"\r\n|\r|\n")

#: What a view puts before each line of a protocol value it prints as a block.
CONTINUATION = "| "


# A byte that is not UTF-8 in a file name or argument, as Python decodes it (PEP 383).
_ESCAPED_BYTE_RE = re.compile("[\udc80-\udcff]")
_LONE_RE = re.compile("[\ud800-\udfff]")


def os_name(value: str) -> str:
    """A file name, command or other text from the operating system as output names
    it (§1): each byte that is not UTF-8, which Python decodes to U+DC80-U+DCFF
    (``surrogateescape``), written as ``\\xNN`` (the byte), any other lone surrogate
    as ``\\uXXXX``; so no output holds a lone surrogate, in JSON neither (replykit's
    own strict reader refuses one). Idempotent, linear, never raises."""
    if value.isascii():
        return value
    value = _ESCAPED_BYTE_RE.sub(lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", value)
    return _LONE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", value)


def is_unsafe(char: str) -> bool:
    """True when the one character ``char`` is one :func:`escape` rewrites (§1.4): the
    fuzzer's features and shrinker use it to find characters that need a second look."""
    return _UNSAFE_RE.fullmatch(char) is not None


def _escape_char(match: re.Match[str]) -> str:
    char = match.group()
    short = _SHORT.get(char)
    if short is not None:
        return short
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escape(value: str) -> str:
    """``value`` made safe for one line of human-readable output (§1).

    Input: any ``str`` (lone surrogates included). Output: the same text with every
    C0/C1 control, U+2028/U+2029, format character (category Cf: bidi overrides and
    isolates U+202A-U+202E and U+2066-U+2069, U+200B, U+2060, U+FEFF...) and lone
    surrogate written as ``\\n``, ``\\r``, ``\\t`` or ``\\uXXXX``. The result holds no
    line break and none of those characters; ``escape(escape(v)) == escape(v)``.
    Linear time. Never raises.
    """
    return _UNSAFE_RE.sub(_escape_char, value)


def quoted(value: str) -> str:
    """``value`` between single quotes for a message that quotes a caller's input (a
    profile, a mode, a number option), written with :func:`escape` (§1.4: ``\\u001b``,
    not Python's ``\\x1b``), so a usage error stays one line in the text output's form."""
    return f"'{escape(value)}'"


def value_lines(value: str) -> list[str]:
    """A protocol value's lines (split at ``\\n``, ``\\r\\n`` and a lone ``\\r``, §1),
    each escaped with :func:`escape`; ``[""]`` for ``""``. A view prints them each after
    its own prefix ending in :data:`CONTINUATION`, so no line of the value can pass
    for a line of the view."""
    return [escape(line) for line in _LINE_END_RE.split(value)]


def render(lines: Iterable[str]) -> str:
    """The text of a view: each line escaped (:func:`escape`), joined by ``\\n``, with a
    final ``\\n``. Values that hold line breaks therefore stay on their line."""
    return "".join(escape(line) + "\n" for line in lines)


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and its ``noun``, singular for 1: ``1 reply``, ``5 replies`` (the
    plural is ``noun + "s"`` unless given)."""
    return f"{count} {noun if count == 1 else (plural or noun + 's')}"
