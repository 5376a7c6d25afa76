"""What ``segment()`` no longer repeats per call gives exactly what repeating it gave
(docs/performance.md, "Speed targets").

* The look-ahead seeded with the family word ``segment()``'s pre-check found answers
  every question as an unseeded one does, and counts the same characters scanned; so
  ``segment()`` reports the scanned characters a plain :class:`Scanner` run reports.
* ``is_blank`` and ``trim_blank`` answer at once for text with visible ASCII at its
  edges: the same answers as their regular expressions (§1).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inputs import CORPUS, VECTORS

from replykit.questionnaire.compat import Compat, resolve
from replykit.questionnaire.limits import DEFAULT_LIMITS
from replykit.questionnaire.profiles import CLIENT
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.lookahead import Lookahead, find_family_word
from replykit.questionnaire.scan.scanner import Scanner
from replykit.questionnaire.segmentation.segmenter import segment_counted
from replykit.testing import strategies as rs
from replykit.text import BLANK_CLASS, is_blank, trim_blank

WORDISH = st.text(alphabet="qQuUeEsStTiIoOnNaArR x\u0130\u212a\u017f\n&#", max_size=40)


@given(WORDISH, st.lists(st.integers(0, 40), max_size=3), st.lists(st.integers(0, 60)))
def test_a_seeded_lookahead_answers_as_an_unseeded_one(
    text: str, inserts: list[int], asked: list[int]
) -> None:
    for at in sorted(inserts, reverse=True):
        text = text[:at] + "qUeStionNAIRE" + text[at:]
    first = find_family_word(text, lexemes())
    if first == len(text):
        return  # segment() scans no message without the word
    pattern: re.Pattern[str] = lexemes().family_word_any_case
    seeded = Lookahead(text, lexemes(), Compat(), first)
    plain = Lookahead(text, lexemes(), Compat())
    for pos in [*asked, *range(len(text) + 1)]:
        pos = min(pos, len(text))
        m = pattern.search(text, pos)
        expected = len(text) if m is None else m.start()
        ref = text.find("&#", pos)  # a numeric reference may spell the word (§3a)
        expected = expected if ref < 0 else min(expected, ref)
        assert seeded.family_word_at_or_after(pos) == plain.family_word_at_or_after(pos)
        assert seeded.family_word_at_or_after(pos) == expected
        assert seeded.scanned == plain.scanned == 3 * len(text)


def _same_work(text: str, compat: str | None = None) -> None:
    mode = resolve(compat)
    scanned = segment_counted(text, "m", CLIENT, mode, DEFAULT_LIMITS)[1]
    if find_family_word(text, lexemes()) == len(text):
        assert scanned == 0
        return
    assert scanned == Scanner(text, lexemes(), compat=mode).run().scanned


GENERATORS = st.one_of(
    rs.messages(), rs.markdown(), rs.inert_messages(), rs.fenced_blocks(), rs.xml_blocks()
)


@settings(max_examples=150, deadline=None)
@given(GENERATORS, st.sampled_from([None, "sage"]))
def test_segment_counts_the_scanners_work_on_generated_messages(
    text: str, compat: str | None
) -> None:
    _same_work(text, compat)


@pytest.mark.parametrize("case", VECTORS, ids=[c["id"] for c in VECTORS])
def test_segment_counts_the_scanners_work_on_every_vector(case: dict[str, Any]) -> None:
    _same_work(case["input"])


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_segment_counts_the_scanners_work_on_every_corpus_file(path: Path) -> None:
    _same_work(path.read_text(encoding="utf-8"))


_VISIBLE = re.compile("[^" + BLANK_CLASS[1:])
_EDGES = re.compile(f"^{BLANK_CLASS}+|{BLANK_CLASS}+$")
EDGY = st.text(st.sampled_from(" \t\n\u00a0\u3000\u200b\ufeff\u00ad!~a\x7f\x20\x21\u00e9问"))


@given(st.one_of(EDGY, st.text()))
def test_blank_and_trim_are_their_expressions(text: str) -> None:
    assert is_blank(text) == (_VISIBLE.search(text) is None)
    assert trim_blank(text) == _EDGES.sub("", text)


class _Str(str):
    pass


def test_trim_blank_gives_a_plain_str_for_a_subclass() -> None:
    # As the regular expression does: a caller's str subclass never reaches a value.
    for text in ("abc", " abc "):
        trimmed = trim_blank(_Str(text))
        assert type(trimmed) is str and trimmed == "abc"
