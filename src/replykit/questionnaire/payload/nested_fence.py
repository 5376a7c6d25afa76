"""Payload lines that open a fence, or look like a closing one with text after it:
``yaml.nested_fence`` (docs/protocol.md §4.1, §8)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from replykit.codes.payload import YAML_NESTED_FENCE
from replykit.diagnostics import Finding
from replykit.text import is_blank, iter_lines

# A fence line: 0-3 spaces, a run of 3+ backticks or tildes, the rest of the line.
_FENCE_LINE = re.compile(r" {0,3}(?P<fence>`{3,}|~{3,})(?P<rest>.*)")


def _symbol(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "PS"


def _fence_variant(
    payload: str, start: int, end: int, fence_length: int
) -> tuple[str, str | None] | None:
    """The ``yaml.nested_fence`` variant for the line ``payload[start:end]`` and the
    invisible character it names: ``""`` for a line that opens a fence,
    ``closing_text`` for one that looks like a closing fence with punctuation or
    symbols after it, ``closing_blank`` (and ``U+XXXX``) for one with only blank
    characters (§1) after it, not all spaces and tabs; None when it is no fence line."""
    match = _FENCE_LINE.match(payload, start, end)
    if match is None:
        return None
    fence, rest = match.group("fence", "rest")
    if fence[0] == "`" and len(fence) >= fence_length:
        # Only punctuation and symbols (Unicode P* and S*) or blanks after a
        # closing-length fence: meant as a closer (§3a still says it is none, §8).
        text = rest.strip(" \t")
        if text and all(ch in " \t" or _symbol(ch) or is_blank(ch) for ch in text):
            if any(_symbol(ch) for ch in text):
                return "closing_text", None
            invisible = next(ch for ch in text if ch not in " \t")
            return "closing_blank", f"U+{ord(invisible):04X}"
    if fence[0] == "~" or "`" not in rest:  # CommonMark: no backtick in a backtick info
        return "", None
    return None


def nested_fences(payload: str, fence_length: int = 3) -> Iterator[Finding]:
    """``yaml.nested_fence`` for each payload line that would open a CommonMark fence
    (0-3 spaces, then 3+ backticks with no backtick after, or 3+ tildes), or that looks
    like the closing fence of an opener of ``fence_length`` backticks with punctuation
    or symbols after it (§8); offsets of that line's content (§4 payload)."""
    if "```" not in payload and "~~~" not in payload:
        return  # no line can be a fence: the common case, without a pass over lines
    for start, content_end, _end in iter_lines(payload):
        found = _fence_variant(payload, start, content_end, fence_length)
        if found is not None:
            variant, char = found
            yield YAML_NESTED_FENCE.finding(
                start=start, end=content_end, variant=variant or None, char=char
            )
