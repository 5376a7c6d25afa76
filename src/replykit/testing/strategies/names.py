"""Fault families of names, tags and the preface (§3a, §4.3, §6, §8.1).

Each strategy draws a whole message around a valid form that differs from a valid
message in its name (ASCII case, attributes, an unregistered namespace) or in what
stands before a fenced form (only invisible characters, or no prose at all).
"""

from __future__ import annotations

from typing import Final

from hypothesis import strategies as st

from replykit.testing.strategies._clean import (
    around_fenced,
    around_xml,
    clean_form,
    fenced,
    json_text,
    xml,
    yaml_text,
)
from replykit.testing.strategies._common import pick

_CASED: Final[tuple[str, ...]] = (
    "Questionnaire",
    "QUESTIONNAIRE",
    "QuestionNaire",
    "Sage-Questionnaire",
    "SAGE-questionnaire",
    "sage-Questionnaire",
)


@st.composite
def name_case_messages(draw: st.DrawFn) -> str:
    """A valid form under a name that differs from a family name in ASCII case only
    (§8 ``near_miss.case``): both tags, only the closer (so the lower-case opener has
    no closer), or the fence's info string."""
    name = pick(draw, _CASED)
    form = clean_form(draw)
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return around_xml(draw, f"<{name}>{json_text(form)}</{name}>")
    if kind == 1:
        lower = name.lower()
        return around_xml(draw, f"<{lower}>{json_text(form)}</{name}>")
    return around_fenced(draw, fenced(yaml_text(form), info=name))


_ATTRIBUTES: Final[tuple[str, ...]] = (
    ' id="x"',
    ' id="q1"',
    ' timeout_seconds="30"',
    " data-v='1'",
    ' lang="en" id="f"',
    " ",
    " hidden",
)


@st.composite
def attribute_messages(draw: st.DrawFn) -> str:
    """A valid form whose opening tag has attributes or a space
    (``<questionnaire id="x">``, §8 ``near_miss.tag_attributes``): no block."""
    name = pick(draw, ("questionnaire", "questionnaire", "sage-questionnaire"))
    attributes = pick(draw, _ATTRIBUTES)
    payload = json_text(clean_form(draw))
    return around_xml(draw, f"<{name}{attributes}>{payload}</{name}>")


#: Names no profile registers (§6), among them Self-check's names, which the client
#: profile does not register.
UNREGISTERED: Final[tuple[str, ...]] = (
    "foo-questionnaire",
    "x1-questionnaire",
    "agent-questionnaire",
    "zz-questionnaire",
)


@st.composite
def unregistered_messages(draw: st.DrawFn) -> str:
    """A valid form under a name no profile registers (§6: ``registered: false``,
    ``valid: false``, only ``name.unregistered``), XML+JSON or fenced."""
    name = pick(draw, UNREGISTERED)
    form = clean_form(draw)
    if draw(st.booleans()):
        return around_xml(draw, xml(json_text(form), name))
    return around_fenced(draw, fenced(yaml_text(form), info=name))


#: Blank characters that render as nothing or as space (§1: blank).
INVISIBLE: Final[tuple[str, ...]] = (
    "\u200b",
    "\ufeff",
    "\u2060",
    "\u200c",
    "\u200d",
    "\u00ad",
    "\u00a0",
    "\u3000",
)


@st.composite
def invisible_preface_messages(draw: st.DrawFn) -> str:
    """A fenced valid form after nothing but invisible or blank characters
    (zero-width space, BOM, word joiner, soft hyphen, NBSP, U+3000; §4 preface: no
    prose, ``fence.no_preface``); or a BOM right before the opener on line 1."""
    block = fenced(yaml_text(clean_form(draw)))
    if draw(st.integers(0, 4)) == 0:
        return "\ufeff" + block
    chars = [pick(draw, INVISIBLE) for _ in range(draw(st.integers(1, 3)))]
    if all(c in "\u00a0\u3000" for c in chars):
        chars.append("\u200b")
    return "".join(chars) + pick(draw, ("\n", "\n\n", " \n\n")) + block


#: Markdown that renders no text (§4.3): references to blank characters, raw HTML,
#: block markers alone, thematic breaks, link reference definitions.
RENDERS_NOTHING: Final[tuple[str, ...]] = (
    "&#8203;\n",
    "&nbsp;\n\n",
    "&#x200B;&ZeroWidthSpace;\n\n",
    "<span></span>\n\n",
    "<div>\n</div>\n\n",
    "[a]: /url\n",
    '[guide]: <https://example.com/a b> "Guide"\n\n',
    "---\n",
    "#\n\n",
    "-\n\n",
    ">\n\n",
    "* * *\n\n<br/>\n\n",
)


@st.composite
def no_preface_messages(draw: st.DrawFn) -> str:
    """A fenced valid form with no prose before it (§4 preface, ``fence.no_preface``):
    nothing, or only a code span, an HTML comment, a code block, an XML+JSON block or
    Markdown that renders no text (:data:`RENDERS_NOTHING`)."""
    block = fenced(yaml_text(clean_form(draw)))
    before = pick(
        draw,
        (
            "",
            "",
            "`code`\n\n",
            "<!-- note -->\n",
            "```\ncode\n```\n",
            "    code\n\n",
            "\n\n",
            xml(json_text(clean_form(draw))) + "\n\n",
            *RENDERS_NOTHING,
        ),
    )
    tail = pick(draw, ("", "Thanks.\n"))
    return before + block + tail


__all__ = [
    "INVISIBLE",
    "UNREGISTERED",
    "attribute_messages",
    "invisible_preface_messages",
    "name_case_messages",
    "no_preface_messages",
    "unregistered_messages",
]


#: Names that hold the family word without the family's shape (§8.1
#: ``near_miss.unknown_name``), the seed's ``questionnaire-response-extra`` first.
UNKNOWN_NAMES: Final[tuple[str, ...]] = (
    "questionnaire-response-extra",
    "sage-yiii-questionnaire",
    "my_questionnaire",
    "questionnaire-v2",
    "x.questionnaire",
    "Questionnaire-Response-Extra",
    "questionnaires",
)
#: Names that are unknown only as a fence's name: a response is never fenced.
UNKNOWN_FENCE_NAMES: Final[tuple[str, ...]] = (
    "questionnaire-response",
    "sage-questionnaire-response",
)


@st.composite
def unknown_name_messages(draw: st.DrawFn) -> str:
    """A valid form under a name that holds the family word without the family's shape
    (§8.1 ``near_miss.unknown_name``: no block, one warning): XML+JSON or fenced."""
    form = clean_form(draw)
    if draw(st.booleans()):
        name = pick(draw, UNKNOWN_NAMES)
        return around_xml(draw, f"<{name}>{json_text(form)}</{name}>")
    name = pick(draw, UNKNOWN_NAMES + UNKNOWN_FENCE_NAMES)
    return around_fenced(draw, fenced(yaml_text(form), info=name))
