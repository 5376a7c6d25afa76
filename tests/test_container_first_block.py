"""Differential property: list items and block quotes whose first content is each kind of
block keep their container as CommonMark does (spec 5.1, 5.2; §3b, §3c).

cmark (cmarkgfm, no extension) is the reference: after the container, blank lines and a
fenced or XML+JSON form at some indentation, replykit must find a fenced candidate
exactly where cmark shows a top-level ``questionnaire`` code block, an XML+JSON
candidate exactly where cmark passes the tag through as raw HTML, and the same code
lines. Where cmark departs from the spec (docs/protocol.md, appendix B), markdown-it-py
referees.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import cmarkgfm
from cmarkgfm import cmark
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from replykit import code_regions, segment
from replykit.testing.streaming import check_stream, cut
from replykit.text import LineIndex

# A container's opening, and the indentation of its continuation lines.
_CONTAINERS = (
    ("- ", "  "), ("* ", "  "), ("+ ", "  "), ("1. ", "   "), ("10) ", "    "),
    ("-\n  ", "  "), ("- a\n- ", "  "), ("> ", "> "), (">", ">"), ("- > ", "  > "),
)  # fmt: skip
# The first content of the container, each kind of block that can start it (the
# continuation lines are prefixed by the container's indentation).
_FIRST = (
    "***", "---", "___", "* * *", "# Heading", "#", "```\ncode\n```", "```", "~~~ x\ny\n~~~",
    "    indented", "<div>\nhtml\n</div>", "<!-- c -->", "<pre>\nx\n</pre>", "> quote",
    "- nested", "1. nested", "Para\n===", "Para\n---", "[a]: /url", "[a]: /url 'title'",
    "", "text",
)  # fmt: skip
_FENCED = "```questionnaire\ntitle: T\nquestions:\n  - {type: text, text: Q}\n```"
_XML = '<questionnaire>{"title":"T","questions":[]}</questionnaire>'
_FOLLOWERS = (_FENCED, _XML, "Text " + _XML, "```\n" + _XML + "\n```", "<div>\n" + _XML)


@st.composite
def container_messages(draw: st.DrawFn) -> str:
    """A container whose first content is one kind of block, blank lines, then a form
    (or code holding one) at some indentation, maybe a second time."""
    opening, cont = draw(st.sampled_from(_CONTAINERS))
    first = draw(st.sampled_from(_FIRST)).replace("\n", "\n" + cont)
    text = "Intro.\n\n" + opening + first + "\n"
    for _ in range(draw(st.integers(1, 2))):
        text += "\n" * draw(st.integers(0, 2))
        indent = draw(st.sampled_from(["", " ", "  ", "   ", "    ", "     ", cont, "> "]))
        follower = draw(st.sampled_from(_FOLLOWERS))
        text += indent + follower.replace("\n", "\n" + indent) + "\n"
    return text


class _Reader(HTMLParser):
    """cmark's HTML: top-level ``questionnaire`` code blocks, raw questionnaire tags,
    and the source lines of every code block."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.fenced = 0
        self.tags = 0
        self.code_lines: set[int] = set()
        self.last_lines: set[int] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("li", "blockquote"):
            self.depth += 1
        elif tag == "questionnaire":
            self.tags += 1
        elif tag == "pre" and values.get("data-sourcepos"):  # cmark's, not the message's
            first, last = re.findall(r"(\d+):\d+", values.get("data-sourcepos") or "")
            self.code_lines.update(range(int(first) - 1, int(last)))
            self.last_lines.add(int(last) - 1)
        elif tag == "code" and values.get("class") == "language-questionnaire":
            self.fenced += self.depth == 0

    def handle_endtag(self, tag: str) -> None:
        if tag in ("li", "blockquote"):
            self.depth -= 1


def cmark_reading(text: str) -> tuple[int, int, set[int], set[int]]:
    """Top-level questionnaire code blocks, raw questionnaire tags, code lines and the
    last line of each code block (cmark ends a fenced block that a new container closes
    on that container's line, so a last line is only optional evidence)."""
    html = cmarkgfm.markdown_to_html(
        text, options=cmark.Options.CMARK_OPT_SOURCEPOS | cmark.Options.CMARK_OPT_UNSAFE
    )
    reader = _Reader()
    reader.feed(html)
    return reader.fenced, reader.tags, reader.code_lines, reader.last_lines


def replykit_reading(text: str) -> tuple[int, int, set[int]]:
    blocks = [s for s in segment(text).segments if s.kind != "markdown"]
    fenced = sum(s.encoding == "fenced_yaml" for s in blocks)
    index, lines = LineIndex(text), set()
    for region in code_regions(text):
        if region.kind in ("fenced", "indented"):
            first = index.line_col(region.start)[0] - 1
            last = index.line_col(max(region.start, region.end - 1))[0] - 1
            lines.update(range(first, last + 1))
    return fenced, len(blocks) - fenced, lines


_MD = MarkdownIt("commonmark")


def markdown_it_reading(text: str) -> tuple[int, int, set[int]]:
    """As :func:`cmark_reading`, by markdown-it-py's tokens (no last-line slack)."""
    fenced, tags, lines = 0, 0, set()
    for tok in _MD.parse(text):
        if tok.type in ("fence", "code_block") and tok.map:
            lines.update(range(tok.map[0], tok.map[1]))
            fenced += tok.level == 0 and tok.info.strip() == "questionnaire"
        elif tok.type == "html_block":
            tags += tok.content.count("<questionnaire>")
        for child in tok.children or ():
            tags += child.type == "html_inline" and child.content == "<questionnaire>"
    return fenced, tags, lines


def _content_lines(text: str) -> set[int]:
    return {i for i, line in enumerate(text.split("\n")) if line.strip(" \t>")}


@given(container_messages(), st.lists(st.integers(0, 400), max_size=6))
def test_checked_mode_and_stream_read_containers_alike(text: str, cuts: list[int]) -> None:
    """The checked reading and a stream cut anywhere (its resumed scanner states) give
    what segment() gives on these messages."""
    assert segment(text, checked=True) == segment(text)
    assert check_stream(cut(text, cuts)) == []


@given(container_messages())
def test_containers_keep_their_state_as_cmark_does(text: str) -> None:
    mine, ref = replykit_reading(text), cmark_reading(text)
    visible = _content_lines(text)
    lines, ref_lines = mine[2] & visible, ref[2] & visible
    if mine[:2] == ref[:2] and lines <= ref_lines and ref_lines - lines <= ref[3]:
        return
    other = markdown_it_reading(text)
    # cmark's departures (appendix B): a line of spaces after an item that began blank,
    # an item holding only a link reference definition.
    assert (*mine[:2], lines) == (*other[:2], other[2] & visible), (text, "markdown-it", other)


def test_thematic_break_first_keeps_the_item_open() -> None:
    """The break-it reproductions: the fence after the blank line is code of the item
    (§3c: near_miss.in_container), the tag 4 columns in is a candidate of the item."""
    for opening in ("* ---", "- ***", "-\n  ***", "- a\n- ***", "1. ___"):
        pad = "   " if opening.startswith("1.") else "  "
        text = f"Steps:\n\n{opening}\n\n{pad}```questionnaire\n{pad}title: T\n{pad}```\n"
        result = segment(text)
        assert [s.kind for s in result.segments] == ["markdown"]
        assert [(d.code, d.line) for d in result.diagnostics] == [
            ("near_miss.in_container", text.count("\n", 0, text.index("```")) + 1)
        ]
    text = "Steps:\n\n- ***\n\n    " + _XML + "\n"
    blocks = [s for s in segment(text).segments if s.kind != "markdown"]
    assert [(s.start, s.end) for s in blocks] == [(19, 19 + len(_XML))]
    regions = [(r.kind, r.start, r.end) for r in code_regions(" -\t***\n\n\t***\n")]
    assert regions == []
