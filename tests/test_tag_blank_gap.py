"""A tag name followed by a blank character that is not HTML white space (U+00A0,
U+3000, U+200B, U+FEFF, VT, FF, U+0085, U+2028...): no tag for CommonMark, so no block,
but a model's ``<questionnaire >`` all the same, so it warns as a space does (§8
``near_miss.tag_attributes``, variant spaces; ``near_miss.case``; ``unknown_name``):
never a form lost without a word. The grammar's TAG_LIKE holds the §1 class."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import StreamSegmenter, segment
from replykit.questionnaire.scan.grammar import terminal_patterns
from replykit.text import is_blank

GAPS = ["\u00a0", "\u3000", "\u200b", "\ufeff", "\x0b", "\x0c", "\x85", "\u2028", "\U000e0020"]
FORM = '{"title":"T","questions":[{"type":"text","text":"Q"}]}'


def codes(text: str, **options: object) -> list[tuple[str, int, int]]:
    return [(d.code, d.start, d.end) for d in segment(text, **options).diagnostics]  # type: ignore[arg-type]


@pytest.mark.parametrize("gap", GAPS)
def test_a_blank_after_the_name_warns_as_a_space_does(gap: str) -> None:
    text = f"Intro <questionnaire{gap}>{FORM}</questionnaire>"
    spaced = f"Intro <questionnaire >{FORM}</questionnaire>"
    assert codes(text) == codes(spaced) == [("near_miss.tag_attributes", 6, 22)]
    (d,) = segment(text).diagnostics
    assert d.message == "'<questionnaire>' takes no spaces inside the brackets"
    assert [s.kind for s in segment(text).segments] == ["markdown"]
    for compat in (None, "sage"):  # not HTML white space: no attribute, no block
        assert [s.kind for s in segment(text, compat=compat).segments] == ["markdown"]


@pytest.mark.parametrize("gap", GAPS)
def test_case_and_unknown_names_are_judged_the_same(gap: str) -> None:
    assert [c for c, _, _ in codes(f"Intro <QUESTIONNAIRE{gap}>x")] == [
        "near_miss.case", "near_miss.tag_attributes", "near_miss.unclosed_tag",
    ]  # fmt: skip
    assert [c for c, _, _ in codes(f"Intro <my_questionnaire{gap}>x")] == ["near_miss.unknown_name"]


def test_the_grammar_class_is_the_blank_class_of_section_1() -> None:
    tag_like = re.compile(terminal_patterns()["TAG_LIKE"], re.IGNORECASE)
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        ch = chr(code)
        m = tag_like.fullmatch(f"<questionnaire{ch}x>")
        expected = ch == "/" or is_blank(ch)
        assert (m is not None) == expected, hex(code)


@given(
    st.sampled_from([*GAPS, " "]),
    st.sampled_from(["a", "", "\n\nmore text\n\n", " x\n\n- item\n\n"]),
    st.sampled_from([">", " end >", "", "\n\n> quote\n"]),
    st.integers(1, 9),
)
def test_streaming_a_tag_whose_attributes_may_still_grow(
    gap: str, middle: str, end: str, size: int
) -> None:
    text = f"Intro.\n\nText <questionnaire{gap}{middle}{end}\n\nDone.\n"
    seg = StreamSegmenter(message_id="m")
    for i in range(0, len(text), size):
        seg.push(text[i : i + size])
    assert seg.finish() == segment(text, message_id="m")


@pytest.mark.parametrize("compat", [None, "sage"])
def test_a_lt_inside_an_attribute_value_warns_and_opens_nothing(compat: str | None) -> None:
    text = f'Intro <questionnaire title="a<b">{FORM}</questionnaire>'
    result = segment(text, compat=compat)
    assert [s.kind for s in result.segments] == ["markdown"]
    assert [(d.code, d.start, d.end) for d in result.diagnostics] == [
        ("near_miss.tag_attributes", 6, 20)
    ]
    assert result.diagnostics[0].message == "'<questionnaire>' takes no attributes"
    assert segment(text, compat=compat, checked=True) == result
    # Prose that names the tag without an attribute is not judged.
    assert segment("Use <questionnaire tags; <b>x</b>", compat=compat).diagnostics == ()


@pytest.mark.parametrize("gap", [" ", "\n", "\r\n", " \n", "\n  ", "\u00a0", "\u3000"])
@pytest.mark.parametrize("name", ["questionnaire", "Questionnaire"])
def test_an_attribute_holding_a_lt_is_judged_after_any_blank(gap: str, name: str) -> None:
    text = f'Hi\n\n<{name}{gap}title="a<b">{FORM}</{name}>\n'
    expected = ["near_miss.tag_attributes"]
    if name != name.lower():
        expected.insert(0, "near_miss.case")
    assert [d.code for d in segment(text).diagnostics] == expected
    assert segment(text, checked=True) == segment(text)
    spaced = f'Hi\n\n<questionnaire title{gap}={gap}"a<b">{FORM}</questionnaire>\n'
    assert [d.code for d in segment(spaced).diagnostics] == ["near_miss.tag_attributes"]
