"""One stored record audited into plain JSON data (§8, §6, §9): :func:`audit_record`.

The function is pure, picklable (a module-level function of JSON values) and never
raises for a record, so a process pool or a distributed engine (Dask, Ray,
``datasets.map``) can map it over millions of records and aggregate the results with
:mod:`replykit.evals.tally`. The caller's options are checked at the call
(:mod:`replykit.evals.options`): a wrong one raises once instead of making every
record an error.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from replykit.evals.compliance import EXPECTS, Compliance, Expect, compliance
from replykit.evals.options import check_options
from replykit.jsonout import dumps
from replykit.questionnaire.conversation.replies import assistant_replies
from replykit.questionnaire.payload.describe import a_json_type
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.questionnaire.profiles import SELF_CHECK, Profile
from replykit.text import is_blank, json_lines_line_col

#: The group of every record when no ``group_by`` field is named.
ALL = "all"
#: An error message quotes at most this many code points of a value (bounded output).
_QUOTE = 60


def field_value(record: Any, name: str) -> Any:
    """``record[name]``, or for a dotted ``name`` (``metadata.model``) the nested value
    when the record has no key spelled with the dot. Raises ``KeyError`` when absent;
    ``null`` is absent (a Parquet column holds null where a JSON record lacks the
    field)."""
    if isinstance(record, Mapping) and record.get(name) is not None:
        return record[name]
    value = record
    for part in name.split("."):
        if not isinstance(value, Mapping) or value.get(part) is None:
            raise KeyError(name)
        value = value[part]
    return value


def cut_name(text: str) -> str:
    """``text``, or when longer than 60 code points its first 60, ``…`` and 8 hex
    digits of the SHA-256 of the whole (UTF-8, lone surrogates escaped), so that
    different long names stay different."""
    if len(text) <= _QUOTE:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "backslashreplace")).hexdigest()[:8]
    return f"{text[:_QUOTE]}…{digest}"


def group_name(value: Any) -> str:
    """The group a ``group_by`` value names: a string itself, any other JSON value its
    compact JSON followed by its kind (``1 (number)``, ``true (boolean)``), so that
    ``1`` and ``"1"`` are different groups; cut by :func:`cut_name`."""
    if isinstance(value, str):
        return cut_name(value)
    kind = a_json_type(value).split(" ", 1)[-1]
    try:
        text = dumps(value, compact=True)
    except (TypeError, ValueError):  # a Python caller's object, NaN: not a JSON value
        raise ValueError(f"the group is {a_json_type(value)}, not a JSON value") from None
    return f"{cut_name(text)} ({kind})"


def _group(record: Any, group_by: str | None) -> str:
    if group_by is None:
        return ALL
    try:
        value = field_value(record, group_by)
    except KeyError:
        return f"(no {cut_name(group_by)})"  # a caller's name: bounded as a group name
    return group_name(value)


def _expect(record: Any, expect: str, expect_field: str | None) -> Expect:
    if expect_field is not None:
        with contextlib.suppress(KeyError):  # absent or null: the default applies
            expect = field_value(record, expect_field)
    for known in EXPECTS:
        if expect == known:
            return known
    try:
        shown = cut_name(dumps(expect, compact=True))
    except (TypeError, ValueError):  # not a JSON value (a Python caller's object)
        shown = a_json_type(expect)
    raise ValueError(f"expect must be one of {', '.join(EXPECTS)}, not {shown}")


def replies(record: Any, text_field: str | None, latest: bool) -> list[tuple[int | None, str]]:
    """The replies of a record to audit, as ``(message index or None, text)``.

    A string is one reply (index ``None``), none when blank (§1). With ``text_field``
    the record must have that field (``null`` is missing): a string there is one reply
    (none when blank), anything else is read as a conversation. A conversation (a list
    of messages, ``{"messages": [...]}``, or one message object) gives its assistant
    replies exactly as ``replykit check`` reads them (§8,
    :func:`~replykit.questionnaire.conversation.selfcheck.reply_text`): every assistant
    message not of ``message_type`` ``empty``/``token_usage`` whose text (content parts
    joined) is not blank or that makes a tool call (its text, ``""`` when it has none);
    with ``latest`` only the one Self-check inspects (the latest after the last user
    message). A ``messages`` of ``null`` is missing (:func:`without_null_messages`).
    Raises ``KeyError`` for a missing field and ``TypeError`` for a record of another
    shape, as ``check`` refuses it (a message without a known ``role``, a bad
    ``content``).
    """
    if text_field is not None and not isinstance(record, str):
        record = field_value(record, text_field)
    if isinstance(record, str):
        return [] if is_blank(record) else [(None, record)]
    conversation = without_null_messages(record)
    return [(index, text) for index, text in assistant_replies(conversation, latest=latest)]


def without_null_messages(conversation: Any) -> Any:
    """``conversation`` without a ``messages`` key whose value is ``None``: null is a
    missing field in the audit, so ``{"messages": null, "role": "assistant", "content":
    "hi"}`` (a Parquet table or a ``datasets`` row mixing conversations and one-message
    records; both fill an absent field with null) is the one message, as the record
    without ``messages`` is. Any other value is returned as it is (not copied)."""
    if isinstance(conversation, Mapping) and conversation.get("messages", 0) is None:
        return {k: v for k, v in conversation.items() if k != "messages"}
    return conversation


def message_result(index: int | None, verdict: Compliance) -> dict[str, Any]:
    """The JSON data of one audited reply (the ``messages`` items of
    :func:`audit_record`)."""
    first: dict[str, list[int | None]] = {}
    for reason in verdict.reasons:
        first.setdefault(reason.code, [reason.line, reason.column])
    for d in verdict.diagnostics:
        first.setdefault(d.code, [d.line, d.column])
    out: dict[str, Any] = {
        "index": index,
        "passed": verdict.passed,
        "expect": verdict.expect,
        "codes": list(first),
        "positions": list(first.values()),
        "near_misses": list(verdict.near_misses),
        "blocks": len(verdict.blocks),
        "forms": sum(b.kind == "questionnaire" and b.valid for b in verdict.blocks),
    }
    if verdict.lenient is not None:
        out["lenient_passed"] = verdict.lenient.passed
    return out


def audit_record(
    record: Any,
    *,
    text_field: str | None = None,
    expect: str = "any",
    expect_field: str | None = None,
    group_by: str | None = None,
    latest: bool = False,
    profile: Profile = SELF_CHECK,
    lenient: bool = False,
) -> dict[str, Any]:
    """Audit one stored record: every assistant reply in it, by :func:`compliance`.

    Input: ``record``, a decoded JSON value: a conversation (a list of messages,
    ``{"messages": [...]}``, one message object; OpenAI strings or Anthropic content
    blocks as §8 reads them), a reply string, or an eval record whose reply (or
    conversation) is under ``text_field`` (dotted names reach nested fields).
    ``expect``: ``any``/``form``/``none`` for every reply, unless ``expect_field`` names
    a field of the record holding one of them. ``group_by``: the field whose value
    names the record's group (:func:`group_name`); a record without it (or with
    ``null`` there: null is missing for every field) is in group ``(no FIELD)``, and
    without ``group_by`` every record is in group ``all``. ``latest``: only the reply
    Self-check inspects (§8: the latest after the last user message). ``profile`` (§6)
    and ``lenient`` (§9) as :func:`compliance` takes them. Which replies a record holds
    and when it is malformed: :func:`replies` (``replykit check``'s rules).

    Output: ``{"group", "error", "messages"}``: ``error`` ``None`` or one line saying why
    the record could not be read (wrong shape, missing field, bad ``expect``; then
    ``messages`` is empty); ``messages`` one object per reply: ``index`` (0-based
    message index, ``null`` for a bare reply), ``passed``, ``expect``, ``codes`` (every
    reason and diagnostic code, each once, in order) with ``positions`` (the 1-based
    ``[line, column]`` in the reply of each code's first occurrence, ``[null, null]``
    for ``expect.form_missing``), ``near_misses`` (kinds), ``blocks`` (candidate
    blocks), ``forms`` (valid request blocks), and ``lenient_passed`` with ``lenient``.
    Never raises for a record: an unexpected failure is an ``error`` starting
    ``internal error``. A caller's wrong option raises before the record is read
    (:func:`~replykit.evals.options.check_options`): ``TypeError`` naming the option
    for a wrong type (``group_by=5``, ``latest="yes"``, ``lenient=1``), ``ValueError``
    for an ``expect`` outside ``any``/``form``/``none``.
    """
    check_options(
        "audit_record",
        {"text_field": text_field, "expect": expect, "expect_field": expect_field,
         "group_by": group_by, "latest": latest, "profile": profile, "lenient": lenient},
    )  # fmt: skip
    group = ALL
    try:
        group = _group(record, group_by)
        wanted = _expect(record, expect, expect_field)
        found = replies(record, text_field, latest)
        results = [
            message_result(index, compliance(text, expect=wanted, profile=profile, lenient=lenient))
            for index, text in found
        ]
    except Exception as exc:  # the record's fault, or a bug: counted, never raised
        return {"group": group, "error": failure(exc), "messages": []}
    return {"group": group, "error": None, "messages": results}


def failure(exc: Exception) -> str:
    """The ``error`` line of a record :func:`audit_record` could not audit: a missing
    field (``KeyError``) as ``the record has no field F``, a record of the wrong shape
    or value (``TypeError``, ``ValueError``) as its message, anything else (a bug) as
    ``internal error: TYPE: ...``; at most 300 code points, the field name cut to 60
    (:func:`cut_name`; it is the caller's ``--text-field``, quoted in every record)."""
    if isinstance(exc, KeyError):
        return f"the record has no field {cut_name(str(exc.args[0] if exc.args else ''))}"
    if isinstance(exc, TypeError | ValueError):
        return str(exc)[:300]
    return f"internal error: {type(exc).__name__}: {exc}"[:300]


def audit_json(text: str, **options: Any) -> dict[str, Any] | None:
    """:func:`audit_record` of one JSON text (a JSON Lines line, its line end ignored),
    read strictly (§1.3): a text that is not strict JSON gives ``{"group": "all",
    "error": "not strict JSON at column C: ...", "messages": []}``. A text holding
    bytes that are not UTF-8, as a reader with ``errors="surrogateescape"`` keeps them
    (U+DC80 to U+DCFF), gives ``"not UTF-8 (byte B)"`` (B the 0-based byte offset of
    the first, in the line), as ``replykit audit`` says it. A blank text (only
    spaces, tabs and line ends) is no record, as ``replykit audit`` skips blank lines:
    ``None``, which :func:`tally_results` skips.
    ``options`` are those of :func:`audit_record`, checked first (a wrong one raises
    as there, even for a blank text). Pure, picklable, never raises for a text; for
    engines that read text lines (``dask.bag``; :func:`audit_lines` also locates them).
    """
    check_options("audit_json", options)
    return _audit_text(text, options)


#: A byte that is not UTF-8, as ``errors="surrogateescape"`` decodes it.
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def _not_utf8(line: str) -> str | None:
    """``not UTF-8 (byte B)`` when ``line`` holds an escaped byte (B: its offset in the
    line's bytes, other lone surrogates counted as 3 bytes), else ``None``."""
    if line.isascii():  # the usual line: nothing to look for
        return None
    found = _ESCAPED_BYTE.search(line)
    if found is None:
        return None
    offset = len(line[: found.start()].encode("utf-8", "surrogatepass"))
    return f"not UTF-8 (byte {offset})"


def _audit_text(text: Any, options: Mapping[str, Any]) -> dict[str, Any] | None:
    """:func:`audit_json` with ``options`` already checked."""
    if not isinstance(text, str):
        return {"group": ALL, "error": f"not a text: {type(text).__name__}", "messages": []}
    line = text.rstrip("\r\n")
    if not line.strip(" \t\r\n"):
        return None
    problem = _not_utf8(line)
    if problem is not None:
        return {"group": ALL, "error": problem, "messages": []}
    read = read_json_value(line)
    if read.findings:
        first = min(read.findings, key=lambda f: f.start or 0)
        _, column = json_lines_line_col(line, first.start or 0)
        message = first.message.removeprefix("JSON syntax error: ")
        return {
            "group": ALL,
            "error": f"not strict JSON at column {column}: {message}",
            "messages": [],
        }
    return audit_record(read.value, **options)


def audit_lines(lines: Iterable[str | tuple[str, str]], **options: Any) -> Iterator[dict[str, Any]]:
    """:func:`audit_json` of each line of a partition of JSON Lines text, blank lines
    skipped, each result with ``"where": "FILE:LINE"`` (1-based, numbered per file, as
    ``replykit audit`` locates records). ``lines``: ``(line, path)`` pairs, as
    ``dask.bag.read_text(..., include_path=True)`` gives them, or bare lines (then
    ``where`` is ``line N``). Lines must be whole files in order (dask's default, one
    partition per file), or the numbers are those inside the partition. ``options``
    are checked at the call, before any line is read (a wrong one raises as in
    :func:`audit_record`); then never raises for a line.
    """
    check_options("audit_lines", options)
    return _located(lines, options)


def _located(lines: Iterable[Any], options: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """:func:`audit_lines` with ``options`` already checked."""
    numbers: dict[str, int] = {}
    for entry in lines:
        # A pair (line, path); anything else is a line, which audit_json judges (a value
        # that is no text is its error record, as for any line).
        item: Any = entry
        pair = isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], str)
        text: Any = item[0] if pair else item
        path: str | None = item[1] if pair else None
        key = path or ""
        numbers[key] = number = numbers.get(key, 0) + 1
        if number == 1 and isinstance(text, str):
            text = text.removeprefix("\ufeff")  # a byte order mark may start a file
        result = _audit_text(text, options)
        if result is not None:
            result["where"] = f"{path}:{number}" if path is not None else f"line {number}"
            yield result
