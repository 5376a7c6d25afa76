"""The preface rule (§4.3) and paragraph continuation (CommonMark 4.8, 5.2): a line that
continues a top-level paragraph whose lines render nothing starts no block unless one
may interrupt a paragraph. An empty list item (`*`), an ordered item not starting at 1
(`2.`), a link reference definition and a line indented by 4 columns are then paragraph
text, and visible; a setext underline makes the paragraph a heading that renders
nothing. Differential: replykit's verdict against cmark (cmarkgfm) where cmark and
commonmark.js (commonmark.py) agree, on lines outside block quotes and list items."""

from __future__ import annotations

import html
import re

import cmarkgfm
import commonmark
import pytest
from cmarkgfm import cmark
from hypothesis import given
from hypothesis import strategies as st

from replykit import StreamSegmenter, segment

FORM = (
    "```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: Q?\n"
    '    default: ""\n```\n'
)
_INVISIBLE = "\u200b\ufeff\u00ad"


def refused(prefix: str) -> bool:
    return any(d.code == "fence.no_preface" for d in segment(prefix + FORM).diagnostics)


def _shown(rendered: str) -> bool:
    out = re.sub(r"<pre><code>.*?</code></pre>|<code>.*?</code>", "", rendered, flags=re.S)
    out = html.unescape(re.sub(r"<[^>]*>", "", out))
    return any(not (c.isspace() or c in _INVISIBLE) for c in out)


@pytest.mark.parametrize(
    ("prefix", "shown"),
    [
        ("\u200b\n*\n", True),
        ("\u200b\n+\n", True),
        ("&nbsp;\n1.\n", True),
        ("\u200b\n2.\n", True),
        ("\u200b\n1)\n", True),
        ("&#8203;\n[a]: /u\n", True),
        ("<span></span>\n*\n", True),
        ("<span></span>\n[a]: /u\n", True),
        ("&#8203;\n    #\n", True),
        ("&#8203;\n    >\n", True),
        ("[a]: /u\n*\n", True),
        ("[a]: /u\n==\n", True),
        # Interrupting blocks and setext headings render nothing.
        ("&#8203;\n-\n", False),
        ("&#8203;\n===\n", False),
        ("&#8203;\n#\n", False),
        ("&#8203;\n* * *\n", False),
        ("\u200b\n* \u200b\n", False),
        ("\u200b\n1. \u200b\n", False),
        ("*\n", False),
        ("\u200b\n\n*\n", False),
        ("# \u200b\n*\n", False),
        # A leading byte order mark is not read (§1.1): the same verdicts.
        ("\ufeff&#8203;\n*\n", True),
        ("\ufeff- &#8203;\n  *\n", True),
    ],
)
def test_continuation_lines(prefix: str, shown: bool) -> None:
    assert (
        _shown(cmarkgfm.markdown_to_html(prefix, options=cmark.Options.CMARK_OPT_UNSAFE)) == shown
    )
    assert refused(prefix) is not shown


# Lines of one level of containers at most, then one last line of any kind (nested
# containers, a list item whose first line is empty, and a paragraph whose first line is
# indented after a blank line, where a list item above may hold it, are not read:
# docs/protocol.md §4.3).
_TOP = st.sampled_from(
    ["\u200b", "&#8203;", "&nbsp;", "<span></span>", "[a]: /u", "    *", "\t*",
     "#", "# \u200b", "---", "--", "==", "===", "", "<!-- c -->",
     # List items and block quotes whose line holds text that renders nothing (their
     # paragraph is continued inside or lazily), and an empty block quote.
     "* \u200b", "- \u200b", "1. \u200b", "> \u200b", ">"]
)  # fmt: skip
_LAST = st.sampled_from(
    ["*", "+", "-", "1.", "2.", "1)", "01.", "[a]: /u", "  *", "    *", "\t*", "--", "==",
     "* * *", "1. \u200b", "* \u200b", "- \u200b", "> \u200b", "#", "\u200b"]
)  # fmt: skip


@given(st.lists(_TOP, min_size=1, max_size=4), _LAST)
def test_top_level_lines_agree_with_the_reference_renderers(lines: list[str], last: str) -> None:
    prefix = "\n".join([*lines, last]) + "\n\n"
    c = _shown(cmarkgfm.markdown_to_html(prefix, options=cmark.Options.CMARK_OPT_UNSAFE))
    js = _shown(commonmark.commonmark(prefix))
    if c == js:  # they differ on a few lines after link reference definitions
        assert refused(prefix) is not c, prefix


_ANY = st.sampled_from(
    ["\u200b", "&#8203;", "&nbsp;", "<span></span>", "*", "+", "-", "1.", "2.", "1)",
     "[a]: /u", "  [a]: /u", "    *", "\t*", " #", "#", "---", "--", "==", "=", "* *", "> >",
     ">", "> \u200b", "> *", "- \u200b", "* \u200b", "1. \u200b", "", "- [a]: /u", "-     x",
     "- ```", "<div>", "  *", ">>", "- # x", "`c`", "<!-- c -->", "\ufeff"]
)  # fmt: skip


@given(st.lists(_ANY, min_size=1, max_size=5), st.integers(1, 7))
def test_every_reading_gives_the_same_verdict(lines: list[str], size: int) -> None:
    # The paragraph a line continues is read alike by the fast and the checked
    # readings and by a stream resuming where nothing is open (§10).
    text = "\n".join(lines) + "\n" + FORM
    whole = segment(text)
    assert segment(text, checked=True) == whole
    stream = StreamSegmenter()
    for i in range(0, len(text), size):
        stream.push(text[i : i + size])
    assert stream.finish() == whole
