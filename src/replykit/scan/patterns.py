"""CommonMark 0.31.2 line-start patterns used by the block scanner (lexer stage).

Each pattern is matched at the first non-space character of a line, with ``endpos``
at the end of the line's content (before its line ending), so ``$`` means end of line.
The protocol's own lexemes (fenced candidate name, opening and closing tags) are
terminals of ``grammar/message.lark`` and are read from there, not from here.
"""

from __future__ import annotations

import re

ATX_HEADING = re.compile(r"#{1,6}(?=[ \t]|$)")
FENCE_OPEN = re.compile(r"(?:(`{3,})([^`]*)|(~{3,})(.*))$", re.S)
FENCE_CLOSE = re.compile(r"(`{3,}|~{3,})[ \t]*$")
THEMATIC_BREAK = re.compile(r"(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
SETEXT_UNDERLINE = re.compile(r"(?:=+|-+)[ \t]*$")
BULLET_MARKER = re.compile(r"[*+-](?=[ \t]|$)")
ORDERED_MARKER = re.compile(r"([0-9]{1,9})[.)](?=[ \t]|$)")

_TAG_NAME = r"[A-Za-z][A-Za-z0-9-]*"
_ATTRIBUTE = (
    r"(?:[ \t\n\r]+[A-Za-z_:][A-Za-z0-9_.:-]*"
    r"(?:[ \t\n\r]*=[ \t\n\r]*(?:[^\"'=<>`\x00-\x20]+|'[^']*'|\"[^\"]*\"))?)"
)
OPEN_TAG = _TAG_NAME.join(("<", _ATTRIBUTE + r"*[ \t\n\r]*/?>"))
CLOSING_TAG = r"</" + _TAG_NAME + r"[ \t\n\r]*>"

_BLOCK_NAMES = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|"
    "details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|"
    "h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|"
    "noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|"
    "thead|title|tr|track|ul"
)
# HTML block start conditions 1-7 (spec 4.6), tried in order.
HTML_BLOCK_STARTS: tuple[re.Pattern[str], ...] = (
    re.compile(r"<(?:pre|script|style|textarea)(?:[ \t>]|$)", re.I),
    re.compile(r"<!--"),
    re.compile(r"<\?"),
    re.compile(r"<![A-Za-z]"),
    re.compile(r"<!\[CDATA\["),
    re.compile(r"</?(?:" + _BLOCK_NAMES + r")(?:[ \t]|/?>|$)", re.I),
    re.compile(r"(?:" + OPEN_TAG + "|" + CLOSING_TAG + r")[ \t]*$"),
)
# End conditions for types 1-5 (searched anywhere in a line); 6 and 7 end at a blank line.
HTML_BLOCK_ENDS: tuple[re.Pattern[str] | None, ...] = (
    re.compile(r"</(?:pre|script|style|textarea)>", re.I),
    re.compile(r"-->"),
    re.compile(r"\?>"),
    re.compile(r">"),
    re.compile(r"\]\]>"),
    None,
    None,
)

# Autolinks take precedence over code spans (spec 6.1); raw HTML is matched in inline.py.
AUTOLINK = re.compile(
    r"<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\x00-\x20]*>"
    r"|<[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*>"
)
ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
