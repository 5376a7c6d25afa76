"""§9 ``tag_attributes``: an attribute the opening tag repeats, or one beside the JSON
field it stands for, is never resolved silently: the first attribute decides, the
attribute beats the field, and each is the warning ``compat.attribute_conflict`` at the
value it concerns, in the whole message and in a stream alike."""

from __future__ import annotations

import pytest

from replykit import StreamSegmenter, segment
from replykit.codes import CODES

QUESTIONS = '"questions":[{"type":"text","text":"Q"}]'


def _read(tag: str, body: str) -> tuple[object, list[tuple[str, str, str, str]]]:
    text = f"Intro {tag}{{{body}}}</questionnaire>\n"
    result = segment(text, compat="sage")
    stream = StreamSegmenter(compat="sage")
    for i in range(0, len(text), 7):
        stream.push(text[i : i + 7])
    assert stream.finish() == result
    form = result.segments[1].questionnaire
    assert form is not None
    found = [
        (d.code, d.message, text[d.start : d.end], CODES[d.code].render(d.params, d.variant, "zh"))
        for d in result.diagnostics
    ]
    return form.to_json().get("timeout_seconds"), found


def test_a_repeated_attribute_warns_and_the_first_decides() -> None:
    tag = "<questionnaire timeout_seconds=\"30\" timeout_seconds='40' timeout_seconds=50>"
    timeout, found = _read(tag, QUESTIONS)
    assert timeout == 30
    assert found == [
        ("compat.attribute_conflict",
         'the tag gives the attribute timeout_seconds again ("40"); the first one decides',
         "40", '标签再次给出属性 timeout_seconds（"40"）；以第一个为准。'),
        ("compat.attribute_conflict",
         'the tag gives the attribute timeout_seconds again ("50"); the first one decides',
         "50", '标签再次给出属性 timeout_seconds（"50"）；以第一个为准。'),
    ]  # fmt: skip


def test_an_attribute_beside_the_json_field_warns_and_wins() -> None:
    timeout, found = _read(
        '<questionnaire timeout_seconds="30">', f'"timeout_seconds":5,{QUESTIONS}'
    )
    assert timeout == 30
    assert found == [
        ("compat.attribute_conflict",
         'the tag\'s attribute timeout_seconds ("30") replaces the JSON field timeout_seconds (5)',
         "30", '标签属性 timeout_seconds（"30"）取代了 JSON 字段 timeout_seconds（5）。'),
    ]  # fmt: skip


def test_an_invalid_first_attribute_still_decides() -> None:
    tag = '<questionnaire timeout_seconds="x" timeout_seconds="40">'
    timeout, found = _read(tag, f'"timeout_seconds":5,{QUESTIONS}')
    assert timeout == 5  # the invalid attribute is dropped; the field stays
    assert [(code, where) for code, _, where, _ in found] == [
        ("questionnaire.start.timeout_seconds_invalid", "x"),
        ("compat.attribute_conflict", "40"),
    ]


@pytest.mark.parametrize(
    ("tag", "body"),
    [('<questionnaire timeout_seconds="30">', QUESTIONS),
     ("<questionnaire>", f'"timeout_seconds":5,{QUESTIONS}')],
)  # fmt: skip
def test_one_source_alone_gives_no_warning(tag: str, body: str) -> None:
    assert _read(tag, body)[1] == []


def test_without_tag_attributes_nothing_is_read_from_the_tag() -> None:
    tag = '<questionnaire timeout_seconds="3" timeout_seconds="4">'
    found = segment(f"Intro {tag}{{{QUESTIONS}}}</questionnaire>").diagnostics
    assert [d.code for d in found] == ["near_miss.tag_attributes"]  # strict: one warning


@pytest.mark.parametrize(
    ("tag", "timeout"),
    [
        # Attributes are read one by one: text inside another's value is no attribute.
        ('<questionnaire title="see timeout_seconds=5">', None),
        ("<questionnaire data-x='timeout_seconds=5' timeout_seconds=7>", 7),
        # HTML allows white space, line endings too, around "=".
        ('<questionnaire timeout_seconds\n=\n"30">', 30),
        ('<questionnaire\ttimeout_seconds = "30">', 30),
    ],
)
def test_attributes_are_read_one_by_one(tag: str, timeout: int | None) -> None:
    value, found = _read(tag, QUESTIONS)
    assert (value, found) == (timeout, [])
