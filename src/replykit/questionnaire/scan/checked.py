"""The checked mode: the whole grammar parses the message, and the result must be the fast one's.

The scanner runs with no shortcut and emits a fine token for every construct; Lark
parses them with the grammar's ``document`` rule, every token checked against its
terminal; :class:`Reading` turns the tree into the candidates and inert regions,
re-checking the answers the grammar cannot state (a code span's runs have one length,
a closing fence matches its opener, a closing tag names its opener). Markdown runs are
the text between candidates (§2). The parts must equal the fast mode's, the
near-misses too; any difference is a :class:`ReplykitBug`.
"""

from __future__ import annotations

from typing import Any

import attrs
from lark import Token, Tree
from lark.exceptions import VisitError
from lark.visitors import Transformer_NonRecursive

from replykit.questionnaire.compat import Compat
from replykit.questionnaire.scan.emit import ReplykitBug
from replykit.questionnaire.scan.grammar import lexemes, parse, parse_document
from replykit.questionnaire.scan.lookahead import close_tag_name, tag_name
from replykit.questionnaire.scan.near_miss import NearMiss
from replykit.questionnaire.scan.parts import FencedPart, MarkdownRun, Part, Parts, XmlPart
from replykit.questionnaire.scan.scanner import Scanner
from replykit.questionnaire.scan.shown import shows_text

Region = tuple[str, int, int]
_Item = FencedPart | XmlPart | tuple[str, int, int]


@attrs.frozen
class CheckedResult:
    """The checked reading of a message: its parts (Markdown runs between candidates),
    its inert regions in order, its near-misses, and ``scanned`` (work, as the fast
    mode counts it)."""

    parts: tuple[Part, ...]
    regions: tuple[Region, ...]
    near_misses: tuple[NearMiss, ...]
    scanned: int


class Reading(Transformer_NonRecursive[Token, list[Part]], Parts):
    """Rules of rule ``document``'s tree -> candidates and inert regions, in order.
    Non-recursive: a tree as deep as the message's nesting of block quotes and list
    items is read without Python's recursion limit (no input may raise, §1)."""

    def __init__(self, compat: Compat) -> None:
        super().__init__()
        self.compat = compat

    def read(self, tree: Tree[Token]) -> list[_Item]:
        """The candidates and inert regions of ``tree``, in order; raises
        :class:`ReplykitBug` when a re-checked answer is wrong."""
        try:
            items: list[_Item] = self.transform(tree)  # type: ignore[assignment]
        except VisitError as exc:
            raise exc.orig_exc from None
        return items

    def __default__(self, data: Any, children: list[Any], meta: Any) -> list[_Item]:
        """Blocks and containers: their items, flattened."""
        return _items(children)

    def document(self, children: list[Any]) -> list[_Item]:
        """Rule ``document``: every candidate and inert region in order."""
        return _items(children)

    def xml_candidate(self, toks: list[Token]) -> XmlPart:
        """Rule ``xml_candidate``: the closing tag names the opening tag (question
        ``closer_for``; in any case, or escaped, only under §9)."""
        lx = lexemes()
        opener = lx.tag_like.fullmatch(str(toks[0]))
        closer = lx.any_close_tag.fullmatch(str(toks[-1]))
        fold = str.lower if self.compat.case_insensitive else str
        if (
            opener is None
            or closer is None
            or fold(tag_name(opener)) != fold(close_tag_name(closer))
            or (closer.group("escaped") and not self.compat.escaped_closers)
        ):
            raise ReplykitBug(f"{str(toks[-1])!r} does not close {str(toks[0])!r}")
        return super().xml_candidate(toks)

    def code_span(self, toks: list[Token]) -> Region:
        """Rule ``code_span``: runs of one length (question ``pairs_code_span``)."""
        if len(toks[0]) != len(toks[-1]):
            raise ReplykitBug(f"code span runs {str(toks[0])!r} and {str(toks[-1])!r} differ")
        return ("CODE_SPAN", _start(toks[0]), _end(toks[-1]))

    def fenced_code(self, toks: list[Token]) -> Region:
        """Rule ``fenced_code``: a closing fence is the opener's character and at least
        its length (question ``closes_fence``)."""
        if toks[-1].type == "CODE_FENCE_CLOSE":
            opener, closer = str(toks[0]).lstrip(" "), str(toks[-1]).rstrip(" \t")
            run = len(opener) - len(opener.lstrip(opener[0]))
            if closer[0] != opener[0] or len(closer) < run:
                raise ReplykitBug(f"{closer!r} does not close the fence {opener!r}")
        return ("FENCED_CODE", _start(toks[0]), _end(toks[-1]))

    def indented_code(self, toks: list[Token]) -> Region:
        """Rule ``indented_code``: from its first to its last code line."""
        last = [t for t in toks if t.type == "INDENTED_LINE"][-1]
        return ("INDENTED_CODE", _start(toks[0]), _end(last))

    def HTML_COMMENT(self, tok: Token) -> Region:
        """Terminal ``HTML_COMMENT``: an inert region."""
        return ("HTML_COMMENT", _start(tok), _end(tok))

    def HALTING_COMMENT(self, tok: Token) -> Region:
        """Terminal ``HALTING_COMMENT``: an inert region to the end of the message."""
        return ("HTML_COMMENT", _start(tok), _end(tok))


def _start(tok: Token) -> int:
    return tok.start_pos or 0


def _end(tok: Token) -> int:
    return tok.end_pos or 0


def _items(children: list[Any]) -> list[_Item]:
    out: list[_Item] = []
    for child in children:
        if isinstance(child, list):
            out.extend(child)
        elif isinstance(child, FencedPart | XmlPart | tuple):
            out.append(child)
    return out


def check_reading(text: str, compat: Compat | None = None) -> CheckedResult:
    """Read ``text`` in checked mode: scan, parse rule ``document``, build the parts.
    Raises :class:`ReplykitBug` when a token or the tree breaks the grammar."""
    compat = compat or Compat()
    scan = Scanner(text, lexemes(), compat=compat, checked=True).run()
    tree = parse_document(text, scan.tokens, strict=compat == Compat())
    items = Reading(compat).read(tree)
    regions = tuple(r for r in items if isinstance(r, tuple))
    candidates = [c for c in items if isinstance(c, FencedPart | XmlPart)]
    parts = _parts(text, candidates, regions)
    return CheckedResult(parts, regions, scan.near_misses, scan.scanned)


def _parts(
    text: str, candidates: list[FencedPart | XmlPart], regions: tuple[Region, ...]
) -> tuple[Part, ...]:
    """Markdown runs between the candidates (§2); a run is visible when its text
    outside the inert regions renders visible text (§4.3)."""
    out: list[Part] = []
    pos = 0
    for c in candidates:
        if c.opener[0] > pos:
            out.append(_run(text, pos, c.opener[0], regions))
        out.append(c)
        pos = c.closer[1] if c.closer is not None else c.opener[1]
        if isinstance(c, FencedPart) and c.closer is None:
            pos = c.payload[1]
    if pos < len(text):
        out.append(_run(text, pos, len(text), regions))
    return tuple(out)


def _run(text: str, start: int, end: int, regions: tuple[Region, ...]) -> MarkdownRun:
    pos = start
    for _, s, e in regions:
        if e <= pos or s >= end:
            continue
        if shows_text(text, pos, s):
            return MarkdownRun(start, end, True)
        pos = max(pos, e)
    return MarkdownRun(start, end, pos < end and shows_text(text, pos, end))


def compare(text: str, checked: CheckedResult, compat: Compat | None, possible: bool) -> None:
    """Raise :class:`ReplykitBug` unless the fast mode reads ``text`` as ``checked`` did:
    the same candidates, the same Markdown runs and preface (§4.3), the same
    near-misses; and unless ``possible`` (the text holds the family word), neither
    found a block or a near-miss (the fast mode's quick answer)."""
    if not possible and (checked.near_misses or len(checked.parts) > 1):
        raise ReplykitBug("a block or near-miss in a message without the family word")
    fast = Scanner(text, lexemes(), compat=compat).run()
    parts = parse(text, fast.tokens)
    if _shape(parts) != _shape(list(checked.parts)):
        raise ReplykitBug(
            f"checked parts {_shape(list(checked.parts))} differ from fast parts {_shape(parts)}"
        )
    mine = sorted(checked.near_misses, key=lambda m: m.start or 0)
    theirs = sorted(fast.near_misses, key=lambda m: m.start or 0)
    if mine != theirs:
        raise ReplykitBug(f"checked near-misses {mine} differ from fast near-misses {theirs}")


def _shape(parts: list[Part]) -> list[tuple[object, ...]]:
    """Parts with each run's ``visible`` replaced by whether a visible character has
    been seen by its end (all the preface rule reads; the fast mode folds inert regions
    into prose once one has)."""
    out: list[tuple[object, ...]] = []
    seen = False
    for part in parts:
        if isinstance(part, MarkdownRun):
            seen = seen or part.visible
            out.append(("markdown", part.start, part.end, seen))
        else:
            out.append(attrs.astuple(part))
    return out
