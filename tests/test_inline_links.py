"""Inline links and images (CommonMark 6.3, 6.4): what follows a ``]`` that closes link
text, ``(destination "title")``, is no inline content, so a backtick, ``<!--`` or a tag
there opens nothing (§3b, docs/protocol.md appendix B for what is not read)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from replykit import StreamSegmenter, code_regions, segment

FORM = '<questionnaire>{"title":"T","questions":[{"type":"text","text":"Name?"}]}</questionnaire>'
_MD = MarkdownIt("commonmark")


def _live(text: str, checked: bool = False) -> int:
    result = segment(text, message_id="m", checked=checked)
    return sum(1 for s in result.segments if s.kind != "markdown")


def _oracle_live(text: str) -> int:
    """Tags markdown-it-py reads as raw HTML (a live candidate, §3b), in link text and in
    an image's description too (there a candidate is taken in place, cutting the image)."""

    def count(tokens: list[Token]) -> int:
        found = 0
        for tok in tokens:
            found += tok.type == "html_inline" and tok.content.startswith("<questionnaire>")
            found += count(tok.children or [])
        return found

    return count(_MD.parse(text))


def _streamed(text: str) -> int:
    seg = StreamSegmenter(message_id="m")
    for char in text:
        seg.push(char)
    return sum(1 for s in seg.finish().segments if s.kind != "markdown")


CASES = [
    # an example in a code span stays code: the title's backtick opens nothing
    ('See [doc](https://example.com "the `x") and `' + FORM + "` for the format.\n", 0),
    # a live form is not swallowed by a code span the title's backtick would open
    ('See [doc](https://example.com "a `b")\nPick one: ' + FORM + " then run `make`.\n", 1),
    ("[x](<`>) and `" + FORM + "` here\n", 0),  # pointy destination
    ('![x](/u "`") and `' + FORM + "` here\n", 0),  # an image
    ('[x](/u "<!--") Pick: ' + FORM + " -->\n", 1),  # no comment opens in a title
    ("[x](/u '`') and `" + FORM + "`\n", 0),
    ("[x](/u (`)) and `" + FORM + "`\n", 0),
    ("[x]( /u\t'`' ) and `" + FORM + "`\n", 0),  # blanks around the parts
    ("[x](a(b)`c) and `" + FORM + "`\n", 0),  # balanced parentheses
    # no link: the "]" and what follows are text
    ('a](/u "`") b `' + FORM + "` c\n", 1),  # no opener
    ('\\[x](/u "`") b `' + FORM + "` c\n", 1),  # an escaped opener
    ('[x] (/u "`") b `' + FORM + "` c\n", 1),  # a space before "("
    ('[x](/u "`" junk) b `' + FORM + "` c\n", 1),  # junk after the title
    ('[x](/u "`"no-space) b `' + FORM + "` c\n", 1),
    # links do not nest: the outer "]" closes no link once the inner one formed
    ('[a [b](/v) c](/u "`") d `' + FORM + "` e\n", 1),
    # an image may hold a link
    ('![a [b](/v) c](/u "`") d `' + FORM + "` e\n", 0),
    # a code span in the link text binds tighter than the "]"
    ('[a `]` b](/u "`") d `' + FORM + "` e\n", 0),
    ('[a `](/u "` b ' + FORM + " c\n", 1),
    # a tag in a title is no candidate; one in the link text is
    ('See [x](/u "<questionnaire>") and `' + FORM + "`\n", 0),
    ("See [" + FORM + '](/u "`") and `x`\n', 1),
]


@pytest.mark.parametrize(("text", "live"), CASES)
def test_a_link_target_is_no_inline_content(text: str, live: int) -> None:
    assert _oracle_live(text) == live  # the case says what CommonMark reads
    assert _live(text) == live
    assert _live(text, checked=True) == live
    assert _streamed(text) == live


def test_code_regions_skip_a_link_target() -> None:
    text = 'See [doc](/u "a `b") and `code` here\n'
    spans = [text[r.start : r.end] for r in code_regions(text) if r.kind == "span"]
    assert spans == ["`code`"]


# What is not read (docs/protocol.md, appendix B): a target that goes on on the next
# line, and reference links. replykit reads their "]" as text.
DEPARTURES = [
    ('[x](/u "a\n`b") and `' + FORM + "`\n", 1, 0),
    ("[x](\n/u '`') and `" + FORM + "`\n", 1, 0),
]


@pytest.mark.parametrize(("text", "ours", "commonmark"), DEPARTURES)
def test_what_is_not_read_is_documented(text: str, ours: int, commonmark: int) -> None:
    assert _oracle_live(text) == commonmark
    assert _live(text) == _live(text, checked=True) == ours


_PIECES = st.sampled_from(
    ["a", " ", "[", "![", "]", "(", ")", "](", "](/u", "](<", ">", ' "', '"', "'", "`", "``",
     "<!--", "-->", "\\`", "\\[", "\\]", "\t", "(t", FORM, "<b>", "*"]
)  # fmt: skip


@given(st.lists(_PIECES, max_size=14))
def test_one_line_paragraphs_agree_with_commonmark(pieces: list[str]) -> None:
    # One line after a letter: no block start, no definition, no target on two lines
    # (and no backslash before a tag, which §3b judges on the raw text).
    text = "x " + "".join(pieces) + "\n"
    # markdown-it-py ends a comment at "--" (CommonMark 0.30), 0.31.2 only at "-->".
    assume("--" not in text.replace("<!--", "").replace("-->", "") and "--->" not in text)
    assume("<!---" not in text)
    assert _live(text) == _live(text, checked=True) == _oracle_live(text), text
