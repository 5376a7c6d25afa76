"""Names that hold the family word without the family's shape (docs/protocol.md §3a,
§8.1 ``near_miss.unknown_name``).

Seed 000: 未知的 foo-questionnaire、questionnaire-response-extra 不属于注册协议. The
first is a candidate of an unregistered name (``name.unregistered``); the second, and
every name like it in either encoding, gets one warning with its name in the message,
fails Self-check and is never passed over silently. Inside code it is an example.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import segment, self_check
from replykit.questionnaire.profiles import profile_from_string
from replykit.testing import strategies as rs
from replykit.testing.strategies.names import (
    UNKNOWN_FENCE_NAMES,
    UNKNOWN_NAMES,
    unknown_name_messages,
)
from replykit.testing.streaming import check_stream, cut

PAYLOAD = '{"title":"T","questions":[{"type":"free_text","text":"x","default":""}]}'


def _fails_self_check(text: str) -> bool:
    conversation = [{"role": "user", "content": "q"}, {"role": "assistant", "content": text}]
    return not self_check(conversation).passed


@pytest.mark.parametrize("name", UNKNOWN_NAMES)
@pytest.mark.parametrize("profile", rs.PROFILES)
def test_a_tag_with_an_unknown_name_warns(name: str, profile: str) -> None:
    text = f"Intro <{name}>{PAYLOAD}</{name}>\n"
    result = segment(text, profile=profile_from_string(profile))
    assert [s.kind for s in result.segments] == ["markdown"]
    (d,) = result.diagnostics
    assert (d.code, d.severity, d.start, d.end, d.line, d.column) == (
        "near_miss.unknown_name",
        "warning",
        6,
        7 + len(name),
        1,
        7,
    )
    assert d.variant == "tag"
    assert f"'{name}'" in d.message
    assert segment(text, checked=True).diagnostics == result.diagnostics
    assert _fails_self_check(text)


@pytest.mark.parametrize("name", UNKNOWN_NAMES + UNKNOWN_FENCE_NAMES)
def test_a_fence_with_an_unknown_name_warns(name: str) -> None:
    text = f"Intro\n\n```{name}\ntitle: T\n```\n"
    result = segment(text)
    (d,) = result.diagnostics
    assert (d.code, d.start, d.end, d.line, d.column, d.variant) == (
        "near_miss.unknown_name",
        7,
        10 + len(name),
        3,
        1,
        None,
    )
    assert f"'{name}'" in d.message
    assert _fails_self_check(text)


def test_the_seed_examples_both_fail_self_check() -> None:
    extra = "Intro <questionnaire-response-extra>{}</questionnaire-response-extra>"
    foo = "Intro <foo-questionnaire>{}</foo-questionnaire>"
    assert _fails_self_check(extra) and _fails_self_check(foo)
    assert [d.code for d in segment(extra).diagnostics] == ["near_miss.unknown_name"]
    assert [d.code for d in segment(foo).diagnostics] == ["name.unregistered"]


@pytest.mark.parametrize(
    "text",
    [
        "Intro `<questionnaire-response-extra>` here\n",
        "Intro <!-- <sage-yiii-questionnaire> -->\n",
        "Intro\n\n````markdown\n```sage-yiii-questionnaire\n````\n",
        "Intro\n\n    <my_questionnaire>\n",
        "Intro </questionnaire-response-extra>\n",  # a closing tag opens nothing
        "Intro <questionnaire-response-extra",  # the name ends the message: no tag
        "Intro <my_questionnaire=1> <questionnaire-x:y>\n",  # the name goes on
        "A questionnaire-response-extra and my_questionnaire in words\n",
    ],
)
def test_no_warning_in_code_or_outside_a_tag(text: str) -> None:
    assert segment(text).diagnostics == ()
    assert segment(text, checked=True).diagnostics == ()


def test_a_name_inside_a_payload_is_payload() -> None:
    payload = '{"title":"<sage-yiii-questionnaire>","questions":[]}'
    text = f"Intro <questionnaire>{payload}</questionnaire> <x-y-questionnaire> tail\n"
    codes = [(d.code, d.start) for d in segment(text).diagnostics]
    assert ("near_miss.unknown_name", text.index("<x-y-")) in codes
    assert all(start != text.index("<sage-yiii") for _, start in codes)


def test_the_code_is_in_the_table() -> None:
    from replykit.codes.segment import NEAR_MISSES

    assert "near_miss.unknown_name" in NEAR_MISSES


@settings(max_examples=150)
@given(
    text=st.one_of(
        unknown_name_messages(),
        st.lists(
            st.one_of(unknown_name_messages(), rs.messages(), rs.inert_messages()), max_size=3
        ).map("\n\n".join),
    ),
    cuts=st.lists(st.integers(0, 3_000), max_size=12),
    compat=st.sampled_from([None, "sage"]),
)
def test_every_reading_agrees_on_unknown_names(
    text: str, cuts: list[int], compat: str | None
) -> None:
    assert segment(text, compat=compat) == segment(text, compat=compat, checked=True)
    chunks = cut(text, [c % (len(text) + 1) for c in cuts])
    assert check_stream(chunks, compat=compat) == []


@settings(max_examples=100)
@given(text=unknown_name_messages())
def test_each_unknown_name_message_warns_once_per_name(text: str) -> None:
    found = [d for d in segment(text).diagnostics if d.code == "near_miss.unknown_name"]
    names = [n for n in UNKNOWN_NAMES if f"<{n}>" in text]
    names += [n for n in UNKNOWN_NAMES + UNKNOWN_FENCE_NAMES if f"```{n}\n" in text]
    assert len(found) == 1 and names
    assert text[found[0].start :].startswith(("<" + names[0], "```" + names[0]))


def test_a_response_name_is_a_tag_not_a_fence() -> None:
    tag = "<questionnaire-response>{}</questionnaire-response>"
    assert [s.kind for s in segment(tag).segments] == ["questionnaire_response"]
    fence = "Intro\n\n```questionnaire-response\n{}\n```\n"
    assert [d.code for d in segment(fence).diagnostics] == ["near_miss.unknown_name"]
