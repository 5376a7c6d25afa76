"""The text of paragraphs, headings and HTML blocks: candidates, tags and inert regions in it.

A candidate reads as one opaque character where its opening tag stands (§3b): its
paragraph or HTML block goes on after the closer, on the closer's line. Whether a tag
lies in a code span or comment opened before it is judged with the earlier
candidates in place and the rest of the message raw (question ``inert_at``, with the
raw end of the block from question ``raw_end``).

The fast mode finds tags through the per-message index and scans inline text only up
to a tag whose inertness is asked (and, before the first visible character, to the
end of the block). The checked mode reads every line in order
(:mod:`replykit.questionnaire.scan.checked_inline`).
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING

from replykit.questionnaire.scan import checked_inline
from replykit.questionnaire.scan.definitions import definitions_end
from replykit.questionnaire.scan.inline import InlineScan, Region, comment_end, scan_inline
from replykit.questionnaire.scan.lookahead import tag_name
from replykit.questionnaire.scan.near_miss import (
    fence_near_misses,
    judged_tag,
    paragraph_fence,
    tag_near_misses,
    unknown_tag_near_miss,
)
from replykit.questionnaire.scan.state import Leaf, skip_spaces

if TYPE_CHECKING:
    from replykit.questionnaire.scan.scanner import Scanner


def paragraph_text(
    sc: Scanner, leaf: Leaf, start: int, ce: int, le: int, indent: int, depth: int
) -> int:
    """Read a paragraph line's text ``text[start:ce]`` (after ``indent`` columns of
    spaces and tabs, inside ``depth`` open containers); where the next line starts.
    A line that would open a fence but for two backticks or for blank characters that
    are not indentation is a near-miss (§8) unless an inert region covers it or its
    backticks open a code span closed on the line (inline code, no fence attempt)."""
    if sc.protocol and not sc.silent:
        near = paragraph_fence(sc.text, start, ce, indent, sc.lx)
        if near is not None and not inert_at(sc, start, ce, le) and not spans_line(sc, near[2], ce):
            fence, info, pos = near
            # Every warning that applies (§8.1): moving the line out is a fix too.
            in_container = depth > 0
            prefix = sc.text[start:pos]
            found = fence_near_misses(
                fence,
                info,
                start,
                ce,
                sc.lx,
                in_container=in_container,
                prefix=prefix,
                shared=sc.messages,
            )
            sc.out.warn(found)
    leaf.end = ce
    if sc.silent or not sc.protocol:
        if sc.paragraph_lines is not None:  # a read-ahead for question definitions_end
            sc.paragraph_lines.append((start, ce))
        return le
    if sc.checked:
        return checked_inline.read_text(sc, leaf, ce, le)
    return scan_tags(sc, start, ce, le)[0]


def skip_definitions(sc: Scanner, leaf: Leaf) -> None:
    """Question ``definitions_end``, asked once per paragraph before its inline reading:
    when it starts with link reference definitions, that reading starts after them
    (``inline_pos``), and nothing in them is inline content (``inert_end``: a tag there
    is no candidate, §3b). The lines after the first come from a silent read-ahead on
    the raw text, as question ``raw_end`` reads."""
    if leaf.kind != "paragraph" or leaf.definitions_read:
        return
    leaf.definitions_read = True
    leaf.definitions_end = leaf.start
    text = sc.text
    if not text.startswith("[", leaf.start) or leaf.inline_pos != leaf.start:
        return
    first_end, pos = sc.line_bounds(leaf.start)
    lines = _AheadLines(sc.read_ahead(leaf), pos)  # (the leaf may be closing: close_leaf asks)
    end = definitions_end(text, (leaf.start, first_end), lines.next)
    sc.scanned += lines.ahead.scanned + lines.ahead.state.copied  # the read-ahead is work too
    if end > leaf.inline_pos:
        leaf.inline_pos = leaf.inert_end = leaf.definitions_end = end


def definitions_only(sc: Scanner) -> bool:
    """Whether the open leaf is a paragraph whose lines so far (to ``leaf.end``) are
    all link reference definitions (question ``definitions_end``, CommonMark 4.7): a
    setext underline after them is no heading. The read-ahead that answers
    ``definitions_end`` reads the paragraph's lines as given and does not ask."""
    leaf = sc.state.leaf
    if leaf is None or leaf.kind != "paragraph" or sc.paragraph_lines is not None:
        return False
    if not sc.text.startswith("[", leaf.start):
        return False
    skip_definitions(sc, leaf)
    return leaf.definitions_end >= leaf.end


class _AheadLines:
    """The lines of a paragraph after its first, each read by a silent read-ahead
    (``ahead``, its state a copy with the paragraph open) only when asked for."""

    def __init__(self, ahead: Scanner, pos: int) -> None:
        self.ahead = ahead
        self.probe = ahead.state.leaf
        self.pos = pos
        self.found: list[tuple[int, int]] = []
        ahead.paragraph_lines = self.found

    def next(self) -> tuple[int, int] | None:
        """The next line's first character and content end; ``None`` after the last."""
        ahead = self.ahead
        while not self.found and self.pos < ahead.n and ahead.state.leaf is self.probe:
            self.pos = ahead.line(self.pos)
        return self.found.pop(0) if self.found and ahead.state.leaf is self.probe else None


def spans_line(sc: Scanner, pos: int, ce: int) -> bool:
    """Whether the backtick run at ``pos``, outside inert regions, opens a code span
    that closes on its own line (ending at ``ce``): a run of the same length follows
    on it (§8.1). A span closed on a later line, by a run standing alone like a
    closing fence, is still a short fence attempt."""
    run = sc.lx.backtick_run.match(sc.text, pos, ce)
    return run is not None and sc.look.closing_run(len(run.group()), run.end(), ce) >= 0


def inline_text(sc: Scanner, leaf: Leaf, start: int, ce: int, le: int) -> int:
    """Read paragraph or heading text ``text[start:ce]``; where the next line starts."""
    leaf.end = ce
    if sc.silent or not sc.protocol:
        return le
    if sc.checked:
        return checked_inline.read_text(sc, leaf, ce, le)
    return scan_tags(sc, start, ce, le)[0]


def html_text(sc: Scanner, leaf: Leaf, start: int, ce: int, le: int) -> int:
    """Read an HTML block line's text ``text[start:ce]``; a block of types 1-5 ends
    with it when its end condition stands outside the candidates (question
    ``html_block_ends``). Returns where the next line starts."""
    leaf.end = ce
    if not sc.silent:
        leaf.line_firsts.append(skip_spaces(sc.text, start, ce))
    if sc.silent or not sc.protocol:
        nxt, pieces = le, [(start, ce)]
    elif sc.checked:
        nxt, pieces = checked_inline.read_html(sc, leaf, start, ce, le)
    else:
        nxt, pieces = scan_tags(sc, start, ce, le)
    if leaf is sc.state.leaf and html_block_ends(sc, leaf, pieces):
        sc.close_leaf()
    return nxt


def html_block_ends(sc: Scanner, leaf: Leaf, pieces: list[tuple[int, int]]) -> bool:
    """Question ``html_block_ends``: an HTML block of types 1-5 ends with the line whose
    pieces outside candidates hold its end condition (types 6-7 end before a blank
    line, which the scanner sees when it reads one)."""
    if leaf.html_type > 5:
        return False
    pattern = sc.lx.html_ends[leaf.html_type - 1]
    return any(pattern.search(sc.text, a, b) for a, b in pieces)


def finish_text(sc: Scanner, leaf: Leaf) -> None:
    """The fast mode closes a paragraph, heading or HTML block: the inert regions still
    due (the preface rule, or every region in ``full`` mode; comments of HTML blocks,
    which may halt)."""
    out = sc.coarse
    assert out is not None
    if leaf.kind == "html":
        if sc.full or sc.protocol:
            html_comments(sc, leaf, leaf.end, leaf.end)
    elif out.wants_inline() and not out.settles_preface(leaf.inline_pos, leaf.end):
        skip_definitions(sc, leaf)
        flush_inline(sc, leaf, leaf.end, leaf.end)


def starts_line(leaf: Leaf, q: int) -> bool:
    """Question ``starts_line``: ``q`` is the first non-blank character of a line of
    HTML block ``leaf`` (after container markers and indentation)."""
    at = bisect.bisect_left(leaf.line_firsts, q)
    return at < len(leaf.line_firsts) and leaf.line_firsts[at] == q


def halt(sc: Scanner) -> None:
    """An unclosed comment that starts a line of an HTML block runs to the end of the
    message: nothing after it is read (§3b)."""
    sc.state.halted = True
    sc.out.halt()


def opens(sc: Scanner, tag: re.Match[str]) -> bool:
    """Whether ``tag`` (a ``TAG_LIKE`` match) is an opening tag: an exact ``OPEN_TAG``
    (§3a), or one the §9 switches accept (any case, attributes)."""
    if sc.lx.open_tag.fullmatch(sc.text, tag.start(), tag.end()):
        return True
    name, rest = tag_name(tag), tag.group("rest")
    return (name == name.lower() or sc.compat.case_insensitive) and (
        rest == ">" or (sc.compat.tag_attributes and rest != "" and rest[0] in " \t\r\n")
    )


def candidate_at(sc: Scanner, p: int) -> bool:
    """Whether an opening tag with a closer starts at ``p`` (an HTML block start there
    would be a candidate, which reads as one character, §3b)."""
    if sc.silent or not sc.protocol:
        return False
    if sc.checked:
        tag = sc.lx.tag_like.match(sc.text, p)
    else:
        i = bisect.bisect_left(sc.look.tag_starts, p)
        found = i < len(sc.look.tag_starts) and sc.look.tag_starts[i] == p
        tag = sc.look.tags[i] if found else None
    return tag is not None and sc.look.closer_for(tag)[0] >= 0 and opens(sc, tag)


def take_candidate(
    sc: Scanner, tag: re.Match[str], closer: tuple[int, int], ce: int, le: int
) -> tuple[int, int]:
    """Emit the XML+JSON candidate ``tag`` .. ``closer``; the block goes on after the
    closer, on its line: return that line's content end and end."""
    close_start, close_end = closer
    sc.out.candidate("OPEN_TAG", tag.start(), tag.end())
    sc.out.candidate("TAG_PAYLOAD", tag.end(), close_start)
    sc.out.candidate("CLOSE_TAG", close_start, close_end)
    leaf = sc.state.leaf
    assert leaf is not None
    leaf.inline_pos = close_end
    # Nothing opened before a candidate goes on after it (§3b): link text neither.
    leaf.brackets, leaf.links_from = None, 0
    if close_end > ce:  # the block spans lines: go on from the closer's line
        ce, le = sc.line_bounds(close_end)
    leaf.end = ce
    # The cached raw reading holds while it took the block past this line (an end
    # condition it saw here may lie inside the candidate).
    if leaf.raw_next < le or (leaf.raw_next == le and leaf.raw_closed_on_line):
        leaf.raw_next = -1
    return ce, le


def scan_tags(sc: Scanner, start: int, ce: int, le: int) -> tuple[int, list[tuple[int, int]]]:
    """The fast mode: find candidates and tag near-misses in ``text[start:ce]`` of the
    open leaf through the tag indexes (tags with an unknown name among them, in order:
    ``inert_at`` reads on from where it was last asked). Returns where the next line
    starts and the pieces of the line outside candidates."""
    pieces: list[tuple[int, int]] = []
    piece_start = start
    leaf, look = sc.state.leaf, sc.look
    # An HTML block of types 1-5 ends with this line when its end condition stands in a
    # piece outside the candidates before the tag or in the raw rest.
    end_kind = leaf.html_type if leaf is not None and 0 < leaf.html_type <= 5 else 0
    ended_before = False
    starts, tags = look.tag_starts, look.tags
    unknown, unknown_starts = look.unknown()
    i = bisect.bisect_left(starts, start)
    u = bisect.bisect_left(unknown_starts, start)
    while (i < len(starts) and starts[i] < ce) or (u < len(unknown) and unknown_starts[u] < ce):
        if sc.state.leaf is None:
            break
        at_unknown = u < len(unknown) and unknown_starts[u] < ce
        if at_unknown and (i >= len(starts) or unknown_starts[u] < starts[i]):
            p, e, name = unknown[u]
            u += 1
            if not inert_at(sc, p, ce, le, _ends(sc, end_kind, ended_before, piece_start, ce)):
                sc.out.warn([unknown_tag_near_miss(p, e, name, sc.messages)])
            continue
        tag = tags[i]
        i += 1
        if not judged_tag(tag):
            continue
        if inert_at(sc, tag.start(), ce, le, _ends(sc, end_kind, ended_before, piece_start, ce)):
            continue
        closer = look.closer_for(tag)
        if closer[0] < 0 and look.stop_at_unclosed and opens(sc, tag):
            # What follows is the tag's tentative block (§10): not read, and the tag's
            # near-misses, after every checkpoint of the reading, are not reported.
            break
        if closer[0] < 0 or not opens(sc, tag):
            sc.out.warn(tag_near_misses(tag, closer[0], sc.messages))
            continue
        ce, le = take_candidate(sc, tag, closer, ce, le)
        pieces.append((piece_start, tag.start()))
        if end_kind and not ended_before:
            ended_before = look.end_condition_within(end_kind, piece_start, tag.start())
        piece_start = closer[1]
        i = bisect.bisect_left(starts, closer[1])
        u = bisect.bisect_left(unknown_starts, closer[1])
    pieces.append((piece_start, ce))
    return le, pieces


def _ends(sc: Scanner, end_kind: int, ended_before: bool, piece_start: int, ce: int) -> bool:
    """An HTML block of type ``end_kind`` (1-5; 0: none) ends with this line: its end
    condition stands before a candidate on it, or in the piece from ``piece_start``."""
    return end_kind > 0 and (
        ended_before or sc.look.end_condition_within(end_kind, piece_start, ce)
    )


def inert_at(sc: Scanner, p: int, ce: int, le: int, line_ends_block: bool = False) -> bool:
    """Question ``inert_at``: whether offset ``p`` of the open leaf's text lies in a code
    span or an HTML comment opened before it (the rest raw, §3b). ``ce``/``le`` bound
    the line holding ``p``; ``line_ends_block``: an HTML block's end condition stands on
    this line, so the block ends with it. The checked mode asks only at a line start
    its in-order reading has reached."""
    leaf = sc.state.leaf
    if leaf is None or leaf.kind in ("fenced", "indented"):
        return True
    skip_definitions(sc, leaf)
    if p < leaf.inline_pos:
        return p < leaf.inert_end
    if sc.checked or p == leaf.inline_pos:
        return False  # (fast mode) nothing read before p is left to open a region
    limit = ce if line_ends_block else max(sc.raw_end(leaf, le), ce)
    if leaf.kind == "html":
        return html_comments(sc, leaf, p, limit).covering is not None
    return flush_inline(sc, leaf, p, limit).covering is not None


def flush_inline(sc: Scanner, leaf: Leaf, stop: int, limit: int) -> InlineScan:
    """The fast mode: code spans and comments of the leaf's text up to ``stop``."""
    brackets = (leaf.brackets, leaf.links_from)
    scan = scan_inline(sc.text, leaf.inline_pos, stop, limit, sc.lx, sc.look, brackets)
    sc.scanned += max(0, scan.resume - leaf.inline_pos) + scan.examined
    for region in scan.regions:
        if region[0] != "LINK_TARGET":  # inert, but text to the grammar (as definitions)
            sc.out.inert(*region)
        leaf.inert_end = region[2]
    leaf.inline_pos = scan.resume
    leaf.brackets, leaf.links_from = scan.brackets
    return scan


def html_comments(sc: Scanner, leaf: Leaf, stop: int, limit: int) -> InlineScan:
    """The fast mode: comments in an HTML block's text from ``leaf.inline_pos`` up to
    ``stop``, closing by ``limit``."""
    text = sc.text
    i = leaf.inline_pos
    sc.scanned += max(0, stop - i)
    regions: list[Region] = []
    while True:
        q = text.find("<!--", i, stop)
        if q < 0:
            leaf.inline_pos = max(i, stop)
            return InlineScan(tuple(regions), None, leaf.inline_pos)
        end = comment_end(text, q, limit, sc.look)
        halting = False
        if end < 0 and starts_line(leaf, q):
            # Unclosed and starting a line: to the end of the message where protocol
            # blocks are read (§3b), to the end of its block in plain CommonMark.
            end, halting = (sc.n, True) if sc.protocol else (limit, False)
        if end < 0:
            i = q + 4
            continue
        region = ("HTML_COMMENT", q, end)
        regions.append(region)
        sc.out.inert(*region)
        if halting:
            halt(sc)  # nothing after it is read: no token, no near-miss, also on this line
        leaf.inline_pos = leaf.inert_end = end
        if end > stop:
            return InlineScan(tuple(regions), region, end)
        i = end
