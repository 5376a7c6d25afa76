"""Where PyYAML's C parser (libyaml) may read a payload otherwise than YAML 1.2.2
(docs/protocol.md §4.1): such payloads skip the C fast path and go to the referee."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

# A tab separates like a space wherever the rules below look at what comes before a
# character: the tab rule no longer sends every payload with a tab to the referee.
# Where libyaml and YAML 1.2.2 (or the referee, where YAML leaves a position open) are
# known to read a payload differently without libyaml reporting an error, found by the
# differential test (docs/protocol.md §4.1). Such payloads go to the referee directly;
# so does every payload libyaml reports an error in.
# Each pattern starts with the character it is about and looks behind it after: the
# regular-expression engine then skips to that character, instead of trying the
# look-behind at every position (many times slower on a payload of prose).
_COLON_FIRST = re.compile(r":(?<![^ \t\r\n\x85\u2028\u2029\[{,]:)[^ \t\r\n\x85\u2028\u2029,\[\]{}]")
_ODD_ANCHOR = re.compile(
    r"[&*](?<![^ \t\r\n\x85\u2028\u2029\[{,][&*])"
    r"[0-9A-Za-z_\-]*+[^0-9A-Za-z_\- \t\r\n\x85\u2028\u2029,\[\]{}]"
)
_HASH_IN_HEADER = re.compile(r"[|>][0-9+\-]{0,2}#")
# White space to both scanners: PyYAML and libyaml read U+0085, U+2028 and U+2029 as
# line breaks too (§4.1), so every rule that looks at what stands before a character
# counts them with the ASCII ones.
_BLANK = " \t\r\n\x85\u2028\u2029"
_BLANK_OR_FLOW = _BLANK + ",[]{}"
# An indicator '-', '?' or ':' standing alone at the start of a token, followed by a
# flow indicator, white space or the end: in flow context YAML 1.2.2 reads it as an
# indicator or refuses it, never as a plain scalar, where libyaml reads '-]' as the
# scalar '-'. ('-' before white space is a block entry to libyaml too: an error in flow
# context, so the referee decides it anyway.)
_LONE_DASH = re.compile("-(?<![^ \t\r\n\x85\u2028\u2029\\[{,:?]-)[,\\[\\]{}]")
_LONE_KEY = re.compile(
    "[?:](?<![^ \t\r\n\x85\u2028\u2029\\[{,:?][?:])(?:[ \t\r\n\x85\u2028\u2029,\\[\\]{}]|\\Z)"
)
# '#' right after a quoted scalar, a flow indicator or ':': libyaml reads a comment
# there, YAML 1.2.2 asks for white space before one.
_HASH_UNSPACED = re.compile("[\"'\\[\\]{},:]#|^%[^\r\n]*[^ \t\r\n]#", re.MULTILINE)

# A block scalar header first on its line: libyaml takes it as the value of the key
# before it even at that key's column, YAML 1.2.2 asks for more indentation.
_BLOCK_HEADER_FIRST = re.compile("(?:^|(?<=[\r\x85\u2028\u2029]))[ ]*[|>]", re.MULTILINE)


def _bom(payload: str) -> bool:
    # Only a leading one reaches the gate (any other is an error first): libyaml leaves
    # it out of its offsets.
    return "\ufeff" in payload


def _tab(payload: str) -> bool:
    """A tab where libyaml may read otherwise than YAML 1.2.2: in a line's leading white
    space (libyaml takes some as indentation), on a line holding '|' or '>' (a block
    scalar header) or on a directive line (only spaces separate there). A tab after
    content on a line (``title:⇥Plan``, ``[a,⇥b]``, ``a: b⇥# c``, ``a: b⇥``) is
    separation to both, and the differential test shows they agree there."""
    if "\t" not in payload:
        return False
    # splitlines also splits at \v, \f and \x1c-\x1e: none is printable, so a payload
    # holding one is an error before the gate; at every YAML line break it splits too.
    for line in payload.splitlines():
        first = line.find("\t")
        if first >= 0 and (
            not line[:first].strip(" ") or "|" in line or ">" in line or line.startswith("%")
        ):
            return True
    return False


def _odd_anchor(payload: str) -> bool:
    return ("&" in payload or "*" in payload) and _ODD_ANCHOR.search(payload) is not None


def _colon_first(payload: str) -> bool:
    return _COLON_FIRST.search(payload) is not None


def _hash_in_header(payload: str) -> bool:
    return "#" in payload and _HASH_IN_HEADER.search(payload) is not None


def _hash_unspaced(payload: str) -> bool:
    return "#" in payload and _HASH_UNSPACED.search(payload) is not None


# A quoted scalar starting a token, or a comment: brackets inside them are no flow
# indicators. A quote left open on its line ends the search (see _flow_continued).
_QUOTED_OR_COMMENT = re.compile(
    "(?<![^ \t\\[{,:])(?:\"(?:[^\"\\\\\n]|\\\\.)*\"?|'(?:[^'\n]|'')*'?)|(?<![^ \t])#.*"
)


def _flow_continued(payload: str) -> bool:
    """A flow collection that goes on on a later line (libyaml does not check how far
    its lines are indented), or a quoted scalar that does (not followed here)."""
    if "[" not in payload and "{" not in payload:
        return False
    depth = 0
    for line in payload.splitlines():
        if depth > 0:
            return True
        for m in _QUOTED_OR_COMMENT.finditer(line):
            text = m.group()
            if text[0] in "\"'" and (len(text) < 2 or text[-1] != text[0]):
                return True
        bare = _QUOTED_OR_COMMENT.sub("", line)
        opened = bare.count("[") + bare.count("{")
        depth = max(0, depth + opened - bare.count("]") - bare.count("}"))
    return False


def _block_header_first(payload: str) -> bool:
    return ("|" in payload or ">" in payload) and _BLOCK_HEADER_FIRST.search(payload) is not None


def _lone_indicator(payload: str) -> bool:
    # only flow context reads these otherwise
    return ("[" in payload or "{" in payload) and (
        _LONE_DASH.search(payload) is not None or _LONE_KEY.search(payload) is not None
    )


def _question(payload: str) -> bool:
    at = payload.find("?")
    while at >= 0:
        before = payload[at - 1] if at else "\n"
        after = payload[at + 1 : at + 2] or "\n"
        if before in _BLANK + "[{," and after not in _BLANK_OR_FLOW:
            return True  # '?x' at the start of a scalar
        if after in _BLANK_OR_FLOW:
            back = at - 1
            while back >= 0 and payload[back] in _BLANK:
                back -= 1
            if back >= 0 and payload[back] in "[{,:":
                return True  # '?' as an explicit key indicator after a flow indicator
        at = payload.find("?", at + 1)
    return False


#: The gate's rules by name, in the order :func:`c_may_differ` tries them.
RULES: Final[tuple[tuple[str, Callable[[str], bool]], ...]] = (
    ("tab", _tab),
    ("bom", _bom),
    ("odd_anchor", _odd_anchor),
    ("colon_first", _colon_first),
    ("hash_in_header", _hash_in_header),
    ("hash_unspaced", _hash_unspaced),
    ("block_header_first", _block_header_first),
    ("flow_continued", _flow_continued),
    ("lone_indicator", _lone_indicator),
    ("question", _question),
)


def c_may_differ(payload: str) -> bool:
    """Whether ``payload`` holds something libyaml may read otherwise than the referee
    without an error: a tab in a line's leading white space, at a line's end or on a
    line with a block scalar header (libyaml takes some as indentation; see
    :func:`_tab`); a byte order mark (libyaml leaves a leading one out of its offsets);
    '?' or ':' starting a plain scalar in flow context (libyaml reads an indicator); an
    explicit key with no key in flow context (libyaml places the empty key elsewhere);
    an anchor or alias whose name holds a character other than a letter, digit, '-' or
    '_' (libyaml ends the name there); '#' right after a block scalar header, a quoted
    scalar, a flow indicator, ':' or a directive's content (``%YAML 1.2#``: libyaml
    reads a comment, YAML 1.2.2 refuses it); a block scalar header first on its line
    (libyaml reads it at its key's column); a flow collection going on on a later line
    (libyaml does not check its indentation); a lone '-', '?' or ':'
    before a flow indicator, white space or the end (libyaml reads '-' as a scalar in
    flow context). Cheap substring tests first, then patterns that skip to their first
    character: typical forms hold none of these.
    Equal to ``bool(differ_rules(payload))``, without naming the rules (§4.1)."""
    return (
        _tab(payload)
        or _bom(payload)
        or _odd_anchor(payload)
        or _colon_first(payload)
        or _hash_in_header(payload)
        or _hash_unspaced(payload)
        or _block_header_first(payload)
        or _flow_continued(payload)
        or _lone_indicator(payload)
        or _question(payload)
    )


def differ_rules(payload: str) -> tuple[str, ...]:
    """The names of the :data:`RULES` that ``payload`` meets (§4.1), in their order:
    ``()`` exactly when :func:`c_may_differ` is false."""
    return tuple(name for name, rule in RULES if rule(payload))
