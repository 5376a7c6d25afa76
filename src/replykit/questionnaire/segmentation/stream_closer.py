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

:func:`read_xml_closer` does the same for the commonest XML+JSON block while it
streams: one line of prose, its opening tag, a one-line payload and its closer. The
reading before it stopped at the tag (the tentative block, §10) with its resume point at
the line's start and nothing open; when the closer has come, the line can only be a
paragraph holding the block, if the prose before the tag is plain
(:data:`.stream_plain.PLAIN_PROSE`: a letter first, nothing that opens an inline region
or link text across the tag, §3b) and the payload holds no ``<``.
``tests/test_stream_xml_closer.py`` compares it with the full reading.
"""

from __future__ import annotations

import re

from replykit.questionnaire.scan import runs
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.lexemes import Lexemes
from replykit.questionnaire.scan.parts import FencedPart, MarkdownRun, Part, XmlPart
from replykit.questionnaire.scan.state import ScanState
from replykit.questionnaire.segmentation.stream_plain import PLAIN_PROSE
from replykit.questionnaire.segmentation.stream_reading import Checkpoint, Miss, Reading, Resume
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
        parts.append(MarkdownRun(closer[1], end, resume.visible))  # as parse() marks it
    checkpoint = Checkpoint(end, ScanState(), resume.visible, 0, None)
    return Reading(tuple(parts), (), checkpoint, (), end, None, len(text) - 1)


# What may follow a closer's line for read_xml_closer: nothing, or blank lines.
_BLANK_LINES = re.compile(r"\n(?:[ \t]*\n)*")


def read_xml_closer(text: str, resume: Resume, tag: Miss) -> Reading | None:
    """The reading of ``text`` (as :func:`read_closer` takes it) when ``resume`` is a
    line start with nothing open, the opening tag ``tag`` (strict §3a, no attributes)
    stands on that line after plain prose (see the module docstring), and ``text``
    holds its closer on the same line, a payload without ``<`` between, and only blank
    lines after; else ``None``. The block is final when a blank line follows; with none
    yet the paragraph holding it stays open, as the full reading finds."""
    state, base = resume.state, resume.at - 1
    p = tag.start - base
    opener = f"<{tag.name}>"
    if (
        resume.fence is not None or state.leaf is not None or state.containers or state.halted
        or resume.at < 1 or not text.startswith("\n") or not tag.opening
        or not text.startswith(opener, p) or PLAIN_PROSE.fullmatch(text, 1, p) is None
    ):  # fmt: skip
        return None
    payload = p + len(opener)
    closer = text.find("<", payload)
    closer_end = closer + len(opener) + 1
    if (
        closer < 0 or not text.startswith(f"</{tag.name}>", closer)
        or "\n" in text[payload:closer] or "\r" in text[payload:closer]
        or _BLANK_LINES.fullmatch(text, closer_end) is None
    ):  # fmt: skip
        return None
    end = base + len(text)
    parts: tuple[Part, ...] = (
        MarkdownRun(resume.at, tag.start, True),
        XmlPart((tag.start, base + payload), (base + closer, base + closer_end)),
        MarkdownRun(base + closer_end, end, resume.visible),  # as parse() marks it
    )
    if end - base - closer_end == 1:  # the closer's line ends the text: the paragraph is open
        return Reading(parts, (), None, (), resume.at, None, len(text) - 1, True)
    checkpoint = Checkpoint(end, ScanState(), True, 0, None)
    return Reading(parts, (), checkpoint, (), end, None, len(text) - 1)


def direct_reading(text: str, resume: Resume, tag: Miss | None, strict: bool) -> Reading | None:
    """The reading of ``text`` (to the end of the complete lines) without a scanner where
    one of the above answers: inside a fenced candidate (:func:`read_closer`), or after
    the opening tag ``tag`` the last reading left without its closer, in strict mode
    (:func:`read_xml_closer`); else ``None``."""
    if resume.fence is not None:
        return read_closer(text, resume, lexemes())
    if tag is not None and strict:
        return read_xml_closer(text, resume, tag)
    return None
