"""Reading one candidate block into a :class:`~replykit.questionnaire.model.Segment` (§3a-§7, §9).

The segmenter hands each block here with a :class:`Context`; this module reads the
payload with the payload readers, applies the limits, places every finding in the
message (code-point offsets, 1-based line/column, 1-based path) and decides validity:
registered in the profile and free of errors (§2).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from replykit.cap import Overflow
from replykit.codes import Code
from replykit.codes.limits import COMPAT_ATTRIBUTE_CONFLICT as ATTRIBUTE_CONFLICT
from replykit.codes.payload import JSON_SYNTAX, JSON_TOO_DEEP
from replykit.codes.segment import FENCE_NO_PREFACE, FENCE_UNCLOSED, NAME_UNREGISTERED
from replykit.codes.start import TIMEOUT_SECONDS_INVALID
from replykit.diagnostics import Diagnostic, Finding, path_text
from replykit.questionnaire.compat import Compat, unescape_payload
from replykit.questionnaire.info_string import fence_name
from replykit.questionnaire.limits import Limits, payload_size
from replykit.questionnaire.model import Questionnaire, Response, Segment
from replykit.questionnaire.payload.fenced_form import read_fenced_form
from replykit.questionnaire.payload.json_strict import read_json
from replykit.questionnaire.payload.numbers import is_timeout, read_number
from replykit.questionnaire.payload.results import FormRead, ResponseRead
from replykit.questionnaire.payload.xml_form import read_xml_request, read_xml_response
from replykit.questionnaire.profiles import RESPONSE_SUFFIX, Profile
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.segmentation.filtering import drop_invalid_questions
from replykit.text import LINE_END_RE, LineIndex
from replykit.trusted import trusted

_TAG_NAME = re.compile(r"</?([A-Za-z0-9-]+)")
# One attribute and its value, read attribute by attribute from the tag's name (as
# HTML does, white space and line endings around "="), so text inside another
# attribute's value is never taken for one. The value: quoted (the quotes may arrive
# backslash-escaped, §9), or unquoted up to a blank, quote, backslash or ">".
_ATTRIBUTE = re.compile(
    r"""[ \t\r\n\f]+([A-Za-z_:][A-Za-z0-9_.:-]*)"""
    r"""(?:[ \t\r\n\f]*=[ \t\r\n\f]*"""
    r"""(?:\\"([^"\\]*)\\"|"([^"]*)"|'([^']*)'|([^ \t\r\n\f"'=<>`\\]*)))?"""
)


def _timeout_attributes(tag: str) -> list[re.Match[str]]:
    """Each ``timeout_seconds`` attribute with a value of the opening ``tag``, in order
    (groups 2-5: the value escaped-quoted, double-quoted, single-quoted, unquoted)."""
    name = _TAG_NAME.match(tag)
    pos = name.end() if name is not None else 0
    found = []
    while (m := _ATTRIBUTE.match(tag, pos)) is not None and m.end() > pos:
        if m.group(1) == "timeout_seconds" and m.lastindex is not None and m.lastindex > 1:
            found.append(m)
        pos = m.end()
    return found


# This module's own values: built without the public constructors' checks (trusted.py).
_segment = trusted(Segment)
_diagnostic = trusted(Diagnostic)


@attrs.frozen
class Context:
    """What every block of one message is read with."""

    text: str
    lines: LineIndex
    profile: Profile
    compat: Compat
    limits: Limits
    # The YAML event source, chosen once per message (§1.2: REPLYKIT_YAML_LOADER is read
    # up front; a later change of the environment never reaches a reading under way).
    loader: str = "auto"

    def diagnostic(
        self, code: Code, start: int, end: int, *, variant: str | None = None, **params: Any
    ) -> Diagnostic:
        """A :class:`Diagnostic` of ``code`` at message offsets ``start``-``end``, its
        message rendered from ``params`` and ``variant`` (both recorded)."""
        return self.placed(code.finding(variant=variant, params=params), start, end)

    def placed(self, f: Finding, start: int, end: int) -> Diagnostic:
        """The payload finding ``f`` as a :class:`Diagnostic` at message offsets
        ``start``-``end`` (its path 1-based; its parameters and variant kept)."""
        line, col = self.lines.line_col(start)
        return _diagnostic(
            f.code, f.severity, f.message, start, max(start, end), line, col,
            path_text(f.path), params=f.params, variant=f.variant,
        )  # fmt: skip


@attrs.frozen
class Block:
    """One candidate read: its ``segment`` (diagnostics up to the cap of §1) and what
    its payload reader's cap left out (``None`` when nothing), for the message summary."""

    segment: Segment
    overflow: Overflow[Diagnostic] | None = None


@attrs.frozen
class PayloadMap:
    """Maps payload offsets to message offsets: ``(payload_start, message_start)`` per
    piece, for a fenced payload whose lines lost their indentation."""

    pieces: tuple[tuple[int, int], ...]

    def __call__(self, offset: int) -> int:
        """The message offset of payload offset ``offset``."""
        i = bisect.bisect_right(self.pieces, (offset, float("inf"))) - 1
        p, m = self.pieces[max(i, 0)]
        return m + (offset - p)


def fenced_content(text: str, start: int, end: int, indent: int) -> tuple[str, PayloadMap]:
    """CommonMark's content of the fenced block lines ``text[start:end]``: up to
    ``indent`` columns of leading spaces removed from each line (spec 4.5); a partly
    removed tab leaves spaces."""
    if indent == 0:
        # Nothing to remove: the lines as they are, at one constant shift.
        return text[start:end], PayloadMap(((0, start),))
    return dedented_content(text, start, end, indent)


def dedented_content(text: str, start: int, end: int, indent: int) -> tuple[str, PayloadMap]:
    """:func:`fenced_content` line by line (the general path, for any ``indent``)."""
    out: list[str] = []
    pieces: list[tuple[int, int]] = []
    size = 0
    pos = start
    while pos < end:
        brk_m = LINE_END_RE.search(text, pos, end)
        line_end = brk_m.end() if brk_m else end
        col, i, prefix = 0, pos, ""
        while i < line_end and col < indent and text[i] in " \t":
            width = 4 - col % 4 if text[i] == "\t" else 1
            if col + width > indent:
                prefix = " " * (col + width - indent)
            col = min(indent, col + width)
            i += 1
        if prefix:
            pieces.append((size, i - 1))
            out.append(prefix)
            size += len(prefix)
        pieces.append((size, i))
        out.append(text[i:line_end])
        size += line_end - i
        pos = line_end
    return "".join(out), PayloadMap(tuple(pieces) or ((0, start),))


def place(
    findings: Iterable[Finding],
    to_message: Callable[[int], int],
    whole: tuple[int, int],
    ctx: Context,
) -> list[Diagnostic]:
    """Turn payload findings into message diagnostics; a finding without offsets covers
    the whole payload ``whole``."""
    out = []
    for f in findings:
        if f.start is None:
            start, end = whole
        else:
            start = to_message(f.start)
            end = to_message(f.end) if f.end is not None else start
        out.append(ctx.placed(f, start, end))
    return out


def _limited(payload: str, reader: Callable[[str], FormRead], limits: Limits) -> FormRead:
    too_big = payload_size(payload, limits)
    if too_big is not None:
        return FormRead(None, findings=(too_big,))
    return reader(payload)


def _overflow(
    read: FormRead | ResponseRead,
    to_message: Callable[[int], int],
    whole: tuple[int, int],
    ctx: Context,
    before: int = 0,
) -> Overflow[Diagnostic] | None:
    """The reader's overflow with its first left-out finding placed in the message;
    ``before``: the block's diagnostics that come before the reader's (§2.1: the
    summary stands where that finding would)."""
    if read.overflow is None:
        return None
    first = place((read.overflow.first,), to_message, whole, ctx)[0]
    return Overflow(read.overflow.counts, first, before + read.overflow.before)


def _has_error(diags: list[Diagnostic]) -> bool:
    return bool(diags) and any(d.severity == "error" for d in diags)


def _timeout_invalid(at: int, value: str, ctx: Context) -> Diagnostic:
    """The warning on a ``timeout_seconds`` attribute ``value`` at ``at`` that is no
    valid timeout: the JSON field's message (§7), or ``too_large`` (§1)."""
    number, problem = read_number(value)
    path = ("timeout_seconds",)
    if problem == "too_large":
        shown = value[:20] + ("…" if len(value) > 20 else "")
        f = TIMEOUT_SECONDS_INVALID.finding(
            path, variant="too_large", shown=shown, path="timeout_seconds"
        )
    else:
        actual = "string" if number is None else "number"
        shown_value = value if number is None else number
        f = TIMEOUT_SECONDS_INVALID.finding(
            path, expected="non-negative number", actual=actual, value=shown_value,
            path="timeout_seconds",
        )  # fmt: skip
    return ctx.placed(f, at, at + len(value))


def _unregistered(name: str, start: int, end: int, ctx: Context) -> Diagnostic:
    return ctx.diagnostic(NAME_UNREGISTERED, start, end, name=name)


def fenced_block(
    opener: tuple[int, int], payload: tuple[int, int], end: int, closed: bool, preface: bool,
    block_id: str, ctx: Context,
) -> Block:  # fmt: skip
    """A fenced candidate (§3a, §4): ``opener`` spans its opener line (line ending
    included), ``payload`` its content lines, ``end`` the end of its closing fence line."""
    text = ctx.text
    o_start = opener[0]
    first = o_start + 1 if o_start == 0 and text.startswith("\ufeff") else o_start
    om = lexemes().fence_opener.match(text, first)
    assert om is not None
    name = fence_name(om.group("info"))
    name = name.lower() if ctx.compat.case_insensitive else name  # §9: reported lower case
    fence = (first + len(om.group("indent")), om.end())
    diags: list[Diagnostic] = []
    form = None
    overflow = None
    registered = ctx.profile.registers(name)
    if not registered:
        diags.append(_unregistered(name, *fence, ctx))
    else:
        if not closed:
            diags.append(ctx.diagnostic(FENCE_UNCLOSED, *fence))
        if not preface:
            diags.append(ctx.diagnostic(FENCE_NO_PREFACE, *fence))
        content, to_message = fenced_content(text, *payload, len(om.group("indent")))
        limits = ctx.limits
        fence_length = len(om.group("fence"))
        read = _limited(
            content,
            lambda p: read_fenced_form(
                p, limits=limits, fence_length=fence_length, loader=ctx.loader
            ),
            limits,
        )
        overflow = _overflow(read, to_message, payload, ctx, len(diags))
        diags.extend(place(read.findings, to_message, payload, ctx))
        form = read.value
    valid = registered and form is not None and not _has_error(diags)
    return Block(
        _segment(
            "questionnaire", o_start, end, text[o_start:end], encoding="fenced_yaml",
            name=name, registered=registered, valid=valid, id=block_id,
            diagnostics=tuple(diags), questionnaire=form if valid else None,
        ),
        overflow,
    )  # fmt: skip


def xml_block(
    opener: tuple[int, int], closer: tuple[int, int], block_id: str, ctx: Context
) -> Block:
    """An XML+JSON candidate (§3a, §5): ``opener`` spans ``<N>``, ``closer`` ``</N>``."""
    text = ctx.text
    start, p_start = opener
    p_end, end = closer
    tag = text[start:p_start]
    name_m = _TAG_NAME.match(tag)
    assert name_m is not None
    name = name_m.group(1).lower() if ctx.compat.case_insensitive else name_m.group(1)
    is_response = name.endswith(RESPONSE_SUFFIX)
    registered = ctx.profile.registers(name)
    payload, to_payload = _payload_source(text[p_start:p_end], ctx)
    form = response = None
    overflow = None
    whole = (p_start, p_end)

    def shift(offset: int) -> int:
        return p_start + to_payload(offset)

    if not registered:
        diags = [_unregistered(name, start, p_start, ctx)]
    elif is_response:
        diags, overflow, response = _xml_response(payload, name, shift, whole, ctx)
    else:
        diags, overflow, form = _xml_request(payload, shift, whole, ctx)
        form, from_tag = _tag_timeout(form, tag, start, ctx)
        diags[:0] = from_tag
        if overflow is not None and from_tag:
            overflow = attrs.evolve(overflow, before=overflow.before + len(from_tag))
    read_ok = form is not None if not is_response else response is not None
    valid = registered and read_ok and not _has_error(diags)
    return Block(
        _segment(
            "questionnaire_response" if is_response else "questionnaire", start, end,
            text[start:end], encoding="xml_json", name=name, registered=registered,
            valid=valid, id=block_id, diagnostics=tuple(diags),
            questionnaire=form if valid else None, response=response if valid else None,
        ),
        overflow,
    )  # fmt: skip


def _xml_response(
    payload: str, name: str, shift: Callable[[int], int], whole: tuple[int, int], ctx: Context
) -> tuple[list[Diagnostic], Overflow[Diagnostic] | None, Response | None]:
    """The diagnostics, the cap's overflow and the response read from a response
    payload; only ``limit.payload_size`` when the payload is too long (§1, §5)."""
    too_big = payload_size(payload, ctx.limits)
    if too_big is not None:
        return place((too_big,), shift, whole, ctx), None, None
    read = read_xml_response(payload, name, limits=ctx.limits)
    return place(read.findings, shift, whole, ctx), _overflow(read, shift, whole, ctx), read.value


def _xml_request(
    payload: str, shift: Callable[[int], int], whole: tuple[int, int], ctx: Context
) -> tuple[list[Diagnostic], Overflow[Diagnostic] | None, Questionnaire | None]:
    """The diagnostics, the cap's overflow and the form read from a request payload,
    with §9 ``filter_invalid_questions`` applied when the profile asks for it."""

    def reader(p: str) -> FormRead:
        read = read_xml_request(p, limits=ctx.limits)
        if ctx.compat.filter_invalid_questions:
            return drop_invalid_questions(p, read, ctx.limits)
        return read

    read = _limited(payload, reader, ctx.limits)
    return place(read.findings, shift, whole, ctx), _overflow(read, shift, whole, ctx), read.value


def _tag_timeout(
    form: Questionnaire | None, tag: str, start: int, ctx: Context
) -> tuple[Questionnaire | None, list[Diagnostic]]:
    """§9 ``tag_attributes``: the form with the ``timeout_seconds`` of its opening
    ``tag`` (which starts at message offset ``start``), or the form unchanged and the
    warning of a value that is no whole JSON number ≥ 0 or too large to read (§1, §7).
    The first attribute decides; each repeat, and an attribute that replaces the JSON
    field, is the warning ``compat.attribute_conflict`` (never resolved silently)."""
    found = _timeout_attributes(tag) if ctx.compat.tag_attributes else []
    if form is None or not found:
        return form, []
    spans = [(start + m.start(g), start + m.end(g), m.group(g)) for m in found
             for g in (next(i for i in (2, 3, 4, 5) if m.group(i) is not None),)]  # fmt: skip
    at, end, value = spans[0]
    diags = [
        ctx.placed(ATTRIBUTE_CONFLICT.finding(("timeout_seconds",), name="timeout_seconds",
                   value=again), a, e)
        for a, e, again in spans[1:]
    ]  # fmt: skip
    number, _problem = read_number(value)
    if not is_timeout(number):
        # Read as the JSON field is: no prefix, no infinity, no 5000-digit int (§1, §7).
        return form, [_timeout_invalid(at, value, ctx), *diags]
    if form.timeout_seconds is not None:
        replaced = ATTRIBUTE_CONFLICT.finding(
            ("timeout_seconds",), variant="json_field", name="timeout_seconds",
            value=value, field=form.timeout_seconds,
        )  # fmt: skip
        diags.insert(0, ctx.placed(replaced, at, end))
    return attrs.evolve(form, timeout_seconds=number), diags


def _identity(offset: int) -> int:
    return offset


def _payload_source(payload: str, ctx: Context) -> tuple[str, Callable[[int], int]]:
    """The XML+JSON payload to read and the map from its offsets to the raw payload's.

    §9 ``escaped_payloads``: a payload within the size limit that is not JSON but whose
    unescaped value (:func:`~replykit.questionnaire.compat.unescape_payload`) is, is read unescaped;
    its offsets map back to the escapes that wrote each character. Otherwise the raw
    payload, offsets unchanged."""
    if not ctx.compat.escaped_payloads or payload_size(payload, ctx.limits) is not None:
        return payload, _identity
    if not _unread(payload, ctx, (JSON_SYNTAX.name, JSON_TOO_DEEP.name)):
        return payload, _identity
    unescaped = unescape_payload(payload)
    # An unescaped value nested deeper than the limit is JSON too deep, not "no JSON":
    # it is read, and json.too_deep reported, as for a payload written plainly.
    if unescaped is None or _unread(unescaped[0], ctx, (JSON_SYNTAX.name,)):
        return payload, _identity
    return unescaped[0], PayloadMap(unescaped[1])


def _unread(payload: str, ctx: Context, codes: tuple[str, ...]) -> bool:
    """Whether reading ``payload`` as JSON reports one of ``codes``."""
    findings = read_json(payload, max_depth=ctx.limits.max_depth).findings
    return any(f.code in codes for f in findings)
