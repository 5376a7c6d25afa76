"""The near-miss warnings of one fence line or opening tag (§8; docs/protocol.md
section 7), as findings at message offsets.

The lexer finds the line or tag and says what it found there; these pure functions
decide which ``near_miss.*`` codes apply (every one that does) and record each with
its parameters (:mod:`replykit.codes.segment`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import MutableMapping

from replykit.codes.segment import (
    NEAR_MISS_CASE,
    NEAR_MISS_EXTRA_WORDS,
    NEAR_MISS_FENCE_INDENT,
    NEAR_MISS_IN_CONTAINER,
    NEAR_MISS_SHORT_FENCE,
    NEAR_MISS_TAG_ATTRIBUTES,
    NEAR_MISS_TILDE,
    NEAR_MISS_UNCLOSED_TAG,
)
from replykit.diagnostics import Finding
from replykit.text import trim_blank


@functools.cache
def _family_any_case() -> re.Pattern[str]:
    from replykit.scan.grammar import family_pattern  # which imports the lexer, and so this

    return re.compile(family_pattern(), re.IGNORECASE | re.ASCII)


def is_family_word(word: str) -> bool:
    """True when ``word`` is a family name but for ASCII case (``Questionnaire``)."""
    return _family_any_case().fullmatch(word) is not None


def fence_near_misses(
    fence: str,
    info: str,
    start: int,
    end: int,
    *,
    in_container: bool,
    prefix: str = "",
    shared: MutableMapping[str, str] | None = None,
) -> list[Finding]:
    """The near-misses of a fence line whose first info word is a family name (none
    otherwise): ``fence`` its backtick or tilde run, ``info`` the rest of the line,
    ``start``-``end`` the offsets to report; ``in_container``: inside a block quote or
    list item; ``prefix``: the blank characters before the fence that CommonMark does
    not read as indentation (they make the line paragraph text); ``shared``: the
    messages made so far, so that equal messages are one string."""
    trimmed = trim_blank(info)
    words = trimmed.split()
    first = words[0] if words else ""
    if not is_family_word(first):
        return []
    out: list[Finding] = []
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
    if fence[0] == "~":
        out.append(
            NEAR_MISS_TILDE.finding(start=start, end=end, shared=shared, fence=fence, name=first)
        )
    if len(fence) == 2:
        out.append(NEAR_MISS_SHORT_FENCE.finding(start=start, end=end, shared=shared))
    if first != first.lower():
        out.append(
            NEAR_MISS_CASE.finding(
                start=start, end=end, shared=shared, name=first, lower=first.lower()
            )
        )
    if trimmed != first:
        out.append(
            NEAR_MISS_EXTRA_WORDS.finding(
                start=start, end=end, shared=shared, lower=first.lower(), info=trimmed
            )
        )
    if in_container:
        out.append(NEAR_MISS_IN_CONTAINER.finding(start=start, end=end, shared=shared))
    return out


def tag_near_misses(
    name: str,
    rest: str,
    closed: bool,
    start: int,
    end: int,
    shared: MutableMapping[str, str] | None = None,
) -> list[Finding]:
    """The near-misses of an opening tag ``<name`` + ``rest`` (``>`` or attributes)
    at ``start``-``end``; ``closed``: a closing tag of the same name follows;
    ``shared`` as for :func:`fence_near_misses`."""
    out: list[Finding] = []
    if name != name.lower():
        out.append(
            NEAR_MISS_CASE.finding(
                start=start, end=end, shared=shared, variant="tag", name=name, lower=name.lower()
            )
        )
    if rest != ">":
        spaces = rest.strip(" \t\r\n") == ">"
        out.append(
            NEAR_MISS_TAG_ATTRIBUTES.finding(
                start=start, end=end, shared=shared, variant="spaces" if spaces else None, name=name
            )
        )
    if not closed:
        out.append(NEAR_MISS_UNCLOSED_TAG.finding(start=start, end=end, shared=shared, name=name))
    return out
