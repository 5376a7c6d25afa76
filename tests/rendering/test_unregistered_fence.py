"""An unregistered fenced block shows the code block CommonMark makes of it
(docs/html.md section 3): the opener's indentation removed from each content line by
columns, a tab counting to the next multiple of 4 and the part of it left over kept
as spaces. Checked against markdown-it's own reading of the same message."""

from __future__ import annotations

import itertools
import re

import pytest
from markdown_it import MarkdownIt

from replykit import segment
from replykit.markdown_it import render_html
from replykit.markdown_it.cards import _dedent

OPENERS = [
    "```foo-questionnaire\n",
    " ```foo-questionnaire\n",
    "  ```foo-questionnaire\n",
    "   ```foo-questionnaire\n",
    "````foo-questionnaire x\n",
    "```foo-questionnaire\r\n",
]
BODIES = [
    "a\n", "\ta\n", " \ta\n", "  \ta\n", "   \ta\n", "\t\ta\n", "  a\n", "   a\n    b\n",
    "a\r\n", "a\rb\r", "", "\n\n", "a\n````\n", "a\n  ```  \n", "a\n ```x\n", "a\n\t```\n",
    "\t\n", " \t \tx\n", "a &amp; <b>\n",
]  # fmt: skip
CLOSERS = ["```\n", "````\n", "  ```\n", "", "```", "```\r\n", "    ```\n", "```\t\n", " ```\t \n"]
_CODE = re.compile(r"<code[^>]*>(.*?)</code>", re.S)


def code_of(page: str) -> str | None:
    found = _CODE.search(page)
    return found.group(1) if found else None


def cases() -> list[str]:
    out = []
    for opener, body, closer in itertools.product(OPENERS, BODIES, CLOSERS):
        text = "prose\n\n" + opener + body + closer + "\nafter\n"
        if any(s.kind != "markdown" for s in segment(text).segments):
            out.append(text)
    return out


def test_every_fence_shows_the_code_commonmark_makes() -> None:
    md = MarkdownIt("commonmark")
    texts = cases()
    differ = [t for t in texts if code_of(render_html(t)) != code_of(md.render(t))]
    assert len(texts) > 500 and differ == []


def test_the_reported_fence_keeps_two_columns_of_its_tab() -> None:
    page = render_html("prose\n\n  ```foo-questionnaire\n\ta\n```\n")
    assert code_of(page) == "  a\n"


@pytest.mark.parametrize(
    ("line", "indent", "kept"),
    [
        ("\ta\n", 2, "  a\n"),
        ("\ta\n", 3, " a\n"),
        (" \ta\n", 2, "  a\n"),
        ("   \ta\n", 3, "\ta\n"),
        ("  a\n", 3, "a\n"),
        ("\t\ta\n", 1, "   \ta\n"),
        ("    a\n", 2, "  a\n"),
        ("  \n", 3, "\n"),
        ("", 2, ""),
        ("a\n", 0, "a\n"),
    ],
)
def test_dedent_counts_columns(line: str, indent: int, kept: str) -> None:
    assert _dedent(line, indent) == kept
