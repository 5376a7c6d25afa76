"""The diagnostics cap of docs/protocol.md §2.1, checked against the rule applied by hand
to the whole list (the message read with a cap no message reaches):

- kept: the always-kept diagnostics (each block's first error in its own order, every
  near-miss and ``name.unregistered``) and then the others in the message's order
  (offset, ties in the order of §2), across and within blocks, while slots remain, one
  slot left for the summary;
- the ``limit.diagnostics`` summary at the first diagnostic left out (its offsets,
  line and column), counting every one left out, in the message's list before the
  first kept diagnostic after it, and in the block that diagnostic belongs to, where
  it stood in that block's order (a zero-width one at a block's end included);
- the message's list is the union of the blocks' lists and the near-misses;
- ``StreamSegmenter.finish()`` gives the same, over any chunking.

The readers keep only about ``max_diagnostics`` findings each in memory (§2.1): this
shows that what they keep is what the rule needs.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from replykit import Diagnostic, Limits, Segmentation, StreamSegmenter, segment
from replykit.codes.segment import ALWAYS_SHOWN
from replykit.testing import strategies as rs

UNCAPPED = Limits(max_diagnostics=1_000_000)
VECTORS = json.loads((Path(__file__).parent / "vectors" / "segment.json").read_text("utf-8"))
CORPUS = sorted((Path(__file__).parent / "corpus").rglob("*.md"))


def _expected(
    whole: Segmentation, limit: int
) -> tuple[list[Diagnostic], Diagnostic | None, list[Any]]:
    """The rule of §2.1 applied by hand to every diagnostic of ``whole`` (a message
    read uncapped): the kept ones in the message's order, the first one left out
    (``None`` when none), and per block its kept diagnostics with ``"summary"`` where
    the summary stands."""
    every = list(whole.diagnostics)
    blocks = [s for s in whole.segments if s.kind != "markdown"]
    owner = {id(d): (b, i) for b, s in enumerate(blocks) for i, d in enumerate(s.diagnostics)}
    if len(every) <= limit:
        return every, None, [list(s.diagnostics) for s in blocks]
    protected = {
        id(next(d for d in s.diagnostics if d.severity == "error"))
        for s in blocks
        if any(d.severity == "error" for d in s.diagnostics)
    }
    protected |= {id(d) for d in every if d.code in ALWAYS_SHOWN}
    room = max(0, limit - 1 - len(protected))
    kept: list[Diagnostic] = []
    for d in every:  # the message's order
        if id(d) in protected or room > 0:
            room -= 0 if id(d) in protected else 1
            kept.append(d)
    keep = {id(d) for d in kept}
    first = next((d for d in every if id(d) not in keep), None)
    if first is None:  # the always-kept ones alone, nothing else
        return kept, None, [list(s.diagnostics) for s in blocks]
    by_block: list[Any] = []
    for b, s in enumerate(blocks):
        own: list[Any] = []
        for i, d in enumerate(s.diagnostics):
            if owner.get(id(first)) == (b, i):
                own.append("summary")
            if id(d) in keep:
                own.append(d)
        by_block.append(own)
    return kept, first, by_block


def check_cap(text: str, limit: int, result: Segmentation) -> None:
    """``result`` (``text`` read with ``max_diagnostics=limit``) is the rule of §2.1."""
    whole = segment(text, limits=UNCAPPED)
    kept, first, by_block = _expected(whole, limit)
    got = list(result.diagnostics)
    summaries = [d for d in got if d.code == "limit.diagnostics"]
    assert [d for d in got if d.code != "limit.diagnostics"] == kept
    blocks = [s for s in result.segments if s.kind != "markdown"]
    if first is None:
        assert summaries == []
        assert [list(s.diagnostics) for s in blocks] == by_block
        return
    [summary] = summaries
    assert (summary.start, summary.end, summary.line, summary.column, summary.path) == (
        first.start, first.end, first.line, first.column, None,
    )  # fmt: skip
    # Before the first kept diagnostic that comes after the first one left out.
    rank = {id(d): i for i, d in enumerate(whole.diagnostics)}
    assert got.index(summary) == sum(1 for d in kept if rank[id(d)] < rank[id(first)])
    left = Counter((d.code, d.severity) for d in whole.diagnostics)
    left -= Counter((d.code, d.severity) for d in kept)
    assert {(c.code, c.severity): c.count for c in summary.left_out} == dict(left)
    assert [["summary" if d is summary else d for d in s.diagnostics] for s in blocks] == by_block
    # The message's list is the union of the blocks' lists and the near-misses.
    near = [d for d in got if d.code in ALWAYS_SHOWN and d.code != "name.unregistered"]
    union = Counter(id(d) for s in blocks for d in s.diagnostics) + Counter(id(d) for d in near)
    assert union == Counter(id(d) for d in got)


def _surrogates(n: int) -> str:
    fields = ",".join(f'"k{i}":"\\ud8{i % 10}0"' for i in range(n))
    return "Intro <questionnaire>{" + fields + "}</questionnaire>"


def _unknown_fields(n: int, closed: bool) -> str:
    fields = "".join(f"x{i}: [1, 2\n" if i % 3 == 0 else f"x{i}: {i}\n" for i in range(n))
    return "Intro\n\n```questionnaire\n" + fields + ("```\n" if closed else "")


@st.composite
def dense_messages(draw: st.DrawFn) -> str:
    """Messages with many diagnostics: generated messages, XML+JSON blocks whose reader
    reports out of offset order (lone surrogates, then the whole payload's finding),
    fenced blocks with many problems, closed or not (a zero-width finding at the
    block's end), near-misses between them."""
    pieces = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 4))
        if kind == 0:
            pieces.append(draw(rs.messages()))
        elif kind == 1:
            pieces.append(_surrogates(draw(st.integers(1, 6))))
        elif kind == 2:
            pieces.append(_unknown_fields(draw(st.integers(0, 8)), draw(st.booleans())))
        elif kind == 3:
            pieces.append(draw(rs.hostile_payloads()))
        else:
            pieces.append("```Questionnaire\ntitle: T\n```\n")
    return "\n\n".join(pieces)


@settings(max_examples=300, deadline=None)
@given(dense_messages(), st.integers(1, 8), st.data())
@example("Intro\n\n```questionnaire", 1, None)
@example("Intro\n\n```questionnaire\ntitle: [1, 2", 1, None)
@example(_surrogates(3), 3, None)
@example(_surrogates(3), 1, None)
@example('Intro <questionnaire>{"questions":[1,2]}</questionnaire>', 1, None)
def test_the_cap_keeps_in_offset_order_and_places_the_summary(
    text: str, limit: int, data: Any
) -> None:
    result = segment(text, limits=Limits(max_diagnostics=limit))
    check_cap(text, limit, result)
    assert result.to_json() == json.loads(result.to_json_text())
    stream = StreamSegmenter(limits=Limits(max_diagnostics=limit))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=4))) if data else []
    at = 0
    for cut in [*cuts, len(text)]:
        stream.push(text[at:cut])
        at = cut
    assert stream.finish() == result


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_the_cap_on_the_vectors_and_corpus(limit: int) -> None:
    texts = [c["input"] for c in VECTORS["cases"]]
    texts += [p.read_text("utf-8") for p in CORPUS]
    for text in texts:
        check_cap(text, limit, segment(text, limits=Limits(max_diagnostics=limit)))


def test_the_reported_cases() -> None:
    unclosed = segment("Intro\n\n```questionnaire", limits=Limits(max_diagnostics=1))
    codes = [(d.code, d.start, d.end) for d in unclosed.segments[1].diagnostics]
    assert codes == [("fence.unclosed", 7, 23), ("limit.diagnostics", 23, 23)]
    reported = (
        'Intro <questionnaire>{"title":"\\ud800","x":"\\ud801","y":"\\ud802"}</questionnaire>'
    )
    xml = segment(reported, limits=Limits(max_diagnostics=3))
    assert [(d.code, d.start) for d in xml.diagnostics] == [
        ("questionnaire.start.questions_must_be_list", 21),
        ("json.lone_surrogate", 31),
        ("limit.diagnostics", 44),
    ]
    one = segment(reported, limits=Limits(max_diagnostics=1))
    assert [(d.code, d.start) for d in one.diagnostics] == [
        ("limit.diagnostics", 21),
        ("json.lone_surrogate", 31),
    ]
    # In the block's own order the summary stands where the first left out stood.
    assert [d.code for d in one.segments[1].diagnostics] == [
        "json.lone_surrogate",
        "limit.diagnostics",
    ]
