"""The direct reading of rule ``message`` against the parser (§2, §10).

:func:`~replykit.questionnaire.segmentation.stream_parts.parts_of` must give exactly
what the grammar's LALR parser gives for the fast mode's tokens: over every message
generator, every conformance vector and resumed readings of them, and for token
sequences it does not read itself (it hands those to the parser).
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
from replykit.questionnaire.scan.emit import Token
from replykit.questionnaire.scan.grammar import lexemes, parse, parser
from replykit.questionnaire.scan.parts import (
    FencedPart,
    MarkdownRun,
    Part,
    XmlPart,
    direct_parts,
)
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
    """The direct reading, or the parser for what it leaves."""
    return parse(text, tokens)


def lark(text: str, tokens: Sequence[Token]) -> Any:
    """The grammar's LALR parser alone."""
    return parser("message").parse((text, tokens, None))


def _same(text: str, compat: str | None = None) -> None:
    tokens = Scanner(text, lexemes(), compat=resolve(compat)).run().tokens
    assert direct_parts(text, tokens) in (None, lark(text, tokens))
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
    assert direct_parts(text, tokens) == parts == lark(text, tokens)
    assert [type(p) for p in parts] == [MarkdownRun, FencedPart, MarkdownRun, XmlPart,
                                        MarkdownRun, FencedPart]  # fmt: skip
    assert parts[1] == FencedPart((7, 24), (24, 29), (29, 33))
    assert parts[3] == XmlPart((37, 52), (54, 70))
    assert parts[4] == MarkdownRun(70, 72, False)  # blank lines only
    assert parts[5] == FencedPart((72, 89), (89, 89), None)


def test_parts_of_hands_other_sequences_to_the_parser() -> None:
    # An opening tag without its closing tag is no sentence of rule ``message``: the
    # parser's own error, not a guess.
    text = "<questionnaire>{}"
    tokens = (Token("OPEN_TAG", 0, 15), Token("TAG_PAYLOAD", 15, 17))
    with pytest.raises(Exception) as direct:
        parts_of(text, tokens)
    with pytest.raises(Exception) as parsed:
        lark(text, tokens)
    assert type(direct.value) is type(parsed.value)
    assert direct_parts(text, tokens) is None
    assert parts_of("", ()) == lark("", ()) == []
