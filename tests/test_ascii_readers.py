"""Readers of model and user text read digits, white space and blank characters as the
protocol says (ASCII digits; §1.1 blank from the pinned table), never by Python's
Unicode-wide ``\\d``, ``str.isdigit``, ``strptime`` or ``str.strip``."""

from __future__ import annotations

import pytest

from replykit import StreamSegmenter, segment
from replykit.actions import ActionStateRecord, AnswerState, StateError
from replykit.fuzz.accept import parse_accept
from replykit.markdown_it.render import web_link
from replykit.questionnaire.compat import SAGE, decode_transport
from replykit.text import blank_words

GOOD = "2026-08-27T07:00:00.000Z"


@pytest.mark.parametrize(
    "stamp",
    [
        "\uff12\uff10\uff12\uff16-08-27T07:00:00.000Z",  # fullwidth
        "\u0662\u0660\u0662\u0666-\u0660\u0668-\u0662\u0667T\u0660\u0667:\u0660\u0660:"
        "\u0660\u0660.\u0660\u0660\u0660Z",  # Arabic-Indic
        "2026-08-27T07:00:00.00\U0001d7ceZ",  # mathematical digit zero
    ],
)
def test_timestamps_take_ascii_digits_only(stamp: str) -> None:
    record = {"status": "success", "message": "m", "updatedAt": stamp}
    with pytest.raises(StateError) as info:
        AnswerState.from_json({"actionStates": {"a": record}})
    assert "must look like 2026-08-27T07:00:00.000Z" in str(info.value)
    with pytest.raises(ValueError, match=r"must look like 2026-08-27T07:00:00\.000Z"):
        ActionStateRecord("success", "m", stamp)


def test_an_ascii_timestamp_round_trips() -> None:
    record = {"status": "success", "message": "m", "updatedAt": GOOD}
    state = AnswerState.from_json({"actionStates": {"a": record}})
    assert state.to_json()["actionStates"]["a"]["updatedAt"] == GOOD


FORM = '<questionnaire>{"questions":[{"type":"text","text":"Q"}]}</questionnaire>'
QUOTED = '"Intro\\n\\n' + FORM.replace('"', '\\"') + '"'


def _forms(text: str) -> list[bool]:
    """Whether each questionnaire block is valid, by segment() and by the stream."""
    whole = segment(text, message_id="m", compat=SAGE).segments
    stream = StreamSegmenter(message_id="m", compat=SAGE)
    for k in range(0, len(text), 7):
        stream.push(text[k : k + 7])
    assert stream.finish().segments == whole
    return [s.valid for s in whole if s.kind == "questionnaire"]


@pytest.mark.parametrize(
    ("around", "decoded"),
    [(" \n", True), ("\u3000", True), ("\u200b", True), ("\ufeff", True), ("\x1c", False)],
)
def test_a_json_string_message_is_decoded_when_only_blank_surrounds_it(
    around: str, decoded: bool
) -> None:
    text = around + QUOTED + around
    assert (decode_transport(text, SAGE) == "Intro\n\n" + FORM) is decoded
    assert _forms(text) == [True]  # the stream reads it as segment() does


@pytest.mark.parametrize(
    ("info", "codes"),
    [
        ("questionnaire yaml", ["near_miss.extra_words"]),
        ("questionnaire\u200byaml", ["near_miss.extra_words"]),  # Cf is blank (§1.1)
        ("questionnaire\u3000yaml", ["near_miss.extra_words"]),
        # U+001C is not blank: one word that holds the family word, no family name (§8.1)
        ("questionnaire\x1cyaml", ["near_miss.unknown_name"]),
    ],
)
def test_info_string_words_are_split_at_blank_characters(info: str, codes: list[str]) -> None:
    text = f"Intro\n\n```{info}\ntitle: T\n```\n"
    assert [d.code for d in segment(text, message_id="m").diagnostics] == codes


def test_blank_words() -> None:
    assert blank_words("a\u200bb \u3000c\x1cd") == ["a", "b", "c\x1cd"]
    assert blank_words(" \u200b ") == []


@pytest.mark.parametrize(
    ("url", "kept"),
    [
        ("\x01javascript:alert(1)", False),  # browsers strip C0 controls first
        ("\x1fJavaScript:alert(1)", False),
        ("JAVASCRIPT:alert('\u00e9')", False),
        (" https://example.com", True),
        ("\u212aa:b", True),  # KELVIN SIGN: no scheme character, so a relative URL
    ],
)
def test_web_link_reads_the_scheme_as_a_browser_does(url: str, kept: bool) -> None:
    assert web_link(url) is kept


def test_accept_file_lines_are_split_at_line_endings_only() -> None:
    # Patterns that can match a class key (a key or pattern that cannot is refused).
    text = "*|§3\u2028b|*\n  segment|adapter.*\u3000\n# note\r\n*|§4|*\r*|§5\x85f|*\n"
    accepted = parse_accept(text)
    assert accepted.patterns == ("*|§3\u2028b|*", "segment|adapter.*", "*|§4|*", "*|§5\x85f|*")
