"""``segment()``: split an assistant message into Markdown and protocol blocks (§2-§6).

Pipeline: the lexer stage (``scan/lexer.py``) turns the message into tokens; the Lark
grammar (``grammar/message.lark``) parses them; :class:`_Parts` turns the parse tree
into raw parts; :func:`segment` then reads each block's payload (``payload/``), places
every finding in the message, and applies the profile.
"""

from __future__ import annotations

import bisect
import re

import attrs
from lark import Token, Transformer

from replykit.diagnostics import Diagnostic, Finding, format_path
from replykit.model import Segment, Segmentation
from replykit.payload.fenced_form import read_fenced_form
from replykit.payload.results import FormRead, ResponseRead
from replykit.payload.xml_form import read_xml_request, read_xml_response
from replykit.profiles import CLIENT, RESPONSE_SUFFIX, Profile
from replykit.scan.grammar import lexemes, parse
from replykit.scan.lexer import Lexer
from replykit.text import LineIndex, first_visible, trim_blank

# Exact fast path: without the family name (in any ASCII case) there can be no
# candidate and no near-miss, so the message is one Markdown segment.
_FAMILY = re.compile(r"questionnaire", re.IGNORECASE | re.ASCII)


@attrs.frozen
class _Markdown:
    start: int
    end: int
    visible: bool


@attrs.frozen
class _Fenced:
    opener: Token
    payload: Token | None
    closer: Token | None


@attrs.frozen
class _Xml:
    opener: Token
    payload: Token | None
    closer: Token


_Part = _Markdown | _Fenced | _Xml


class _Parts(Transformer[Token, list[_Part]]):
    """Parse tree -> raw parts (one per Markdown run or candidate block)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self._text = text

    def start(self, items: list[_Part]) -> list[_Part]:
        return items

    def markdown(self, toks: list[Token]) -> _Markdown:
        text = self._text
        visible = any(
            t.type == "PROSE" and first_visible(text, t.start_pos or 0, t.end_pos or 0) >= 0
            for t in toks
        )
        return _Markdown(toks[0].start_pos or 0, toks[-1].end_pos or 0, visible)

    def fenced_candidate(self, toks: list[Token]) -> _Fenced:
        by_type = {t.type: t for t in toks}
        return _Fenced(toks[0], by_type.get("FENCE_PAYLOAD"), by_type.get("FENCE_CLOSER"))

    def xml_candidate(self, toks: list[Token]) -> _Xml:
        by_type = {t.type: t for t in toks}
        return _Xml(toks[0], by_type.get("TAG_PAYLOAD"), toks[-1])


@attrs.frozen
class _PayloadMap:
    """Maps payload offsets to message offsets: ``(payload_start, message_start)`` per
    piece, for a fenced payload whose lines lost their indentation."""

    pieces: tuple[tuple[int, int], ...]

    def __call__(self, offset: int) -> int:
        i = bisect.bisect_right(self.pieces, (offset, float("inf"))) - 1
        p, m = self.pieces[max(i, 0)]
        return m + (offset - p)


def _fenced_payload(text: str, start: int, end: int, indent: int) -> tuple[str, _PayloadMap]:
    """CommonMark's content of a fenced block: up to ``indent`` columns of leading
    spaces removed from each line (4.5); a partly removed tab leaves spaces."""
    out: list[str] = []
    pieces: list[tuple[int, int]] = []
    size = 0
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        cr = text.find("\r", pos, end)
        brk = min(x for x in (nl, cr, end) if x >= 0)
        line_end = brk + (2 if text.startswith("\r\n", brk) else 1) if brk < end else end
        col = 0
        i = pos
        prefix = ""
        while i < line_end and col < indent and text[i] in " \t":
            width = 4 - col % 4 if text[i] == "\t" else 1
            if col + width > indent:
                prefix = " " * (col + width - indent)
                col = indent
            else:
                col += width
            i += 1
        if prefix:
            pieces.append((size, i - 1))
            out.append(prefix)
            size += len(prefix)
        pieces.append((size, i))
        out.append(text[i:line_end])
        size += line_end - i
        pos = line_end
    return "".join(out), _PayloadMap(tuple(pieces) or ((0, start),))


def _diagnostics(
    findings: tuple[Finding, ...],
    to_message: _PayloadMap | int,
    whole: tuple[int, int],
    lines: LineIndex,
) -> list[Diagnostic]:
    out = []
    for f in findings:
        if f.start is None:
            start, end = whole
        elif isinstance(to_message, int):
            start, end = (
                to_message + f.start,
                to_message + (f.end if f.end is not None else f.start),
            )
        else:
            start = to_message(f.start)
            end = to_message(f.end) if f.end is not None else start
        line, col = lines.line_col(start)
        out.append(
            Diagnostic(
                f.code,
                f.severity,
                f.message,
                start,
                max(end, start),
                line,
                col,
                format_path(f.path),
            )
        )
    return out


def _block_diag(
    code: str, message: str, start: int, end: int, lines: LineIndex, severity: str = "error"
) -> Diagnostic:
    line, col = lines.line_col(start)
    return Diagnostic(
        code, "error" if severity == "error" else "warning", message, start, end, line, col, None
    )


def segment(text: str, *, message_id: str = "message", profile: Profile = CLIENT) -> Segmentation:
    """Split one assistant message into segments (PROTOCOL-DECISIONS §2-§6, §8).

    Input: ``text`` (a ``str``; offsets everywhere are code-point indices into it),
    ``message_id`` (used in block ids ``f"{message_id}_q{ordinal}"``, §6), ``profile``
    (which names are registered, §6: :data:`CLIENT`, :data:`SELF_CHECK`,
    :func:`product`).

    Output: a :class:`Segmentation` whose ``segments`` concatenate to ``text``, with
    no empty and no two adjacent Markdown segments, and whose ``diagnostics`` hold
    every diagnostic (block payload errors, ``fence.unclosed``, ``fence.no_preface``,
    ``name.unregistered``, the §8 near-misses), ordered by offset.

    Errors: bad input is reported, never raised. Raises ``TypeError`` only when
    ``text`` or ``message_id`` is not a ``str``.
    """
    if not isinstance(text, str) or not isinstance(message_id, str):
        raise TypeError("segment() takes a str message and a str message_id")
    if not _FAMILY.search(text):
        segs = (Segment("markdown", 0, len(text), text),) if text else ()
        return Segmentation(segs, ())
    lx = Lexer(text, lexemes()).run()
    parts = _Parts(text).transform(parse(text, lx))
    lines = LineIndex(text)
    segments: list[Segment] = []
    diagnostics: list[Diagnostic] = []
    seen_visible = False
    ordinal = 0
    for part in parts:
        if isinstance(part, _Markdown):
            seen_visible = seen_visible or part.visible
            segments.append(Segment("markdown", part.start, part.end, text[part.start : part.end]))
            continue
        ordinal += 1
        block_id = f"{message_id}_q{ordinal}"
        seg = (
            _fenced(text, part, block_id, profile, seen_visible, lines)
            if isinstance(part, _Fenced)
            else _xml(text, part, block_id, profile, lines)
        )
        segments.append(seg)
        diagnostics.extend(seg.diagnostics)
    for nm in lx.near_misses:
        line, col = lines.line_col(nm.start)
        diagnostics.append(
            Diagnostic(nm.code, "warning", nm.message, nm.start, nm.end, line, col, None)
        )
    diagnostics.sort(key=lambda d: d.start)
    return Segmentation(tuple(segments), tuple(diagnostics))


def _unregistered(name: str, start: int, end: int, lines: LineIndex) -> Diagnostic:
    return _block_diag(
        "name.unregistered",
        f"'{name}' is not registered in this profile; clients show it as Markdown",
        start,
        end,
        lines,
        "warning",
    )


def _fenced(
    text: str, part: _Fenced, block_id: str, profile: Profile, preface: bool, lines: LineIndex
) -> Segment:
    op = part.opener
    o_start, o_end = op.start_pos or 0, op.end_pos or 0
    end = (part.closer or part.payload or op).end_pos or o_end
    m = lexemes().fence_opener.match(text, o_start)
    assert m is not None
    name = trim_blank(m.group("info"))
    diags: list[Diagnostic] = []
    opener_span = (o_start + len(m.group("indent")), m.end())
    registered = profile.registers(name)
    form = None
    if not registered:
        diags.append(_unregistered(name, *opener_span, lines))
    else:
        if part.closer is None:
            diags.append(
                _block_diag(
                    "fence.unclosed",
                    "the questionnaire fence is never closed; it runs to the end of the message",
                    *opener_span,
                    lines,
                )
            )
        if not preface:
            diags.append(
                _block_diag(
                    "fence.no_preface",
                    "a fenced questionnaire needs visible prose before it in the message",
                    *opener_span,
                    lines,
                )
            )
        p_start = o_end
        p_end = (part.payload.end_pos or o_end) if part.payload else o_end
        payload, to_message = _fenced_payload(text, p_start, p_end, len(m.group("indent")))
        read: FormRead = read_fenced_form(payload)
        diags.extend(_diagnostics(read.findings, to_message, (p_start, max(p_end, p_start)), lines))
        form = read.value
    valid = registered and not any(d.severity == "error" for d in diags)
    return Segment(
        "questionnaire",
        o_start,
        end,
        text[o_start:end],
        encoding="fenced_yaml",
        name=name,
        registered=registered,
        valid=valid,
        id=block_id,
        diagnostics=tuple(diags),
        questionnaire=form if valid else None,
    )


def _xml(text: str, part: _Xml, block_id: str, profile: Profile, lines: LineIndex) -> Segment:
    op, cl = part.opener, part.closer
    start, end = op.start_pos or 0, cl.end_pos or 0
    name = str(op)[1:-1]
    is_response = name.endswith(RESPONSE_SUFFIX)
    registered = profile.registers(name)
    diags: list[Diagnostic] = []
    p_start = op.end_pos or 0
    payload = str(part.payload) if part.payload is not None else ""
    form = response = None
    if not registered:
        diags.append(_unregistered(name, start, op.end_pos or 0, lines))
    else:
        read: FormRead | ResponseRead = (
            read_xml_response(payload, name) if is_response else read_xml_request(payload)
        )
        diags.extend(_diagnostics(read.findings, p_start, (p_start, p_start + len(payload)), lines))
        if isinstance(read, ResponseRead):
            response = read.value
        else:
            form = read.value
    valid = registered and not any(d.severity == "error" for d in diags)
    return Segment(
        "questionnaire_response" if is_response else "questionnaire",
        start,
        end,
        text[start:end],
        encoding="xml_json",
        name=name,
        registered=registered,
        valid=valid,
        id=block_id,
        diagnostics=tuple(diags),
        questionnaire=form if valid else None,
        response=response if valid else None,
    )
