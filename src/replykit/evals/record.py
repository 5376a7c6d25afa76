"""One stored record audited into plain JSON data (§8, §6, §9): :func:`audit_record`.

The function is pure, picklable (a module-level function of JSON values) and never
raises, so a process pool or a distributed engine (Dask, Ray, ``datasets.map``) can map
it over millions of records and aggregate the results with
:mod:`replykit.evals.tally`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from replykit.evals.compliance import EXPECTS, Compliance, Expect, compliance
from replykit.jsonout import dumps
from replykit.questionnaire.conversation.selfcheck import IGNORED_MESSAGE_TYPES
from replykit.questionnaire.conversation.stored import checked_messages, message_text
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.questionnaire.profiles import SELF_CHECK, Profile
from replykit.text import is_blank, json_lines_line_col

#: The group of every record when no ``group_by`` field is named.
ALL = "all"
#: An error message quotes at most this many code points of a value (bounded output).
_QUOTE = 60


def field_value(record: Any, name: str) -> Any:
    """``record[name]``, or for a dotted ``name`` (``metadata.model``) the nested value
    when the record has no key spelled with the dot. Raises ``KeyError`` when absent."""
    if isinstance(record, Mapping) and name in record:
        return record[name]
    value = record
    for part in name.split("."):
        if not isinstance(value, Mapping) or part not in value:
            raise KeyError(name)
        value = value[part]
    return value


def _group(record: Any, group_by: str | None) -> str:
    if group_by is None:
        return ALL
    try:
        value = field_value(record, group_by)
    except KeyError:
        return f"(no {group_by})"
    text = value if isinstance(value, str) else dumps(value, compact=True)
    return text[:_QUOTE]


def _expect(record: Any, expect: str, expect_field: str | None) -> Expect:
    if expect_field is not None:
        with contextlib.suppress(KeyError):  # absent: the default applies
            expect = field_value(record, expect_field)
    for known in EXPECTS:
        if expect == known:
            return known
    shown = repr(expect)[:_QUOTE]
    raise ValueError(f"expect must be one of {', '.join(EXPECTS)}, not {shown}")


def replies(record: Any, text_field: str | None, latest: bool) -> list[tuple[int | None, str]]:
    """The replies of a record to audit, as ``(message index or None, text)``.

    A string is one reply (index ``None``). With ``text_field`` the record must have that
    field: a string there is one reply, anything else is read as a conversation. A
    conversation (a list of messages, ``{"messages": [...]}``, or one message object)
    gives each assistant message whose text (content parts joined, §8) is not blank and
    whose ``message_type`` is not ``empty``/``token_usage``; with ``latest`` only the
    last of them. Raises ``KeyError``/``TypeError`` for a record of another shape.
    """
    if text_field is not None and not isinstance(record, str):
        record = field_value(record, text_field)
    if isinstance(record, str):
        return [(None, record)]
    found: list[tuple[int | None, str]] = []
    for index, message in enumerate(checked_messages(record)):
        if message.get("role") != "assistant":
            continue
        if message.get("message_type") in IGNORED_MESSAGE_TYPES:
            continue
        text = message_text(message, index)
        if text is not None and not is_blank(text):
            found.append((index, text))
    return found[-1:] if latest else found


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
    (a string, else its compact JSON, cut to 60 code points) names the record's group;
    a record without it is in group ``(no FIELD)``, and without ``group_by`` every
    record is in group ``all``. ``latest``: only the last assistant reply. ``profile``
    (§6) and ``lenient`` (§9) as :func:`compliance` takes them.

    Output: ``{"group", "error", "messages"}``: ``error`` ``None`` or one line saying why
    the record could not be read (wrong shape, missing field, bad ``expect``; then
    ``messages`` is empty); ``messages`` one object per reply: ``index`` (0-based
    message index, ``null`` for a bare reply), ``passed``, ``expect``, ``codes`` (every
    reason and diagnostic code, each once, in order) with ``positions`` (the 1-based
    ``[line, column]`` in the reply of each code's first occurrence, ``[null, null]``
    for ``expect.form_missing``), ``near_misses`` (kinds), ``blocks`` (candidate
    blocks), ``forms`` (valid request blocks), and ``lenient_passed`` with ``lenient``.
    Never raises: an unexpected failure is an ``error`` starting ``internal error``.
    """
    try:
        group = _group(record, group_by)
    except Exception as exc:  # never raise: a distributed map must not fail on one record
        return {"group": ALL, "error": f"internal error: {type(exc).__name__}", "messages": []}
    try:
        wanted = _expect(record, expect, expect_field)
        found = replies(record, text_field, latest)
        results = [
            message_result(index, compliance(text, expect=wanted, profile=profile, lenient=lenient))
            for index, text in found
        ]
    except KeyError as exc:
        return {"group": group, "error": f"the record has no field {exc.args[0]}", "messages": []}
    except (TypeError, ValueError) as exc:
        return {"group": group, "error": str(exc)[:300], "messages": []}
    except Exception as exc:  # a bug: counted and shown, never raised
        return {
            "group": group,
            "error": f"internal error: {type(exc).__name__}: {exc}"[:300],
            "messages": [],
        }
    return {"group": group, "error": None, "messages": results}


def audit_json(text: str, **options: Any) -> dict[str, Any]:
    """:func:`audit_record` of one JSON text (a JSON Lines line), read strictly (§1.3):
    a text that is not strict JSON gives ``{"group": "all", "error": "not strict JSON at
    column C: ...", "messages": []}``. ``options`` are those of :func:`audit_record`.
    Pure, picklable, never raises; for engines that read text lines (``dask.bag``)."""
    if not isinstance(text, str):
        return {"group": ALL, "error": f"not a text: {type(text).__name__}", "messages": []}
    read = read_json_value(text.rstrip("\r\n"))
    if read.findings:
        first = min(read.findings, key=lambda f: f.start or 0)
        _, column = json_lines_line_col(text, first.start or 0)
        message = first.message.removeprefix("JSON syntax error: ")
        return {
            "group": ALL,
            "error": f"not strict JSON at column {column}: {message}",
            "messages": [],
        }
    return audit_record(read.value, **options)
