"""What :class:`~.stream_input.Received` looks for in the text as it arrives (§3a, §9, §10).

Patterns and small records of the received text's notes: the family tag that may be
held back whole while it arrives, the possible family word, and the line still arriving
as readings searched it.
"""

from __future__ import annotations

import functools
import re

from replykit.questionnaire.compat import Compat
from replykit.questionnaire.scan.grammar import lexemes
from replykit.text import BLANK_CLASS

# A complete opening tag of the family (any case, attributes allowed, §3a, §9): when one
# comes in the line still arriving, a reading shows its tentative block at once.
OPENING_TAG = re.compile(
    r"<(?:[a-z0-9]+-)?questionnaire(?:-response)?(?:>|[ \t/][^<>\r\n]*>)", re.IGNORECASE | re.ASCII
)
# What may follow a held "<": a tag's "/" (or "\\/", §9) and name so far, or "!", "!-"
# (a comment opener so far). Name characters in any case (§9, and near-misses).
TAG_START = re.compile(r"(?:\\?/?)?[A-Za-z0-9-]*|!-?")
NAME_RUN = re.compile(r"[A-Za-z0-9-]*")
# An opening tag's name of the family (any case: §9), after which its attributes so far
# are held too (a partial tag is held back whole, §10): on its line, or under §9's
# tag_attributes across line endings too (the grammar's TAG_LIKE: any §1 blank after
# the name, then anything but "<" and ">"). The first NAME_KEPT characters of a name
# are kept as it arrives; a longer one is read from the text once, when it ends.
FAMILY_NAME = re.compile(r"(?:[a-z0-9]+-)?questionnaire(?:-response)?", re.IGNORECASE | re.ASCII)
_ATTRIBUTES = re.compile(r"[ \t/][^<>\r\n]*")
_ATTRIBUTES_RUN = re.compile(r"[^<>\r\n]*")
_ANY_ATTRIBUTES = re.compile(f"(?:[ \\t\\r\\n/]|{BLANK_CLASS})[^<>]*")
_ANY_ATTRIBUTES_RUN = re.compile(r"[^<>]*")
NAME_KEPT = 64
# The characters of a possible family word a chunk boundary may cut (the family word
# "questionnaire" in any case, or "&#"), searched again when the line is searched on.
WORD_BACK = 16
# What a reading for an opening tag in the line still arriving reads after the tag, at
# most (a constant per chunk: Received.tag_reading_end).
TAG_AFTER = 64


@functools.cache
def possible_word() -> re.Pattern[str]:
    """The family word (any ASCII case) or a numeric character reference, which may
    spell it in a fence's info string (§3a)."""
    word = lexemes().family_word_any_case
    return re.compile(f"(?:{word.pattern})|&#", word.flags)


def attribute_patterns(compat: Compat | None) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A held family tag's attributes: their start and what may follow (on one line,
    or under §9's ``tag_attributes`` across line endings too)."""
    if compat is not None and compat.tag_attributes:
        return _ANY_ATTRIBUTES, _ANY_ATTRIBUTES_RUN
    return _ATTRIBUTES, _ATTRIBUTES_RUN


class LineNotes:
    """The line still arriving as readings searched it (``stream_tags.line_notes``):
    where it starts, how far it was searched, where its possible family words and its
    ``<`` and ``>`` start."""

    def __init__(self, at: int = -1) -> None:
        self.at = at
        self.to = max(at, 0)
        self.words: list[int] = []
        self.angles: list[int] = []


__all__ = [
    "FAMILY_NAME", "NAME_KEPT", "NAME_RUN", "OPENING_TAG", "TAG_AFTER", "TAG_START",
    "WORD_BACK", "LineNotes", "attribute_patterns", "possible_word",
]  # fmt: skip
