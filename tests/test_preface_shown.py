"""The preface rule (docs/protocol.md §4.3): prose counts only when it renders visible
text, the same in every reading (fast, checked, streamed) and in Self-check.

The seed asks for 非空的普通说明文字 before a fenced form: a character reference of a
blank character, raw HTML tags, block markers alone, thematic breaks and link
reference definitions render nothing, so they are no preface. ``first_shown`` is
checked against markdown-it-py's rendering (CommonMark, raw HTML on) over messages
built of such pieces, and shown not to depend on where a reading cuts the prose.
"""

from __future__ import annotations

import html
import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from replykit import segment, self_check
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.lines import break_tail
from replykit.questionnaire.scan.shown import first_shown, first_shown_general, shows_text
from replykit.testing import strategies as rs
from replykit.testing.strategies.names import RENDERS_NOTHING, no_preface_messages
from replykit.testing.streaming import check_stream, cut
from replykit.text import is_blank

FORM = (
    "```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: x\n"
    "    default: ''\n```\n"
)

NO_PREFACE = [
    "[a]: /url\n",
    "&#8203;\n",
    "&nbsp;\n\n",
    "&#x200B;&ZeroWidthSpace;&#xFEFF;\n\n",
    "<span></span>\n\n",
    "<div>\n</div>\n\n",
    "<br/> <!-- c --> <img src='x.png'>\n\n",
    '[a]: <https://e.com/a b> "T"\n[b]: /u (t)\n\n',
    "---\n",
    "* * *\n\n",
    "#\n\n",
    "-\n\n",
    ">\n\n",
    "> - # \n\n",
    "\ufeff&nbsp;\n\n",
    "# #\n\n",  # an ATX heading with only its closing sequence (CommonMark 4.2)
    # A definition in a container, read from after its markers, then an inert region.
    "> [a]: /url\n\n`c`\n\n",
    "- [a]: /url\n  <!-- c -->\n\n",
    "- [a]: /url\n\n```\n```\n\n",
    " [a]: /url\n",  # indented, the fence right after it
    "## &nbsp; ###  \n\n",
]

PREFACE = [
    "Intro\n\n",
    "# Intro\n\n",
    "&amp;\n\n",
    "&#65;\n\n",
    "&#0;\n\n",  # U+FFFD is visible
    "<div>\nhi\n</div>\n\n",
    "[a]: /url x\n\n",
    "[ ]: /url\n\n",
    "\\*\n\n",
    "- a\n\n",
    "> b\n\n",
    "<https://example.com>\n\n",
    "<span\nclass='x'></span>\n\n",  # raw HTML over lines: counted (docs §4.3)
    "[a]:\n/url\n\n",  # a definition over lines: counted (docs §4.3)
    "# a #\n\n",
    "# \\#\n\n",  # an escaped "#" is the heading's text
    "# #x\n\n",
]


def _codes(text: str, **options: object) -> list[str]:
    return [d.code for d in segment(text, **options).diagnostics]  # type: ignore[arg-type]


@pytest.mark.parametrize("before", NO_PREFACE)
def test_prose_that_renders_nothing_is_no_preface(before: str) -> None:
    text = before + FORM
    result = segment(text)
    fence = text.index("```questionnaire")
    (diagnostic,) = result.diagnostics
    assert (diagnostic.code, diagnostic.start, diagnostic.end) == (
        "fence.no_preface",
        fence,
        fence + len("```questionnaire"),
    )
    assert diagnostic.line == text.count("\n", 0, fence) + 1
    assert _codes(text, checked=True) == ["fence.no_preface"]
    assert check_stream(list(text)) == []
    conversation = [{"role": "user", "content": "q"}, {"role": "assistant", "content": text}]
    assert self_check(conversation).passed is False


@pytest.mark.parametrize("before", PREFACE)
def test_prose_that_renders_text_is_a_preface(before: str) -> None:
    text = before + FORM
    assert _codes(text) == []
    assert _codes(text, checked=True) == []
    assert check_stream(list(text)) == []


def test_a_later_fence_is_served_by_prose_between() -> None:
    text = "&#8203;\n\n" + FORM + "\nNow:\n\n" + FORM
    result = segment(text)
    assert [d.code for d in result.diagnostics] == ["fence.no_preface"]
    assert [s.valid for s in result.segments if s.kind != "markdown"] == [False, True]


def test_first_shown_points_at_the_first_text_character() -> None:
    text = "> - &nbsp;<b>\n# &#8203; <i>x</i>"
    assert first_shown(text, 0, len(text)) == text.index("x")
    assert first_shown("[a]: /u\n---\n", 0, 12) == -1
    # A piece that starts mid-line is no line head: its "#" is text.
    assert first_shown("a`c`# b", 4, 7) == 4
    assert first_shown("# b", 0, 3, head=False) == 0


# ---- the oracle: markdown-it-py renders the same pieces -------------------------

_PIECES = (
    "Intro",
    "&#8203;",
    "&nbsp;",
    "&amp;",
    "&#0;",
    "&bogus;",
    "<span></span>",
    "</div>",
    "<br/>",
    "<a href='x'>",
    "<a href='x'>t</a>",
    "[a]: /url",
    "[b]: <u v> 'T'",
    "[c]: /u x",
    "---",
    "* * *",
    "#",
    "# t",
    "-",
    "- t",
    "1.",
    ">",
    "> t",
    "\\*",
    "\u200b",
    "\u3000",
)
_MD = MarkdownIt("commonmark", {"html": True})
_TAG = re.compile(r"<[^>]*>")


def _renders_text(markdown: str) -> bool:
    rendered = _TAG.sub("", _MD.render(markdown))
    return not is_blank(html.unescape(rendered))


@settings(max_examples=300)
@given(st.lists(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=3), max_size=5))
def test_first_shown_agrees_with_a_commonmark_renderer(blocks: list[list[str]]) -> None:
    # One block per piece line, blocks apart (the lines CommonMark would read as the
    # continuation of a paragraph that renders nothing are a documented gap, §4.3).
    text = "\n\n".join(" ".join(b) for b in blocks)
    assert shows_text(text, 0, len(text)) == _renders_text(text)


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from((*_PIECES, "\n", "\n\n", " ")), max_size=12),
    st.lists(st.integers(0, 200), max_size=6),
)
def test_first_shown_does_not_depend_on_cuts_at_line_starts(
    pieces: list[str], cuts: list[int]
) -> None:
    text = "".join(pieces)
    starts = sorted({0, len(text)} | {m.end() for m in re.finditer(r"\r\n|\r|\n", text)})
    points = sorted({starts[c % len(starts)] for c in cuts} | {0, len(text)})
    whole = shows_text(text, 0, len(text))
    assert whole == any(shows_text(text, a, b) for a, b in itertools.pairwise(points))


@settings(max_examples=150)
@given(
    text=st.one_of(
        no_preface_messages(),
        st.tuples(st.sampled_from(RENDERS_NOTHING), rs.messages()).map("".join),
        st.tuples(st.sampled_from(RENDERS_NOTHING), rs.fenced_blocks()).map("".join),
    ),
    cuts=st.lists(st.integers(0, 2_000), max_size=12),
)
def test_every_reading_agrees_on_the_preface(text: str, cuts: list[int]) -> None:
    fast = segment(text)
    checked = segment(text, checked=True)
    assert fast == checked
    assert check_stream(cut(text, [c % (len(text) + 1) for c in cuts])) == []


@settings(max_examples=400)
@given(
    st.lists(
        st.sampled_from((*_PIECES, "\n", "\r\n", " ", "\t", "\ufeff", "\xa0", "x", "É", "7")),
        max_size=12,
    ),
    st.integers(0, 80),
    st.integers(0, 80),
    st.sampled_from((None, True, False)),
)
def test_first_shown_fast_path_equals_the_general_reading(
    pieces: list[str], a: int, b: int, head: bool | None
) -> None:
    # The fast path answers at once when the first non-blank character is a letter.
    text = "".join(pieces)
    start, end = sorted((a % (len(text) + 1), b % (len(text) + 1)))
    assert first_shown(text, start, end, head) == first_shown_general(text, start, end, head)


@settings(max_examples=300)
@given(st.text(alphabet="-*_ \tx>1.", max_size=30))
def test_a_thematic_break_starts_no_earlier_than_break_tail(line: str) -> None:
    # _line_head asks the THEMATIC_BREAK pattern only from break_tail on (once a line).
    tail = break_tail(line, 0, len(line))
    for pos in range(len(line) + 1):
        if lexemes().thematic_break.fullmatch(line, pos, len(line)):
            assert pos >= tail, (line, pos)


@settings(max_examples=100)
@given(text=no_preface_messages())
def test_no_preface_family_gets_the_error(text: str) -> None:
    codes = _codes(text)
    assert "fence.no_preface" in codes
