"""The text a streaming segmenter has received: chunks, lines, and what to hold back (§10).

:class:`Received` keeps the chunks as they came and notes, for each one, only what a
few searches of that chunk tell (work linear in the chunk, at C speed but for a loop
over a fence's opening run): where complete lines end (a final ``\\r`` is not a
complete line ending yet: ``\\n`` may follow, §1), where the first family word stands,
the first visible character and the first ``&`` (for the §9 transport decodings),
and which text at the end is held back: a ``<`` that may still start a family tag or
a comment, a line that may still be a fence opener, a final ``\\r``.
"""

from __future__ import annotations

import bisect
import re

from replykit.questionnaire.compat import Compat
from replykit.questionnaire.scan.grammar import lexemes
from replykit.text import LINE_END_RE

# What may follow a held "<": a tag's "/" (or "\\/", §9) and name so far, or "!", "!-"
# (a comment opener so far). Name characters in any case (§9, and near-misses).
_TAG_START = re.compile(r"(?:\\?/?)?[A-Za-z0-9-]*|!-?")
_NAME_RUN = re.compile(r"[A-Za-z0-9-]*")
_FAMILY_WORD = len("questionnaire")


class _FenceLine:
    """Whether the partial last line may still become a fence opener (CommonMark 4.5:
    0-3 spaces, a run of 3+ backticks or tildes, an info string without backticks
    after backticks), read a chunk at a time."""

    def __init__(self) -> None:
        self.spaces = 0
        self.char = ""
        self.run = 0
        self.info = False  # the run has ended
        self.possible = True

    def feed(self, text: str) -> None:
        """Read the next characters of the line."""
        for i, ch in enumerate(text):
            if not self.possible:
                return
            if not self.char:
                if ch == " " and self.spaces < 3:
                    self.spaces += 1
                elif ch in "`~":
                    self.char, self.run = ch, 1
                else:
                    self.possible = False
            elif not self.info and ch == self.char:
                self.run += 1
            else:
                self.info = True
                rest = text[i:]
                self.possible = self.run >= 3 and not (self.char == "`" and "`" in rest)
                return


class Received:
    """The text received so far (see the module docstring). ``size``: code points
    received; ``complete``: the end of the last complete line; ``family``: the start
    of the line holding the first family word (any ASCII case), or ``None``."""

    def __init__(self, compat: Compat | None) -> None:
        self.chunks: list[str] = []
        self.starts: list[int] = []
        self.size = 0
        self.line_starts = [0]
        self.family: int | None = None
        self._compat = compat
        self._cr = False  # the text ends with "\r"
        self._last = ""  # the last characters, for a family word split across chunks
        self._first_char = ""  # the first character that is not white space (§9)
        self._first_amp: int | None = None
        self._lt: int | None = None  # a "<" that may still start a tag or comment
        self._lt_rest = ""  # what follows it, while no name character has
        self._line = _FenceLine()
        #: Where the last "<", "```" or "~~~" received ends (-1: none): a line holding
        #: one may open or close a tag or close a fenced candidate, so a reading is
        #: worth running.
        self.last_mark = -1
        self._tail = ""  # the last two characters, for a mark split across chunks
        #: Where the last family word received ends (-1: none): a block's opener and an
        #: XML+JSON block's closer hold one.
        self.last_family = -1

    @property
    def complete(self) -> int:
        """The end of the last complete line (a line start)."""
        return self.line_starts[-1]

    def append(self, chunk: str) -> None:
        """Note ``chunk``, received after everything before it."""
        if not chunk:
            return
        start = self.size
        self.chunks.append(chunk)
        self.starts.append(start)
        self.size += len(chunk)
        if self._cr or "\n" in chunk or "\r" in chunk:
            self._lines(chunk, start)
        elif self._line.possible:
            self._line.feed(chunk)  # no line ends: the last line goes on
        self._family(chunk, start)
        if self._compat is not None:
            self._transport(chunk, start)
        if self._lt is not None or "<" in chunk:
            self._hold_tag(chunk, start)
        self._mark(chunk, start)

    def _lines(self, chunk: str, start: int) -> None:
        if not chunk:
            return
        first = 0
        begins: int | None = None  # where a line starting in this chunk starts
        if self._cr:
            # "\r" then "\n" is one line ending; "\r" then anything else was one.
            self._cr = False
            first = begins = 1 if chunk[0] == "\n" else 0
            self.line_starts.append(start + first)
        for m in LINE_END_RE.finditer(chunk, first):
            if m.group() == "\r" and m.end() == len(chunk):
                self._cr = True
                break
            begins = m.end()
            self.line_starts.append(start + begins)
        if self._cr:
            self._line = _FenceLine()
        elif begins is not None:
            self._line = _FenceLine()
            self._line.feed(chunk[begins:])
        else:
            self._line.feed(chunk)

    def close(self) -> None:
        """The message has ended: a final ``\\r`` ends its line (§1)."""
        if self._cr:
            self._cr = False
            self.line_starts.append(self.size)

    def _mark(self, chunk: str, start: int) -> None:
        if "<" not in chunk and "`" not in chunk and "~" not in chunk:
            # A mark found in the tail alone was noted with its own chunk.
            self._tail = (self._tail + chunk)[-2:]
            return
        window = self._tail + chunk
        found = max(window.rfind("<"), window.rfind("```"), window.rfind("~~~"))
        if found >= 0:
            self.last_mark = start - len(self._tail) + found + 1
        self._tail = window[-2:]

    def _family(self, chunk: str, start: int) -> None:
        window = self._last + chunk
        found = -1
        for m in lexemes().family_word_any_case.finditer(window):
            found = start - len(self._last) + m.start()
            if self.family is None:
                self.family = self.line_starts[bisect.bisect_right(self.line_starts, found) - 1]
        if found >= 0:
            self.last_family = found + _FAMILY_WORD
        self._last = window[-(_FAMILY_WORD - 1) :]

    def _transport(self, chunk: str, start: int) -> None:
        if not self._first_char:
            self._first_char = chunk.lstrip()[:1]
        if self._first_amp is None and "&" in chunk:
            self._first_amp = start + chunk.index("&")

    def _hold_tag(self, chunk: str, start: int) -> None:
        at = chunk.rfind("<")
        if at >= 0:
            self._lt, self._lt_rest, rest = start + at, "", chunk[at + 1 :]
        elif self._lt is None:
            return
        else:
            rest = chunk
        if len(self._lt_rest) > 3:  # a name has begun: only name characters may follow
            held = _NAME_RUN.fullmatch(rest) is not None
        else:
            held = _TAG_START.fullmatch(self._lt_rest + rest) is not None
            self._lt_rest = (self._lt_rest + rest)[:4]
        if not held:
            self._lt, self._lt_rest = None, ""

    def held_from(self) -> int:
        """Where the text held back at the end starts (``size`` when none is): a
        partial tag or comment opener, a line that may still open a fence, a final
        ``\\r``."""
        held = self.size - 1 if self._cr else self.size
        if self._lt is not None:
            held = min(held, self._lt)
        if self._line.possible and not self._cr and self.size > self.complete:
            held = min(held, self.complete)
        return held

    def transport_limit(self) -> int | None:
        """The offset from which a §9 transport decoding may still change the text
        (``None``: none may): 0 while the whole message may be one JSON string
        (its first visible character is ``"`` or has not come), else the first ``&``
        when entities may be decoded."""
        compat = self._compat
        if compat is None:
            return None
        if compat.decode_json_string and self._first_char in ("", '"'):
            return 0
        if compat.decode_entities:
            return self._first_amp
        return None

    def slice(self, start: int, end: int) -> str:
        """``text[start:end]`` of the text received."""
        if start >= end:
            return ""
        i = bisect.bisect_right(self.starts, start) - 1
        j = bisect.bisect_left(self.starts, end)
        joined = "".join(self.chunks[i:j])
        offset = self.starts[i]
        return joined[start - offset : end - offset]

    def text(self) -> str:
        """The whole text received."""
        return "".join(self.chunks)

    def line_col(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of ``offset`` (§1), among the complete lines."""
        i = bisect.bisect_right(self.line_starts, offset) - 1
        return i + 1, offset - self.line_starts[i] + 1
