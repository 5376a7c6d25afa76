"""Faults of a client's splitter: where it finds blocks (docs/protocol.md §1-§3).

Each function is one layer (``(request, inner) -> response``, see ``base.py``) for
the ``segment`` op. Most rewrite the message so that replykit, reading the rewritten
text, decides as the faulty client does, then move the answer back onto the original
text; a few drop blocks from replykit's answer where the client sees code.
"""

from __future__ import annotations

import html
import re
import unicodedata
from typing import Any

from replykit.questionnaire.payload import read_json_value

from .base import Answer, Request, Response, blocks, codes, demote, line_start, with_edits

_FAMILY = r"(?:[a-z0-9]+-)?questionnaire"
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")


def _lines(text: str) -> list[tuple[int, str]]:
    """(start, content without line ending) of each line."""
    out = []
    for m in _LINE.finditer(text):
        if m.start() == len(text) and m.start() > 0:
            break
        out.append((m.start(), m.group().rstrip("\r\n")))
    return out


# Family: a message that is a JSON string is decoded first (docs/protocol.md §1,
# "no transport decoding"). The client JSON.parse()s a message that looks like a JSON
# string literal and splits the value; its offsets index the value.
def json_string_message(request: Request, inner: Answer) -> Response:
    body = request["text"].strip()
    if len(body) >= 2 and body[0] == body[-1] == '"':
        read = read_json_value(body)
        if not read.findings and isinstance(read.value, str):
            return inner({**request, "text": read.value})
    return inner(request)


_ESCAPED_TAG = re.compile("&lt;/?" + _FAMILY, re.IGNORECASE)


# Family: HTML entities are decoded before splitting (§1). A client whose
# messages arrive HTML-escaped unescapes a message holding ``&lt;questionnaire``;
# its offsets index the unescaped text.
def entities_decoded(request: Request, inner: Answer) -> Response:
    text = request["text"]
    if _ESCAPED_TAG.search(text):
        return inner({**request, "text": html.unescape(text)})
    return inner(request)


# Family: a lone CR is not a line ending (§1). The client splits lines on "\n"
# (and "\r\n") and trims each line, so a lone CR reads as a space inside a line.
def lone_cr(request: Request, inner: Answer) -> Response:
    text = request["text"]
    edits = [(m.start(), m.end(), " ") for m in re.finditer(r"\r(?!\n)", text)]
    return with_edits(request, inner, edits)


_FENCE_NAME = re.compile(
    r"(?m)^(\ufeff?[ \t]{0,3}`{3,}[ \t]*)(" + _FAMILY + r")(?=[ \t]*\r?$)", re.IGNORECASE
)


# Family: names are read case-insensitively (§3a, §8.1). The client matches
# ``<Questionnaire>`` and a ```` ```Questionnaire ```` info string ignoring ASCII case
# and reports the name lower case. Tags: replykit's own §9 switch ``case_insensitive``
# (set by this fault's entry in the registry); fence info strings: lower-cased here.
def case_insensitive_fences(request: Request, inner: Answer) -> Response:
    text = request["text"]
    edits = [
        (m.start(2), m.end(2), m.group(2).lower())
        for m in _FENCE_NAME.finditer(text)
        if m.group(2) != m.group(2).lower()
    ]
    return with_edits(request, inner, edits)


_TAB_FENCE = re.compile(r"(?m)^([ \t]*\t[ \t]*)(?=`{3,})")


# Family: a tab before a fence is counted as indentation of one column (§3a:
# CommonMark expands a tab to the next multiple of 4, so "\t```" is indented code).
# The client's opener and closer pattern is /^\s{0,3}```/.
def tab_before_fence(request: Request, inner: Answer) -> Response:
    text = request["text"]
    edits = [
        (m.start(1), m.end(1), m.group(1).replace("\t", " "))
        for m in _TAB_FENCE.finditer(text)
        if len(m.group(1)) <= 3
    ]
    return with_edits(request, inner, edits)


# Family: fence content is not dedented by the opener's indentation (§3a). The
# client hands the payload lines to its YAML parser as they stand. Removing the
# opener's indentation makes replykit read them so.
def fence_not_dedented(request: Request, inner: Answer) -> Response:
    first = inner(request)
    text = request["text"]
    edits = []
    for seg in blocks(first, "fenced_yaml"):
        start = seg["start"] + (1 if seg["start"] == 0 and text.startswith("\ufeff") else 0)
        indent = len(text[start:]) - len(text[start:].lstrip(" "))
        if indent:
            edits.append((start, start + indent, ""))
    return with_edits(request, inner, edits) if edits else first


_CONTAINER = re.compile(r"[ \t>*+\-.)0-9]*")
_QUOTE = re.compile(r"(?:[ \t]{0,3}>[ \t]?)+")
_CLOSER = re.compile(r"[ \t]*`{3,}[ \t]*")


# Family: fences inside list items or block quotes are accepted (§3c). The
# client strips list and quote markers before it looks for a fence, and quote markers
# from the lines after it up to the closing fence.
def fence_in_container(request: Request, inner: Answer) -> Response:
    first = inner(request)
    text = request["text"]
    edits: list[tuple[int, int, str]] = []
    lines = _lines(text)
    for d in first.get("diagnostics", []):
        if d["code"] != "near_miss.in_container" or not text.startswith("```", d["start"]):
            continue  # a tilde fence is no candidate anywhere
        begin = line_start(text, d["start"])
        if not _CONTAINER.fullmatch(text, begin, d["start"]):
            continue
        edits.append((begin, d["start"], ""))
        if ">" not in text[begin : d["start"]]:
            continue
        for start, content in (line for line in lines if line[0] > begin):
            quote = _QUOTE.match(content)
            if quote is None:
                break
            edits.append((start, start + quote.end(), ""))
            if _CLOSER.fullmatch(content, quote.end()):
                break
    return with_edits(request, inner, edits) if edits else first


_HTML_START = re.compile(
    r"(?m)^([ ]{0,3})<(?=/?[A-Za-z])(?!/?" + _FAMILY + r"(?:-response)?(?![A-Za-z0-9-]))",
    re.IGNORECASE,
)


# Family: HTML blocks are not inert (§3b: a fence line inside an HTML block is
# raw HTML). The client does not know HTML blocks: it reads ``<details>`` as a line of
# text, so a fence after it opens. Here the tag's ``<`` becomes a letter.
def html_blocks_not_inert(request: Request, inner: Answer) -> Response:
    text = request["text"]
    edits = [(m.end(1), m.end(1) + 1, "x") for m in _HTML_START.finditer(text)]
    return with_edits(request, inner, edits)


# Family: HTML comments are not inert (§3b). The client does not know
# comments: ``<!-- <questionnaire>...</questionnaire> -->`` shows a card.
def html_comments_not_inert(request: Request, inner: Answer) -> Response:
    text = request["text"]
    edits = [(m.start(), m.start() + 1, "x") for m in re.finditer("<!--", text)]
    return with_edits(request, inner, edits)


# Family: an escaped backtick opens a code span (§3b). The client's code-span
# pattern /`[^`]*`/ does not know backslash escapes.
def escaped_backtick(request: Request, inner: Answer) -> Response:
    text = request["text"]
    edits = [(m.end(1), m.end(1) + 1, "x") for m in re.finditer(r"(?<!\\)((?:\\\\)*)\\`", text)]
    return with_edits(request, inner, edits)


_FENCE_LINE = re.compile(r"[ ]{0,3}(`{3,}|~{3,})")
_RUN = re.compile(r"(?<![`\\])`+")
_BLANK_LINE = re.compile(r"(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)")


def _outside_fences(text: str) -> list[tuple[int, int]]:
    """The line ranges not inside a fenced code block, as a client that reads fences
    line by line finds them."""
    out: list[tuple[int, int]] = []
    fence = ""
    for start, content in _lines(text):
        m = _FENCE_LINE.match(content)
        if fence:
            closes = m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)
            if closes and content[m.end() :].strip() == "":
                fence = ""
            continue
        if m:
            fence = m.group(1)
            continue
        out.append((start, start + len(content)))
    return out


def _spans_over_blank_lines(text: str) -> list[tuple[int, int]]:
    """Code spans as /(`+)[\\s\\S]*?\\1/ finds them outside fences, crossing lines,
    that hold a blank line."""
    runs = [
        (m.start(), m.end()) for a, b in _outside_fences(text) for m in _RUN.finditer(text, a, b)
    ]
    spans = []
    i = 0
    while i < len(runs):
        size = runs[i][1] - runs[i][0]
        j = next((k for k in range(i + 1, len(runs)) if runs[k][1] - runs[k][0] == size), None)
        if j is None:
            i += 1
            continue
        if _BLANK_LINE.search(text, runs[i][1], runs[j][0]):
            spans.append((runs[i][0], runs[j][1]))
        i = j + 1
    return spans


# Family: code spans run across blank lines (§3b: no span crosses a blank
# line). The client's span pattern is multi-line, so a tag after a blank line inside
# such a "span" is code.
def span_across_blank_lines(request: Request, inner: Answer) -> Response:
    response = inner(request)
    text = request["text"]
    if "`" not in text:
        return response
    spans = _spans_over_blank_lines(text)

    def in_span(seg: dict[str, Any]) -> bool:
        return seg["encoding"] == "xml_json" and any(a < seg["start"] < b for a, b in spans)

    return demote(request, response, in_span)


def _indent(text: str, start: int) -> int:
    col = 0
    for ch in text[start:]:
        if ch == " ":
            col += 1
        elif ch == "\t":
            col += 4 - col % 4
        else:
            break
    return col


# Family: any line indented 4 spaces is code (§3b: indented code cannot
# interrupt a paragraph, and list content is indented relative to its item). The
# client shows every such line as code, tags on it included.
def indented_always_code(request: Request, inner: Answer) -> Response:
    response = inner(request)
    text = request["text"]

    def on_indented_line(seg: dict[str, Any]) -> bool:
        begin = line_start(text, seg["start"])
        return seg["encoding"] == "xml_json" and _indent(text, begin) >= 4

    return demote(request, response, on_indented_line)


# Family: zero-width and BOM characters count as preface prose (§1.1: blank
# is White_Space or Cf). The client's trim() keeps U+200B, U+2060, U+00AD and U+FEFF.
def invisible_preface(request: Request, inner: Answer) -> Response:
    first = inner(request)
    text = request["text"]
    late = [s for s in first["segments"] if "fence.no_preface" in codes(s)]
    if not late:
        return first
    edits = []
    for seg in first["segments"]:
        if seg["start"] >= late[-1]["start"]:
            break
        if seg["kind"] != "markdown":
            continue
        for i in range(seg["start"], seg["end"]):
            leading_bom = i == 0 and text[1:2] not in ("", "\r", "\n")
            if unicodedata.category(text[i]) == "Cf" and not leading_bom:
                edits.append((i, i + 1, "x"))
    return with_edits(request, inner, edits) if edits else first


# Family: the preface rule is ignored (§4.3). The client shows a fenced form
# that is the first thing in the message. Here replykit reads the message after a
# line of prose, which is then taken out of its answer.
def preface_ignored(request: Request, inner: Answer) -> Response:
    text = request["text"]
    at = 1 if text.startswith("\ufeff") else 0
    return with_edits(request, inner, [(at, at, "x\n\n")])


# Family: a shorter closing fence is accepted (§3a: a closing fence is at
# least as long as the opener). The client closes a ````questionnaire block at the
# first line of three or more backticks. Here the opener is cut to three.
def short_closer(request: Request, inner: Answer) -> Response:
    text = request["text"]
    if "````" not in text:
        return inner(request)
    first = inner(request)
    edits = []
    for seg in blocks(first, "fenced_yaml"):
        m = re.compile(r"\ufeff?[ ]{0,3}(`{4,})").match(text, seg["start"])
        if m is not None:
            edits.append((m.start(1) + 3, m.end(1), ""))
    return with_edits(request, inner, edits) if edits else first


def _utf16(text: str) -> list[int]:
    out, units = [0], 0
    for ch in text:
        units += 2 if ord(ch) > 0xFFFF else 1
        out.append(units)
    return out


# Family: offsets are UTF-16 code units (§1.1: offsets are code points). The
# client reports String.prototype.indexOf positions without converting.
def utf16_offsets(request: Request, inner: Answer) -> Response:
    response = inner(request)
    text = request["text"]
    if all(ord(ch) <= 0xFFFF for ch in text):
        return response
    units = _utf16(text)
    segments = [
        {**s, "start": units[s["start"]], "end": units[s["end"]]} for s in response["segments"]
    ]
    return {**response, "segments": segments}
