"""Fault families of text units and transport encodings (§1).

Each strategy draws a whole assistant message (a ``str``) whose blocks replykit reads
one way and a client with the family's fault another: HTML entities, a message that
is a JSON string, ``<\\/name>`` closers, lone CR line endings, characters outside the
BMP before blocks and in ``ui_text`` values.
"""

from __future__ import annotations

import json
from typing import Final

from hypothesis import strategies as st

from replykit.questionnaire.model import MAX_UI_TEXT, UI_TEXT_KEYS
from replykit.testing.strategies._clean import (
    around_fenced,
    around_xml,
    clean_form,
    fenced,
    json_text,
    prose,
    valid_message,
    xml,
    yaml_text,
)
from replykit.testing.strategies._common import pick

_ANGLES: Final[tuple[tuple[str, str], ...]] = (
    ("&lt;", "&gt;"),
    ("&lt;", "&gt;"),
    ("&#60;", "&#62;"),
    ("&#x3C;", "&#x3E;"),
    ("&#x3c;", "&#x3e;"),
)
_QUOTES: Final[tuple[str, ...]] = ("&quot;", "&quot;", "&#34;", "&#x22;")
_GRAVES: Final[tuple[str, ...]] = ("&#96;", "&#x60;", "&grave;")
#: Characters outside the BMP: one code point, two UTF-16 units.
ASTRAL: Final[tuple[str, ...]] = ("😀", "𝔘", "🎉", "𠀀")


@st.composite
def entity_messages(draw: st.DrawFn) -> str:
    """A form written with HTML entities (§1: no transport decoding): the tags as
    ``&lt;questionnaire&gt;`` (or ``&#60;``, ``&#x3C;``), the JSON quotes as ``&quot;``
    under real tags, or the fence's backticks as ``&#96;``. replykit reads text (or an
    invalid block); decoded, it is a valid form."""
    form = clean_form(draw)
    kind = draw(st.integers(0, 3))
    if kind == 3:
        fence = pick(draw, _GRAVES) * 3
        return around_fenced(draw, fenced(yaml_text(form), fence=fence))
    payload = json_text(form)
    if kind == 1 or draw(st.booleans()):
        payload = payload.replace('"', pick(draw, _QUOTES))
    if kind == 1:
        return around_xml(draw, xml(payload))
    lt, gt = pick(draw, _ANGLES)
    return around_xml(draw, f"{lt}questionnaire{gt}{payload}{lt}/questionnaire{gt}")


@st.composite
def json_string_messages(draw: st.DrawFn) -> str:
    """A whole message that is a JSON string literal holding a message with a valid
    form (``"Intro\\n\\n```questionnaire\\n..."``): one line of text for replykit (§1),
    a form once decoded."""
    return json.dumps(valid_message(draw), ensure_ascii=draw(st.booleans()))


@st.composite
def escaped_closer_messages(draw: st.DrawFn) -> str:
    """``<\\/questionnaire>`` where a closer would be, or inside a JSON string of a valid
    payload (``"a<\\/questionnaire>b"``, which JSON reads as ``a</questionnaire>b``).
    It closes nothing (§1, §3a): a lone opener is no block, an opener with a later real
    closer takes the escaped one into its payload, and the string stays in the form."""
    form = clean_form(draw)
    kind = draw(st.integers(0, 2))
    if kind == 2:
        form["title"] = f"{form['title']}</questionnaire>{pick(draw, ('x', ' end', ''))}"
        return around_xml(draw, xml(json_text(form).replace("</", "<\\/")))
    first = f"<questionnaire>{json_text(form)}<\\/questionnaire>"
    if kind == 0:
        return around_xml(draw, first)
    second = xml(json_text(clean_form(draw)))
    return around_xml(draw, first + pick(draw, (" ", "\n", "\n\nThen ")) + second)


def _line_ends(draw: st.DrawFn, lines: list[str], forced: dict[int, str]) -> str:
    # A lone CR followed by the LF ending of an empty line would make one CRLF and lose
    # a line, so an empty line after a CR ends with CR too.
    out: list[str] = []
    previous = ""
    for index, line in enumerate(lines):
        end = forced.get(index) or pick(draw, ("\r", "\r", "\r\n", "\n"))
        if not line and previous == "\r" and end == "\n":
            end = "\r"
        out.append(line + end)
        previous = end
    return "".join(out)


@st.composite
def lone_cr_messages(draw: st.DrawFn) -> str:
    """A valid form whose line structure rests on lone CRs (§1: ``\\r`` ends a line):
    every line ending ``\\r``, or mixed ``\\r\\n``/``\\r``/``\\n`` with a lone CR after
    the fence opener; or indented code (a tag after a blank line and 4 spaces) made by
    lone CRs, which is inert."""
    kind = draw(st.integers(0, 2))
    if kind == 2:
        lines = [prose(draw), "", "    " + xml(json_text(clean_form(draw))), prose(draw)]
        return _line_ends(draw, lines, {0: "\r", 1: "\r"})
    block = fenced(yaml_text(clean_form(draw)))
    lines = [prose(draw), "", *block.split("\n")[:-1]]
    if kind == 0:
        return "\r".join(lines) + "\r"
    return _line_ends(draw, lines, {2: "\r"})


def _astral_prose(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 3))
    return prose(draw) + " " + "".join(pick(draw, ASTRAL) for _ in range(count))


@st.composite
def astral_messages(draw: st.DrawFn) -> str:
    """Characters outside the BMP (one code point, two UTF-16 units, §1) in the prose
    before a block, sometimes in the form too, and sometimes before a block with one
    error, so every later offset, line and column differs in UTF-16 units."""
    form = clean_form(draw)
    if draw(st.booleans()):
        form["title"] = pick(draw, ASTRAL) + " " + form["title"]
    lead = _astral_prose(draw)
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return lead + "\n\n" + fenced(yaml_text(form))
    payload = json_text(form)
    if kind == 2:
        # One error after the astral characters: a diagnostic with offsets.
        payload = payload.replace('"questions"', '"title":"again","questions"', 1)
    return lead + pick(draw, (" ", "\n")) + xml(payload) + pick(draw, ("", " 😀\n"))


@st.composite
def utf16_length_messages(draw: st.DrawFn) -> str:
    """An XML+JSON form whose ``ui_text`` values are 33-64 code points
    (:data:`~replykit.questionnaire.model.MAX_UI_TEXT`) but over 64 UTF-16
    units (astral characters; §5, §7 ``ui_text``): kept by replykit, over the limit
    for a client that counts ``.length``."""
    form = clean_form(draw)
    ui: dict[str, str] = {}
    for key in (pick(draw, UI_TEXT_KEYS), pick(draw, UI_TEXT_KEYS)):
        size = draw(st.integers(MAX_UI_TEXT // 2 + 1, MAX_UI_TEXT))
        astral = draw(st.integers(MAX_UI_TEXT + 1 - size, size))
        text = pick(draw, ASTRAL) * astral + pick(draw, ("a", "工")) * (size - astral)
        ui[key] = text
    form["ui_text"] = ui
    return around_xml(draw, xml(json_text(form)))


__all__ = [
    "ASTRAL",
    "astral_messages",
    "entity_messages",
    "escaped_closer_messages",
    "json_string_messages",
    "lone_cr_messages",
    "utf16_length_messages",
]
