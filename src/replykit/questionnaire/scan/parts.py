"""The grammar's Transformer for the fast mode: parse tree nodes become raw parts.

Applied by Lark while it parses rule ``message`` (LALR with an inline transformer), so
no tree is built. A part is a Markdown run, a fenced candidate or an XML+JSON
candidate, with the code-point spans of its pieces; reading payloads is the
segmenter's business. The candidate rules are shared with the checked mode
(:mod:`replykit.questionnaire.scan.checked`).
"""

from __future__ import annotations

import attrs
from lark import Token, Transformer

Span = tuple[int, int]


@attrs.frozen
class MarkdownRun:
    """A run of prose and inert regions; ``visible`` when a PROSE token in it renders
    visible text (§4.3 preface rule)."""

    start: int
    end: int
    visible: bool


@attrs.frozen
class FencedPart:
    """A fenced candidate: opener line, payload lines, closer line (``None``: unclosed)."""

    opener: Span
    payload: Span
    closer: Span | None

    @property
    def start(self) -> int:
        """Where the candidate starts (its opener's start)."""
        return self.opener[0]


@attrs.frozen
class XmlPart:
    """An XML+JSON candidate: the opening tag and the closing tag."""

    opener: Span
    closer: Span

    @property
    def start(self) -> int:
        """Where the candidate starts (its opening tag's start)."""
        return self.opener[0]


Part = MarkdownRun | FencedPart | XmlPart


def _span(tok: Token) -> Span:
    return tok.start_pos or 0, tok.end_pos or 0


class Parts(Transformer[Token, list[Part]]):
    """Rules of ``message.lark`` -> :data:`Part` values; ``message`` gives the list."""

    def message(self, items: list[Part]) -> list[Part]:
        """Rule ``message``: the message's parts in order."""
        return items

    def markdown(self, toks: list[Token]) -> MarkdownRun:
        """Rule ``markdown``: one run; visible when a PROSE token renders visible text
        (§4.3, judged in the message by the token feed: its column is 1 when it does)."""
        visible = any(t.type == "PROSE" and t.column == 1 for t in toks)
        return MarkdownRun(toks[0].start_pos or 0, toks[-1].end_pos or 0, visible)

    def fenced_candidate(self, toks: list[Token]) -> FencedPart:
        """Rule ``fenced_candidate``: opener, payload (empty at the opener's end when
        absent) and closer (``None`` when unclosed)."""
        opener = _span(toks[0])
        payload = next((_span(t) for t in toks if t.type == "FENCE_PAYLOAD"), (opener[1],) * 2)
        closer = next((_span(t) for t in toks if t.type == "FENCE_CLOSER"), None)
        return FencedPart(opener, payload, closer)

    def xml_candidate(self, toks: list[Token]) -> XmlPart:
        """Rule ``xml_candidate``: the opening and the closing tag."""
        return XmlPart(_span(toks[0]), _span(toks[-1]))
