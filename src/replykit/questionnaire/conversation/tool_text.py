"""``questionnaire_async`` on arguments given as JSON text, read strictly (§1, §7).

A backend that receives a tool call's arguments as text reads them here: the strict
JSON reader keeps what ``json.loads`` would silently resolve, and a refused token (a
repeated key, ``NaN``, a number too large) reads as a placeholder, so the tool's own
checks still run on the rest, as for the same text between ``<questionnaire>`` tags.
"""

from __future__ import annotations

from typing import Any

from replykit.argcheck import typed
from replykit.cap import merge_counts
from replykit.codes import lookup
from replykit.codes.payload import JSON_CONSTANT, JSON_NUMBER_TOO_LARGE, JSON_SYNTAX, JSON_TOO_DEEP
from replykit.diagnostics import Finding, LeftOut, format_path
from replykit.questionnaire.conversation.texts import Locale, check_locale
from replykit.questionnaire.conversation.tool import (
    ToolError,
    _errors,
    _left_out,
    call_questionnaire_async,
    capped_errors,
    error_result,
)
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits, arguments_size
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.questionnaire.payload.lenient import normalize_form
from replykit.questionnaire.payload.results import FormRead, Read
from replykit.questionnaire.payload.xml_form import normalizer_findings
from replykit.text import LineIndex

# Findings after which the reading gave no value, and those that read as a placeholder.
_UNREAD = frozenset({JSON_SYNTAX.name, JSON_TOO_DEEP.name})
_PLACEHOLDERS = frozenset({JSON_CONSTANT.name, JSON_NUMBER_TOO_LARGE.name})


@typed
def questionnaire_async_json(
    arguments_text: str, *, locale: str = "zh", limits: Limits = DEFAULT_LIMITS
) -> dict[str, Any]:
    """``questionnaire_async`` on the arguments as JSON text, read strictly (§1, §7).

    For a backend that receives the tool call's arguments as text: reading them here
    keeps what ``json.loads`` would silently resolve (a repeated key's last value wins
    there). Input: ``arguments_text``, the arguments JSON (white space around it
    allowed); ``locale`` ``zh`` or ``en``; ``limits`` as :func:`call_questionnaire_async`
    takes them (§1.5; ``max_depth`` also bounds the reading of the text).

    Output: as :func:`call_questionnaire_async` on the value read. When the text is not
    strict JSON, the seed's error object whose ``errors`` hold one entry per problem
    of the reading (in text order; at most ``max_diagnostics``, the rest in one
    ``limit.diagnostics`` entry): ``code`` ``json.syntax``, ``json.too_deep`` (over
    ``max_depth`` levels), ``json.constant``, ``json.duplicate_key``, ``json.number_too_large``
    (over 4300 digits, or beyond a 64-bit float's range) or ``json.lone_surrogate``;
    ``path`` the 1-based place in the arguments (``questions[1].type``) or ``None``;
    ``message`` replykit's own (zh: the code's sentence, the position, then the English
    detail); ``details`` ``{path, start, end, line, column}`` (code-point offsets into
    the text, 1-based line and column). When the reading still gave a value (a repeated
    key keeps its first value; ``NaN``, ``Infinity``, a number too large read as a
    placeholder; a lone surrogate), the tool's own errors on it follow, none on a
    refused value, as :func:`~replykit.segment` reports the same text as an XML+JSON
    request (§5, §7: every problem at once); all capped together. Never raises for bad
    text.

    Raises ``TypeError`` when ``arguments_text`` is not a ``str``, ``ValueError`` for an
    unknown locale.
    """
    loc = check_locale(locale)
    # Past the cap the reader only counts (§2.1): 10^5 repeated keys build 200 findings.
    read = read_json_value(
        arguments_text, max_depth=limits.max_depth, max_findings=limits.max_diagnostics
    )
    if not read.findings:
        return call_questionnaire_async(read.value, locale=loc, limits=limits)
    read_on = not any(f.code in _UNREAD for f in read.findings)
    too_big = arguments_size(read.value, limits) if read_on else None
    if too_big is not None:  # a limit is checked first and is then the only error (§1.5)
        return _failure(_errors((too_big,), loc), limits, loc, ())
    errors = _text_errors(read.findings, arguments_text, loc)
    left_out: tuple[LeftOut, ...] = _left_out(read.overflow)
    if read_on:
        # A refused token reads as a placeholder and the reading goes on, as the same
        # text between <questionnaire> tags is read (§5, §7: every problem at once).
        more = _read_on(arguments_text, read, limits)
        if read.overflow is None:
            errors += _errors(more.findings, loc)
            left_out = _left_out(more.overflow)
        else:  # the reader's errors fill the cap: the tool's are only counted, after them
            own = tuple(LeftOut(f.code, "error", 1) for f in more.findings if f.severity == "error")
            left_out = merge_counts(left_out, own, _left_out(more.overflow))
    return _failure(errors, limits, loc, left_out)


def _failure(
    errors: list[ToolError], limits: Limits, loc: Locale, left_out: tuple[LeftOut, ...]
) -> dict[str, Any]:
    """The seed's error object of ``errors``, capped (§1)."""
    return error_result(capped_errors(errors, limits.max_diagnostics, loc, left_out))


def _text_errors(findings: tuple[Finding, ...], text: str, loc: Locale) -> list[ToolError]:
    """The JSON reader's findings on the arguments ``text``, in text order, each placed
    by line and column (zh: the code's sentence and the position, then the detail)."""
    lines = LineIndex(text)
    errors = []
    for f in sorted(findings, key=lambda f: f.start or 0):
        start = f.start or 0
        line, column = lines.line_col(start)
        path = format_path(f.path)
        message = f.message
        if loc == "zh":
            code = lookup(f.code)
            summary = None if code is None else code.summary_zh
            sentence = (summary or "参数不是严格的 JSON。").rstrip("。")
            message = f"{sentence}（第 {line} 行第 {column} 列）：{f.message}"
        details = {"path": path, "start": start, "end": f.end, "line": line, "column": column}
        errors.append(ToolError(f.code, path, message, details))
    return errors


def _read_on(text: str, read: Read, limits: Limits) -> FormRead:
    """The tool's own findings on arguments read with findings (placeholders for the
    refused tokens): none on a refused value, as an XML+JSON request gets them; the
    reader's own are placed from the text apart. A root that is no object is
    ``arguments_not_object`` alone (a refused root token is a number)."""
    if not isinstance(read.value, dict):
        refused_root = any(f.path == () and f.code in _PLACEHOLDERS for f in read.findings)
        return normalize_form(0 if refused_root else read.value, allow_extras=False)
    return normalizer_findings(text, read, limits, allow_extras=False)
