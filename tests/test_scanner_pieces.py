"""The scanner's pieces (docs/architecture.md): the block-start table, the line record,
the explicit state and the silent read-ahead, and patterns compiled from the grammar."""

from __future__ import annotations

import attrs
import pytest

from replykit.questionnaire.scan import blockstarts
from replykit.questionnaire.scan.grammar import lexemes, terminal_patterns
from replykit.questionnaire.scan.scanner import Scanner
from replykit.questionnaire.scan.state import Container, Leaf, Line, ScanState


def test_block_starts_are_tried_in_commonmarks_order() -> None:
    names = [rule.name for rule in blockstarts.BLOCK_STARTS]
    assert names == [
        "indented_code", "block_quote", "atx_heading", "fenced_code", "html_block",
        "setext_underline", "thematic_break", "list_item",
    ]  # fmt: skip
    interrupts = {rule.name: rule.interrupts for rule in blockstarts.BLOCK_STARTS}
    assert interrupts == {
        "indented_code": "no", "block_quote": "yes", "atx_heading": "yes",
        "fenced_code": "yes", "html_block": "restricted", "setext_underline": "only",
        "thematic_break": "yes", "list_item": "restricted",
    }  # fmt: skip


@pytest.mark.parametrize("ch", sorted(set(">#`~<=-*_+0123456789")))
def test_a_line_starting_with_a_trigger_is_never_plain(ch: str) -> None:
    # The fast mode's plain-line shortcut is derived from the table's triggers.
    assert blockstarts.PLAIN_LINE.match(ch + "x") is None
    assert blockstarts.PLAIN_LINE.match("   " + ch + "x") is None
    assert blockstarts.PLAIN_LINE.match("a" + ch) is not None
    assert blockstarts.PLAIN_LINE.match("    a") is None  # indented code


def test_line_columns_follow_tab_stops() -> None:
    line = Line(" \tx", 0, 3, 3)
    assert (line.first, line.indent, line.blank, line.char) == (2, 4, False, "x")
    line.advance(2, True)  # two columns: the space and part of the tab
    assert (line.offset, line.column, line.partial) == (1, 2, True)
    line.find_first()
    assert (line.first, line.indent) == (2, 2)
    blank = Line("\ufeff  \n", 0, 3, 4)  # a leading BOM is not read (§1)
    assert (blank.offset, blank.blank, blank.char) == (1, True, "")


def test_state_copies_are_independent() -> None:
    state = ScanState([Container("item", 0, 2)], Leaf("paragraph", 3, end=9))
    copy = state.copy()
    copy.push(Container("quote"))  # the item now holds a block
    assert copy.leaf is not None
    copy.leaf.end = 20
    assert (state.containers, state.leaf, state.held) == (
        [Container("item", 0, 2)],
        Leaf("paragraph", 3, end=9),
        0,
    )
    assert copy.containers == [Container("item", 0, 2, has_child=True), Container("quote")]
    state.truncate(0)
    assert len(copy.containers) == 2


def test_a_silent_reading_emits_nothing() -> None:
    text = "Intro\n\n```Questionnaire\nx\n```\n<questionnaire>{}</questionnaire>\n"
    loud = Scanner(text, lexemes()).run()
    assert any(t.type == "OPEN_TAG" for t in loud.tokens) and loud.near_misses
    quiet = Scanner(text, lexemes(), silent=True).run()
    assert (quiet.tokens, quiet.near_misses) == ((), ())


def test_the_read_ahead_runs_on_a_copy() -> None:
    # A paragraph with a backtick before a tag: the raw end of the paragraph decides
    # whether the backtick opens a span over the tag (§3b).
    text = "a `b <questionnaire>{}</questionnaire>\nc` d\n\nnext\n"
    sc = Scanner(text, lexemes())
    sc.line(0)
    before = attrs.evolve(sc.state)
    assert sc.state.leaf is not None
    leaf = sc.state.leaf
    assert sc.raw_end(leaf, text.index("c")) == text.index(" d") + 2
    assert sc.state.containers == before.containers and sc.state.leaf is leaf
    assert sc.read_ahead().state is not sc.state


def test_every_pattern_the_scanner_applies_is_a_terminal() -> None:
    terms = terminal_patterns()
    fields = attrs.fields(type(lexemes()))
    # Each field compiles the terminal of the same name in upper case (two compile one
    # terminal in any case; the HTML block conditions are numbered).
    for field in fields:
        name = field.name.upper().removesuffix("_ANY_CASE")
        if name in ("HTML_STARTS", "HTML_ENDS"):
            prefix = name[:-1] + "_"
            assert sum(t.startswith(prefix) for t in terms) == (7 if "START" in name else 5)
        else:
            assert name in terms, name
    assert terms["FAMILY_NAME"] == "(?:[a-z0-9]+-)?questionnaire"
