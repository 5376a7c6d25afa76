"""Question ``first_shown``: where prose first renders visible text (docs/protocol.md
§4.3, the preface rule).

A fenced candidate needs ordinary prose before it. Prose is judged as CommonMark
renders it, line by line, with the grammar's lexemes (``grammar/message.lark``, "What
renders no text"): blank characters (§1.1), character references that decode to blank characters,
raw HTML within one line (tags, declarations, processing instructions, CDATA), the
block markers at the head of a line (``>``, list markers, an ATX ``#`` and the
heading's closing ``#`` run), and whole
lines that are thematic breaks or one-line link reference definitions render no text; a line
that continues a top-level paragraph is read as CommonMark reads it (its empty list item,
ordered item not starting at 1, definition or 4-column indentation is text).
Every construct skipped lies within one line and is matched on the whole text, so the
answer for a span is the same however the span is cut at line starts and at inert
regions or candidates (the fast, checked and streaming readings cut it differently).
The paragraph a line continues is looked for within the span only
(:mod:`.continuation`): the readings hand a paragraph's lines over in one span (a
streaming reading resumes only where no paragraph is open), and read no further back
alike.
"""

from __future__ import annotations

from replykit.questionnaire.info_string import decode_reference
from replykit.questionnaire.scan.continuation import Memo, continued
from replykit.questionnaire.scan.lexemes import Lexemes
from replykit.questionnaire.scan.lines import break_tail, is_break, is_definition, line_end
from replykit.text import first_visible, is_blank


def _after_line_ending(text: str, start: int, end: int) -> int:
    """The position after the last line ending in ``text[start:end]``, or -1."""
    n, r = text.rfind("\n", start, end), text.rfind("\r", start, end)
    last = max(n, r)
    return -1 if last < 0 else last + 1


def _line_head(text: str, pos: int, end: int, lx: Lexemes) -> tuple[int, int]:
    """From line start ``pos``: past the indentation and the block markers that render
    no text, or to the line's end when the line is a thematic break or a link reference
    definition (never past ``end``); and where the line's text ends: an ATX heading's
    closing sequence starts there (CommonMark 4.2: ``# #`` is an empty heading), else
    the line's end."""
    stop = line_end(text, pos)
    if pos == 0 and text.startswith("\ufeff"):
        pos = 1  # §1.1: a leading BOM is not read
    # A thematic break holds one of "-*_" and spaces or tabs only, so it can start no
    # earlier than ``breaks``: asked once per line, not once per list marker (a line of
    # 10^5 markers stays linear).
    breaks = break_tail(text, pos, stop)
    while True:
        while pos < stop and text[pos] in " \t":
            pos += 1
        if pos < stop and text[pos] == ">":
            pos += 1
            continue
        m = lx.list_marker.match(text, pos, stop)
        if m is None or is_break(text, pos, stop, breaks, lx):
            break
        pos = m.end()
    if is_break(text, pos, stop, breaks, lx) or is_definition(text, pos, stop):
        return min(stop, end), stop
    m = lx.atx_marker.match(text, pos, stop)
    if m is None:
        return min(pos, end), stop
    return min(m.end(), end), _closing_sequence(text, m.end(), stop)


# What may stand between a line's start and its content: indentation and the markers
# of block quotes and list items.
_HEAD_CHARS = frozenset(" \t>-+*.)0123456789")


def _at_line_head(text: str, start: int, lx: Lexemes) -> bool:
    """Whether ``start`` is where a line's content begins: a line start, or after only
    indentation and container markers (a reading hands a paragraph in a block quote or
    list item its text from there, and a link reference definition or an ATX heading
    starts there as at a line start). Looks back only over such characters."""
    i = start
    while i > 0 and text[i - 1] in _HEAD_CHARS:
        i -= 1
    if i == 1 and text[0] == "\ufeff":
        i = 0  # §1.1: a leading BOM is not read
    if i > 0 and text[i - 1] not in "\r\n":
        return False
    return i == start or _line_head(text, i, start, lx)[0] >= start


def _closes_heading(text: str, j: int, stop: int, lx: Lexemes) -> bool:
    """Whether the ``#`` at ``j`` is in the closing sequence of an ATX heading, the
    line read from its start (the answer is the same wherever a reading cut the line;
    asked at most once a line, as a closing sequence runs to the line's end)."""
    k = j
    while k < stop and text[k] == "#":
        k += 1
    while k < stop and text[k] in " \t":
        k += 1
    if k != stop:
        return False
    line_start = max(text.rfind("\n", 0, j), text.rfind("\r", 0, j)) + 1
    return _line_head(text, line_start, stop, lx)[1] <= j


def _closing_sequence(text: str, start: int, stop: int) -> int:
    """Where an ATX heading's optional closing sequence starts in its content
    ``text[start:stop]`` (a run of ``#`` after a space or tab, then spaces or tabs
    only), else ``stop``."""
    i = stop
    while i > start and text[i - 1] in " \t":
        i -= 1
    k = i
    while k > start and text[k - 1] == "#":
        k -= 1
    if k < i and (k == start or text[k - 1] in " \t"):
        return k
    return stop


def first_shown(text: str, start: int, end: int, head: bool | None = None) -> int:
    """Question ``first_shown``: the index of the first character of prose
    ``text[start:end]`` that renders visible text (§4.3), or -1. ``head``: ``start``
    is a line start (``None``: when it is 0 or follows a line ending). Linear in the
    text examined: each construct skipped is matched once, and the search stops at the
    first shown character."""
    j = first_visible(text, start, end)
    if j < 0 or text[j].isalpha():
        # Only blank characters before it, and a letter starts no construct that
        # renders nothing (those start with a marker, "&", "<" or "["): the general
        # reading below gives the same answer (tests/test_preface_shown.py).
        return j
    return first_shown_general(text, start, end, head)


def first_shown_general(text: str, start: int, end: int, head: bool | None = None) -> int:
    """:func:`first_shown` read construct by construct, with no fast path (the
    reference its fast path is proven equal to)."""
    # Imported here: the grammar module imports the parts, which read this question.
    from replykit.questionnaire.scan.grammar import lexemes

    lx = lexemes()
    pos, stop = start, -1  # stop: the end of the line being read, once known
    # Where paragraphs may start (read back no further): ``start`` when it is a line
    # start (a token's column 1), or after the line ending it starts with (the line it
    # ends lies before the span: a code block's last line, say).
    lo, lo_line = start, head if head is not None else start == 0 or text[start - 1] in "\r\n"
    if not lo_line and text.startswith(("\n", "\r"), start):
        lo, lo_line = start + (2 if text.startswith("\r\n", start) else 1), True
    if head is None:
        head = _at_line_head(text, start, lx)
    memo: Memo = {}  # what is open before each line read so far (this span only)
    while pos < end:
        if head:
            # A line that continues a paragraph starts no block but an interrupting one.
            at = continued(text, lo, lo_line, pos, end, lx, memo) if pos >= lo else -1
            pos, head = (at if at >= 0 else _line_head(text, pos, end, lx)[0]), False
            continue
        j = first_visible(text, pos, end)
        if j < 0:
            return -1
        after = _after_line_ending(text, pos, j)
        if after >= 0:
            pos, head = after, True
            continue
        if stop < j:
            # Once per line, and no further than the span: a line of many spans (the
            # prose between candidates on one line) is searched once in all.
            stop = line_end(text, j, end)
        # A "#" run is a heading's closing sequence only where the line ends after it
        # (a span that stops short of its line's end is followed by more of the line).
        ends_here = stop < end or end == len(text) or text[end] in "\r\n"
        if text[j] == "#" and ends_here and _closes_heading(text, j, stop, lx):
            pos = stop  # the closing sequence renders nothing, and only it follows
            continue
        skip = _renders_nothing(text, j, min(end, stop), lx)
        if skip <= j:
            return j
        pos = skip
    return -1


def _renders_nothing(text: str, j: int, stop: int, lx: Lexemes) -> int:
    """The end of the construct at ``j`` (within ``stop``) that renders no text: a
    character reference of blank characters or raw HTML; else ``j``."""
    if text[j] == "&":
        m = lx.character_reference.match(text, j, stop)
        if m is not None and is_blank(decode_reference(m.group())):
            return m.end()
    elif text[j] == "<":
        m = lx.raw_html.match(text, j, stop)
        if m is not None:
            return m.end()
    return j


def shows_text(text: str, start: int, end: int, head: bool | None = None) -> bool:
    """Whether prose ``text[start:end]`` renders visible text (:func:`first_shown`)."""
    return first_shown(text, start, end, head) >= 0
