"""§3b: the inert regions ``segment()`` acts on are CommonMark's, with candidates in place.

The property: read the message with the lexer in protocol mode and every inert region
emitted (``Lexer(full=True)``, the reading ``segment()`` makes, checked here to find the
same candidates and near-misses). Its inert regions must equal ``code_regions()`` of the
same text with every XML+JSON candidate replaced by one opaque character (offsets mapped
back) and the fenced candidates left out, plus §3b's own rule that an unclosed comment
starting a line of an HTML block runs to the end of the message. Every exact opening
tag with a closer after it that lies outside those regions and outside earlier
candidates is a candidate, and every top-level fence with a family name is one.

A candidate is judged with the rest of the message raw (§3b), so an inline construct
opened before it never continues past it (docs/protocol.md §3b). Where the
replaced text would let one do so (a code span or comment whose block the payload
extended, a raw HTML tag or autolink around the candidate), the readings are compared
up to the start of that construct's block.
"""

from __future__ import annotations

import re

from hypothesis import example, given
from markdown_it import MarkdownIt

from replykit import code_regions, segment
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.scanner import Scanner as Lexer
from replykit.testing.strategies import inert_messages
from replykit.text import LINE_END_RE

_KINDS = {
    "FENCED_CODE": "fenced",
    "INDENTED_CODE": "indented",
    "CODE_SPAN": "span",
    "HTML_COMMENT": "html_comment",
}
_EXACT_OPENER = re.compile(r"<((?:[a-z0-9]+-)?questionnaire(?:-response)?)>")
_FAMILY_FENCE = re.compile(r"[ ]{0,3}`{3,}[ \t]*(?:[a-z0-9]+-)?questionnaire[ \t]*")
_MD = MarkdownIt("commonmark")
_OPAQUE = 0xE000  # candidate i becomes chr(_OPAQUE + i): private use, plain text

Region = tuple[str, int, int]


class View:
    """The protocol-mode reading: inert regions, candidates and near-misses."""

    def __init__(self, text: str) -> None:
        lx = Lexer(text, lexemes(), full=True).run()
        self.inert: list[Region] = [
            (_KINDS[t.type], t.start, t.end) for t in lx.tokens if t.type in _KINDS
        ]
        self.xml: list[tuple[int, int]] = []
        self.fenced: list[tuple[int, int]] = []
        for t in lx.tokens:
            if t.type == "OPEN_TAG":
                self.xml.append((t.start, t.end))
            elif t.type == "CLOSE_TAG":
                self.xml[-1] = (self.xml[-1][0], t.end)
            elif t.type == "FENCE_OPENER":
                self.fenced.append((t.start, len(text)))
            elif t.type == "FENCE_CLOSER":
                self.fenced[-1] = (self.fenced[-1][0], t.end)
        self.near = sorted((n.code, n.start) for n in lx.near_misses)


def replaced(text: str, xml: list[tuple[int, int]]) -> tuple[str, list[int], list[int]]:
    """``text`` with candidate i replaced by ``chr(_OPAQUE + i)``, and for each character
    of the result its start and end offsets in ``text``."""
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    for i, (s, e) in enumerate(xml):
        out += [text[pos:s], chr(_OPAQUE + i)]
        starts += [*range(pos, s), s]
        ends += [*range(pos + 1, s + 1), e]
        pos = e
    out.append(text[pos:])
    starts += range(pos, len(text))
    ends += range(pos + 1, len(text) + 1)
    return "".join(out), starts, ends


def _closed(raw: str) -> bool:
    return raw.endswith("-->") or raw in ("<!-->", "<!--->")


def _crossed(replaced_text: str) -> set[int]:
    """Lines (0-based, of the replaced text) starting a paragraph in which a raw HTML tag
    or an autolink holds a candidate's character, as markdown-it-py reads it."""
    lines = set()
    tokens = _MD.parse(replaced_text)
    for tok in tokens:
        if tok.type != "inline" or not tok.children or tok.map is None:
            continue
        inside_link = False
        for child in tok.children:
            if child.type == "link_open" and child.markup == "autolink":
                inside_link = True
            elif child.type == "link_close":
                inside_link = False
            holds = any(0xE000 <= ord(ch) < 0xF900 for ch in child.content)
            if holds and (child.type == "html_inline" or inside_link):
                lines.add(tok.map[0])
    return lines


def _inert(text: str, xml: list[tuple[int, int]]) -> tuple[list[Region], int]:
    """CommonMark's inert regions of ``text`` with the candidates ``xml`` in place,
    mapped back to ``text``; and where a construct holding a candidate starts (a region,
    or the paragraph of a raw HTML tag or autolink; the length of the text if none)."""
    t2, starts, ends = replaced(text, xml)
    regions = [
        (r.kind, starts[r.start], ends[r.end - 1]) for r in code_regions(t2) if r.end > r.start
    ]
    cut = len(text)
    crossed = _crossed(t2)
    if crossed:
        line_starts = [0] + [m.end() for m in LINE_END_RE.finditer(t2)]
        cut = starts[line_starts[min(crossed)]]
    for _, s, e in regions:
        if any(s <= cs and ce <= e for cs, ce in xml):
            cut = min(cut, s)
            break
    return regions, cut


def _halt(text: str, regions: list[Region]) -> int:
    """Where the first unclosed comment starts (it runs to the end of the message in
    ``segment()``), or the text's length."""
    for kind, s, e in regions:
        if kind == "html_comment" and not _closed(text[s:e]):
            return s
    return len(text)


def expected_candidates(
    text: str, fenced: list[tuple[int, int]]
) -> tuple[list[tuple[int, int]], int]:
    """The XML+JSON candidates by the rule of §3a/§3b, one at a time: the next is the
    first exact opening tag with a closer after it, after the last candidate, outside the
    inert regions of the text read with the earlier candidates in place and the rest
    raw, and before any unclosed comment that starts a line. Also where the first
    construct holding a candidate starts: the search stops there."""
    found: list[tuple[int, int]] = []
    while True:
        regions, cut = _inert(text, found)
        if cut < len(text):
            return found, cut
        after = found[-1][1] if found else 0
        halt = _halt(text, regions)
        nxt = None
        for m in _EXACT_OPENER.finditer(text, after):
            p = m.start()
            if p >= halt:
                break
            close = text.find(f"</{m.group(1)}>", m.end())
            if close < 0 or any(s <= p < e for _, s, e in regions):
                continue
            if any(s <= p < e for s, e in fenced):
                continue
            nxt = (p, close + len(m.group(1)) + 3)
            break
        if nxt is None:
            return found, len(text)
        found.append(nxt)


def expected(text: str, view: View) -> tuple[list[Region], int]:
    """CommonMark's inert regions of the text with the candidates in place, mapped back,
    without the fenced candidates, cut at the first unclosed comment that starts a line
    (which runs to the end of the message); and the offset up to which the readings
    must agree (the start of a construct that holds a candidate, see above)."""
    regions, upto = _inert(text, view.xml)
    out: list[Region] = []
    for kind, s, e in regions:
        if s >= upto:
            break
        if kind == "fenced" and any(fs <= s < fe for fs, fe in view.fenced):
            continue
        if kind == "html_comment" and not _closed(text[s:e]):
            out.append((kind, s, len(text)))
            break
        out.append((kind, s, e))
    return out, upto


def check(text: str) -> None:
    view = View(text)
    seg = segment(text)
    blocks = [(s.start, s.end) for s in seg.segments if s.kind != "markdown"]
    assert blocks == sorted(view.xml + view.fenced)
    near = sorted((d.code, d.start) for d in seg.diagnostics if d.code.startswith("near_miss."))
    assert near == view.near
    xml, cut = expected_candidates(text, view.fenced)
    # Past a construct that holds a candidate the rule leaves the reading open.
    assert (view.xml[: len(xml)] if cut < len(text) else view.xml) == xml
    regions, upto = expected(text, view)
    upto = min(upto, cut)
    mine = [r for r in view.inert if r[2] <= upto]
    assert mine == [r for r in regions if r[2] <= upto], (mine, regions, upto)
    halt = min(_halt(text, regions), upto)
    assert all(s < halt for s, _ in blocks if s < upto)
    # No near-miss inside a region opened before it, nor after an unclosed comment.
    for _, start in view.near:
        if start < upto:
            assert start < halt and not any(s < start < e for _, s, e in view.inert), start


MINIMAL = "<!--<questionnaire\n--><questionnaire></questionnaire>"
REPORTED = (
    "<!--\n<questionnaire\n-->\n\nIntro\n\n```questionnaire\ntitle: T\nquestions:\n"
    '  - type: free_text\n    text: Q\n    default: ""\n```\n'
)


@given(inert_messages())
@example(MINIMAL)
@example(REPORTED)
def test_inert_regions_are_commonmarks_with_candidates_in_place(text: str) -> None:
    check(text)
