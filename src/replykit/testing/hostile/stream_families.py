"""Hostile families for streaming (§10): many forms the stream must keep pending.

Each message holds ``n`` lines inside one construct that stays open while the message
arrives (a paragraph, an HTML comment, a code span, an HTML block, a fenced candidate
whose closer comes only at the end), so a streaming segmenter can commit little and
keeps many items pending; each ends with a valid form at the top level. Pure functions
of ``n``, no dependency on replykit.
"""

from __future__ import annotations

from collections.abc import Callable

from replykit.testing.hostile.messages import FENCED_TAIL, XML_TAIL, Family

#: A valid XML+JSON form of one question, on one line.
FORM = '<questionnaire>{"questions":[{"type":"text","text":"x"}]}</questionnaire>'


def forms_in_one_paragraph(n: int) -> str:
    """``n`` XML+JSON forms, one a line, all in one paragraph (each tentative)."""
    return "Intro\n" + (FORM + "\n") * n + XML_TAIL


def forms_in_open_comment(n: int) -> str:
    """``n`` empty XML+JSON blocks, one a line, inside an HTML comment opened in a
    paragraph and closed only at the end (inert, §3b)."""
    return "Intro <!--\n" + "<questionnaire>{}</questionnaire>\n" * n + "-->\n" + FENCED_TAIL


def forms_in_open_code_span(n: int) -> str:
    """``n`` XML+JSON forms, one a line, after a backtick opened in a paragraph and
    closed only at the end (one code span, inert)."""
    return "Intro `\n" + (FORM + "\n") * n + "`\n" + FENCED_TAIL


def forms_in_html_block(n: int) -> str:
    """``n`` XML+JSON forms, one a line, inside one ``<div>`` HTML block."""
    return "<div>\n" + (FORM + "\n") * n + "</div>\n" + FENCED_TAIL


def fence_openers_in_open_candidate(n: int) -> str:
    """A fenced candidate holding ``n`` fence openers with payload lines (none closes
    it, §3a), its closer only at the end."""
    body = ("```questionnaire\n" + "x: 1\n") * n
    return "Intro\n\n```questionnaire\n" + body + "```\n" + FENCED_TAIL


def _family(build: Callable[[int], str], tail: str) -> Family:
    doc = " ".join((build.__doc__ or "").split())
    return Family(build.__name__, build, 200, tail, doc)


#: The streaming families; ``n`` is the larger size the tests stream.
STREAM_FAMILIES: tuple[Family, ...] = (
    _family(forms_in_one_paragraph, "xml"),
    _family(forms_in_open_comment, "fenced"),
    _family(forms_in_open_code_span, "fenced"),
    _family(forms_in_html_block, "fenced"),
    _family(fence_openers_in_open_candidate, "fenced"),
)
