"""§9 ``case_insensitive`` (docs/protocol.md): names match in any ASCII case for a
fence's info string as for tags, reported lower case, in every reading; without the
switch such a fence stays a near-miss (``near_miss.case``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import segment
from replykit.questionnaire.compat import Compat
from replykit.testing.strategies.names import name_case_messages
from replykit.testing.streaming import check_stream, cut

FORM = "title: T\nquestions:\n  - type: free_text\n    text: x\n    default: ''\n"
ONLY_CASE = Compat(case_insensitive=True)


@pytest.mark.parametrize(
    ("info", "name"),
    [
        ("Questionnaire", "questionnaire"),
        ("QUESTIONNAIRE", "questionnaire"),
        ("Sage-Questionnaire", "sage-questionnaire"),
        ("Questionnair&#x65;", "questionnaire"),
        ("SAGE-questionnaire\u00a0", "sage-questionnaire"),
    ],
)
@pytest.mark.parametrize("compat", ["sage", ONLY_CASE])
def test_a_fence_name_in_any_case_is_a_candidate(
    info: str, name: str, compat: str | Compat
) -> None:
    text = f"Intro\n```{info}\n{FORM}```\n"
    result = segment(text, compat=compat)
    assert [(s.kind, s.name, s.valid) for s in result.segments] == [
        ("markdown", None, False),
        ("questionnaire", name, True),
    ]
    assert result.diagnostics == ()
    assert segment(text, compat=compat, checked=True) == result
    assert check_stream(list(text), compat=compat) == []


def test_without_the_switch_the_fence_is_a_near_miss() -> None:
    text = f"Intro\n```Questionnaire\n{FORM}```\n"
    assert [d.code for d in segment(text).diagnostics] == ["near_miss.case"]
    assert [d.code for d in segment(text, compat=Compat(decode_entities=True)).diagnostics] == [
        "near_miss.case"
    ]


def test_only_ascii_case_folds() -> None:
    # U+212A KELVIN SIGN lower-cases to "k" in Python, but is no ASCII letter.
    text = f"Intro\n```\u212a-questionnaire\n{FORM}```\n"
    assert [s.kind for s in segment(text, compat="sage").segments] == ["markdown"]


@settings(max_examples=150)
@given(text=name_case_messages(), cuts=st.lists(st.integers(0, 3_000), max_size=10))
def test_case_variants_read_alike_in_every_encoding_under_sage(text: str, cuts: list[int]) -> None:
    result = segment(text, compat="sage")
    assert all(d.code != "near_miss.case" for d in result.diagnostics)
    blocks = [s for s in result.segments if s.kind != "markdown"]
    assert blocks and all(s.name == s.name.lower() for s in blocks)
    assert segment(text, compat="sage", checked=True) == result
    assert check_stream(cut(text, [c % (len(text) + 1) for c in cuts]), compat="sage") == []
