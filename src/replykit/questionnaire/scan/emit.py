"""Where the scanner's tokens go: the fast mode's coarse tokens, the checked mode's fine ones.

The scanner reports three kinds of token: candidate tokens (both modes), inert
regions as the fast mode's coarse tokens (``FENCED_CODE`` ...), and the checked
mode's fine tokens (every block, line and inline construct of
``grammar/message.lark``). Each sink keeps the kinds its mode parses and drops the
others; a silent read-ahead uses :class:`Silent`, which keeps nothing.
"""

from __future__ import annotations

import re
from typing import NamedTuple, Protocol

# Re-exported: the callers import it from here (it lives in bug.py, left pure).
from replykit.questionnaire.scan.bug import ReplykitBug as ReplykitBug
from replykit.questionnaire.scan.near_miss import NearMiss
from replykit.questionnaire.scan.shown import first_shown, shows_text


class Token(NamedTuple):
    """One token: ``type`` is a terminal name of the grammar; offsets are code points.
    (A named tuple: a message's tokens are made in its scan, and a tuple is made in
    half the time of a frozen attrs instance.)"""

    type: str
    start: int
    end: int


class Sink(Protocol):
    """What the scanner emits into (see the module docstring)."""

    tokens: list[Token]
    near_misses: list[NearMiss]

    def candidate(self, kind: str, start: int, end: int) -> None:
        """A candidate token (``FENCE_OPENER`` ... ``CLOSE_TAG``)."""

    def inert(self, kind: str, start: int, end: int) -> None:
        """An inert region as a coarse token (``FENCED_CODE``, ``INDENTED_CODE``,
        ``CODE_SPAN``, ``HTML_COMMENT``)."""

    def token(self, kind: str, start: int, end: int) -> None:
        """A fine token of the checked mode."""

    def mark(self, kind: str) -> None:
        """A zero-width fine token (``_END``, ``_CLOSE``, ``_HTML_OPEN``)."""

    def warn(self, found: list[NearMiss]) -> None:
        """Near-miss warnings."""

    def halt(self) -> None:
        """Nothing after this is emitted (an unclosed comment hides the rest, §3b)."""

    def finish(self, n: int) -> None:
        """The message ends at ``n``."""


class Silent:
    """A read-ahead's sink: keeps nothing."""

    def __init__(self) -> None:
        self.tokens: list[Token] = []
        self.near_misses: list[NearMiss] = []

    def candidate(self, kind: str, start: int, end: int) -> None:
        """Dropped."""

    def inert(self, kind: str, start: int, end: int) -> None:
        """Dropped."""

    def token(self, kind: str, start: int, end: int) -> None:
        """Dropped."""

    def mark(self, kind: str) -> None:
        """Dropped."""

    def warn(self, found: list[NearMiss]) -> None:
        """Dropped."""

    def halt(self) -> None:
        """Nothing to stop."""

    def finish(self, n: int) -> None:
        """Nothing to finish."""


class Coarse(Silent):
    """The fast mode's tokens: candidates, the inert regions that can still matter, and
    ``PROSE`` for everything else (runs merged).

    Once a ``PROSE`` token has held a visible character (§1), inert regions change no
    segment (they matter only to the preface rule, §4.3), so they are folded into
    ``PROSE`` unless ``full`` (every region kept, as ``code_regions()`` needs).
    """

    def __init__(self, text: str, full: bool) -> None:
        super().__init__()
        self.text = text
        self.full = full
        self.pos = 0  # text before pos is tokenized
        self.seen_visible = False
        self.halted = False

    def wants_inline(self) -> bool:
        """Whether code spans and comments in paragraph text can still matter."""
        return self.full or not self.seen_visible

    def settles_preface(self, start: int, end: int) -> bool:
        """Whether paragraph text ``start:end`` holding no candidate needs no inline
        scan (asked while :meth:`wants_inline`): its first visible character opens no
        inline construct, so nothing before it is inert and the preface (§4.3) is
        settled. Records the visible character."""
        if self.full:
            return False
        first = first_shown(self.text, start, end)
        # Skipped before it (markers, references, raw HTML) may open no inline construct.
        if first >= 0 and _INLINE_OPENERS.search(self.text, start, first + 1) is None:
            self.seen_visible = True
            return True
        return False

    def candidate(self, kind: str, start: int, end: int) -> None:
        """Kept."""
        self._emit(kind, start, end)

    def inert(self, kind: str, start: int, end: int) -> None:
        """Kept while it can matter."""
        if self.full or not self.seen_visible:
            self._emit(kind, start, end)

    def warn(self, found: list[NearMiss]) -> None:
        """Kept unless halted."""
        if not self.halted:
            self.near_misses.extend(found)

    def halt(self) -> None:
        """Stop emitting."""
        self.halted = True

    def finish(self, n: int) -> None:
        """``PROSE`` to the end."""
        if self.pos < n:
            self._prose(self.pos, n)

    def _emit(self, kind: str, start: int, end: int) -> None:
        if self.halted or end <= start or start < self.pos:
            return
        if start > self.pos:
            self._prose(self.pos, start)
        self.tokens.append(Token(kind, start, end))
        self.pos = end

    def _prose(self, start: int, end: int) -> None:
        if not self.seen_visible and shows_text(self.text, start, end):
            self.seen_visible = True
        tokens = self.tokens
        if tokens and tokens[-1].type == "PROSE":
            tokens[-1] = Token("PROSE", tokens[-1].start, end)
        else:
            tokens.append(Token("PROSE", start, end))
        self.pos = end


# What may open an inline construct the fast mode must read (code span, comment, raw
# HTML or autolink, escape) before a paragraph's first shown character.
_INLINE_OPENERS = re.compile(r"[`<\\]")

_DROPPED_EMPTY = frozenset({"TEXT", "HTML_TEXT", "SPAN_TEXT", "TAG_PAYLOAD", "FENCE_PAYLOAD"})


class Fine(Silent):
    """The checked mode's tokens, in order; the text between two tokens becomes a
    ``LAYOUT`` token. A token that starts before the previous one ends is a bug."""

    def __init__(self) -> None:
        super().__init__()
        self.pos = 0
        self.halted = False

    def candidate(self, kind: str, start: int, end: int) -> None:
        """Kept."""
        self.token(kind, start, end)

    def token(self, kind: str, start: int, end: int) -> None:
        """Kept (empty text and payload tokens are dropped)."""
        if self.halted or (end <= start and kind in _DROPPED_EMPTY):
            return
        if start < self.pos:
            raise ReplykitBug(f"token {kind} at {start} overlaps the token ending at {self.pos}")
        if start > self.pos:
            self.tokens.append(Token("LAYOUT", self.pos, start))
        self.tokens.append(Token(kind, start, end))
        self.pos = end

    def mark(self, kind: str) -> None:
        """Kept, at the end of the last token (also once halted: the open blocks end)."""
        self.tokens.append(Token(kind, self.pos, self.pos))

    def warn(self, found: list[NearMiss]) -> None:
        """Kept unless halted."""
        if not self.halted:
            self.near_misses.extend(found)

    def halt(self) -> None:
        """Structure tokens still close the open blocks; nothing else is kept."""
        self.halted = True

    def finish(self, n: int) -> None:
        """``LAYOUT`` to the end."""
        if self.pos < n:
            self.tokens.append(Token("LAYOUT", self.pos, n))
            self.pos = n
