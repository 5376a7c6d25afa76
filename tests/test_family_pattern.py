"""The family-name pattern is spelled once, by the grammar (§3a, §6): every place that
needs it agrees with the grammar's FAMILY_NAME on generated names."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

import replykit
from replykit.questionnaire.compat import Compat
from replykit.questionnaire.conversation.responses import build_response
from replykit.questionnaire.conversation.schemas import response_schema
from replykit.questionnaire.model import Question, Questionnaire
from replykit.questionnaire.profiles import product
from replykit.questionnaire.scan.grammar import family_parts, family_pattern, lexemes
from replykit.questionnaire.scan.near_miss import is_family_word

FAMILY = re.compile(family_pattern())

# Names near the family: pieces of the base name, namespaces, separators, case.
_PIECES = st.sampled_from(
    ["questionnaire", "Questionnaire", "questionnair", "sage", "a1", "-", "_", " ", "Q", "é", "9"]
)
NAMES = st.one_of(
    st.from_regex(FAMILY, fullmatch=True),
    st.lists(_PIECES, max_size=4).map("".join),
    st.text(alphabet="aqQuestion-_0 ", max_size=20),
)
FORM = Questionnaire("T", (Question("q1", "free_text", "Q"),))


def test_the_pattern_is_the_grammars_terminal() -> None:
    assert lexemes().family_name.pattern == family_pattern()
    parts = family_parts()
    assert parts.name_pattern() == family_pattern()
    assert parts.base == "questionnaire" and FAMILY.fullmatch(parts.base)
    assert lexemes().family_word_any_case.pattern == parts.base


@given(NAMES)
def test_product_namespaces_follow_the_pattern(namespace: str) -> None:
    try:
        product(namespace)
        accepted = True
    except ValueError:
        accepted = False
    assert accepted == bool(FAMILY.fullmatch(f"{namespace}-questionnaire"))


@given(NAMES)
def test_response_names_follow_the_pattern(name: str) -> None:
    try:
        build_response(FORM, {"q1": "x"}, name=name, questionnaire_id="m_q1")
        accepted = True
    except ValueError:
        accepted = False
    assert accepted == bool(FAMILY.fullmatch(name))


@given(NAMES)
def test_the_response_type_schema_follows_the_pattern(name: str) -> None:
    pattern = response_schema()["properties"]["type"]["pattern"]
    value = name + "_response"
    expected = "-" not in value and bool(FAMILY.fullmatch(name.replace("_", "-")))
    assert bool(re.search(pattern, value)) == expected


@given(NAMES)
def test_near_miss_words_are_family_names_in_any_case(word: str) -> None:
    ascii_lower = word.translate({c: c + 32 for c in range(65, 91)})
    assert is_family_word(word, lexemes()) == bool(FAMILY.fullmatch(ascii_lower))


@given(NAMES)
def test_entity_decoding_looks_for_a_family_tag(name: str) -> None:
    # The name in the case the active switches accept: exact alone, any ASCII case
    # with case_insensitive (docs/protocol.md §9).
    # A whole tag name: a family name, or one with "-response" (&lt;questionnaire_id&gt;
    # names no tag).
    text = f"Intro &lt;{name}&gt;{{}}&lt;/{name}&gt;"
    seg = replykit.segment(text, compat=Compat(decode_entities=True))
    assert (seg.decoded is not None) == _tag_name(name)
    seg = replykit.segment(text, compat=Compat(decode_entities=True, case_insensitive=True))
    lowered = name.translate({c: c + 32 for c in range(65, 91)})
    assert (seg.decoded is not None) == _tag_name(lowered)


def _tag_name(name: str) -> bool:
    """Whether ``name`` starts with a whole tag name: its run of name characters is a
    family name, ``-response`` allowed (what follows, a space say, is the tag's rest)."""
    run = re.match(r"[A-Za-z0-9_.:-]*", name)
    assert run is not None
    return bool(FAMILY.fullmatch(run.group().removesuffix("-response")))


@given(st.from_regex(FAMILY, fullmatch=True))
def test_every_family_name_passes_the_segmenters_quick_test(name: str) -> None:
    seg = replykit.segment(f"Intro <{name}>{{}}</{name}>")
    assert [s.name for s in seg.segments if s.kind != "markdown"] == [name]
