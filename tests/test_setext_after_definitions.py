"""A setext underline after a paragraph of link reference definitions alone is no
heading (CommonMark 4.7, example 218): the paragraph goes on, so what follows is read
as paragraph continuation, not as a block start (session 12's review: an HTML block of
type 7 or indented code there made a form vanish, or made a code example live)."""

from __future__ import annotations

import re

import commonmark
import pytest

from replykit import StreamSegmenter, segment

XML = '<questionnaire>{"questions":[{"type":"free_text","text":"Q","default":""}]}</questionnaire>'
FENCED = (
    '```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n'
    "```\n"
)

# (message, where its one live block starts, or None: no block)
CASES = [
    ("Intro.\n\n[a]: https://example.com/help\n===\n<span>\n" + FENCED, 49),
    ("[a]: /u\n===\n    " + XML + "\n", 16),
    ("[a]: /u\n-\n    " + XML + "\n", 14),
    ("[a]: /u\n--\n\t" + XML + "\n", 12),
    ("[a]: /u\n=\n    " + XML + "\n", 14),
    ("[a]: /u\n===\n[b]: /v '" + XML + "'\n", 21),
    ("> [a]: /u\n> ===\n>     " + XML + "\n", 22),
    ("- [a]: /u\n  ===\n      " + XML + "\n", 22),
    ("[a]: /u\n[b]: /v\n===\n<span>\n" + FENCED, 27),
    ("[a]:\n/u\n===\n<span>\n" + FENCED, 19),
    ("[a]: /u 't'\n===\n<span>\n" + FENCED, 23),
    ("[a]: https://example.com\n===\n<span>\nExample: `" + XML + "`\n", None),
    # Not definitions alone: a heading, then an HTML block holding the fence.
    ("[a]: /u\ntext\n===\n<span>\n" + FENCED, None),
    ("[a]: /u\n" + XML + "\n===\n<span>\n" + FENCED, 8),  # the tag read before
    ("[a]: /u\nb `c`\n===\n<span>\n" + FENCED, None),
    ("[a]: /u x\n===\n<span>\n" + FENCED, None),
]


def _blocks(text: str, **options: object) -> list[int]:
    return [s.start for s in segment(text, **options).segments if s.kind != "markdown"]  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "start"), CASES)
@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_an_underline_under_definitions_alone_is_paragraph_text(
    text: str, start: int | None, ending: str
) -> None:
    expected: list[int] = []
    if start is not None:  # "\r\n" moves the offset by one per line ending before
        expected = [start + (text[:start].count("\n") if ending == "\r\n" else 0)]
    text = text.replace("\n", ending)
    assert _blocks(text) == expected
    assert _blocks(text, checked=True) == expected
    stream = StreamSegmenter()
    for i in range(0, len(text), 5):
        stream.push(text[i : i + 5])
    assert stream.finish() == segment(text)


_FENCE_HTML = re.compile(r'<pre><code class="language-questionnaire">')


@pytest.mark.parametrize(
    "text", [t for t, _ in CASES if "```questionnaire" in t and not t.startswith(">")]
)
def test_commonmark_reads_the_fence_as_replykit_does(text: str) -> None:
    # commonmark.py (a port of the spec's commonmark.js) renders the fence as code
    # exactly when replykit finds the fenced candidate.
    html = commonmark.commonmark(text)
    fenced = [s for s in segment(text).segments if s.encoding == "fenced_yaml"]
    assert bool(_FENCE_HTML.search(html)) == bool(fenced)
