"""The ``questionnaire_async`` tool (§7; docs/protocol-responses.md section 2).

- :func:`questionnaire_async` / :func:`call_questionnaire_async`: validate and normalize
  the tool-call arguments; return the seed's success object or error object (a plain
  ``dict`` whose key order is the seed's, ready for ``json.dumps``; ``details`` values
  are made JSON-safe, §1). :func:`~.tool_text.questionnaire_async_json` reads the
  arguments from JSON text, strictly.
- :func:`questionnaire_from_tool_result`: what a client opens for a tool result (a form
  only for a success result; otherwise the errors), linked by ``tool_call_id``.
- :func:`tool_schema`: the JSON Schema (draft 2020-12) of the arguments, for an LLM
  tool definition.

The tool returns at once: it never waits for, polls or stores the user's answer (§7).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from replykit.argcheck import typed
from replykit.cap import LIMIT_DIAGNOSTICS, Overflow, finish, summary_message
from replykit.codes import Code, lookup
from replykit.codes.responses import (
    TOOL_RESULT_ERROR_INVALID,
    TOOL_RESULT_FAILED,
    TOOL_RESULT_INCONSISTENT,
    TOOL_RESULT_INVALID,
)
from replykit.diagnostics import Finding, LeftOut
from replykit.frozen import FrozenDict, freeze_mapping
from replykit.jsonout import dumps, escape_lone, portable
from replykit.questionnaire.conversation.texts import Locale, check_locale, start_success_message
from replykit.questionnaire.conversation.tool_schema import TOOL_NAME as TOOL_NAME
from replykit.questionnaire.conversation.tool_schema import or_null as or_null
from replykit.questionnaire.conversation.tool_schema import tool_schema as tool_schema
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits, arguments_size, form_id_problem
from replykit.questionnaire.model import Questionnaire
from replykit.questionnaire.payload.describe import json_type
from replykit.questionnaire.payload.lenient import normalize_form
from replykit.questionnaire.payload.results import FormRead
from replykit.surrogates import refused_values
from replykit.text import is_blank

STATUS_AWAITING = "awaiting_user_input"
ERROR_CODE = "INVALID_ARGUMENT"


@typed
@attrs.frozen
class ToolError:
    """One entry of a failed result's ``errors`` (§7): ``code``
    (``questionnaire.start.*``; ``json.*`` for arguments text that is not strict JSON;
    ``tool_result.*`` for a malformed result), ``path``
    (1-based as the seed writes it, ``questions[1].default``; ``None`` when about the
    whole arguments or result), the localized ``message``, and ``details`` (``path``
    plus ``expected``/``actual``/``value``/``allowed``/``invalid_items``). The
    constructor raises ``TypeError`` naming the field when a value has the wrong type."""

    code: str
    path: str | None
    message: str
    details: Mapping[str, Any] = attrs.field(factory=FrozenDict, converter=freeze_mapping)

    def to_json(self) -> dict[str, Any]:
        """``{"code", "path", "message", "details"}`` (the seed's order)."""
        return {
            "code": self.code,
            "path": self.path,
            "message": self.message,
            "details": portable(dict(self.details)),
        }


@typed
@attrs.frozen
class ToolForm:
    """What a client opens for one ``questionnaire_async`` tool result (§7).

    ``id``: the ``tool_call_id`` (the questionnaire id of the answer, §6).
    ``questionnaire``: the normalized form when the result succeeded, else ``None``.
    ``errors``: the errors to show instead (``()`` when the form opened).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    id: str
    questionnaire: Questionnaire | None
    errors: tuple[ToolError, ...] = ()

    @property
    def opened(self) -> bool:
        """True when the result opens a submittable form."""
        return self.questionnaire is not None


def _capped(
    findings: tuple[Finding, ...], locale: Locale, overflow: Overflow[Finding] | None = None,
    limit: int = DEFAULT_LIMITS.max_diagnostics,
) -> list[ToolError]:  # fmt: skip
    """The result's ``errors``: each error finding localized, at most ``limit`` of them,
    the rest (and what the reader's cap left out) in one ``limit.diagnostics`` entry."""
    return capped_errors(_errors(findings, locale), limit, locale, _left_out(overflow))


def _left_out(overflow: Overflow[Finding] | None) -> tuple[LeftOut, ...]:
    """The errors a reader's cap left out, counted by code."""
    inner = overflow.counts if overflow is not None else ()
    return tuple(c for c in inner if c.severity == "error")


def _errors(findings: tuple[Finding, ...], locale: Locale) -> list[ToolError]:
    """Each error finding as a :class:`ToolError`, its message in ``locale``."""
    out = []
    for f in findings:
        if f.severity != "error":
            continue
        details = portable(dict(f.details))
        code = lookup(f.code)
        message = f.message if code is None else code.render(f.params, f.variant, locale)
        path = details.get("path")
        out.append(ToolError(f.code, path if isinstance(path, str) else None, message, details))
    return out


def capped_errors(
    errors: list[ToolError], limit: int, locale: Locale, left_out: tuple[LeftOut, ...] = ()
) -> list[ToolError]:
    """``errors`` within the cap of §1: at most ``limit`` entries, the last one a
    ``limit.diagnostics`` entry (path ``null``; ``details``: ``limit`` and ``left_out``,
    ``[{"code", "severity", "count"}]``) counting what is not listed, ``left_out`` (left
    out upstream) included; unchanged when nothing is left out."""

    def summary(counts: tuple[LeftOut, ...]) -> ToolError:
        details = {"path": None, "limit": limit, "left_out": [c.to_json() for c in counts]}
        return ToolError(LIMIT_DIAGNOSTICS, None, summary_message(counts, limit, locale), details)

    return finish(
        errors,
        limit,
        code=lambda e: e.code,
        severity=lambda _e: "error",
        summary=summary,
        upstream=left_out,
    )


def _read(arguments: Any, limits: Limits) -> FormRead:
    """The arguments normalized, or the one limit finding when they are too large or
    too deep as JSON (§1: ``max_payload`` is their size as JSON text), or their
    ``json.lone_surrogate`` and ``json.key_not_string`` errors: a value strict JSON
    cannot hold is not read (§1)."""
    too_big = arguments_size(arguments, limits)
    if too_big is not None:
        return FormRead(None, findings=(too_big,))
    kept: list[Finding] = []
    left_out: dict[str, int] = {}
    first: Finding | None = None
    for code, build in refused_values(arguments):
        if len(kept) < limits.max_diagnostics:
            kept.append(build())
            continue
        first = first or build()  # past the cap only counted (§2.1), the first built
        left_out[code] = left_out.get(code, 0) + 1
    if kept:
        counts = tuple(LeftOut(code, "error", n) for code, n in left_out.items())
        overflow = None if first is None else Overflow(counts, first, len(kept))
        return FormRead(None, findings=tuple(kept), overflow=overflow)
    return normalize_form(arguments, allow_extras=False, limits=limits)


def _check_limits(limits: object) -> None:
    if not isinstance(limits, Limits):
        raise TypeError(f"limits must be a Limits, not {type(limits).__name__}")


@typed
def call_questionnaire_async(
    arguments: Any, *, locale: str = "zh", limits: Limits = DEFAULT_LIMITS
) -> dict[str, Any]:
    """Run ``questionnaire_async`` on a whole tool-call arguments value (§7).

    Input: ``arguments``, the decoded JSON arguments (an object is expected: ``title``
    optional, ``questions`` required; other keys are ignored); ``locale`` ``zh`` or
    ``en`` for the messages.

    Output, success (keys in this order): ``success`` true, ``status``
    ``awaiting_user_input``, ``validation_passed`` true, ``title`` (``""`` when absent),
    ``question_count``, ``questions`` (each ``id, type, text, options, default,
    allow_other``; string options become ``{value, label}``; aliases mapped; missing
    ids ``q<n>``), ``should_end`` true, ``message`` (zh ``问卷已发起并等待用户回复，共 N 题。``).
    Failure: ``success`` false, ``status`` ``error``, ``error_code``
    ``INVALID_ARGUMENT``, ``validation_passed`` false, ``errors`` (every problem, each
    ``{code, path, message, details}``, codes ``questionnaire.start.*`` of §7 plus
    ``arguments_not_object`` with path ``null`` when ``arguments`` is not an object).

    A string (or key) holding a surrogate code point, which strict JSON cannot carry
    (§1), is a ``json.lone_surrogate`` error at its path and the arguments are not read.

    ``limits`` (§1): arguments longer than ``max_payload`` as compact JSON text are one
    ``limit.payload_size`` error and nesting deeper than ``max_depth`` one
    ``json.too_deep``; a list over ``max_questions``/``max_options`` one
    ``limit.questions``/``limit.options``; nothing else is then read. At most
    ``max_diagnostics`` errors are listed, the rest counted by one
    ``limit.diagnostics`` entry (``details.left_out``).

    Raises ``ValueError`` only for an unknown locale, ``TypeError`` naming the argument
    when ``locale`` is not a ``str`` or ``limits`` not a
    :class:`~replykit.questionnaire.limits.Limits`.
    """
    loc = check_locale(locale)
    _check_limits(limits)
    read = _read(arguments, limits)
    form = read.value
    if form is not None:
        return {
            "success": True,
            "status": STATUS_AWAITING,
            "validation_passed": True,
            "title": form.title,
            "question_count": len(form.questions),
            "questions": [q.to_json() for q in form.questions],
            "should_end": True,
            "message": start_success_message(len(form.questions), loc),
        }
    return error_result(_capped(read.findings, loc, read.overflow, limits.max_diagnostics))


def error_result(errors: list[ToolError]) -> dict[str, Any]:
    """The seed's error object (§7) listing ``errors`` (already within the cap)."""
    return {
        "success": False,
        "status": "error",
        "error_code": ERROR_CODE,
        "validation_passed": False,
        "errors": [e.to_json() for e in errors],
    }


class _Absent:
    """The default of :func:`questionnaire_async`'s parameters: an argument left out,
    which (unlike ``None``, JSON ``null``) is reported as missing (§7)."""

    def __repr__(self) -> str:
        return "<absent>"


_ABSENT: Any = _Absent()


@typed
def questionnaire_async(
    title: Any = _ABSENT,
    questions: Any = _ABSENT,
    *,
    locale: str = "zh",
    limits: Limits = DEFAULT_LIMITS,
) -> dict[str, Any]:
    """The ``questionnaire_async`` tool with its two parameters (§7).

    Input: ``title`` (optional string), ``questions`` (non-empty list of question
    objects), ``locale``. A parameter left out is absent from the arguments, as in a
    tool call that omits it: no ``questions`` is ``questions_must_be_list`` with
    ``actual`` ``missing`` (zh ``缺少 questions``); ``None`` is passed as JSON ``null``
    (``null`` counts as absent for ``title``, as in the tool call).
    Output and errors: as :func:`call_questionnaire_async` on
    ``{"title": title, "questions": questions}`` (the parameters given), with the same
    ``limits``.
    Raises ``TypeError`` naming the argument when an argument has the wrong type.
    """
    given = {"title": title, "questions": questions}
    arguments = {k: v for k, v in given.items() if not isinstance(v, _Absent)}
    return call_questionnaire_async(arguments, locale=locale, limits=limits)


def _result_error(
    code: Code, path: str | None, locale: Locale, variant: str | None = None
) -> ToolError:
    message = code.render({"path": path}, variant, locale)
    return ToolError(code.name, path, message, {"path": path})


def _contradictions(result: Mapping[str, Any], locale: Locale) -> list[ToolError]:
    """A ``tool_result.inconsistent`` error for each field that contradicts the result's
    ``success`` (§7): a success result is the tool's success object (``status``
    ``awaiting_user_input``, ``validation_passed`` true, ``question_count`` the number
    of its ``questions``); a failed one never says ``validation_passed`` true."""
    success = result.get("success") is True
    wants: list[tuple[str, Any]] = [("validation_passed", success)]
    if success:
        wants.append(("status", STATUS_AWAITING))
        questions = result.get("questions")
        if isinstance(questions, list):
            wants.append(("question_count", len(questions)))
    out = []
    for field, want in wants:
        value = result.get(field, _ABSENT)
        same = type(value) is type(want) and value == want
        if field == "validation_passed" and not success:
            same = value is not True  # a failed result may leave the flag out
        if not same:
            missing = isinstance(value, _Absent)
            shown = "missing" if missing else value
            params = {"path": field, "want": dumps(want, compact=True), "value": shown}
            variant = "missing" if missing else None
            message = TOOL_RESULT_INCONSISTENT.render(params, variant, locale)
            # The value itself only in the message, shortened: a result may be huge.
            details = {
                "path": field,
                "expected": want,
                "actual": shown if missing else json_type(value),
            }
            out.append(ToolError(TOOL_RESULT_INCONSISTENT.name, field, message, details))
    return out


def _said(value: Any) -> bool:
    """A ``code`` or ``message`` of an error entry that says something: a string that is
    not blank (§1). An entry with an empty code or message tells the user nothing."""
    return isinstance(value, str) and not is_blank(value)


#: What :func:`_entry_fault` says of a usable entry.
_USABLE = "usable"


def _entry_fault(item: Any, limits: Limits) -> str | None:
    """Why an ``errors`` entry of a failed result is ``tool_result.error_invalid``: the
    message variant (``None``: not a ``{code, path, message, details}`` object, or
    ``details`` over the limits; ``"blank"``: a blank code or message), or
    :data:`_USABLE`. The one judgement of entries listed and entries past the cap."""
    if not isinstance(item, Mapping):
        return None
    code, path, message = item.get("code"), item.get("path"), item.get("message")
    details = item.get("details")
    if not (
        "path" in item  # the seed's error entry has all four keys
        and isinstance(code, str)
        and (path is None or isinstance(path, str))
        and isinstance(message, str)
        and isinstance(details, Mapping)
    ):
        return None
    if not (_said(code) and _said(message)):
        return "blank"
    return _USABLE if arguments_size(details, limits) is None else None


def _listed_error(item: Any, index: int, locale: Locale, limits: Limits) -> ToolError:
    fault = _entry_fault(item, limits)
    if fault != _USABLE:
        return _result_error(TOOL_RESULT_ERROR_INVALID, f"errors[{index + 1}]", locale, fault)
    path = item["path"]
    # The tool's own words, with any lone surrogate escaped as in every message (§1);
    # details bounded by _entry_fault before they are copied.
    shown_path = None if path is None else escape_lone(path)
    return ToolError(escape_lone(item["code"]), shown_path, escape_lone(item["message"]),
                     portable(dict(item["details"])))  # fmt: skip


@typed
def questionnaire_from_tool_result(
    result: Any, tool_call_id: str, *, locale: str = "zh", limits: Limits = DEFAULT_LIMITS
) -> ToolForm:
    """Open the form of one ``questionnaire_async`` result, or give its errors (§7).

    Input: ``result``, the decoded tool result; ``tool_call_id``, the id linking the
    assistant's tool call to the result (it becomes the form's id, §6); ``locale`` for
    messages this function writes.

    Output: :class:`ToolForm`. Only a result whose ``success`` is ``true`` and that is
    consistent opens a form: ``validation_passed`` ``true``, ``status``
    ``awaiting_user_input`` and ``question_count`` the number of its ``questions``; each
    field that is missing or says otherwise is one ``tool_result.inconsistent`` error
    with that field as its path (as is a failed result's ``validation_passed`` ``true``),
    listed first. Its ``title`` and ``questions`` are normalized again
    (a normalized form normalizes to itself), and if that fails (a forged or corrupted
    result) the normalizer's errors are returned and nothing opens. Any other result
    opens nothing and returns its ``errors`` entries; an entry that is not
    ``{code: str, path: str|null, message: str, details: object}``, or whose ``code`` or
    ``message`` is blank (§1: ``""``, spaces; it would show the user an empty error
    line), becomes ``tool_result.error_invalid`` (path ``errors[i]``); a failed result
    with no entries gives one ``tool_result.failed``; a result that is not an object gives
    ``tool_result.invalid``. ``limits`` as in :func:`call_questionnaire_async` (an
    entry whose ``details`` exceed ``max_payload`` or ``max_depth`` is
    ``tool_result.error_invalid``); at most ``max_diagnostics`` errors, the rest in one
    ``limit.diagnostics`` entry.

    Raises ``TypeError`` naming the argument when ``tool_call_id`` or ``locale`` is not
    a ``str``; ``ValueError`` when the locale is unknown or ``tool_call_id`` breaks the
    id rule of §6 (1 to 128 code points, not blank, no surrogate, or a block id of such a
    message id: :func:`~replykit.questionnaire.limits.form_id_problem`), since the
    form could never be answered.
    """
    loc = check_locale(locale)
    problem = form_id_problem(tool_call_id)
    if problem is not None:
        raise ValueError(f"tool_call_id {problem}")
    if not isinstance(result, Mapping):
        return ToolForm(tool_call_id, None, (_result_error(TOOL_RESULT_INVALID, None, loc),))
    contradictions = _contradictions(result, loc)
    if result.get("success") is True:
        # A field the result lacks stays missing (not null) in the arguments read.
        title, questions = result.get("title", _ABSENT), result.get("questions", _ABSENT)
        read = _read(_as_arguments(title, questions), limits)
        if read.value is not None and not contradictions:
            return ToolForm(tool_call_id, read.value, ())
        errors = _capped(read.findings, loc, read.overflow, limits.max_diagnostics)
        return ToolForm(tool_call_id, None, (*contradictions, *errors))
    listed = _listed_errors(result.get("errors"), loc, limits)
    return ToolForm(tool_call_id, None, (*contradictions, *listed))


# The fields normalization fills in, by question type, at the value it fills in.
_FILLED: dict[str, tuple[tuple[str, Any], ...]] = {
    "single_choice": (("default", ""), ("allow_other", False)),
    "multi_choice": (("default", []), ("allow_other", False)),
    "free_text": (("default", ""), ("allow_other", False), ("options", [])),
}


def _as_arguments(title: Any, questions: Any) -> dict[str, Any]:
    """A success result's ``title`` and ``questions`` as the smallest arguments that
    normalize to them (§7): an option whose label is its value written as that string,
    and what normalization fills in left out (an id ``q<n>`` at its position, an empty
    default, ``allow_other`` false, a free-text question's empty options, an empty
    title); ``free_text`` written as its alias ``text``. A result is then measured
    against ``max_payload`` as the arguments it came from were, not at up to twice their
    size (string options grow into ``{value, label}``), and reads back to itself."""
    args: dict[str, Any] = {} if title == "" or title is _ABSENT else {"title": title}
    if questions is _ABSENT:
        return args
    if not isinstance(questions, list):
        return {**args, "questions": questions}
    out: list[Any] = []
    for index, question in enumerate(questions):
        if not isinstance(question, dict):
            out.append(question)
            continue
        kept = dict(question)
        if kept.get("id") == f"q{index + 1}":
            del kept["id"]
        for key, filled in _FILLED.get(str(kept.get("type")), ()):
            if key in kept and type(kept[key]) is type(filled) and kept[key] == filled:
                del kept[key]
        if kept.get("type") == "free_text":
            kept["type"] = "text"  # its shortest name (arguments may use the alias)
        options = kept.get("options")
        if isinstance(options, list):
            kept["options"] = [_as_option(option) for option in options]
        out.append(kept)
    return {**args, "questions": out}


def _as_option(option: Any) -> Any:
    if (
        isinstance(option, dict)
        and option.keys() == {"value", "label"}
        and isinstance(option["value"], str)
        and option["label"] == option["value"]
    ):
        return option["value"]
    return option


def _listed_errors(raw: Any, loc: Locale, limits: Limits) -> list[ToolError]:
    """The ``errors`` entries of a failed result, checked and capped (§2.1), or one
    ``tool_result.failed`` when there is none."""
    listed: list[ToolError] = []
    if isinstance(raw, list):
        # Past the cap only the count is needed: entries are not copied.
        for i, item in enumerate(raw[: limits.max_diagnostics]):
            listed.append(_listed_error(item, i, loc, limits))
        rest: dict[str, int] = {}
        for item in raw[limits.max_diagnostics :]:
            usable = _entry_fault(item, limits) == _USABLE
            key = item["code"] if usable else TOOL_RESULT_ERROR_INVALID.name
            rest[key] = rest.get(key, 0) + 1
        extra = tuple(LeftOut(code, "error", n) for code, n in rest.items())
        listed = capped_errors(listed, limits.max_diagnostics, loc, extra)
    return listed or [_result_error(TOOL_RESULT_FAILED, None, loc)]
