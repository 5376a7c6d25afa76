"""The fast mode's shortcuts give exactly what the general path gives.

The scanner reads runs of top-level lines at once (``scan/runs.py``): the inside of a
fence, blank and plain lines, headings, whole code blocks and simple lists before the
next family word. Here every run is compared with reading each line alone
(``Scanner(..., line_runs=False)``): the same tokens and near-misses, on generated
messages of the lines the runs take and the lines that stop them, on the conformance
vectors, the corpus and the CommonMark spec examples. The token streams read by the
grammar's LALR table (``grammar.parse``) give Lark's parse, and the family word is
found where the case-blind pattern finds it. The runs' work stays linear, counted in
characters scanned.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from inputs import CORPUS, HERE, SPEC, VECTORS

from replykit import segment
from replykit.questionnaire.compat import Compat
from replykit.questionnaire.scan import runs
from replykit.questionnaire.scan.grammar import lexemes, parse, parser
from replykit.questionnaire.scan.lookahead import Lookahead, find_family_word
from replykit.questionnaire.scan.scanner import Scanner, ScanResult
from replykit.testing.strategies import markdown, messages


def _rich_replies() -> list[str]:
    """The benchmark's rich replies (``benchmarks/rich_replies.py``): nested lists, a
    block quote, a table, a code block and a form."""
    path = HERE.parent / "benchmarks" / "rich_replies.py"
    spec = importlib.util.spec_from_file_location("rich_replies", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module = sys.modules.setdefault("rich_replies", module)  # dataclasses look it up
    if not hasattr(module, "replies"):
        spec.loader.exec_module(module)
    return [r.text for r in module.replies()]


RICH = _rich_replies()
FORM = (
    "```questionnaire\ntitle: Next\nquestions:\n  - type: free_text\n    text: Why?\n"
    '    default: ""\n```\n'
)
XML_FORM = (
    '<questionnaire>{"title":"Next","questions":[{"type":"free_text","text":"Why?",'
    '"default":""}]}</questionnaire>'
)
LINEAR = 12.0

# Lines the runs take and lines that stop them: plain text starting with each trigger
# character, headings, fences, list items at several indentations, quotes, HTML,
# spans and comments left open, family words in every shape.
LINES = (
    "", "  ", "\t", "word text", "**bold** text", "***x", "`code` x", "``two`` y", "~x",
    "~~x", "_i_", "__", "=x", "===", "+x", "++", "#tag", "####### seven", "2024 year",
    "1.5 l", "12", "\u00a0nbsp", "\u3000cjk", "\x0cform feed", "a `span", "close` b",
    "a <!-- open", "shut --> b", "text <b>tag</b>", "# H", "## H2 `x", "#", "```",
    "```python", "~~~", "````", "``` ", "   ```", "    ```", "```x`y", "- a", "* b",
    "+ c", "1. d", "2) e", "10. f", "0. g", "-  x", "-     five", "  - nested", "   1. x",
    "-", "- ", "* * *", "- - -", "---", "-x", "  cont", "    indented", "\tTab", " \t x",
    "> q", ">", "<div>", "</div>", "<!-- c -->", "<!--", "<pre>", "</pre>",
    "```questionnaire", "questions: []", "<questionnaire>{}</questionnaire>",
    "Questionnaire word", "<questionnaire>", "</questionnaire>", "``questionnaire",
    "\u00a0```questionnaire", "- ```questionnaire", "QUESTIONNAIRE", "<sage-questionnaire>",
    # Block quotes, tables, nested lists, fences and quotes inside list items.
    "> word text", ">text", ">  two", ">    four", ">     five", "> > nested", "> - item",
    "> 2. item", "> # h", "> ```", "> ~~~", "> ```questionnaire", ">\t", "> \tx", ">\tx",
    "> **Note:** x", "> `span` x", "> <b>", "> ***", "> ===", "| a | b |", "| --- | --- |",
    "|x|", "- `x` sub", "1. Add: x", "- > q", "1. > q", "- # h", "- ```sh", "1. ~~~",
    "- - double", "* + mixed", "- [ ] task", "lazy continuation",
)  # fmt: skip


@st.composite
def line_messages(draw: st.DrawFn) -> str:
    """Lines of :data:`LINES`, each indented 0-6 spaces, with any line ending, mostly
    after a visible paragraph (the runs start once one was seen), often with a form."""
    lines = draw(
        st.lists(
            st.tuples(st.integers(0, 6), st.sampled_from(LINES)).map(lambda p: " " * p[0] + p[1]),
            max_size=30,
        )
    )
    text = "\n".join(lines)
    if draw(st.booleans()):
        text = "Intro.\n\n" + text
    if draw(st.booleans()):
        text += "\n\n" + draw(st.sampled_from([FORM, XML_FORM]))
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return text.replace("\n", ending) if ending != "\n" else text


def read(text: str, line_runs: bool, **kwargs: Any) -> ScanResult:
    return Scanner(text, lexemes(), line_runs=line_runs, **kwargs).run()


def same_reading(text: str) -> None:
    """The runs give the line-by-line reading's tokens and near-misses, in every fast
    mode, and count no more than four characters of work per character more (the
    runs' family-word index: the word's two first letters and "&#", §3a)."""
    for kwargs in ({}, {"full": True}, {"full": True, "protocol": False}, {"compat": Compat()}):
        runs, lines = read(text, True, **kwargs), read(text, False, **kwargs)
        assert runs.tokens == lines.tokens, (kwargs, text)
        assert runs.near_misses == lines.near_misses, (kwargs, text)
        assert runs.scanned <= lines.scanned + 4 * len(text) + 1


@given(line_messages())
@example("Intro.\n\n- a\n- b\n\n  c\nd\n\n# H\n```\nx\n```\n" + FORM)
@example("Intro.\n\npara `open\nmore <questionnaire>{}</questionnaire> close`\n")
@example("Intro.\n\n1. a\n\n2. b\n   <questionnaire>{}</questionnaire>\n")
def test_runs_read_what_the_lines_read(text: str) -> None:
    same_reading(text)


@given(messages())
def test_runs_read_generated_messages_as_the_lines(text: str) -> None:
    same_reading(text)
    same_reading("Intro.\n\n" + text)


@given(markdown())
def test_runs_read_generated_markdown_as_the_lines(text: str) -> None:
    same_reading("Intro.\n\n" + text + "\n\n" + FORM)


@pytest.mark.parametrize("case", VECTORS, ids=lambda c: str(c["id"]))
def test_runs_read_every_vector_as_the_lines(case: dict[str, Any]) -> None:
    same_reading(case["input"])
    same_reading("Intro.\n\n" + case["input"])


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_runs_read_every_corpus_file_as_the_lines(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    same_reading("Intro.\n\n" + text + "\n\n" + FORM)
    middle = len(text) // 2
    same_reading("Intro.\n\n" + text[:middle] + XML_FORM + text[middle:])


@pytest.mark.parametrize("index", range(len(RICH)))
def test_runs_read_every_rich_reply_as_the_lines(index: int) -> None:
    same_reading(RICH[index])
    same_reading(RICH[index].replace("\n", "\r\n"))


def test_runs_leave_few_lines_of_a_rich_reply_to_the_general_path() -> None:
    # Before its form a rich reply's quotes, nested lists, tables, headings and code
    # are read in runs: alone are its first line and the blank after it (before the
    # first visible character), and the form's opener and closer (at most 4).
    alone = []
    for text in RICH:
        scanner = Scanner(text, lexemes())
        assert scanner.run().tokens == read(text, False).tokens
        alone.append(scanner.lines_alone)
    assert max(alone) <= 4, alone
    scanner = Scanner(text, lexemes(), line_runs=False)
    scanner.run()
    assert scanner.lines_alone == text.count("\n") + (not text.endswith("\n"))


QUOTES_AND_LISTS = (
    "Intro.\n\n> **Note:** one\n> two\nlazy\n>\n> three\n\n"
    "1. Add:\n   - `x` sub;\n     - deeper\n2. Next\n\n   > in item\n\n"
    "| a | b |\n| --- | --- |\n\n## Head\n- item\n> quote ends the list\n\n" + FORM
)


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_runs_read_quotes_nested_lists_and_tables_as_the_lines(ending: str) -> None:
    text = QUOTES_AND_LISTS.replace("\n", ending)
    same_reading(text)
    scanner = Scanner(text, lexemes())
    scanner.run()
    # "Intro.", the blank after it, the quote inside the item and the blank after it
    # (a quote inside a list item is read alone), the opener and the closer.
    assert scanner.lines_alone == 6


def test_item_line_groups_are_where_the_list_run_reads_them() -> None:
    # runs._list_lines reads the groups of item_lines by number.
    for patterns in (runs.ANY_EOL, runs.line_patterns("a\n")):
        assert patterns.item_lines.groupindex == {
            "indent": 1, "marker": 2, "number": 3, "pad": 4, "first": 5
        }  # fmt: skip


def test_runs_read_every_spec_example_as_the_lines() -> None:
    for example_text in SPEC:
        same_reading("Intro.\n\n" + example_text + "\nquestionnaire\n")


def test_runs_read_a_reply_with_a_list_a_heading_and_code_before_its_form() -> None:
    text = "Intro.\n\n- a\n- b\n\n# Next\n```sh\nls\n```\nSo:\n\n" + FORM
    runs, lines = read(text, True), read(text, False)
    assert runs.tokens == lines.tokens
    assert [t.type for t in runs.tokens] == [
        "PROSE", "FENCE_OPENER", "FENCE_PAYLOAD", "FENCE_CLOSER"
    ]  # fmt: skip
    assert [s.kind for s in segment(text).segments] == ["markdown", "questionnaire"]
    assert segment(text).segments[1].valid


@given(st.one_of(messages(), line_messages()))
def test_table_run_parts_are_the_parsers(text: str) -> None:
    tokens = read(text, True).tokens
    assert parse(text, tokens) == parser("message").parse((text, tokens, None))


def test_table_run_reads_the_common_streams() -> None:
    for text in ("Intro.\n\n" + FORM, "Intro " + XML_FORM + " after", FORM, "```questionnaire\n"):
        tokens = read(text, True).tokens
        assert parse(text, tokens) == parser("message").parse((text, tokens, None))
    # An inert region before the first visible character is a Markdown piece of its own.
    text = "`code`\n\n" + FORM
    tokens = read(text, True).tokens
    assert "CODE_SPAN" in [t.type for t in tokens]
    assert parse(text, tokens) == parser("message").parse((text, tokens, None))
    assert segment(text) == segment(text, checked=True)


WORDISH = st.text(alphabet="qQuUeEsStTiIoOnNaArR x\u0130\u212a\u017f&#", max_size=40)


@given(WORDISH, st.lists(st.integers(0, 40), max_size=3))
def test_family_word_is_found_where_the_pattern_finds_it(text: str, inserts: list[int]) -> None:
    for at in sorted(inserts, reverse=True):
        text = text[:at] + "qUeStionNAIRE" + text[at:]
    pattern: re.Pattern[str] = lexemes().family_word_any_case
    letters = [-1, -1, -1]
    look = Lookahead(text, lexemes(), Compat())

    def first_at(pos: int) -> int:
        # The word, or a numeric reference that may spell it in an info string (§3a).
        m, ref = pattern.search(text, pos), text.find("&#", pos)
        return min(len(text) if m is None else m.start(), len(text) if ref < 0 else ref)

    for pos in range(len(text) + 1):
        expected = first_at(pos)
        assert find_family_word(text, lexemes(), pos) == expected
        assert find_family_word(text, lexemes(), pos, letters) == expected
        assert look.family_word_at_or_after(pos) == expected
    for pos in reversed(range(len(text) + 1)):
        assert look.family_word_at_or_after(pos) == first_at(pos)


HOSTILE_RUNS = {
    "list_items_each_with_the_word": "- item questionnaire\n",
    "fence_openers_closed_after_the_word": "```\nquestionnaire\n```\n",
    "fence_openers_never_closed": "```a\nb\n",
    "letters_of_the_word": "q Q qu QUESTIONNAIR\n",
    "fences_in_lines": "x ``` y ``` z\n```\n",
    "items_and_blank_lines": "- a\n\n  b\n1. c\n\n",
    "headings_and_paragraphs": "# h\npara\n\n",
    "quotes_with_lazy_lines": "> q\nlazy\n>\n> r\n\n",
    "quotes_ending_lists": "- a\n  - b\n> q\n",
    "quotes_in_items": "- a\n  > q\n",
    "nested_items_deeper_and_back": "1. a\n   - b\n     - c\n        d\n2. e\n",
}


@pytest.mark.parametrize("unit", HOSTILE_RUNS.values(), ids=list(HOSTILE_RUNS))
def test_runs_work_is_linear(unit: str) -> None:
    work = {}
    for n in (200, 2000):
        text = "Intro.\n\n" + unit * n + "\n" + FORM
        work[n] = read(text, True).scanned
        assert read(text, True).tokens == read(text, False).tokens
    assert work[2000] / work[200] <= LINEAR, work
