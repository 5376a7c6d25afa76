"""Deep block nesting stays linear: a line's container work is linear in the line (§1).

Each family nests list items, block quotes or both one level a line (spaces, tabs,
fenced code in the items, blank and lazy lines in deep items), so that every line
continues every open container. Work is counted, never timed, at about 4000 and 40000
characters: the scanner's ``scanned`` (which counts the characters its container
matching visits and the containers it visits) in each mode, and the Python lines
``segment()`` executes (``sys.settrace``), a count that sees any loop. Counted work per
input character must stay within a constant as the input grows.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from replykit import segment
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.scanner import Scanner
from replykit.testing.hostile import BY_NAME, Family
from replykit.testing.streaming import stream_chunks

NESTED = [
    BY_NAME[name]
    for name in (
        "nested_bullet_items",
        "nested_ordered_items",
        "nested_quote_lines",
        "nested_quotes_and_items",
        "nested_items_in_tabs",
        "nested_items_with_fences",
        "lazy_lines_in_deep_items",
        "blank_lines_in_deep_items",
    )
]
SIZES = (4_000, 40_000)
# Work per character may grow this much from the small input to the large one (the
# indentation's share, dearer than the text's, grows with the depth: tabs most, 1.7x);
# work super-linear in the depth grows with it (3x to 10x on these families).
GROWTH = 2.0
# Scanned units per input character, in every mode (tab-indented items in the checked
# mode come nearest, about 8).
PER_CHAR = 12

MODES: dict[str, dict[str, bool]] = {
    "runs": {},
    "lines_alone": {"line_runs": False},
    "checked": {"checked": True},
}


def executed_lines(fn: Callable[[], Any]) -> int:
    """Python lines executed while ``fn`` runs."""
    count = 0

    def local(_frame: Any, event: str, _arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    sys.settrace(lambda _frame, _event, _arg: local)
    try:
        fn()
    finally:
        sys.settrace(None)
    return count


def per_char(family: Family, work: Callable[[str], int]) -> list[float]:
    out = []
    for n in SIZES:
        text = family.build(n)
        segment(text)  # what is built once (the grammar, the patterns) is not counted
        out.append(work(text) / len(text))
    return out


@pytest.mark.parametrize("family", NESTED, ids=lambda f: f.name)
def test_nested_family_ends_with_a_valid_form(family: Family) -> None:
    text = family.build(SIZES[0])
    result = segment(text)
    blocks = [s for s in result.segments if s.kind != "markdown"]
    assert [(s.kind, s.valid, s.encoding) for s in blocks] == [
        ("questionnaire", True, "fenced_yaml")
    ]
    assert segment(text, checked=True) == result


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("family", NESTED, ids=lambda f: f.name)
def test_scanned_work_per_character_is_bounded(family: Family, mode: str) -> None:
    small, large = per_char(family, lambda t: Scanner(t, lexemes(), **MODES[mode]).run().scanned)
    assert large <= PER_CHAR and large <= GROWTH * small, (family.name, mode, small, large)


@pytest.mark.parametrize("family", NESTED, ids=lambda f: f.name)
def test_executed_lines_per_character_stay_flat(family: Family) -> None:
    small, large = per_char(family, lambda t: executed_lines(lambda: segment(t)))
    assert large <= GROWTH * small, (family.name, small, large)


def streamed(text: str) -> int:
    """Scanned units of a stream of ``text`` in chunks of 64 code points."""
    return stream_chunks([text[i : i + 64] for i in range(0, len(text), 64)]).scanned


@pytest.mark.parametrize("family", NESTED, ids=lambda f: f.name)
def test_streamed_work_per_character_stays_flat(family: Family) -> None:
    # Checkpoints copy the scanner's state (a copy shares the containers until one side
    # changes them): counted in scanned units and in executed lines.
    small, large = per_char(family, streamed)
    assert large <= GROWTH * small, (family.name, small, large)
    small, large = per_char(family, lambda t: executed_lines(lambda: streamed(t)))
    assert large <= GROWTH * small, (family.name, small, large)


@pytest.mark.parametrize("family", NESTED, ids=lambda f: f.name)
def test_checked_mode_reads_nesting_deeper_than_the_recursion_limit(family: Family) -> None:
    # The checked reading's tree is as deep as the nesting: it is read without
    # recursion, so no depth raises (§1), and the answer is the fast reading's.
    # (200 000 characters: 300 to 600 levels, beyond the recursive transformer's reach)
    text = family.build(200_000)
    assert segment(text, checked=True) == segment(text)
