"""The text a streaming segmenter has received: chunks, lines, and what to hold back (§10).

:class:`Received` keeps the chunks as they came. A chunk that ends no line costs a few
membership tests: it only moves what is held back at the end (a ``<`` that may still
start a family tag or a comment, a line that may still be a fence opener, a final
``\r``). A chunk that completes lines moves the end of the complete lines (a final
``\r`` is not a complete line ending yet: ``\n`` may follow, §1) and searches the newly
complete text once for the family word and the marks that may open or close a block
(neither spans a line ending, so no text is searched twice); the line starts are
noted only when asked (:attr:`Received.line_starts`). Under a §9 mode it also notes the first
visible character and the first ``&`` (for the transport decodings). The work is
linear in the text, at C speed but for a loop over a fence's opening run.
"""

from __future__ import annotations

import bisect
from collections import deque
from itertools import accumulate

from replykit.questionnaire.compat import Compat
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.lookahead import close_tag_name
from replykit.questionnaire.segmentation.stream_fence import FenceLine, fence_line
from replykit.questionnaire.segmentation.stream_marks import (
    FAMILY_NAME,
    NAME_KEPT,
    NAME_RUN,
    OPENING_TAG,
    TAG_AFTER,
    TAG_START,
    LineNotes,
    attribute_patterns,
    possible_word,
)
from replykit.text import LINE_END_RE, first_visible

#: Chunks joined into one piece (see ``Received._join``).
JOINED = 64


class Received:
    """The text received so far (see the module docstring). ``size``: code points
    received; ``complete``: the end of the last complete line (a line start);
    ``held``: where the text held back at the end starts (:meth:`held_from`);
    ``family``: the start of the line holding the first family word (any ASCII case)
    among the complete lines, or ``None``. ``short_path=False`` sends every chunk
    through the general path of :meth:`append` (the same notes, more work)."""

    def __init__(self, compat: Compat | None, *, short_path: bool = True) -> None:
        # Whether a chunk that can change nothing but the size takes the short path of
        # append() (tests/test_stream_fast.py compares both paths; a keyword, not a
        # subclass, because the compiled build's classes cannot be subclassed).
        self._quiet_path = short_path
        self.chunks: list[str] = []
        self.starts: list[int] = []  # where each chunk starts
        self.size = self.complete = self.held = 0
        self._line_starts = [0]  # noted up to its last (line_starts)
        self._open_chunk = 0  # the index of the chunk holding ``complete``
        # Chunks from this index on are joined once JOINED of them came: a reply pushed a
        # character at a time is held in pieces of 64, not a string object per chunk.
        self._join_at = JOINED
        #: Characters joined and searched: each complete line once, each chunk joined at
        #: most twice, the line still arriving at most twice for an opening tag and once
        #: for readings (``stream_tags.line_notes``): at most 6 x ``size`` plus 16 a reading.
        self.searched = 0
        self.family: int | None = None
        self._compat = compat
        self._cr = False  # the text ends with "\r"
        self._first_char = ""  # the first character that is not blank (§1.1, §9)
        self._first_amp: int | None = None
        self._lt: int | None = None  # a "<" that may still start a tag or comment
        self._lt_rest = ""  # what follows it, while a name (the first characters kept)
        self._lt_attributes = False  # a family tag's name ended: attributes follow
        self._attributes, self._attributes_run = attribute_patterns(compat)
        self._line: FenceLine | None = FenceLine(message_start=True)  # None: opens no fence
        #: Nothing is held back, nor can a chunk without "\n", "\r" or "<" change that
        #: (:meth:`grow`): no fence may open, no "<" or "\r" waits, no §9 mode.
        self.quiet = False
        # No "<" or "\r" waits and no §9 mode: a chunk with "\n" and without "\r" or
        # "<" completes lines and holds back at most its last line (lf_chunk).
        self._lf_ready = short_path and compat is None
        #: Where the last "<", "```" or "~~~" in the complete lines starts (-1: none): a
        #: line holding one may open or close a block, so a reading is worth running.
        self.last_mark = -1
        #: Where the last ``-->`` in the complete lines starts (-1: none; comment_closed).
        self.last_close, self._close_from, self._line_close = -1, 0, -1
        #: Where the last family word in the complete lines starts (-1: none): a
        #: block's opener and an XML+JSON block's closer hold one.
        self.last_family = -1
        #: Where each possible family word (any case, or ``&#``) starts, in order: a
        #: reading looks them up instead of searching its text again (§10, "Work").
        self.words: list[int] = []
        #: Where the last "<" and the last ">" in the complete lines start (-1: none):
        #: whether a tag's attributes may still grow, known without a search.
        self.angles = (-1, -1)
        #: A complete opening tag came in the line still arriving (``_line_tag``; the
        #: segmenter clears it), ``tag_end`` where the last one ends (read no further).
        self.tag_ended, self.tag_end = False, 0
        #: Each closing tag of the family in the complete lines (``</N>`` or ``<\\/N>``,
        #: any case): its start, its name as written and whether it is escaped. A
        #: closer never spans a line ending, so each is found once (§3a, §10).
        self.closers: list[tuple[int, str, bool]] = []
        #: The line still arriving as readings searched it (stream_tags.line_notes).
        self.notes = LineNotes()
        #: Whether the last :meth:`lf_chunk` completed text that may hold a note (a
        #: family word, ``&#``, ``<``, ``>``, a fence run): else it noted nothing.
        self.noted = True

    def append(self, chunk: str) -> bool:
        """Note ``chunk``, received after everything before it. Returns whether
        anything but the held-back text may have changed: a line was completed, or
        (under a §9 mode) the first visible character or the first ``&`` came, which
        may move :meth:`transport_limit`."""
        if self.quiet and "\n" not in chunk and "\r" not in chunk and "<" not in chunk:
            self.grow(chunk)
            return False
        if self._lf_ready and "\n" in chunk and "\r" not in chunk and "<" not in chunk:
            return self.lf_chunk(chunk)
        if not chunk:
            return False
        start = self.size
        self.chunks.append(chunk)
        self.starts.append(start)
        if len(self.chunks) >= self._join_at:
            self._join()
        size = self.size = start + len(chunk)
        moved = False
        if "\n" in chunk or "\r" in chunk or self._cr:
            moved = self._lines(chunk, start)
        elif self._line is not None and self._line.possible:
            self._line.feed(chunk)  # no line ends: the last line goes on
        if self._compat is not None:
            moved = self._transport(chunk, start) or moved
        held_lt = self._lt
        if held_lt is not None or "<" in chunk:
            self._hold_tag(chunk, start)
            if ">" in chunk:
                self._line_tag(chunk, start, held_lt)
        held = size - 1 if self._cr else size
        if self._lt is not None and self._lt < held:
            held = self._lt
        line = self._line
        possible = line is not None and line.possible
        if possible and not self._cr and self.complete < held:
            held = self.complete
        self.held = held
        quiet = not (possible or self._cr or self._lt is not None)
        quiet_path_open = self._quiet_path and self._compat is None
        self.quiet = quiet and quiet_path_open
        self._lf_ready = not (self._cr or self._lt is not None) and quiet_path_open
        return moved

    def lf_chunk(self, chunk: str) -> bool:
        """:meth:`append` of a chunk that completes lines with ``\\n`` alone and holds
        no ``<``, after text that holds nothing back but its last line (most chunks
        that complete a line): :meth:`_lines` and :meth:`_completed` in one call
        (the general path gives the same; tests/test_stream_fast.py compares them)."""
        start = self.size
        chunks = self.chunks
        chunks.append(chunk)
        self.starts.append(start)
        if len(chunks) >= self._join_at:
            self._join()
        size = self.size = start + len(chunk)
        last = chunk.rfind("\n")
        new = start + last + 1
        # The line still arriving may open a fence if empty so far or starting with " `~".
        rest = last + 1
        line = self._line = (
            None if new < size and chunk[rest] not in " `~" else fence_line(chunk[rest:])
        )
        old, self.complete = self.complete, new
        if old >= start:
            text = chunk[old - start : last + 1]
            self.searched += len(text)
        else:  # the chunks from the one holding ``old`` on (each joined at most twice)
            k = self._open_chunk
            first = self.starts[k]
            joined = "".join(chunks[k:])
            text = joined[old - first : new - first]
            self.searched += size - first + new - old  # both texts' lengths
        self._open_chunk = len(chunks) - 1
        # Whether _search may note anything (substring tests: cheapest): most lines not.
        noted = self.noted = (
            "q" in text or "Q" in text or "<" in text or ">" in text or "&#" in text
            or "```" in text or "~~~" in text
        )  # fmt: skip
        if noted:
            self._search(text, old)
        if line is not None and line.possible:
            self.held, self.quiet = new, False
        else:
            self.held, self.quiet = size, True
        return True

    def grow(self, chunk: str) -> int:
        """Take a chunk without ``\\n``, ``\\r`` or ``<`` while :attr:`quiet` (most
        chunks): the last line goes on, no fence or tag may open in it and nothing is
        held back, so only the size moves (:meth:`append`'s general path gives the
        same). Returns the new size."""
        if chunk:
            self.chunks.append(chunk)
            self.starts.append(self.size)
            self.size = self.held = self.size + len(chunk)
            if len(self.chunks) >= self._join_at:
                self._join()
        return self.size

    def _join(self) -> None:
        """Join the last :data:`JOINED` chunks into one piece, cut at ``complete``
        when it falls inside (the text the next completed line joins again starts
        there, not earlier); each chunk is joined so once: linear."""
        first = self._join_at - JOINED
        joined = "".join(self.chunks[first:])
        cut = self.complete - self.starts[first]
        del self.starts[first + 1 :]
        if 0 < cut < len(joined):
            self.chunks[first:] = [joined[:cut], joined[cut:]]
            self.starts.append(self.complete)
            self._open_chunk = first + 1
        else:
            self.chunks[first:] = [joined]
            self._open_chunk = min(self._open_chunk, first)
        self._join_at = len(self.chunks) + JOINED

    def _lines(self, chunk: str, start: int) -> bool:
        last = -1  # the last line start in the chunk (line starts: :attr:`line_starts`)
        first = 0
        if self._cr:
            # "\r" then "\n" is one line ending; "\r" then anything else was one.
            self._cr = False
            first = 1 if chunk[0] == "\n" else 0
            last = start + first
        if "\r" in chunk:
            for m in LINE_END_RE.finditer(chunk, first):
                if m.end() == len(chunk) and m.group() == "\r":
                    self._cr = True
                    break
                last = start + m.end()
        elif (i := chunk.rfind("\n", first)) >= 0:
            last = start + i + 1
        if self._cr:
            self._line = FenceLine()
        elif last >= 0:
            self._line = fence_line(chunk[last - start :])
        elif self._line is not None:
            self._line.feed(chunk)
        return self._completed(chunk, start, self.complete if last < 0 else last)

    def _completed(self, chunk: str, start: int, new: int) -> bool:
        """Search the lines completed since the last call (see :meth:`_search`), up
        to line start ``new``; ``chunk`` from ``start`` is the text received last."""
        old = self.complete
        if new == old:
            return False
        self.complete = new
        if old >= start:
            text = chunk[old - start : new - start]
        else:  # the chunks from the one holding ``old`` on (each joined at most twice)
            k = self._open_chunk
            first = self.starts[k]
            joined = "".join(self.chunks[k:])
            self.searched += len(joined)
            text = joined[old - first : new - first]
        self._open_chunk = len(self.chunks) - 1
        self.searched += len(text)
        self._search(text, old)
        return True

    def _line_tag(self, chunk: str, start: int, held_lt: int | None) -> None:
        """Note whether a complete opening tag of the family came in the line still
        arriving with ``chunk``: its ``<`` is in the chunk or was held back
        (``held_lt``; a family tag's name and attributes are held whole until its
        ``>``), so only the held text and the chunk are looked at."""
        begin = start + chunk.find("<") if "<" in chunk else start
        if held_lt is not None:
            begin = held_lt
        begin = max(begin, self.complete)
        text = chunk[begin - start :] if begin >= start else self.slice(begin, self.size)
        self.searched += len(text)
        tags = deque(OPENING_TAG.finditer(text), maxlen=1)  # the last one
        if tags:
            last = tags[0]
            self.tag_ended = True
            self.tag_end = begin + last.end()

    def tag_reading_end(self) -> int:
        """Where a reading for the opening tag that came in the line still arriving ends
        (§10): at the tag's end, or past what came after it that may change what the
        tag is (a backtick run, which may close a code span opened before it; a
        ``-->``, which may close a comment; a closing tag, ``</`` or ``<\\/`` to its
        ``>``) when that lies within :data:`TAG_AFTER` code points of it. The rest of
        the line is the tentative block's: read for the tag, a long one would be read
        a multiple of its length (the line's later readings read it again;
        docs/streaming.md, "Pending")."""
        end = self.tag_end
        rest = self.slice(end, min(self.size, end + TAG_AFTER))
        self.searched += len(rest)
        comment = rest.rfind("-->")
        last = max(rest.rfind("`"), comment + 2 if comment >= 0 else -1, rest.rfind("</"),
                   rest.rfind("<\\/"))  # fmt: skip
        if last < 0:
            return end
        if rest[last] == "`":  # the whole run (a run's length decides what it closes)
            stop = len(rest) - len(rest[last:].lstrip("`")) - 1
        else:
            stop = rest.find(">", last)
        return end if stop < 0 else end + stop + 1

    def comment_closed(self, since: int, end: int) -> bool:
        """Whether a ``-->`` lies in the text from ``since`` to ``end`` (a code-point
        offset in the line still arriving; neither moves back between calls): in the
        complete lines (:attr:`last_close`) or in that line, searched from where the
        last call stopped (each character once)."""
        if end > self._close_from:
            begin = max(since - 2, self.complete, self._close_from - 2, 0)
            text = self.slice(begin, end)
            self.searched += len(text)
            if (found := text.rfind("-->")) >= 0:
                self._line_close = begin + found
            self._close_from = end
        return max(self.last_close, self._line_close) >= max(since - 2, 0)

    def close(self) -> None:
        """The message has ended: a final ``\\r`` ends its line (§1)."""
        if self._cr:
            self._cr = False
            self._completed("", self.size, self.size)
        elif self.complete < self.size:  # the last line, for the words of finish()
            text = self.slice(self.complete, self.size)
            self.searched += len(text)
            self._search(text, self.complete)
        self.held = self.size

    def _search(self, text: str, start: int) -> None:
        """Note the family word and the marks in ``text``, complete lines from
        ``start``: neither spans a line ending, so each is found in the one text that
        holds it whole (each test below is its own filter; :meth:`lf_chunk`, the hot
        caller, tests them all first)."""
        # The family word starts with a "q"; a numeric reference may spell it (§3a).
        if "q" in text or "Q" in text or "&#" in text:
            pattern = possible_word()
            if self.family is None:
                m = pattern.search(text)
                if m is not None:
                    found = start + m.start()
                    lines = self.line_starts
                    self.family = lines[bisect.bisect_right(lines, found) - 1]
            words = self.words
            for m in pattern.finditer(text):
                words.append(start + m.start())
            if len(words) > 0 and words[-1] >= start:
                self.last_family = words[-1]
        lt, gt = text.rfind("<"), text.rfind(">")
        if lt >= 0 or gt >= 0:
            old_lt, old_gt = self.angles
            self.angles = (start + lt if lt >= 0 else old_lt, start + gt if gt >= 0 else old_gt)
            if gt >= 2 and "-->" in text:
                self.last_close = start + text.rfind("-->")
        if "<" in text or "`" in text or "~" in text:
            found = max(text.rfind("<"), text.rfind("```"), text.rfind("~~~"))
            if found >= 0:
                self.last_mark = start + found
        if "</" in text or "<\\/" in text:
            for m in lexemes().any_close_tag.finditer(text):
                name = close_tag_name(m)
                self.closers.append((start + m.start(), name, bool(m.group("escaped"))))

    def _transport(self, chunk: str, start: int) -> bool:
        moved = False
        if not self._first_char:
            visible = first_visible(chunk)  # §1.1 blank, as decode_transport trims
            self._first_char = chunk[visible] if visible >= 0 else ""
            moved = bool(self._first_char)
        if self._first_amp is None and "&" in chunk:
            self._first_amp = start + chunk.index("&")
            moved = True
        return moved

    def _hold_tag(self, chunk: str, start: int) -> None:
        at = chunk.rfind("<")
        if at >= 0:
            self._lt, self._lt_rest, rest = start + at, "", chunk[at + 1 :]
            self._lt_attributes, rest_at = False, start + at + 1
        elif self._lt is None:
            return
        else:
            rest, rest_at = chunk, start
        if self._lt_attributes:  # until a "<" or ">" (or a line ending, but under §9)
            held = self._attributes_run.fullmatch(rest) is not None
        elif len(self._lt_rest) > 3:  # a name has begun: only name characters may follow
            held = NAME_RUN.fullmatch(rest) is not None
        else:
            held = TAG_START.fullmatch(self._lt_rest + rest) is not None
        if not held and not self._lt_attributes:
            held = self._lt_attributes = self._family_attributes(rest, rest_at)
        if not self._lt_attributes:
            self._lt_rest = (self._lt_rest + rest[: NAME_KEPT + 1])[: NAME_KEPT + 1]
        if not held:
            self._lt, self._lt_rest, self._lt_attributes = None, "", False

    def _family_attributes(self, rest: str, rest_at: int) -> bool:
        """Whether the held name, followed by ``rest`` (received from ``rest_at``), is a
        family tag's name and its attributes so far (held back whole, §10)."""
        name_end = NAME_RUN.match(rest).end()  # type: ignore[union-attr]
        if len(self._lt_rest) > NAME_KEPT:
            assert self._lt is not None
            name = self.slice(self._lt + 1, rest_at + name_end)  # read once: the name ended
            self.searched += len(name)
        else:
            name = self._lt_rest + rest[:name_end]
        return (
            FAMILY_NAME.fullmatch(name) is not None
            and self._attributes.fullmatch(rest, name_end) is not None
        )

    def held_from(self) -> int:
        """Where the text held back at the end starts (``size`` when none is): a
        partial tag or comment opener, a line that may still open a fence, a final
        ``\\r``."""
        return self.held

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

    def reading_end(self, end: int) -> int:
        """Where a reading meant to end at ``end`` ends (§10, docs/streaming.md "When
        replykit commits"): ``end``, or when a §9 transport decoding may still change
        the text before it, the start of the line holding :meth:`transport_limit`. A
        reading then reads the message as if it had arrived only to there, so nothing
        it finds rests on text the decoding may change."""
        limit = self.transport_limit()
        if limit is None or end <= limit:
            return end
        lines = self.line_starts
        return lines[bisect.bisect_right(lines, limit) - 1]

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

    @property
    def line_starts(self) -> list[int]:
        """Where each complete line starts (the last is :attr:`complete`), noted when
        asked (line_col, blank_line, the family word's line): the lines completed since
        are looked at once for §1's line endings, at C speed (like finding the line
        endings in each chunk, not counted in :attr:`searched`)."""
        base = self._line_starts[-1]
        if base < self.complete:
            text = self.slice(base, self.complete)
            if "\r" in text:
                self._line_starts.extend([base + m.end() for m in LINE_END_RE.finditer(text)])
            else:  # each line's length and its "\n" added up, at C speed
                ends = accumulate(map((1).__add__, map(len, text.split("\n")[:-1])), initial=base)
                next(ends)  # ``base`` itself is noted
                self._line_starts.extend(ends)
        return self._line_starts

    def blank_line(self, at: int) -> bool | None:
        """Whether the line starting at ``at`` is blank (§1: spaces, tabs and the line
        ending); ``None`` when ``at`` is no line start or its line is not complete."""
        lines = self.line_starts
        i = bisect.bisect_left(lines, at)
        if i + 1 >= len(lines) or lines[i] != at:
            return None
        return self.slice(at, lines[i + 1]).strip(" \t\r\n") == ""

    def line_col(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of ``offset`` (§1), among the complete lines."""
        lines = self.line_starts
        i = bisect.bisect_right(lines, offset) - 1
        return i + 1, offset - lines[i] + 1
