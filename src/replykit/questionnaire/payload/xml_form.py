"""XML+JSON payloads: requests (``<questionnaire>{...}</questionnaire>``) and responses
(``<questionnaire-response>{...}</questionnaire-response>``) (§5, §7)."""

from __future__ import annotations

from typing import Any, cast

import attrs

from replykit.cap import Collector, Overflow
from replykit.codes import lookup
from replykit.codes import responses as R
from replykit.codes.payload import JSON_CONSTANT, JSON_NUMBER_TOO_LARGE
from replykit.diagnostics import Finding, Path
from replykit.findings import Cursor, FindingSink, Locate
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits, form_lists, response_lists
from replykit.questionnaire.model import (
    QUESTION_TYPES,
    Answer,
    Questionnaire,
    QuestionType,
    Response,
)
from replykit.questionnaire.payload.describe import json_type
from replykit.questionnaire.payload.json_strict import json_node_start, read_json
from replykit.questionnaire.payload.lenient import normalize_fitting
from replykit.questionnaire.payload.lenient_plain import plain_request
from replykit.questionnaire.payload.results import (
    FormRead,
    Read,
    ResponseRead,
    Span,
    SpanMap,
    finding_sink,
    locate,
)
from replykit.text import is_blank

RESPONSE_SUFFIX = "-response"
# JSON findings whose value is read as a placeholder (None, 0).
_PLACEHOLDER_CODES = frozenset({JSON_CONSTANT.name, JSON_NUMBER_TOO_LARGE.name})
ANSWER_TYPES = QUESTION_TYPES


def read_xml_request(
    payload: str, *, max_depth: int | None = None, limits: Limits = DEFAULT_LIMITS
) -> FormRead:
    """Read the payload of an XML+JSON request block (§5).

    Input: the text between ``<name>`` and ``</name>``. Output: :class:`FormRead` with
    the form normalized by :func:`~replykit.questionnaire.payload.lenient.normalize_form` with
    ``allow_extras=True`` (``ui_text``, ``timeout_seconds`` kept), ``spans`` from the
    JSON; every finding carries payload offsets (a path not present in the JSON, such
    as a missing key, is placed on its nearest present ancestor).

    Findings: every ``json.*`` of :func:`~replykit.questionnaire.payload.json_strict.read_json`,
    then
    every ``questionnaire.start.*`` of ``normalize_form`` (or its one ``limit.*``, §1).
    ``max_depth`` (default ``limits.max_depth``) limits JSON nesting
    (``json.too_deep``); at most ``limits.max_diagnostics`` findings are kept, the rest
    counted in ``overflow``. Never raises.
    """
    depth = limits.max_depth if max_depth is None else max_depth
    read = read_json(payload, max_depth=depth, max_findings=limits.max_diagnostics)
    if not read.findings and type(read.value) is dict and form_lists(read.value, limits) is None:
        # Nothing reported yet: a form with nothing to report is built without cursors
        # or paths; any other goes to the normalizer's full checks below.
        plain = plain_request(read.value)
        if plain is not None:
            return FormRead(value=plain, spans=read.spans)
    return full_request(payload, read, limits)


def full_request(payload: str, read: Read, limits: Limits) -> FormRead:
    """:func:`read_xml_request` of ``payload`` (``read``: its JSON reading) without the
    fast path: the JSON findings, then the normalizer's full checks (§5)."""
    sink = finding_sink(limits.max_diagnostics)
    sink.extend(read.findings)
    sink.absorb(read.overflow, len(read.findings))
    return _read_on(payload, read, limits, True, sink)


def normalizer_findings(payload: str, read: Read, limits: Limits, allow_extras: bool) -> FormRead:
    """The normalizer's findings alone on ``read`` (none on a value the JSON reader
    refused; capped at ``max_diagnostics``, the rest in ``overflow``).
    ``allow_extras=False`` reads as the ``questionnaire_async`` tool does (§7:
    ``ui_text`` and ``timeout_seconds`` ignored), for the tool's arguments given as
    JSON text, which then get the findings the same text gets as a request."""
    return _read_on(payload, read, limits, allow_extras, finding_sink(limits.max_diagnostics))


def _read_on(
    payload: str, read: Read, limits: Limits, allow_extras: bool, sink: Collector[Finding]
) -> FormRead:
    if not isinstance(read.value, dict):
        return _form_result(None, read.spans, sink)
    over = form_lists(read.value, limits)
    if over is not None:
        sink.append(_at_list(over, payload))
        return _form_result(None, read.spans, sink)
    form = _normalized(read, limits, allow_extras)
    _take(sink, form.findings, form.overflow, read)
    return _form_result(form.value, read.spans, sink)


def _at_list(over: Finding, payload: str) -> Finding:
    """A ``limit.*`` finding placed on the first character of the list it names (§1),
    found by a walk that keeps no span: the span map would hold every item."""
    start = json_node_start(payload, over.path)
    return over if start is None else attrs.evolve(over, start=start, end=start + 1)


def _take(
    sink: Collector[Finding], found: tuple[Finding, ...], overflow: Overflow[Finding] | None,
    read: Read,
) -> None:  # fmt: skip
    """Append an inner reader's ``found`` (none on a value the JSON reader refused) and
    count its ``overflow``, its first left out where it stood among them (§2.1)."""
    at = len(found) if overflow is None else overflow.before
    refused = _refused(read)
    head = _beside(found[:at], refused, read.value)
    tail = _beside(found[at:], refused, read.value)
    sink.extend(head + tail)
    if overflow is not None:
        sink.absorb(attrs.evolve(overflow, before=len(head)), len(head) + len(tail))


def _normalized(read: Read, limits: Limits, allow_extras: bool) -> FormRead:
    """The normalizer's reading of ``read.value``, each finding placed as it is
    reported (so its cap keeps the first ones in offset order, §2.1), none on a value
    the JSON reader refused."""
    refused = _refused(read)
    skip = (lambda p: p in refused) if refused else None
    locate = _locator(read.spans)
    return normalize_fitting(read.value, allow_extras, limits, locate=locate, skip=skip)


def _locator(spans: SpanMap) -> Locate:
    def find(path: Path, _on_key: bool) -> Span | None:
        return locate(spans, path)

    return find


def _form_result(value: Questionnaire | None, spans: SpanMap, sink: Collector[Finding]) -> FormRead:
    return FormRead(
        value=None if sink.has_error else value,
        spans=spans,
        findings=tuple(sink),
        overflow=sink.overflow,
    )


def _refused(read: Read) -> set[Path]:
    """The paths of the values the JSON reader refused (read as placeholders), those
    whose findings its cap left out included (``read.refused``)."""
    found = {f.path for f in read.findings if f.path and f.code in _PLACEHOLDER_CODES}
    return found | read.refused


def _beside(
    found: tuple[Finding, ...], refused: set[Path], root: Any = None
) -> tuple[Finding, ...]:
    """``found`` without findings on a value the JSON reader refused: that value was read
    as a placeholder, and the JSON finding already says what is wrong there (§5). A
    finding that lists the bad items of a list (``invalid_items``) keeps only the items
    not refused, and goes when none is left."""
    if not refused:
        return found
    out: list[Finding] = []
    for f in found:
        kept: Finding | None = None if f.path in refused else f
        lists_refused = "invalid_items" in f.details and any(p[:-1] == f.path for p in refused)
        if kept is not None and lists_refused:
            kept = _without_refused(f, root, refused)
        if kept is not None:
            out.append(kept)
    return tuple(out)


def _without_refused(f: Finding, root: Any, refused: set[Path]) -> Finding | None:
    """``f`` (about the items of the list at ``f.path`` that are not strings) about
    only those the JSON reader did not refuse; ``None`` when it refused them all."""
    items: Any = root
    for part in f.path:
        items = items[part]
    kept = [
        item
        for i, item in enumerate(items)
        if not isinstance(item, str) and (*f.path, i) not in refused
    ]
    if not kept:
        return None
    code = lookup(f.code)
    if code is None:  # every finding's code is registered: not reached
        return f
    return code.finding(
        f.path,
        start=f.start,
        end=f.end,
        variant=f.variant,
        details={**f.details, "invalid_items": kept},
        params={**f.params, "invalid_items": kept},
    )


def response_type(name: str) -> str:
    """The ``type`` a response under tag ``name`` must carry (§7).

    ``name`` may be the request name (``sage-questionnaire``) or the response tag name
    (``sage-questionnaire-response``); both give ``sage_questionnaire_response``.
    """
    base = name[: -len(RESPONSE_SUFFIX)] if name.endswith(RESPONSE_SUFFIX) else name
    return base.replace("-", "_") + "_response"


def read_xml_response(
    payload: str, name: str, *, max_depth: int | None = None, limits: Limits = DEFAULT_LIMITS
) -> ResponseRead:
    """Read the payload of a ``<{name}>`` response block (§5, §7).

    Input: the text between the tags, and the tag ``name`` (request or response name,
    see :func:`response_type`). Output: :class:`ResponseRead` with the
    :class:`~replykit.questionnaire.model.Response` (answers in order; a multi-choice ``answer``,
    ``values`` and ``labels`` as tuples; absent optional fields ``None``) when there is
    no error, else ``None``; ``spans`` from the JSON.

    Findings: every ``json.*`` of :func:`~replykit.questionnaire.payload.json_strict.read_json`;
    errors ``response.type_mismatch`` (``type`` missing or not the one ``name``
    requires), ``response.questionnaire_id_missing`` (missing, not a string, or blank),
    ``response.answers_invalid`` (``answers`` not a list), ``response.answer_invalid``
    (an answer not an object, ``question_id`` not a non-blank string, ``type`` not one of
    single_choice/multi_choice/free_text, a field of the wrong type for its type: single
    ``answer``/``value``/``label``/``other_text`` strings, multi ``answer``/``values``/
    ``labels`` lists of strings, free_text ``answer`` a string; ``question`` a string);
    warning ``response.status_unknown`` (``status`` not ``submitted``). Never raises.

    ``limits`` (§1): ``answers`` longer than ``max_questions`` (``limit.questions``) or an
    answer's ``answer``/``values``/``labels`` longer than ``max_options``
    (``limit.options``) is the one finding about the answers, which are not read; at
    most ``max_diagnostics`` findings are kept, the rest counted in ``overflow``.
    ``max_depth`` defaults to ``limits.max_depth``.
    """
    depth = limits.max_depth if max_depth is None else max_depth
    read = read_json(payload, max_depth=depth, max_findings=limits.max_diagnostics)
    sink = finding_sink(limits.max_diagnostics)
    sink.extend(read.findings)
    sink.absorb(read.overflow, len(read.findings))
    root = read.value
    response = None
    if isinstance(root, dict):
        over = response_lists(root, limits)
        if over is not None:
            sink.append(_at_list(over, payload))
        else:
            refused = _refused(read)
            found = FindingSink(
                limits.max_diagnostics,
                path_in_details=True,
                locate=_locator(read.spans),
                skip=(lambda p: p in refused) if refused else None,
            )
            response = _response(root, response_type(name), found.at())
            _take(sink, tuple(found.findings), found.findings.overflow, read)
            return _response_result(response, read.spans, sink)
    return _response_result(None, read.spans, sink)


def _response_result(
    value: Response | None, spans: SpanMap, sink: Collector[Finding]
) -> ResponseRead:
    return ResponseRead(
        value=None if sink.has_error else value,
        spans=spans,
        findings=tuple(sink),
        overflow=sink.overflow,
    )


def _got(root: dict[str, Any], key: str) -> dict[str, Any]:
    """The ``{hint}`` of a field that is missing or has the wrong value."""
    return {"as": "missing"} if key not in root else {"as": "found_value", "value": root[key]}


def _response(root: dict[str, Any], expected_type: str, at: Cursor) -> Response | None:
    """The response, or ``None`` when an error was reported (its model would not be
    valid: a blank id, an answer of the wrong shape)."""
    header_ok = _header_ok(root, expected_type, at)
    answers = _answers(root, at)
    rtype = root.get("type")
    qid = root.get("questionnaire_id")
    status = root.get("status")
    if not header_ok or answers is None or not isinstance(rtype, str) or not isinstance(qid, str):
        return None
    return Response(
        type=rtype,
        questionnaire_id=qid,
        status=status,  # as sent: a non-string is warned about, not replaced
        answers=answers,
    )


def _header_ok(root: dict[str, Any], expected_type: str, at: Cursor) -> bool:
    """Whether ``type`` and ``questionnaire_id`` let a response be built (each reported
    when not); a ``status`` other than ``submitted`` is only a warning (§5)."""
    ok = True
    rtype = root.get("type")
    if rtype != expected_type:
        ok = False
        at.add(
            R.RESPONSE_TYPE_MISMATCH,
            "type",
            details={"expected": expected_type, "value": rtype},
            quoted_type=repr(expected_type),
            hint=_got(root, "type"),
        )
    qid = root.get("questionnaire_id")
    if not isinstance(qid, str) or is_blank(qid):
        ok = False
        present = "questionnaire_id" in root and qid is not None
        at.add(
            R.RESPONSE_QUESTIONNAIRE_ID_MISSING,
            "questionnaire_id",
            variant="invalid" if present else None,
            details={"actual": json_type(qid) if "questionnaire_id" in root else "missing"},
            value=qid,
        )
    status = root.get("status")
    if status != "submitted":
        at.add(
            R.RESPONSE_STATUS_UNKNOWN,
            "status",
            details={"value": status},
            hint=_got(root, "status"),
        )
    return ok


def _answers(root: dict[str, Any], at: Cursor) -> tuple[Answer, ...] | None:
    """The answers read, or ``None`` when ``answers`` is not a list or any answer was
    reported; every answer is checked either way."""
    raw_answers = root.get("answers")
    if not isinstance(raw_answers, list):
        present = "answers" in root
        at.add(
            R.RESPONSE_ANSWERS_INVALID,
            "answers",
            details={
                "expected": "array",
                "actual": json_type(raw_answers) if present else "missing",
            },
            hint={"as": "kind", "actual": json_type(raw_answers)} if present else {"as": "missing"},
        )
        return None
    ok = True
    answers: list[Answer] = []
    for i, raw in enumerate(raw_answers):
        answer = _answer(raw, at.descend("answers", i))
        ok = ok and answer is not None
        if answer is not None:
            answers.append(answer)
    return tuple(answers) if ok else None


def _invalid(at: Cursor, expected: str, value: Any, present: bool = True) -> None:
    if not present:
        hint: dict[str, Any] = {"as": "missing"}
    elif isinstance(value, str) and expected == "a non-blank string":
        hint = {"as": "blank"}
    else:
        hint = {"as": "found_kind", "actual": json_type(value)}
    at.add(
        R.RESPONSE_ANSWER_INVALID,
        details={"expected": expected, "actual": json_type(value) if present else "missing"},
        shape=expected,
        hint=hint,
    )


def _answer(raw: Any, at: Cursor) -> Answer | None:
    if not isinstance(raw, dict):
        _invalid(at, "an object", raw)
        return None
    ok = True
    qid = raw.get("question_id")
    if not isinstance(qid, str) or is_blank(qid):
        _invalid(at.descend("question_id"), "a non-blank string", qid, "question_id" in raw)
        ok = False
    atype = raw.get("type")
    if atype not in ANSWER_TYPES:
        at.add(
            R.RESPONSE_ANSWER_INVALID,
            "type",
            variant="type",
            details={
                "allowed": list(ANSWER_TYPES),
                **({"value": atype} if "type" in raw else {"actual": "missing"}),
            },
            hint=_got(raw, "type"),
        )
        ok = False
    fields: dict[str, Any] = {}
    ok = _string(raw, at, "question", fields) and ok
    if atype not in ANSWER_TYPES:
        # The shape of answer, values, value and labels depends on the refused type:
        # only what every type asks is checked (§7).
        if "answer" not in raw:
            _invalid(at.descend("answer"), "a string or a list of strings", None, False)
    elif atype == "multi_choice":
        ok = _strings(raw, at, "answer", fields, required=True) and ok
        ok = _strings(raw, at, "values", fields) and ok
        ok = _strings(raw, at, "labels", fields) and ok
    else:
        ok = _string(raw, at, "answer", fields, required=True) and ok
        if atype == "single_choice":
            for key in ("value", "label"):
                ok = _string(raw, at, key, fields) and ok
    ok = _string(raw, at, "other_text", fields) and ok
    if not ok or not isinstance(qid, str) or not isinstance(atype, str):
        return None
    return Answer(question_id=qid, type=cast(QuestionType, atype), **fields)


def _string(
    raw: dict[str, Any], at: Cursor, key: str, out: dict[str, Any], required: bool = False
) -> bool:
    if key not in raw:
        if required:
            _invalid(at.descend(key), "a string", None, present=False)
        return not required
    value = raw[key]
    if not isinstance(value, str):
        _invalid(at.descend(key), "a string", value)
        return False
    out[key] = value
    return True


def _strings(
    raw: dict[str, Any], at: Cursor, key: str, out: dict[str, Any], required: bool = False
) -> bool:
    if key not in raw:
        if required:
            _invalid(at.descend(key), "a list of strings", None, present=False)
        return not required
    value = raw[key]
    if not isinstance(value, list):
        _invalid(at.descend(key), "a list of strings", value)
        return False
    ok = True
    for k, item in enumerate(value):
        if not isinstance(item, str):
            _invalid(at.descend(key, k), "a string", item)
            ok = False
    if ok:
        out[key] = tuple(value)
    return ok
