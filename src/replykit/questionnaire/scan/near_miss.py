"""Near-miss warnings (docs/protocol.md §8): an opener that almost makes a candidate.

The scanner decides *where* a near-miss is judged (an opening line or tag outside the
inert regions opened before it); this module decides *which* ``near_miss.*`` codes
apply (every one that does) and records each, with its parameters and variant,
through the registry of codes (:mod:`replykit.codes.segment`): a near-miss is a
:class:`~replykit.diagnostics.Finding` at message offsets.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import TypeAlias

from replykit.codes.segment import (
    NEAR_MISS_CASE,
    NEAR_MISS_EXTRA_WORDS,
    NEAR_MISS_FENCE_INDENT,
    NEAR_MISS_IN_CONTAINER,
    NEAR_MISS_SHORT_FENCE,
    NEAR_MISS_TAG_ATTRIBUTES,
    NEAR_MISS_TILDE,
    NEAR_MISS_UNCLOSED_TAG,
    NEAR_MISS_UNKNOWN_NAME,
)
from replykit.diagnostics import Finding
from replykit.questionnaire.info_string import fence_name
from replykit.questionnaire.scan.lexemes import Lexemes
from replykit.questionnaire.scan.lookahead import tag_name
from replykit.questionnaire.scan.unknown import is_family_word, is_unknown_name
from replykit.text import BLANK_CLASS, blank_words, is_blank

#: A §8 near-miss warning found by the scanner: a finding at message offsets.
NearMiss: TypeAlias = Finding
#: Messages already made, by text: equal messages are one string (a reply dense with
#: near-misses repeats a few texts many times; §1, memory stays near the input's size).
Shared: TypeAlias = MutableMapping[str, str]

# Blank characters (§1) that CommonMark does not read as indentation (all but space and
# tab), possibly mixed with spaces, at the start of a paragraph line.
# Three or more backticks at a paragraph line's start (where the line is no fence).
_FENCE_RUN = re.compile("`{3,}")
_INDENT_BLIND = re.compile(rf"(?![ \t]){BLANK_CLASS}(?:(?![\t\r\n]){BLANK_CLASS})*")


def unknown_tag_near_miss(
    start: int, end: int, name: str, shared: Shared | None = None
) -> NearMiss:
    """The ``near_miss.unknown_name`` warning of an opening tag at ``start:end`` whose
    name holds the family word with no family shape (``shared``: see :data:`Shared`)."""
    return NEAR_MISS_UNKNOWN_NAME.finding(
        start=start, end=end, shared=shared, variant="tag", name=name
    )


def names_family(info: str, lx: Lexemes) -> bool:
    """Whether the first word of a fence's info string (``info``: the raw text after
    the fence, decoded as CommonMark does, §3a) is a family name in any case."""
    words = blank_words(fence_name(info))
    return bool(words) and is_family_word(words[0], lx)


def fence_near_misses(
    fence: str,
    info: str,
    start: int,
    end: int,
    lx: Lexemes,
    *,
    in_container: bool,
    prefix: str = "",
    shared: Shared | None = None,
) -> list[NearMiss]:
    """The §8 warnings of a fence line at ``start:end`` whose first info word is a
    family name in any case, or ``near_miss.unknown_name`` alone when that word holds
    the family word with no family shape (none otherwise). ``fence``: its backticks or tildes;
    ``in_container``: it stands in a block quote or list item; ``prefix``: the blank
    characters before it that CommonMark does not read as indentation (they make the
    line paragraph text); ``shared``: see :data:`Shared`."""
    trimmed = fence_name(info)  # the info string as CommonMark decodes it (§3a)
    words = blank_words(trimmed)
    first = words[0] if words else ""
    if not is_family_word(first, lx):
        if is_unknown_name(first, lx, responses=False):  # responses are never fenced
            return [NEAR_MISS_UNKNOWN_NAME.finding(start=start, end=end, shared=shared, name=first)]
        return []
    out: list[NearMiss] = []
    if prefix:
        found = sorted({f"U+{ord(ch):04X}" for ch in prefix if ch != " "})
        out.append(
            NEAR_MISS_FENCE_INDENT.finding(
                start=start,
                end=end,
                shared=shared,
                variant=None if len(found) == 1 else "several",
                fence=fence,
                name=first,
                characters=", ".join(found),
            )
        )
    out.extend(_fence_form(fence, first, trimmed, start, end, shared))
    if in_container:
        out.append(NEAR_MISS_IN_CONTAINER.finding(start=start, end=end, shared=shared))
    return out


def _fence_form(
    fence: str, first: str, trimmed: str, start: int, end: int, shared: Shared | None
) -> list[NearMiss]:
    """The warnings about the fence itself: tildes, two backticks, the name's case,
    words after the name."""
    out: list[NearMiss] = []
    if fence[0] == "~":
        out.append(
            NEAR_MISS_TILDE.finding(start=start, end=end, shared=shared, fence=fence, name=first)
        )
    if len(fence) == 2:
        out.append(NEAR_MISS_SHORT_FENCE.finding(start=start, end=end, shared=shared))
    lower = first.lower()
    if first != lower:
        out.append(
            NEAR_MISS_CASE.finding(start=start, end=end, shared=shared, name=first, lower=lower)
        )
    if trimmed != first:
        out.append(
            NEAR_MISS_EXTRA_WORDS.finding(
                start=start, end=end, shared=shared, lower=lower, info=trimmed
            )
        )
    return out


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
    elif (run := _FENCE_RUN.match(text, pos, end)) is not None:
        # A backtick in the info string: CommonMark reads no fence, but the line is a
        # fence attempt unless its run closes a code span on the line (the caller asks).
        fence, info = run.group(), text[run.end() : end]
        first = blank_words(fence_name(info))[:1]
        named = first and (is_family_word(first[0], lx) or is_unknown_name(first[0], lx))
        return (fence, info, pos) if named else None
    else:
        return None
    if pos == start and fence != "``":
        return None  # a real fence opener: not paragraph text
    return (fence, info, pos) if names_family(info, lx) else None


# After a tag name, an attribute being written: white space, a name and "=". A TAG_LIKE
# whose attributes hold a "<" (title="a<b") stops at it with an empty ``rest``; it is
# still judged, so a form does not vanish without a word (§8).
# The white space is TAG_LIKE's: any §1 blank character, line endings included.
_ATTRIBUTE_AFTER_NAME = re.compile(f"{BLANK_CLASS}+[A-Za-z_:][A-Za-z0-9_.:-]*{BLANK_CLASS}*=")


def judged_tag(tag: re.Match[str]) -> bool:
    """Whether a ``TAG_LIKE`` match is judged as an opener: it reached a ``>`` (its
    ``rest``), or an attribute follows its name (whose value holds a ``<``)."""
    return bool(tag.group("rest")) or _ATTRIBUTE_AFTER_NAME.match(tag.string, tag.end()) is not None


def tag_near_misses(
    tag: re.Match[str], closer: int, shared: Shared | None = None
) -> list[NearMiss]:
    """The §8 warnings of a tag-like opener that is not a candidate (``closer``: the
    start of its closing tag, -1 when there is none; ``shared``: see :data:`Shared`)."""
    name, rest = tag_name(tag), tag.group("rest")
    p, e = tag.start(), tag.end()
    out: list[NearMiss] = []
    lower = name.lower()
    if name != lower:
        out.append(
            NEAR_MISS_CASE.finding(
                start=p, end=e, shared=shared, variant="tag", name=name, lower=lower
            )
        )
    if rest != ">":
        spaces = rest != "" and is_blank(rest[:-1])  # only blank characters (§1) before ">"
        out.append(
            NEAR_MISS_TAG_ATTRIBUTES.finding(
                start=p, end=e, shared=shared, variant="spaces" if spaces else None, name=name
            )
        )
    if closer < 0:
        out.append(NEAR_MISS_UNCLOSED_TAG.finding(start=p, end=e, shared=shared, name=name))
    return out
