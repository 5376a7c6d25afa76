"""Look-ahead questions about the rest of the message, answered from per-message indexes.

Whether a backtick run, a comment or a tag is closed depends on text after it. One
:class:`Lookahead` answers each such question in logarithmic time from indexes built
once per message, each on first use, so a scan stays linear however many openers a
message holds. Every answer is bounded by a ``limit`` the caller gives (the end of
the block in the raw reading, question ``raw_end``). A streaming reader can answer
the same questions from the text received so far.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence

from replykit.questionnaire.compat import Compat
from replykit.questionnaire.scan.lexemes import Lexemes
from replykit.questionnaire.scan.unknown import unknown_tags

# A family word that is a plain lower-case word is found by its first letter.
_LOWER_WORD = re.compile("[a-z]+")
# What ends raw HTML constructs: quotes, ">", "?>", "]]>" (grammar RAW_HTML).
_TERMINATORS = re.compile(r"\?>|\]\]>|[\"'>]")


class Lookahead:
    """Per-message indexes: backtick runs by length, ``-->``, raw HTML terminators,
    protocol tags and closing tags by name, HTML block end conditions by type.
    ``tags``/``tag_starts``: every tag-like opener (grammar ``TAG_LIKE``, any case) and
    its start, in order."""

    def __init__(self, text: str, lexemes: Lexemes, compat: Compat, first_word: int = -1) -> None:
        self._text = text
        self._lx = lexemes
        self.compat = compat
        self.scanned = 0  # characters the index builds examined
        # A streaming reading's text may still grow: after an opening tag whose closer
        # has not come, the rest of its line is that tag's tentative block (§10), so
        # scanning the line stops there (leaves.scan_tags).
        self.stop_at_unclosed = False
        # Protocol tags, found at once (C speed); the other indexes on first use.
        self.tags: Sequence[re.Match[str]] = list(lexemes.tag_like.finditer(text))
        self.tag_starts: Sequence[int] = [m.start() for m in self.tags]
        self._closers = self._closing_tags()
        self._runs: Mapping[int, Sequence[int]] | None = None
        self._comment_ends: Sequence[int] | None = None
        self._terminators: Mapping[str, Sequence[int]] | None = None
        self._end_marks: dict[int, tuple[list[int], list[int]]] = {}
        self._unknown: tuple[list[tuple[int, int, str]], list[int]] | None = None
        # The last family word found (grammar FAMILY_WORD, any case) and where its
        # search started; the next lower- and upper-case first letter and numeric
        # character reference at or after it.
        # ``first_word``: the first one, when the caller found it already (segment()'s
        # pre-check), so no search repeats it.
        self._word, self._word_from = (first_word, 0) if first_word >= 0 else (-1, -1)
        self._word_asked = False
        self._letters = [-1, -1, -1]

    # ---- inline closers ------------------------------------------------------------
    def _index_runs(self) -> Mapping[int, Sequence[int]]:
        runs: dict[int, list[int]] = {}
        for m in self._lx.backtick_run.finditer(self._text):
            runs.setdefault(m.end() - m.start(), []).append(m.start())
        self._runs = runs
        return runs

    def _index_terminators(self) -> Mapping[str, Sequence[int]]:
        terms: dict[str, list[int]] = {'"': [], "'": [], ">": [], "?>": [], "]]>": []}
        for m in _TERMINATORS.finditer(self._text):
            terms[m.group()].append(m.start())
            if m.group() != ">" and m.group().endswith(">"):
                terms[">"].append(m.end() - 1)
        self._terminators = terms
        return terms

    def closing_run(self, length: int, after: int, limit: int) -> int:
        """Start of the first maximal run of exactly ``length`` backticks at or after
        ``after`` that ends by ``limit``, or -1 (question ``pairs_code_span``)."""
        starts = (self._runs or self._index_runs()).get(length)
        if not starts:
            return -1
        i = bisect.bisect_left(starts, after)
        return starts[i] if i < len(starts) and starts[i] + length <= limit else -1

    def comment_close(self, after: int, limit: int) -> int:
        """Offset just past the first ``-->`` starting at or after ``after`` that ends
        by ``limit``, or -1."""
        ends = self._comment_ends
        if ends is None:
            # HTML_END_2 is "-->", the end of a comment.
            found = self._lx.html_ends[1].finditer(self._text)
            ends = self._comment_ends = [m.start() for m in found]
        i = bisect.bisect_left(ends, after)
        return ends[i] + 3 if i < len(ends) and ends[i] + 3 <= limit else -1

    def terminator(self, token: str, after: int, limit: int) -> int:
        """Offset just past the first ``token`` (a quote, ``>``, ``?>`` or ``]]>``)
        starting at or after ``after`` and ending by ``limit``, or -1."""
        starts = (self._terminators or self._index_terminators())[token]
        i = bisect.bisect_left(starts, after)
        if i < len(starts) and starts[i] + len(token) <= limit:
            return starts[i] + len(token)
        return -1

    # ---- protocol tags ---------------------------------------------------------------
    def _closing_tags(self) -> Mapping[str, tuple[list[int], list[int]]]:
        closers: dict[str, tuple[list[int], list[int]]] = {}
        for m in self._lx.any_close_tag.finditer(self._text):
            if m.group("escaped") and not self.compat.escaped_closers:
                continue
            starts, ends = closers.setdefault(self.name_key(close_tag_name(m)), ([], []))
            starts.append(m.start())
            ends.append(m.end())
        return closers

    def name_key(self, name: str) -> str:
        """How tag names compare: exactly, or in any ASCII case under §9."""
        return name.lower() if self.compat.case_insensitive else name

    def unknown(self) -> tuple[list[tuple[int, int, str]], list[int]]:
        """The opening tags with an unknown name (§8.1 ``near_miss.unknown_name``):
        ``(start, name end, name)`` in order, and their starts (indexed on first use)."""
        if self._unknown is None:
            found = unknown_tags(self._text, self._lx)
            self._unknown = (found, [t[0] for t in found])
        return self._unknown

    def closer_for(self, tag: re.Match[str]) -> tuple[int, int]:
        """Start and end of the first closing tag after ``tag`` with its name (§3a;
        ``<\\/N>`` too under §9 ``escaped_closers``), or ``(-1, -1)``."""
        found = self._closers.get(self.name_key(tag_name(tag)))
        if not found:
            return -1, -1
        i = bisect.bisect_left(found[0], tag.end())
        return (found[0][i], found[1][i]) if i < len(found[0]) else (-1, -1)

    def family_word_at_or_after(self, pos: int) -> int:
        """Start of the first family word (``FAMILY_WORD`` in any ASCII case) at or
        after ``pos``, or the text's length: a line without one holds no candidate and
        no near-miss. Asked at increasing offsets, each character is looked at about
        once."""
        if not self._word_asked:
            # The three searches look at each character at most three times in all.
            self.scanned += 3 * len(self._text)
            self._word_asked = True
        if not self._word_from <= pos <= self._word:
            if pos < self._word_from:
                self._letters = [-1, -1, -1]  # found after pos: one before may be missed
            self._word_from = pos
            self._word = find_family_word(self._text, self._lx, pos, self._letters)
        return self._word

    # ---- HTML block end conditions -------------------------------------------------
    def end_condition_within(self, kind: int, start: int, end: int) -> bool:
        """Whether the end condition of an HTML block of type ``kind`` (1-5) lies
        wholly in ``text[start:end]`` (grammar ``HTML_END_1`` .. ``HTML_END_5``)."""
        marks = self._end_marks.get(kind)
        if marks is None:
            found = list(self._lx.html_ends[kind - 1].finditer(self._text))
            self.scanned += len(self._text)
            marks = self._end_marks[kind] = ([m.start() for m in found], [m.end() for m in found])
        i = bisect.bisect_left(marks[0], start)
        return i < len(marks[0]) and marks[1][i] <= end


def tag_name(tag: re.Match[str]) -> str:
    """The block name of a ``TAG_LIKE`` match."""
    return tag.string[tag.start() + 1 : tag.start("rest")]


def close_tag_name(closer: re.Match[str]) -> str:
    """The block name of an ``ANY_CLOSE_TAG`` match."""
    return closer.string[closer.end("escaped") + 1 : closer.end() - 1]


def find_family_word(text: str, lx: Lexemes, pos: int = 0, letters: list[int] | None = None) -> int:
    """Start of the first family word (grammar ``FAMILY_WORD``, any ASCII case) in
    ``text`` at or after ``pos``, or of the first numeric character reference (``&#``)
    if that comes first (one may spell the word in a fence's info string, §3a), or
    ``len(text)``. A word of lower-case ASCII letters (the grammar's) is found by its
    first letter in either case with ``str.find``, several times faster than a
    case-blind regular expression; ``letters`` (three offsets, ``[-1, -1, -1]`` at
    first) keeps where those letters and ``&#`` were found, so that calls at
    non-decreasing ``pos`` sharing it look at each character about once."""
    found = letters if letters is not None else [-1, -1, -1]
    if found[2] < pos:
        at = text.find("&#", pos)
        found[2] = len(text) if at < 0 else at
    return min(found[2], _find_word(text, lx, pos, found))


def _find_word(text: str, lx: Lexemes, pos: int, found: list[int]) -> int:
    word, n = lx.family_word_any_case.pattern, len(text)
    if not _LOWER_WORD.fullmatch(word):
        m = lx.family_word_any_case.search(text, pos)
        return n if m is None else m.start()
    while True:
        for k, letter in enumerate((word[0], word[0].upper())):
            if found[k] < pos:
                at = text.find(letter, pos)
                found[k] = n if at < 0 else at
        q = min(found[0], found[1])
        if q >= n:
            return n
        window = text[q : q + len(word)]
        if window.isascii() and window.lower() == word:
            return q
        pos = q + 1
