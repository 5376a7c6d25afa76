"""Whole assistant messages, hostile fragments and ``segment`` request bodies (§1-§8)."""

from __future__ import annotations

from typing import Any, Final

from hypothesis import strategies as st

from replykit.testing.strategies._common import BLANKS, PROFILES, pick
from replykit.testing.strategies.families import family_messages
from replykit.testing.strategies.forms import fenced_blocks
from replykit.testing.strategies.markdown import inert_messages, markdown, prose
from replykit.testing.strategies.xml import xml_blocks

_PROSE: Final = prose()
_MARKDOWN: Final = markdown()
_FENCED: Final = fenced_blocks()
_XML: Final = xml_blocks()
_INERT: Final = inert_messages()


@st.composite
def hostile_payloads(draw: st.DrawFn) -> str:
    """A bounded hostile fragment (§1.5 limits on §4 and §5 payloads): nesting
    just under and over 64 levels in YAML and JSON, long backtick runs, many tags
    without closers, an alias chain, a 400-digit number, a long line. At most a few
    KB, so that one example stays fast."""
    depth = pick(draw, [63, 64, 65, 100])
    kind = draw(st.integers(0, 6))
    if kind == 0:
        return "<questionnaire>" + "[" * depth + "]" * depth + "</questionnaire>"
    if kind == 1:
        body = "".join("  " * i + "k:\n" for i in range(depth)) + "  " * depth + "v\n"
        return "```questionnaire\n" + body + "```\n"
    if kind == 2:
        return "`" * draw(st.integers(3, 300)) + "questionnaire\n"
    if kind == 3:
        return "<questionnaire>" * draw(st.integers(2, 50))
    if kind == 4:
        chain = "a0: &a0 [x, x]\n" + "".join(
            f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]\n" for i in range(1, 8)
        )
        return "```questionnaire\n" + chain + "```\n"
    if kind == 5:
        return '<questionnaire>{"questions": ' + "9" * 400 + "}</questionnaire>"
    return "x" * draw(st.integers(500, 3000)) + "\n"


_HOSTILE: Final = hostile_payloads()


def _wrap(block: str, how: int) -> str:
    lines = block.splitlines(keepends=True) or [""]
    if how == 1:
        return "".join("> " + line for line in lines)
    if how == 2:
        return "- " + lines[0] + "".join("  " + line for line in lines[1:])
    if how == 3:
        return "```\n" + block + ("" if block.endswith("\n") else "\n") + "```\n"
    if how == 4:
        return "".join("    " + line for line in lines)
    if how == 5:
        return "`" + block.replace("\n", " ") + "`"
    if how == 6:
        return "<!-- " + block + " -->"
    if how == 7:
        return "<details>\n" + block + "\n</details>\n"
    return block


@st.composite
def messages(draw: st.DrawFn) -> str:
    """A whole assistant message: 1-5 pieces (prose, :func:`markdown`, a fenced or
    XML+JSON block, a hostile fragment, an :func:`inert_messages` text), some blocks
    wrapped in a block quote, list item, fenced or indented code, code span, HTML
    comment or HTML block, joined with
    ``""``, ``" "``, ``"\\n"`` or ``"\\n\\n"``; then, sometimes, every ``\\n`` turned
    into ``\\r\\n`` or ``\\r``, a leading BOM, blank characters (NBSP, U+3000,
    zero-width space, U+2028) in front."""
    pieces: list[str] = []
    if draw(st.integers(0, 3)):
        pieces.append(draw(_PROSE) + "\n\n")
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 10))
        if kind == 10:
            pieces.append(draw(_INERT) + "\n")
            continue
        if kind <= 1:
            piece = draw(_PROSE) + "\n"
        elif kind == 2:
            piece = draw(_MARKDOWN)
        elif kind <= 5:
            piece = draw(_FENCED)
        elif kind <= 8:
            piece = draw(_XML)
        else:
            piece = draw(_HOSTILE)
        if kind >= 3 and draw(st.integers(0, 3)) == 0:
            piece = _wrap(piece, draw(st.integers(1, 7)))
        pieces.append(piece)
        pieces.append(pick(draw, ["", " ", "\n", "\n\n", "\n\n"]))
    text = "".join(pieces)
    ending = draw(st.integers(0, 7))
    if ending == 1:
        text = text.replace("\n", "\r\n")
    elif ending == 2:
        text = text.replace("\n", "\r")
    lead = draw(st.integers(0, 9))
    if lead == 1:
        text = "\ufeff" + text
    elif lead == 2:
        text = pick(draw, BLANKS) + text
    return text


_MESSAGES: Final = messages()
_FAMILY_MESSAGES: Final = family_messages()


@st.composite
def segment_requests(draw: st.DrawFn) -> dict[str, Any]:
    """A ``segment`` request body: ``{"text": str, "message_id": str, "profile": str}``
    with a text that is half the time a :func:`messages` text and half the time a
    message of one fault family
    (:func:`~replykit.testing.strategies.families.family_messages`, every family
    equally often), a message id (``m``, ``msg-1``, CJK, one holding ``_q``; §6: never
    empty) and a profile string
    of :data:`PROFILES` (§6)."""
    source = _FAMILY_MESSAGES if draw(st.booleans()) else _MESSAGES
    return {
        "text": draw(source),
        "message_id": pick(draw, ["m", "msg-1", "消息", "m_q"]),
        "profile": pick(draw, PROFILES),
    }


__all__ = ["hostile_payloads", "messages", "segment_requests"]
