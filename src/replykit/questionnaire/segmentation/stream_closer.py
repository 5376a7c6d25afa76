"""A fenced candidate's closing fence read without a reading of the scanner (§3a, §10).

When a streaming reading resumes at a line inside a fenced candidate open at the top
level (no container: its fence character and length are in the scanner's state), the
lines up to the first one that closes it can only be its payload: the scanner reads
them as one run (``scan/runs.py``) and asks only whether each line that holds the fence
closes it. :func:`read_closer` asks the same questions of the same text with the
scanner's own tests (``runs.closer_line``, ``runs.closing_fence``, the ``FENCE_CLOSER``
lexeme) and gives the :class:`Reading` the scanner's reading would give, without
setting up a scanner, its look-ahead indexes and the grammar's step: the candidate
closed, the blank lines after it as Markdown, and a checkpoint at the end. Anything
else (no closing fence yet, a fence that closes the block as code, a ``<`` that may
start a tag, a line after the closer that is not blank) is left to the full reading
(``None``). ``tests/test_stream_closer.py`` compares it with the full reading.
"""

from __future__ import annotations

from replykit.questionnaire.scan import runs
from replykit.questionnaire.scan.lexemes import Lexemes
from replykit.questionnaire.scan.parts import FencedPart, MarkdownRun, Part
from replykit.questionnaire.scan.state import ScanState
from replykit.questionnaire.segmentation.stream_reading import Checkpoint, Reading, Resume
from replykit.text import LINE_END_RE


def read_closer(text: str, resume: Resume, lexemes: Lexemes) -> Reading | None:
    """The reading of ``text`` (the message from ``resume.at - 1``, the line ending
    before the resume point, to the end of its last complete line, as
    :func:`~.stream_reading.read` takes it; more may follow) when ``resume`` is inside
    a top-level fenced candidate and ``text`` holds its closing fence followed by blank
    lines only; else ``None``. Offsets in the result are message offsets; ``scanned``
    counts the characters examined."""
    fence, state = resume.fence, resume.state
    leaf = state.leaf
    if (
        fence is None or leaf is None or leaf.kind != "fenced" or not leaf.candidate
        or state.containers or state.halted or resume.at < 1 or "<" in text
    ):  # fmt: skip
        return None
    n, char, length = len(text), leaf.fence_char, leaf.fence_len
    pos = 1  # text[0] ends the line before the resume point
    while (line := runs.closer_line(text, pos, n, char, length)) < n:
        eol = LINE_END_RE.search(text, line)
        if eol is None:  # pragma: no cover - the text ends with a line ending
            return None
        if runs.closing_fence(text, line, eol.start(), char, length) >= 0:
            if lexemes.fence_closer.fullmatch(text, line, eol.start()) is None:
                return None  # the fence closes the block as code (§3a): the full reading
            return _closed(text, resume, line, eol.end())
        pos = eol.end()  # a payload line holding the fence
    return None


def _closed(text: str, resume: Resume, line: int, after: int) -> Reading | None:
    """The reading when the line ``line:after`` of ``text`` closes the candidate."""
    rest = text[after:]
    if rest.strip(" \t\r\n"):
        return None  # a line after the closer holds text: the full reading reads it
    base = resume.at - 1
    assert resume.fence is not None
    end = base + len(text)
    closer = (base + line, base + after)
    parts: list[Part] = [
        FencedPart(resume.fence.opener, (resume.fence.payload_start, closer[0]), closer)
    ]
    if rest:
        parts.append(MarkdownRun(closer[1], end, False))
    checkpoint = Checkpoint(end, ScanState(), resume.visible, 0, None)
    return Reading(tuple(parts), (), checkpoint, (), end, None, len(text) - 1)
