"""Hostile families for streaming (§10): many forms the stream must keep pending.

Each message holds ``n`` lines inside one construct that stays open while the message
arrives (a paragraph, an HTML comment, a code span, an HTML block, a fenced candidate
whose closer comes only at the end, an opening tag without its closer), so a streaming
segmenter can commit little and keeps many items pending, or reads the same text
again; each ends with a valid form at the top level, but the partial-tag families,
whose opening tag without a closer keeps every line after it Markdown. Pure functions
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


def multiline_forms_in_one_paragraph(n: int) -> str:
    """``n`` XML+JSON forms of two lines each, all in one paragraph, each line closing
    one form and opening the next: every closer closes a block and none moves the
    resume point."""
    opener = '<questionnaire>{"questions":[\n'
    line = '{"type":"text","text":"x"}]}</questionnaire> ' + opener
    return (
        "Intro " + opener + line * n + '{"type":"text","text":"x"}]}</questionnaire>\n' + XML_TAIL
    )


def other_closers_after_open_tag(n: int) -> str:
    """An opening tag without its closer, then ``n`` lines holding a closing tag of
    another family name each: one Markdown segment, no form."""
    return _LAZY_PREFACE + "Intro <questionnaire>{\n" + "</questionnaire-response>\n" * n


def fence_openers_in_open_candidate(n: int) -> str:
    """A fenced candidate holding ``n`` fence openers with payload lines (none closes
    it, §3a), its closer only at the end."""
    body = ("```questionnaire\n" + "x: 1\n") * n
    return "Intro\n\n```questionnaire\n" + body + "```\n" + FENCED_TAIL


# Before the tag: a paragraph that a one-shot reading does not find visible until its
# end (a backslash or a backtick may open an inline construct), so ``segment()`` reads
# the lines after it one by one, while a stream resumed after it reads them in runs.
_LAZY_PREFACE = "\\\n\n"


def partial_tags_after_open_tag(n: int) -> str:
    """An opening tag without its closer (so nothing after it is final before the
    end), then ``n`` lines holding a partial family tag each (``<questionn``): one
    Markdown segment, no form."""
    return _LAZY_PREFACE + "<questionnaire\n" + "<questionn\n" * n


def partial_tags_after_open_tag_cr(n: int) -> str:
    """:func:`partial_tags_after_open_tag` with ``\\r`` line endings only (§1)."""
    return partial_tags_after_open_tag(n).replace("\n", "\r")


def fence_openers_after_growing_tag(n: int) -> str:
    """A tag whose attributes may still grow (no ``>`` yet), then ``n`` closed fenced
    candidates without a payload."""
    return "`\n\n<questionnaire a\n" + "```questionnaire\n```\n" * n + FENCED_TAIL


def comment_openers_after_growing_tag(n: int) -> str:
    """A tag whose attributes may still grow, then ``n`` comment openers holding the
    family word, one comment closed only at the end."""
    return "`\n\n<questionnaire a\n" + "<!-- questionnaire\n" * n + "-->\n" + FENCED_TAIL


def _family(build: Callable[[int], str], tail: str, n: int = 200) -> Family:
    doc = " ".join((build.__doc__ or "").split())
    return Family(build.__name__, build, n, tail, doc)


#: The streaming families; ``n`` is the larger size the tests stream.
STREAM_FAMILIES: tuple[Family, ...] = (
    _family(forms_in_one_paragraph, "xml"),
    _family(forms_in_open_comment, "fenced"),
    _family(forms_in_open_code_span, "fenced"),
    _family(forms_in_html_block, "fenced"),
    _family(multiline_forms_in_one_paragraph, "xml"),
    _family(other_closers_after_open_tag, "none", 1000),
    _family(fence_openers_in_open_candidate, "fenced"),
    _family(partial_tags_after_open_tag, "none", 1000),
    _family(partial_tags_after_open_tag_cr, "none", 1000),
    _family(fence_openers_after_growing_tag, "fenced", 1000),
    _family(comment_openers_after_growing_tag, "fenced", 1000),
)
