"""Near-miss warnings (docs/protocol.md §8): an opener that almost makes a candidate.

The scanner decides *where* a near-miss is judged (an opening line or tag outside the
inert regions opened before it); this module decides *which* warnings apply and
words them. Every warning is made by :func:`near_miss`.
"""

from __future__ import annotations

import re

import attrs

from replykit.scan.lexemes import Lexemes
from replykit.scan.lookahead import tag_name
from replykit.text import BLANK_CLASS, trim_blank

# Blank characters (§1) that CommonMark does not read as indentation (all but space and
# tab), possibly mixed with spaces, at the start of a paragraph line.
_INDENT_BLIND = re.compile(rf"(?![ \t]){BLANK_CLASS}(?:(?![\t\r\n]){BLANK_CLASS})*")


@attrs.frozen
class NearMiss:
    """A §8 near-miss warning found by the scanner (message offsets)."""

    code: str
    message: str
    start: int
    end: int


def near_miss(code: str, message: str, start: int, end: int) -> NearMiss:
    """The one place a near-miss warning is made."""
    return NearMiss(code, message, start, end)


def fence_near_misses(
    fence: str,
    info: str,
    start: int,
    end: int,
    lx: Lexemes,
    *,
    in_container: bool,
    prefix: str = "",
) -> list[NearMiss]:
    """The §8 warnings of a fence line at ``start:end`` whose first info word is a
    family name in any case (none otherwise). ``fence``: its backticks or tildes;
    ``in_container``: it stands in a block quote or list item; ``prefix``: the blank
    characters before it that CommonMark does not read as indentation (they make the
    line paragraph text)."""
    trimmed = trim_blank(info)
    words = trimmed.split()
    first = words[0] if words else ""
    if not lx.family_name_any_case.fullmatch(first):
        return []
    out: list[NearMiss] = []
    if prefix:
        found = sorted({f"U+{ord(ch):04X}" for ch in prefix if ch != " "})
        # Short: a hostile reply repeats it once per line (§1's output bound).
        out.append(near_miss(
            "near_miss.fence_indent",
            f"{', '.join(found)} before '{fence}{first}' is not Markdown indentation: the "
            "line is text, not a fence, and a closing fence after it opens a code block; "
            f"remove {'it' if len(found) == 1 else 'them'}",
            start, end,
        ))  # fmt: skip
    out.extend(_fence_form(fence, first, trimmed, start, end))
    if in_container:
        out.append(near_miss(
            "near_miss.in_container",
            "a questionnaire fence inside a block quote or list item is code; "
            "move it to the top level",
            start, end,
        ))  # fmt: skip
    return out


def _fence_form(fence: str, first: str, trimmed: str, start: int, end: int) -> list[NearMiss]:
    """The warnings about the fence itself: tildes, two backticks, the name's case,
    words after the name."""
    out: list[NearMiss] = []
    if fence[0] == "~":
        out.append(near_miss(
            "near_miss.tilde",
            f"'{fence}{first}' uses tildes; a questionnaire fence takes backticks",
            start, end,
        ))  # fmt: skip
    if len(fence) == 2:
        out.append(near_miss(
            "near_miss.short_fence",
            "a questionnaire fence needs three or more backticks, found two",
            start, end,
        ))  # fmt: skip
    if first != first.lower():
        out.append(near_miss(
            "near_miss.case",
            f"fence name '{first}' must be lower case: '{first.lower()}'",
            start, end,
        ))  # fmt: skip
    if trimmed != first:
        out.append(near_miss(
            "near_miss.extra_words",
            f"the info string must be only '{first.lower()}', found '{trimmed}'",
            start, end,
        ))  # fmt: skip
    return out


def names_family(info: str, lx: Lexemes) -> bool:
    """Whether the first word of a fence's info string is a family name in any case."""
    words = trim_blank(info).split()
    return bool(words) and lx.family_name_any_case.fullmatch(words[0]) is not None


def paragraph_fence(
    text: str, start: int, end: int, indent: int, lx: Lexemes
) -> tuple[str, str, int] | None:
    """A paragraph line at ``start:end`` (after ``indent`` columns) that would open a
    fence with a family name but for two backticks or for blank characters that are
    not indentation: its fence, info string and where the fence starts; else None."""
    pos = start
    blanks = _INDENT_BLIND.match(text, start, end)
    if blanks is not None:
        # Spaces among them would still indent the fence once the others are gone.
        if indent + blanks.group().count(" ") > 3:
            return None
        pos = blanks.end()
    if pos >= end or text[pos] not in "`~":
        return None
    m = lx.code_fence_open.fullmatch(text, pos, end)
    if m is not None:
        fence = m.group("backticks") or m.group("tildes")
        info = m.group("binfo") if m.group("backticks") else m.group("tinfo")
    elif lx.short_fence.match(text, pos):
        fence, info = "``", text[pos + 2 : end]
    else:
        return None
    if pos == start and fence != "``":
        return None  # a real fence opener: not paragraph text
    return (fence, info, pos) if names_family(info, lx) else None


def tag_near_misses(tag: re.Match[str], closer: int) -> list[NearMiss]:
    """The §8 warnings of a tag-like opener that is not a candidate (``closer``: the
    start of its closing tag, -1 when there is none)."""
    name, rest = tag_name(tag), tag.group("rest")
    p, e = tag.start(), tag.end()
    out: list[NearMiss] = []
    if name != name.lower():
        out.append(near_miss(
            "near_miss.case", f"tag name '{name}' must be lower case: '{name.lower()}'", p, e
        ))  # fmt: skip
    # Short messages: a hostile reply repeats them once per tag (§1's output bound).
    if rest != ">":
        what = "spaces inside the brackets" if rest.strip(" \t\r\n") == ">" else "attributes"
        out.append(near_miss("near_miss.tag_attributes", f"'<{name}>' takes no {what}", p, e))
    if closer < 0:
        out.append(near_miss("near_miss.unclosed_tag", f"no '</{name}>' follows this tag", p, e))
    return out
