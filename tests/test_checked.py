"""The checked mode: the whole grammar reads the message, and the result is the fast one's.

``segment(text, checked=True)`` scans with no shortcut, emits a token for every block,
line and inline construct, parses them with rule ``document`` of
``grammar/message.lark`` (every token checked against its terminal, the tokens tiling
the text) and compares the parts and near-misses with the fast reading
(docs/architecture.md). Here: on every conformance vector, every sage-docs corpus
file, every CommonMark spec example and generated messages the two readings give the
same segmentation and the same inert regions; the checker rejects wrong token streams;
the grammar has no LALR conflict; the checked reading is linear in counted characters.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from inputs import CORPUS, SPEC, VECTORS

from replykit import ReplykitBug, segment
from replykit.questionnaire.profiles import profile_from_string
from replykit.questionnaire.scan.checked import check_reading
from replykit.questionnaire.scan.emit import Fine, Token
from replykit.questionnaire.scan.grammar import lexemes, parse_document
from replykit.questionnaire.scan.scanner import Scanner
from replykit.testing.hostile import FAMILIES, Family
from replykit.testing.strategies import inert_messages, messages

from forms import markdownish

INERT = ("FENCED_CODE", "INDENTED_CODE", "CODE_SPAN", "HTML_COMMENT")
LINEAR = 12.0


def fast_regions(text: str) -> tuple[tuple[str, int, int], ...]:
    """The inert regions the fast scanner's full reading (protocol mode) finds."""
    tokens = Scanner(text, lexemes(), full=True).run().tokens
    return tuple((t.type, t.start, t.end) for t in tokens if t.type in INERT)


def agree(text: str, compat: str | None = None, **kwargs: Any) -> None:
    """Both readings give the same segmentation and the same inert regions."""
    checked = segment(text, compat=compat, checked=True, **kwargs)
    assert checked == segment(text, compat=compat, **kwargs)
    if compat is None:
        assert check_reading(text).regions == fast_regions(text)


@pytest.mark.parametrize("case", VECTORS, ids=lambda c: str(c["id"]))
def test_every_vector_reads_the_same_checked(case: dict[str, Any]) -> None:
    profile = profile_from_string(case["profile"])
    agree(case["input"], case.get("compat"), message_id=case["message_id"], profile=profile)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_corpus_file_reads_the_same_checked(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    agree(text)
    agree(text, "sage")


@pytest.mark.parametrize("index", range(len(SPEC)), ids=lambda i: f"ex{i + 1}")
def test_every_spec_example_reads_the_same_checked(index: int) -> None:
    agree(SPEC[index])
    # The family word defeats the fast mode's quick answer.
    agree(SPEC[index] + "\nquestionnaire\n")


@given(st.one_of(messages(), inert_messages(), markdownish), st.sampled_from([None, "sage"]))
def test_generated_messages_read_the_same_checked(text: str, compat: str | None) -> None:
    agree(text, compat)


def test_corpus_and_spec_are_all_there() -> None:
    assert len(VECTORS) >= 381 and len(SPEC) == 655 and len(CORPUS) >= 110


# ---- the checker checks ----------------------------------------------------------------


def test_a_token_that_is_not_its_terminal_is_a_bug() -> None:
    # ">" is a QUOTE_MARKER; "x" is not.
    good = [Token("QUOTE_MARKER", 0, 1), Token("BLANK_LINE", 1, 1), Token("_CLOSE", 1, 1)]
    parse_document(">", good)
    with pytest.raises(ReplykitBug, match="is not a QUOTE_MARKER"):
        parse_document("x", good)


def test_tokens_that_do_not_tile_the_text_are_a_bug() -> None:
    para = [Token("TEXT", 0, 1), Token("_END", 1, 1)]
    parse_document("a", para)
    with pytest.raises(ReplykitBug, match="tokens end at 1"):
        parse_document("ab", para)
    with pytest.raises(ReplykitBug, match="starts at 1"):
        parse_document("ab", [Token("TEXT", 1, 2), Token("_END", 2, 2)])
    with pytest.raises(ReplykitBug, match="overlaps"):
        sink = Fine()
        sink.token("TEXT", 0, 2)
        sink.token("TEXT", 1, 3)


def test_tokens_that_are_no_document_are_a_bug() -> None:
    # A paragraph needs its _END; a container its _CLOSE.
    with pytest.raises(ReplykitBug, match="not a document"):
        parse_document("a", [Token("TEXT", 0, 1)])
    with pytest.raises(ReplykitBug, match="not a document"):
        parse_document(">", [Token("QUOTE_MARKER", 0, 1)])


def test_answers_the_grammar_cannot_state_are_rechecked() -> None:
    from replykit.questionnaire.compat import Compat
    from replykit.questionnaire.scan.checked import Reading

    def read(text: str, tokens: list[Token]) -> object:
        return Reading(Compat()).read(parse_document(text, tokens))

    span = "``a`"
    with pytest.raises(ReplykitBug, match="code span runs"):
        read(span, [Token("SPAN_OPEN", 0, 2), Token("SPAN_TEXT", 2, 3),
                    Token("SPAN_CLOSE", 3, 4), Token("_END", 4, 4)])  # fmt: skip
    tags = "<questionnaire>{}</sage-questionnaire>"
    with pytest.raises(ReplykitBug, match="does not close"):
        read(tags, [Token("OPEN_TAG", 0, 15), Token("TAG_PAYLOAD", 15, 17),
                    Token("CLOSE_TAG", 17, 38), Token("_END", 38, 38)])  # fmt: skip
    fence = "````\n```"
    with pytest.raises(ReplykitBug, match="does not close the fence"):
        read(fence, [Token("CODE_FENCE_OPEN", 0, 5), Token("CODE_FENCE_CLOSE", 5, 8),
                     Token("_END", 8, 8)])  # fmt: skip


def test_the_grammar_has_no_conflict() -> None:
    from lark import Lark

    from replykit.questionnaire.scan.grammar import _TokenFeed, grammar_text

    for start in ("message", "document"):
        Lark(grammar_text(), parser="lalr", lexer=_TokenFeed, start=start, strict=True)


# ---- the checked reading is linear ------------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_checked_reading_is_linear(family: Family) -> None:
    small = max(family.n // 400 * 10, 20)
    work = []
    for n in (small, small * 10):
        text = family.build(n)
        work.append(Scanner(text, lexemes(), checked=True).run().scanned)
        assert segment(text, checked=True) == segment(text)
    assert work[1] / max(work[0], 1) <= LINEAR, (family.name, work)
