"""§3a: a fence's info string is read as CommonMark reads it (backslash escapes and
character references decoded) before the family-name match, the trim (§1) and the
near-miss checks (§8); the no-backtick rule applies to the raw text."""

from __future__ import annotations

import html
import re

import cmarkgfm
from hypothesis import assume, given
from hypothesis import strategies as st
from markdown_it.common.utils import unescapeAll

from replykit import segment, self_check
from replykit.questionnaire.info_string import decode_info, fence_name
from replykit.testing.streaming import check_stream, cut

_PIECES = (
    "q", "questionnaire", "questionnair", "e", "sage-", "&#101;", "&#x65;", "&#X65;",
    "&#0;", "&#1114112;", "&#xD800;", "&#12345678;", "&#1234567;", "&#x1234567;", "&nbsp;",
    "&amp;", "&bogus;", "&amp", "&fjlig;", "&#", "&#x;", ";", "\\-", "\\\\", "\\e", "\\&#101;",
    "\\&", "\\;", " ", "\t", "-", "&#32;", "&lt;", "&#x3000;", "\u00a0",
)  # fmt: skip
# Valid references to no valid code point: U+FFFD for the spec and cmark.
_INVALID = re.compile(r"&#(?:0|1114112|1234567|xD800);")
# Longer than the spec's 7 decimal or 6 hexadecimal digits: cmark 0.29 still decodes them.
_LONG = re.compile(r"&#(?:[0-9]{8,}|[xX][0-9a-fA-F]{7,});")
_CLASS = re.compile(r'<code class="language-([^"]*)"')


def cmark_first_word(info: str) -> str:
    """The first word of the info string as cmark renders it (its language class)."""
    m = _CLASS.search(cmarkgfm.markdown_to_html(f"```{info}\ncode\n```\n"))
    return html.unescape(m.group(1)) if m is not None else ""


def _first_word(info: str) -> str:
    # Both references trim ASCII white space a reference decoded to (``&#32;q``).
    return re.split(r"[ \t\n\x0b\x0c\r]", info.strip(" \t\n\x0b\x0c\r"))[0]


@given(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join))
def test_info_string_decodes_as_cmark_does(info: str) -> None:
    """cmark is the reference. Where it departs from spec 0.31.2 markdown-it-py
    referees: cmark 0.29 decodes references before escapes (``\\&#101;`` gives
    ``\\e``, the spec's one left-to-right reading ``&#101;``) and reads references of
    8 decimal or 7 hexadecimal digits (the spec: at most 7 and 6)."""
    first = _first_word(decode_info(info))
    if first != cmark_first_word(info):
        assert "\\&" in info or _LONG.search(info)
        # markdown-it-py keeps an invalid numeric reference as written (cmark and the
        # spec: U+FFFD), so it referees only without one.
        assume(not _INVALID.search(info))
        assert first == _first_word(unescapeAll(info.strip(" \t")))


def _form(info: str) -> str:
    form = "title: T\nquestions:\n  - {type: free_text, text: Q, default: x}\n"
    return f"Please choose:\n\n```{info}\n{form}```\n"


def test_references_and_escapes_in_the_info_string() -> None:
    found = {}
    for info in ("questionnair&#101;", "q&#117;estionnaire", "questionnaire&#32;",
                 "questionnaire&nbsp;", "&#x71;uestionnaire", "questionnaire\u00a0"):  # fmt: skip
        result = segment(_form(info))
        blocks = [(s.kind, s.name, s.valid, s.start) for s in result.segments[1:]]
        found[info] = (blocks, result.diagnostics)
        assert found[info] == ([("questionnaire", "questionnaire", True, 16)], ()), info
    result = segment(_form("foo\\-questionnaire"))
    assert [(s.name, s.valid) for s in result.segments[1:]] == [("foo-questionnaire", False)]
    assert [d.code for d in result.diagnostics] == ["name.unregistered"]
    result = segment(_form("Questionnair&#x65;"))
    assert [s.kind for s in result.segments] == ["markdown"]
    assert [(d.code, d.start, d.end) for d in result.diagnostics] == [("near_miss.case", 16, 37)]
    assert "questionnaire" in result.diagnostics[0].message
    result = segment(_form("&#113;uestionnaire yaml"))
    assert [(d.code, d.line) for d in result.diagnostics] == [("near_miss.extra_words", 3)]
    assert "questionnaire yaml" in result.diagnostics[0].message
    # Not a reference or an escape: as written.
    for info in ("questionnair\\e", "questionnair&#101", "questionnaire&bogus;"):
        assert [s.kind for s in segment(_form(info)).segments] == ["markdown"], info
    # The no-backtick rule is on the raw text: a decoded backtick is allowed (and
    # names no family here), a raw one makes no fence.
    assert [s.kind for s in segment(_form("questionnaire&#96;")).segments] == ["markdown"]


def test_self_check_and_containers_read_the_decoded_name() -> None:
    text = _form("questionnair&#101;")
    assert self_check([{"role": "assistant", "content": text}]).passed
    quoted = "Intro\n\n> ```questionnair&#101;\n> x\n"
    assert [d.code for d in segment(quoted).diagnostics] == ["near_miss.in_container"]
    short = "Intro\n\n``questionnair&#101; blocks\n"
    assert [d.code for d in segment(short).diagnostics] == [
        "near_miss.short_fence",
        "near_miss.extra_words",
    ]


@given(st.sampled_from(_PIECES[:9]), st.lists(st.integers(0, 120), max_size=5))
def test_modes_and_stream_agree_on_decoded_names(piece: str, cuts: list[int]) -> None:
    text = _form("questionnair" + piece)
    assert segment(text, checked=True) == segment(text)
    assert segment(text, compat="sage") == segment(text)
    assert check_stream(cut(text, cuts)) == []
    assert fence_name("questionnair" + piece) == fence_name(decode_info("questionnair" + piece))
