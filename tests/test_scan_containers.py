"""Container matching is exact and linear: the shortcuts of a line's container work.

A line's open containers take its prefix in turns (CommonMark 5.1, 5.2), so
:meth:`Line.find_first` resumes inside the run of spaces and tabs it scanned before
instead of scanning it again, and a blank line continues ``ScanState.held`` containers
without visiting them. Both are compared here with what a scan from scratch and a
visit of every container give, on generated lines and messages (deep nesting, tabs,
blank and lazy lines); the containers opened are cmark's, and the fast mode's runs
read as every line alone does.
"""

from __future__ import annotations

import attrs
import cmarkgfm
from hypothesis import given
from hypothesis import strategies as st

from replykit import segment
from replykit.questionnaire.scan import runs
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.scanner import Scanner
from replykit.questionnaire.scan.state import Container, Line, ScanState
from replykit.testing.strategies import markdown, messages


def from_scratch(line: Line) -> tuple[int, int, bool, str]:
    """``first``, ``indent``, ``blank`` and ``char`` scanned from the cursor."""
    i, col = line.offset, line.column
    while i < line.content_end and line.text[i] in " \t":
        col += 4 - col % 4 if line.text[i] == "\t" else 1
        i += 1
    blank = i >= line.content_end
    return i, col - line.column, blank, "" if blank else line.text[i]


# Cursor moves: forward by columns or characters, to the first character, and back to
# a saved cursor (a list marker's padding is undone so, CommonMark 5.2).
MOVES = st.lists(
    st.tuples(
        st.sampled_from(["columns", "characters", "to_first", "save", "restore"]),
        st.integers(0, 6),
    ),
    max_size=12,
)


@given(st.text(" \t>-1.x", max_size=24), MOVES)
def test_find_first_resumed_equals_a_scan_from_scratch(body: str, moves: list) -> None:
    text = body + "\n"
    line = Line(text, 0, len(body), len(text))
    assert (line.first, line.indent, line.blank, line.char) == from_scratch(line)
    saved = (line.offset, line.column, line.partial)
    for kind, count in moves:
        if kind == "to_first":
            line.advance_to(max(line.first, line.offset))
        elif kind == "save":
            saved = (line.offset, line.column, line.partial)
        elif kind == "restore":
            line.offset, line.column, line.partial = saved
        else:
            line.advance(count, kind == "columns")
        line.find_first()
        assert (line.first, line.indent, line.blank, line.char) == from_scratch(line)


# Lines of nested containers: prefixes of quote markers, bullets, ordered markers,
# spaces and tabs, with text, code spans, tags and the family word; blank lines.
PREFIX = st.lists(st.sampled_from(["> ", "- ", "1. ", "* ", "  ", "\t", " ", ">"]), max_size=8)
BODY = st.sampled_from(["a", "`a` <b>x</b>", "questionnaire &amp;", "```", "x ```", "", "<div>"])
NESTED = st.lists(st.tuples(PREFIX, BODY), min_size=1, max_size=14).map(
    lambda lines: "".join("".join(p) + b + "\n" for p, b in lines)
)
TEXTS = st.one_of(NESTED, markdown(), messages())


def held(state: ScanState) -> int:
    """The outermost containers a blank line continues, visiting every one."""
    count = 0
    for c in state.containers:
        if c.kind != "item" or not c.has_child:
            break
        count += 1
    return count


@given(TEXTS, st.booleans(), st.booleans())
def test_held_is_the_containers_a_blank_line_continues(
    text: str, line_runs: bool, checked: bool
) -> None:
    # The scanner's own loop (Scanner.run), checking the state after every step.
    sc = Scanner(text, lexemes(), line_runs=line_runs, checked=checked)
    pos, st_ = 0, sc.state
    while pos < sc.n and not st_.halted:
        if sc.line_runs and pos:
            pos = runs.skip(sc, pos)
            assert st_.held == held(st_)
            if pos >= sc.n:
                break
        pos = sc.line(pos)
        assert st_.held == held(st_)
    assert sc.end() == Scanner(text, lexemes(), line_runs=line_runs, checked=checked).run()


@given(NESTED)
def test_nested_lines_read_alike_in_every_mode(text: str) -> None:
    alone = Scanner(text, lexemes(), line_runs=False).run()
    together = Scanner(text, lexemes()).run()
    assert (together.tokens, together.near_misses) == (alone.tokens, alone.near_misses)
    assert segment(text, checked=True) == segment(text)


def _opened(text: str) -> tuple[int, int]:
    """Block quotes and list items the checked reading opens (a marker token each)."""
    tokens = Scanner(text, lexemes(), checked=True).run().tokens
    kinds = [t.type for t in tokens]
    return kinds.count("QUOTE_MARKER"), kinds.count("LIST_MARKER")


@given(NESTED)
def test_nested_lines_open_the_containers_commonmark_opens(text: str) -> None:
    # The oracle: cmark's HTML (raw HTML omitted, code escaped, so the tags are its
    # blocks'); markdown-it-py reads a tab after a quote marker's space otherwise.
    html = cmarkgfm.markdown_to_html(text)
    assert _opened(text) == (html.count("<blockquote>"), html.count("<li>"))


def test_a_blank_line_ends_quotes_and_items_begun_blank() -> None:
    assert _opened("> a\n\n> b\n") == (2, 0)
    assert _opened("- a\n\n  b\n") == (0, 1)
    assert _opened("- a\n  > b\n\n  > c\n") == (2, 1)
    assert _opened("-\n\n  b\n") == (0, 1)


OPS = st.lists(
    st.tuples(
        st.integers(0, 2),  # which state of three (copies of one another)
        st.sampled_from(["item", "quote", "child", "truncate", "copy"]),
        st.integers(0, 4),
    ),
    max_size=40,
)


def _model(state: ScanState) -> list[tuple[str, int, bool]]:
    return [(c.kind, c.padding, c.has_child) for c in state.containers]


@given(OPS)
def test_copies_share_containers_but_never_see_each_others_changes(ops: list) -> None:
    # Each state's containers against a plain list model of them, after every change
    # to any of the copies.
    states = [ScanState()]
    models: list[list[tuple[str, int, bool]]] = [[]]
    for which, op, k in ops:
        state, model = states[which % len(states)], models[which % len(states)]
        if op == "copy":
            states.append(state.copy())
            models.append(list(model))
        elif op == "truncate":
            state.truncate(k)
            del model[k:]
        elif op == "child":
            state.mark_child()
            if model:
                model[-1] = (*model[-1][:2], True)
        else:
            state.push(Container(op, padding=k))
            if model:
                model[-1] = (*model[-1][:2], True)
            model.append((op, k, False))
        for s, m in zip(states, models, strict=True):
            assert _model(s) == m
            assert s.held == held(s)


@given(OPS)
def test_a_transient_copy_leaves_its_original_alone(ops: list) -> None:
    original = ScanState()
    for _, op, k in ops[: len(ops) // 2]:
        if op in ("item", "quote"):
            original.push(Container(op, padding=k))
    before = _model(original)
    ahead = original.copy(transient=True)
    for _, op, k in ops[len(ops) // 2 :]:
        if op == "truncate":
            ahead.truncate(k)
        elif op == "child":
            ahead.mark_child()
        elif op in ("item", "quote"):
            ahead.push(Container(op, padding=k))
    assert _model(original) == before and original.held == held(original)


@given(st.sampled_from(["item", "quote"]), st.integers(0, 4), st.integers(0, 4))
def test_mark_child_changes_has_child_only(kind: str, offset: int, padding: int) -> None:
    state = ScanState()
    state.push(Container(kind, offset, padding))
    before = state.containers[-1]
    state.mark_child()
    assert state.containers[-1] == attrs.evolve(before, has_child=True)
    assert state.containers[-1] is not before  # a shared container is never changed
