"""Text units (docs/protocol.md §1.1): line endings, blank characters, line/column.

Offsets everywhere in replykit are code-point indices into the input ``str``.
Line endings are ``\\n``, ``\\r\\n`` and a lone ``\\r`` (as CommonMark); nothing else,
so ``str.splitlines()`` (which also splits on U+2028, U+0085, ``\\f``...) is never used.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

# §1 "blank": Unicode White_Space or general category Cf. Pinned from Unicode 14.0
# (Python 3.11's unicodedata) so results do not move with the interpreter's tables.
_BLANK_RANGES: tuple[tuple[int, int], ...] = (
    (0x0009, 0x000D), (0x0020, 0x0020), (0x0085, 0x0085), (0x00A0, 0x00A0),
    (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD),
    (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x1680, 0x1680),
    (0x180E, 0x180E), (0x2000, 0x200F), (0x2028, 0x202F), (0x205F, 0x2064),
    (0x2066, 0x206F), (0x3000, 0x3000), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x13438), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F),
)  # fmt: skip


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    parts = []
    for lo, hi in ranges:
        parts.append(
            re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}"
        )
    return "[" + "".join(parts) + "]"


BLANK_CLASS = _char_class(_BLANK_RANGES)
_VISIBLE_RE = re.compile("[^" + BLANK_CLASS[1:])
#: Every blank character (§1), for ``str.strip``: linear, where a search for a blank run
#: anchored at the end tries every start inside a run that stops short of it (quadratic).
BLANK_CHARS = "".join(chr(c) for lo, hi in _BLANK_RANGES for c in range(lo, hi + 1))
LINE_END_RE = re.compile(r"\r\n|\r|\n")
_BLANK_RUN_RE = re.compile(BLANK_CLASS + "+")


def is_blank(s: str) -> bool:
    """True when every character of ``s`` is blank (§1: White_Space or Cf); ``""`` is blank."""
    if "!" <= s[:1] <= "~":
        return False  # a visible ASCII character is neither White_Space nor Cf
    return _VISIBLE_RE.search(s) is None


def first_visible(s: str, start: int = 0, end: int | None = None) -> int:
    """Index of the first non-blank character of ``s[start:end]`` (§1), or -1."""
    m = _VISIBLE_RE.search(s, start, len(s) if end is None else end)
    return -1 if m is None else m.start()


def blank_words(s: str) -> list[str]:
    """The words of ``s`` separated by runs of blank characters (§1.1), none empty:
    ``"a\u200bb c"`` gives ``["a", "b", "c"]``; ``str.split()`` would split at
    U+001C but not at U+200B."""
    return [word for word in _BLANK_RUN_RE.split(s) if word]


def trim_blank(s: str) -> str:
    """``s`` without leading and trailing blank characters (§1), NBSP and U+3000 included."""
    if "!" <= s[:1] <= "~" and "!" <= s[-1:] <= "~" and type(s) is str:
        return s  # visible ASCII at both ends: nothing to trim, no search
    return s.strip(BLANK_CHARS)


def iter_lines(text: str, start: int = 0) -> Iterator[tuple[int, int, int]]:
    """Yield ``(start, content_end, end)`` for each line of ``text`` from ``start``.

    ``content_end`` excludes the line ending, ``end`` includes it (§1 line endings).
    A final line without a line ending is yielded when non-empty.
    """
    pos = start
    n = len(text)
    while pos < n:
        m = LINE_END_RE.search(text, pos)
        if m is None:
            yield pos, n, n
            return
        yield pos, m.start(), m.end()
        pos = m.end()


def json_lines_line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (code points) of ``offset`` in a JSON Lines text or a
    conversation file: lines end at ``\n`` only (docs/protocol-responses.md section
    3.1). The ``\r`` of ``\r\n`` and a lone ``\r`` are characters of their line
    (JSON white space), counted in the column, unlike §1's line endings of message
    text."""
    start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - start + 1


class LineIndex:
    """Maps code-point offsets of one text to 1-based (line, column) pairs (§1)."""

    __slots__ = ("_starts", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._starts: list[int] | None = None  # found on first use

    def _line_starts(self) -> list[int]:
        if self._starts is None:
            self._starts = [0] + [m.end() for m in LINE_END_RE.finditer(self._text)]
        return self._starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """Return the 1-based line and the 1-based column (in code points) of ``offset``."""
        starts = self._line_starts()
        i = bisect.bisect_right(starts, offset) - 1
        return i + 1, offset - starts[i] + 1


def with_article(word: str) -> str:
    """``word`` after its English indefinite article: ``"an acme2-questionnaire"``,
    ``"a single_choice"``. The article is "an" before a vowel letter (a, e, i, o, u, in
    either case), else "a" (§1: messages name a value as written)."""
    return ("an " if word[:1].lower() in ("a", "e", "i", "o", "u") else "a ") + word


def measured_size(text: str) -> int:
    """The size of ``text`` as every size limit counts it (docs/protocol.md §1.5): code
    points, a line ending (``\n``, ``\r\n`` or a lone ``\r``, §1.1) counting as one, as
    in CommonMark's content of a block. The same text so measures the same with every
    line ending."""
    return len(text) - text.count("\r\n")


#: What is a ``collections.abc.Sequence`` yet never a list of values: text and binary
#: data (``bytearray`` and ``memoryview`` too; iterating reads characters or byte
#: values). Every check "a list, not a string" excludes all of them.
NOT_A_LIST: tuple[type, ...] = (str, bytes, bytearray, memoryview)
