"""Hypothesis properties of segment() (§2-§8)."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from replykit import CLIENT, SELF_CHECK, Questionnaire, Segmentation, product, segment
from replykit.questionnaire.segmentation.regions import code_regions

from forms import fenced_yaml, markdownish, prose, trim_form, valid_forms, xml_json

# Every test here runs under each YAML loader (docs/protocol.md §4.1).
pytestmark = pytest.mark.usefixtures("yaml_loader")


def check_invariants(text: str, result: Segmentation) -> None:
    """Segments cover ``text`` exactly, in order, none empty, no adjacent Markdown;
    every diagnostic lies inside the text, a block's inside its segment."""
    assert "".join(s.text for s in result.segments) == text
    pos = 0
    for i, s in enumerate(result.segments):
        assert s.start == pos and s.end > s.start and text[s.start : s.end] == s.text
        pos = s.end
        if i and s.kind == "markdown":
            assert result.segments[i - 1].kind != "markdown"
        for d in s.diagnostics:
            assert s.start <= d.start <= d.end <= s.end
    assert pos == len(text)
    for d in result.diagnostics:
        assert 0 <= d.start <= d.end <= len(text)
        assert d.line >= 1 and d.column >= 1
    starts = [d.start for d in result.diagnostics]
    assert starts == sorted(starts)


@given(markdownish)
def test_segments_concatenate_and_never_raise(text: str) -> None:
    check_invariants(text, segment(text))


@given(st.text())
def test_arbitrary_text_never_raises(text: str) -> None:
    for t in (
        text,
        text + "<questionnaire>" + text + "</questionnaire>",
        "```questionnaire\n" + text,
    ):
        check_invariants(t, segment(t))


@given(markdownish, st.text(alphabet="abc_-0", min_size=1, max_size=6))
def test_same_input_same_result_and_ids_do_not_depend_on_profile(text: str, mid: str) -> None:
    a = segment(text, message_id=mid)
    assert a == segment(text, message_id=mid)
    for profile in (SELF_CHECK, product("acme")):
        b = segment(text, message_id=mid, profile=profile)
        shape = [(s.kind, s.start, s.end, s.name, s.id) for s in b.segments]
        assert shape == [(s.kind, s.start, s.end, s.name, s.id) for s in a.segments]


def _single_block(text: str) -> Questionnaire | None:
    result = segment(text, message_id="m")
    check_invariants(text, result)
    blocks = [s for s in result.segments if s.kind != "markdown"]
    assert len(blocks) == 1, result
    assert blocks[0].valid, blocks[0].diagnostics
    assert blocks[0].id == "m_q1"
    return blocks[0].questionnaire


@given(valid_forms(), prose(), prose())
def test_valid_fenced_form_round_trips(form: Questionnaire, before: str, after: str) -> None:
    assert _single_block(before + fenced_yaml(form) + "\n" + after) == form


@given(valid_forms(), prose(), prose())
def test_valid_xml_form_round_trips(form: Questionnaire, before: str, after: str) -> None:
    # XML+JSON is read by the lenient normalizer, which trims texts and options (§7).
    trimmed = trim_form(form)
    assume(trimmed is not None)
    assert _single_block(before + xml_json(form) + "\n\n" + after) == trimmed


def _code_wrappings(block: str, inline: bool) -> list[str]:
    indented = "".join("    " + line + "\n" for line in block.splitlines())
    out = [
        "````markdown\n" + block + "\n````\n",
        "~~~\n" + block + "\n~~~\n",
        "text\n\n" + indented,
        "<!--\n" + block + "\n-->\n",
        "text <!-- " + block + " --> end\n",
    ]
    if inline:
        out.append("see `` " + block + " `` here\n")
        out.append("see `" + block.replace("`", "") + "` here\n")
    return out


@given(valid_forms(), prose(), st.booleans())
def test_forms_inside_code_never_activate(form: Questionnaire, before: str, xml: bool) -> None:
    block = xml_json(form) if xml else fenced_yaml(form).rstrip("\n")
    for wrapped in _code_wrappings(block, inline=xml):
        text = before + wrapped
        result = segment(text)
        check_invariants(text, result)
        assert [s.kind for s in result.segments] == ["markdown"], wrapped
        assert not result.diagnostics, (wrapped, result.diagnostics)


def test_profile_only_changes_validity() -> None:
    text = "Intro\n\n```yiii-questionnaire\ntitle: t\nquestions:\n  - type: free_text\n"
    text += '    text: "q"\n    default: ""\n```\n'
    client = segment(text, profile=CLIENT).segments[1]
    checker = segment(text, profile=SELF_CHECK).segments[1]
    assert (client.registered, client.valid) == (False, False)
    assert [d.code for d in client.diagnostics] == ["name.unregistered"]
    assert (checker.registered, checker.valid) == (True, True)
    assert (client.start, client.end, client.id) == (checker.start, checker.end, checker.id)


_EXACT_OPENER = re.compile(r"<((?:[a-z0-9]+-)?questionnaire(?:-response)?)>")


@given(markdownish)
def test_first_tag_candidate_is_the_first_opener_outside_code(text: str) -> None:
    """Before any candidate is in place, the message reads as plain CommonMark (§3b): the
    first XML+JSON candidate is the first exact opening tag with a closer after it that
    lies outside every inert region that code_regions() (checked against markdown-it-py)
    finds."""
    regions = code_regions(text)
    expected = None
    for m in _EXACT_OPENER.finditer(text):
        inside = any(r.start <= m.start() < r.end for r in regions)
        if not inside and text.find(f"</{m.group(1)}>", m.end()) >= 0:
            expected = m.start()
            break
    first = next((s.start for s in segment(text).segments if s.encoding == "xml_json"), None)
    assert first == expected
