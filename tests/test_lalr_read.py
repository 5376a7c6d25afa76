"""Rule ``message`` read by its LALR table against Lark's own parse (§2, §10).

:func:`~replykit.questionnaire.scan.grammar.parse` runs the table Lark builds from the
grammar with a lean loop (:mod:`replykit.questionnaire.scan.lalr`); it must give
exactly what ``Lark.parse`` with the ``Parts`` transformer gives for the fast mode's
tokens, over every message generator and conformance vector, and reject what Lark
rejects.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit.questionnaire.compat import resolve
from replykit.questionnaire.scan.emit import ReplykitBug, Token
from replykit.questionnaire.scan.grammar import lexemes, parse, parser
from replykit.questionnaire.scan.lalr import PLAN_CACHE_KINDS, splice
from replykit.questionnaire.scan.parts import FencedPart, MarkdownRun, Part, XmlPart
from replykit.questionnaire.scan.scanner import Scanner
from replykit.testing import strategies as rs

VECTORS = json.loads((Path(__file__).parent / "vectors" / "segment.json").read_text("utf-8"))
CASES: list[dict[str, Any]] = VECTORS["cases"]

GENERATORS = st.one_of(
    rs.messages(), rs.markdown(), rs.prose(), rs.inert_messages(), rs.fenced_blocks(),
    rs.xml_blocks(), rs.hostile_payloads(),
    st.lists(st.one_of(rs.fenced_blocks(), rs.xml_blocks(), rs.prose()), max_size=5).map(
        "\n\n".join
    ),
)  # fmt: skip


def parts_of(text: str, tokens: Sequence[Token]) -> list[Part]:
    """The table run, as segment() and the streaming readings call it."""
    return parse(text, tokens)


def lark(text: str, tokens: Sequence[Token]) -> Any:
    """The grammar's LALR parser alone."""
    return parser("message").parse((text, tokens, None))


def _same(text: str, compat: str | None = None) -> None:
    tokens = Scanner(text, lexemes(), compat=resolve(compat)).run().tokens
    assert parts_of(text, tokens) == lark(text, tokens)


@settings(max_examples=150)
@given(text=GENERATORS, compat=st.sampled_from([None, "sage"]))
def test_parts_of_equals_the_parser_on_generated_messages(text: str, compat: str | None) -> None:
    _same(text, compat)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_parts_of_equals_the_parser_on_every_vector(case: dict[str, Any]) -> None:
    _same(case["input"])


def test_parts_of_reads_each_shape() -> None:
    text = (
        "Hi `x`\n```questionnaire\nq: 1\n```\n\nok\n"
        "<questionnaire>{}</questionnaire>\n\n```questionnaire\n"
    )
    tokens = Scanner(text, lexemes()).run().tokens
    parts = parts_of(text, tokens)
    assert parts == lark(text, tokens)
    assert [type(p) for p in parts] == [MarkdownRun, FencedPart, MarkdownRun, XmlPart,
                                        MarkdownRun, FencedPart]  # fmt: skip
    assert parts[1] == FencedPart((7, 24), (24, 29), (29, 33))
    assert parts[3] == XmlPart((37, 52), (54, 70))
    assert parts[4] == MarkdownRun(70, 72, False)  # blank lines only
    assert parts[5] == FencedPart((72, 89), (89, 89), None)


def test_parts_of_rejects_what_the_parser_rejects() -> None:
    # An opening tag without its closing tag is no sentence of rule ``message``: the
    # table has no action there, as Lark's parse has none.
    text = "<questionnaire>{}"
    tokens = (Token("OPEN_TAG", 0, 15), Token("TAG_PAYLOAD", 15, 17))
    with pytest.raises(ReplykitBug, match="does not expect \\$END at the end"):
        parts_of(text, tokens)
    with pytest.raises(Exception, match="END"):
        lark(text, tokens)
    stray = (Token("FENCE_CLOSER", 0, 3),)
    with pytest.raises(ReplykitBug, match="does not expect FENCE_CLOSER at offset 0"):
        parts_of("```", stray)
    assert parts_of("", ()) == lark("", ()) == []


def test_one_plan_serves_every_message_with_the_same_token_kinds() -> None:
    # The table's steps depend only on the kinds: messages with the same sequence of
    # kinds at other offsets (read first or later, in either order) get their own parts.
    texts = [
        "Hi\n\n```questionnaire\nq: 1\n```\n",
        "A longer line of prose first.\n\n```questionnaire\ntitle: T\nq: 2\n```\n",
        "`x`\n```questionnaire\n```\n",
    ]
    scans = [Scanner(t, lexemes()).run().tokens for t in texts]
    kinds = {tuple(tok.type for tok in tokens) for tokens in scans[:2]}
    assert len(kinds) == 1
    pairs = list(zip(texts, scans, strict=True))
    for text, tokens in [*pairs, *reversed(pairs)]:
        assert parts_of(text, tokens) == lark(text, tokens)
    first, second = (parts_of(t, tokens) for t, tokens in zip(texts[:2], scans[:2], strict=True))
    assert first != second
    assert second[1] == FencedPart((31, 48), (48, 62), (62, 66))


def test_splice_extends_a_first_inlined_list_in_place() -> None:
    # ``x+`` reduces once per item with the items so far as its first child: extending
    # that list in place keeps a message of n tokens at n steps, not n^2 (§1).
    so_far = [0, 1, 2]
    flat = splice([so_far, 3, [4, 5]])
    assert flat is so_far
    assert flat == [0, 1, 2, 3, 4, 5]
    token_first = splice([7, [8, 9], 10])
    assert token_first == [7, 8, 9, 10]
    assert splice([]) == []


@pytest.mark.parametrize(
    "unit",
    ["`a` ", "```\nx\n```\n", "<!-- a -->\n", "```Questionnaire\n```\n"],
)
def test_long_runs_of_tokens_before_visible_text_read_as_the_parser_reads(unit: str) -> None:
    # Hundreds of tokens in one Markdown run (more than the plan cache keeps), then a
    # form: the reading is Lark's, and the run is one part.
    form = '<questionnaire>{"questions":[{"type":"text","text":"Q"}]}</questionnaire>\n'
    text = unit * 300 + form
    tokens = Scanner(text, lexemes()).run().tokens
    assert len(tokens) > PLAN_CACHE_KINDS
    parts = parts_of(text, tokens)
    assert parts == lark(text, tokens)
    assert isinstance(parts[0], MarkdownRun) and parts[0].start == 0


def test_a_line_head_is_judged_in_the_message_not_in_its_token() -> None:
    # "- --" alone is a thematic break; followed by a comment on its line it is a list
    # item whose "--" shows (CI's property run found the grammar's transformer judging
    # the token alone).
    text = "- --<!---->\r\n<questionnaire>{}</questionnaire>\r\n\r\nIntro\r\n"
    _same(text)
    tokens = Scanner(text, lexemes()).run().tokens
    assert parts_of(text, tokens)[0] == MarkdownRun(0, 13, True)


@settings(max_examples=150)
@given(text=GENERATORS, compat=st.sampled_from([None, "sage"]))
def test_seen_visible_marks_every_markdown_run_visible_and_changes_nothing_else(
    text: str, compat: str | None
) -> None:
    # A streaming reading after visible prose: the preface rule's answer is already yes.
    tokens = Scanner(text, lexemes(), compat=resolve(compat)).run().tokens
    read = parse(text, tokens)
    seen = parse(text, tokens, seen_visible=True)
    expected = [
        MarkdownRun(p.start, p.end, True) if isinstance(p, MarkdownRun) else p for p in read
    ]
    assert seen == expected
    assert [type(p) for p in seen] == [type(p) for p in lark(text, tokens)]


def test_seen_visible_skips_the_reading_of_an_invisible_run() -> None:
    text = "<!-- note -->\n\n```questionnaire\ntitle: T\nquestions: []\n```\n"
    tokens = Scanner(text, lexemes()).run().tokens
    alone = parse(text, tokens)
    assert isinstance(alone[0], MarkdownRun) and alone[0].visible is False
    first = parse(text, tokens, seen_visible=True)[0]
    assert first == MarkdownRun(alone[0].start, alone[0].end, True)
