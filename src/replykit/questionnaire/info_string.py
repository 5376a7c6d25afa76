"""A fence's info string as CommonMark 0.31.2 reads it (docs/protocol.md §3a).

CommonMark's info string is the text after the fence, trimmed of spaces and tabs, with
backslash escapes and entity and numeric character references decoded ("Fenced code
blocks", "Backslash escapes", "Entity and numeric character references"). §3a matches
a family name against it, after §1's trim of blank characters; so do the near-miss
checks (§8). The rule that a backtick fence's info string holds no backtick applies to
the raw text, before decoding (``&#96;`` is allowed).
"""

from __future__ import annotations

import re
from html.entities import html5
from typing import Final

from replykit.text import trim_blank

# A backslash before ASCII punctuation, a named reference (HTML5 names, ';' required),
# a decimal (1-7 digits) or hexadecimal (1-6 digits) numeric reference.
_ESCAPE_OR_REFERENCE: Final = re.compile(
    r"\\(?P<punct>[!-/:-@\[-`{-~])"
    r"|&(?:#(?:(?P<dec>[0-9]{1,7})|[xX](?P<hex>[0-9a-fA-F]{1,6}))|(?P<name>[A-Za-z][A-Za-z0-9]{0,47}));"
)


def _decode(m: re.Match[str]) -> str:
    if m.group("punct") is not None:
        return m.group("punct")
    name = m.group("name")
    if name is not None:
        return html5.get(name + ";", m.group())  # an unknown name stays as written
    hexa = m.group("hex")
    code = int(hexa, 16) if hexa is not None else int(m.group("dec"))
    # 0, a surrogate or beyond U+10FFFF is no valid code point: U+FFFD instead.
    valid = 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF
    return chr(code) if valid else "\ufffd"


def decode_info(raw: str) -> str:
    """The info string of a fence whose opener line holds ``raw`` after its fence
    characters: trimmed of spaces and tabs, backslash escapes and character references
    decoded. ``"questionnair&#101;"`` gives ``"questionnaire"``, ``"foo\\-x"`` gives
    ``"foo-x"``, ``"a&nbsp;"`` gives ``"a\\u00a0"``; an unknown name stays as written.
    Linear; never raises."""
    trimmed = raw.strip(" \t")
    if "\\" not in trimmed and "&" not in trimmed:
        return trimmed
    return _ESCAPE_OR_REFERENCE.sub(_decode, trimmed)


def decode_reference(ref: str) -> str:
    """The text a whole character reference ``ref`` stands for, decoded as in
    :func:`decode_info` (``"&#8203;"`` gives ``"\\u200b"``); anything else is returned
    as written."""
    m = _ESCAPE_OR_REFERENCE.fullmatch(ref)
    return ref if m is None else _decode(m)


def fence_name(raw: str) -> str:
    """The name a fence opener gives (§3a): its info string (:func:`decode_info`)
    trimmed of blank characters (§1); a family name when it opens a candidate."""
    return trim_blank(decode_info(raw))
