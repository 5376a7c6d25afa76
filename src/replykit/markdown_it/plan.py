"""The message with its blocks replaced by placeholders, and the card for each block
(docs/html.md section 2).

``segment()`` decides where the blocks are (§2-§3). Each block segment becomes a
placeholder that markdown-it reads as CommonMark reads the block in place (§3b
"Candidates in place"): a fenced block becomes a fenced code block of our own, an
XML+JSON block a short run of text inside its paragraph, list item or quote. A
placeholder is made of a marker code point the message cannot produce, so no text of
the message is ever taken for one.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from urllib.parse import unquote

import attrs

from replykit.markdown_it.bound import Measure, output_limit, summarized, utf8_size
from replykit.markdown_it.cards import DEFAULT_CARDS, CardOptions, block_card
from replykit.markdown_it.markup import text_safe
from replykit.questionnaire.compat import Compat
from replykit.questionnaire.conversation.texts import Locale
from replykit.questionnaire.model import Segmentation
from replykit.questionnaire.profiles import Profile
from replykit.questionnaire.segmentation.segmenter import segment

# Numeric character references decode to any code point, so their targets count as
# present in the message too (markdown-it decodes them in text and info strings).
_NUMERIC_REF = re.compile(r"&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,9}));")
_PRIVATE_USE = ((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))


@attrs.frozen
class Card:
    """The HTML that stands for block ``index``; ``block`` is false for inline text."""

    html: str
    block: bool
    raw: str


@attrs.frozen
class Plan:
    """``source``: the message with placeholders; ``pattern`` finds them (group 1 is the
    card index); ``cards`` in message order; ``segmentation`` is ``segment()``'s;
    ``limit`` the page's bound (docs/html.md section 8); ``locale`` the cards'."""

    source: str
    pattern: re.Pattern[str]
    marker: str
    cards: tuple[Card, ...]
    segmentation: Segmentation
    limit: int
    locale: Locale = "zh"


def make_plan(
    text: str,
    *,
    message_id: str,
    profile: Profile,
    compat: Compat | str | None,
    fence: bool = True,
    limit: int | None = None,
    measure: Measure = utf8_size,
    style: CardOptions = DEFAULT_CARDS,
) -> Plan:
    """Segment ``text`` and replace each block by a placeholder. ``fence``: whether the
    ``MarkdownIt`` reads fenced code; without it a fenced block's placeholder is a
    paragraph of its own, between blank lines. ``limit``: the page's bound as
    ``measure`` counts it (default :func:`~.bound.output_limit` of the text and the
    message id); the largest cards are summarized when all of them, with twice the
    Markdown between them, would pass it (docs/html.md section 8). ``style``: how
    the cards are drawn (read-only, locale; docs/html.md section 3). Raises what
    :func:`replykit.segment` raises (``ValueError`` for a bad ``message_id``)."""
    seg = segment(text, message_id=message_id, profile=profile, compat=compat)
    source_text = seg.decoded if seg.decoded is not None else text
    marker = choose_marker(source_text)
    blocks = [(p, block_card(p, style)) for p in seg.segments if p.kind != "markdown"]
    prose = sum(measure(piece.text) for piece in seg.segments if piece.kind == "markdown")
    limit = output_limit(text, message_id) if limit is None else limit
    budget = limit - 2 * prose
    shown = summarized([(piece, card[0]) for piece, card in blocks], budget, measure, style.locale)
    parts: list[str] = []
    cards: list[Card] = []
    for piece in seg.segments:
        if piece.kind == "markdown":
            parts.append(piece.text)
            continue
        index = len(cards)
        html, block = blocks[index][1]
        cards.append(Card(shown.get(index, html), block or index in shown, piece.text))
        tag = f"{marker}{index}{marker}"
        if piece.encoding == "fenced_yaml" and fence:
            parts.append(f"```{tag}\n```{_line_end(piece.text)}")
        elif piece.encoding == "fenced_yaml":
            parts.append(f"\n{tag}\n\n")
        else:
            parts.append(tag)
    source = text_safe("".join(parts)).removeprefix("\ufeff")
    pattern = re.compile(f"{re.escape(marker)}([0-9]+){re.escape(marker)}")
    return Plan(source, pattern, marker, tuple(cards), seg, limit, style.locale)


def _line_end(text: str) -> str:
    if text.endswith("\r\n"):
        return "\r\n"
    return text[-1] if text.endswith(("\n", "\r")) else ""


def choose_marker(text: str) -> str:
    """The first private-use code point neither in ``text`` nor named by one of its
    numeric character references or percent-encodings (a link destination's href is
    looked for encoded); if a text holds them all, the first pair of them that does not
    occur in it (a text of n code points holds at most n pairs)."""
    spellings = _spellings(text)
    present = set().union(*spellings)
    present.update(_referenced(text))
    for char in _private_use():
        if char not in present:
            return char
    pairs = {chunk[i : i + 2] for chunk in spellings for i in range(len(chunk) - 1)}
    for first in _private_use():
        for second in _private_use():
            if first != second and first + second not in pairs:
                return first + second
    raise AssertionError("unreachable: more pairs than a str can hold")  # pragma: no cover


def _spellings(text: str) -> tuple[str, ...]:
    """``text`` as written, with its character references decoded, and each of those
    with its percent-encodings decoded (UTF-8): every way a marker could be read."""
    decoded = html.unescape(text)
    return (text, decoded, unquote(text), unquote(decoded))


def _referenced(text: str) -> Iterator[str]:
    for match in _NUMERIC_REF.finditer(text):
        hexa, dec = match.groups()
        value = int(hexa, 16) if hexa else int(dec)
        if value <= 0x10FFFF:
            yield chr(value)


def _private_use() -> Iterator[str]:
    for low, high in _PRIVATE_USE:
        for code in range(low, high + 1):
            yield chr(code)
