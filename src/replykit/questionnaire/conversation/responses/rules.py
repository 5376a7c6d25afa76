"""The rules an answer follows (§7; docs/protocol-responses.md sections 1.2 and 1.4).

Each ``answer.*`` rule is one function here, and both sides use the same one:
:mod:`.build` on the answers a user gives (paths start with the question id, ``q2[1]``)
and :mod:`.check` on a response read back (paths into the response JSON,
``answers[2].values[1]``). A rule reports through a :class:`~replykit.findings.Cursor`
at the place it looks at; the finding's message is its code's template in
:mod:`replykit.codes.responses`, rendered from the parameters it records.

Each ``answer.*`` code is reported by exactly one function (a test holds this), and
a function reports one code: a rule that needs another one calls its function
(:func:`chosen_values` calls :func:`type_matches`, :func:`chosen_once` and
:func:`choice_value`). Both sides use :func:`unknown_question`,
:func:`type_matches` (building: a value's JSON type; checking: the ``type`` field),
:func:`choice_value`, :func:`other_allowed`, :func:`chosen_once`,
:func:`chosen_values` and :func:`other_text_fits`; building alone reads the user's
shapes (:func:`is_list`, :func:`answer_fields`, :func:`typed_text`), since a parsed
:class:`~replykit.questionnaire.model.Answer` has its shape by construction; checking
alone compares a response with its form (:func:`same_id`, :func:`first_answer`,
:func:`consistent`, :func:`labels_match`, :func:`missing`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from replykit.cap import finish, summary_params
from replykit.codes._core import Code
from replykit.codes.limits import LIMIT_DIAGNOSTICS as SUMMARY
from replykit.codes.limits import LIMIT_OPTIONS
from replykit.codes.payload import JSON_LONE_SURROGATE
from replykit.codes.responses import (
    ANSWER_DUPLICATE,
    ANSWER_DUPLICATE_VALUE,
    ANSWER_FIELD_INVALID,
    ANSWER_INCONSISTENT,
    ANSWER_LABEL_MISMATCH,
    ANSWER_MISSING,
    ANSWER_OTHER_NOT_ALLOWED,
    ANSWER_OTHER_TEXT_UNEXPECTED,
    ANSWER_QUESTIONNAIRE_ID_MISMATCH,
    ANSWER_TYPE_MISMATCH,
    ANSWER_UNKNOWN_QUESTION,
    ANSWER_VALUE_NOT_IN_OPTIONS,
    ANSWER_VALUES_NOT_LIST,
)
from replykit.diagnostics import Finding, LeftOut, Path, Severity, path_text
from replykit.findings import Cursor, FindingSink
from replykit.jsonout import key_text, portable
from replykit.questionnaire.model import OTHER_VALUE, Question
from replykit.surrogates import first_lone_surrogate

#: What :func:`type_matches` looks at: the answer's ``type`` field, the answer itself, an
#: item of a multi-choice answer, or ``other_text``.
TypeOf = Literal["type", "answer", "item", "other_text"]
#: The keys of an answer object, ``{"value": ..., "other_text": ...}`` (§7).
INPUT_KEYS = ("value", "other_text")


class AnswerSink(FindingSink):
    """The :class:`~replykit.findings.Sink` of one call: a
    :class:`~replykit.findings.FindingSink` whose findings carry ``details``
    ``{"path": 1-based text, **details}`` made JSON-safe (:func:`~replykit.jsonout.portable`),
    at most ``limit`` kept (§1) and every one counted in :attr:`added`."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.added = 0
        self._seen: set[str] = set()

    def report(
        self,
        code: Code,
        path: Path,
        variant: str | None,
        details: Mapping[str, Any] | None,
        on_key: bool,
        params: dict[str, Any],
    ) -> None:
        """See :meth:`replykit.findings.Sink.report` (``on_key`` unused)."""
        self.added += 1
        shown = portable({"path": path_text(path), **(details or {})})
        super().report(code, path, variant, shown, on_key, params)

    def first_time(self, key: str) -> bool:
        """True the first time ``key`` is asked for (a list such as ``allowed`` is given
        once, so repeated mistakes cannot repeat the form)."""
        if key in self._seen:
            return False
        self._seen.add(key)
        return True

    def result(self) -> tuple[Finding, ...]:
        """The findings within the cap, the rest summarized by one ``limit.diagnostics``
        warning (``details``: ``path`` ``None``, ``limit``, ``left_out``)."""
        overflow = self.findings.overflow
        upstream = overflow.counts if overflow else ()
        return capped(list(self.findings), self.findings.limit, upstream)


def capped(
    findings: Sequence[Finding], limit: int, upstream: Sequence[LeftOut] = ()
) -> tuple[Finding, ...]:
    """``findings`` within the cap of §2.1 (at most ``limit``), the rest and ``upstream``
    (counted upstream) summarized by one ``limit.diagnostics`` warning (``details``:
    ``path`` ``None``, ``limit``, ``left_out``)."""

    def summary(counts: tuple[LeftOut, ...]) -> Finding:
        params, variant = summary_params(counts, limit)
        left_out = [c.to_json() for c in counts]
        details = portable({"path": None, "limit": limit, "left_out": left_out})
        return SUMMARY.finding(variant=variant, details=details, params=params)

    return tuple(
        finish(
            list(findings),
            limit,
            code=_code,
            severity=_severity,
            summary=summary,
            upstream=upstream,
        )
    )


def _code(f: Finding) -> str:
    return f.code


def _severity(f: Finding) -> Severity:
    return f.severity


def option_labels(q: Question) -> dict[str, str]:
    """Option value -> label (the first option with that value), built once per question
    so each answer value costs one lookup."""
    labels: dict[str, str] = {}
    for o in q.options:
        labels.setdefault(o.value, o.label)
    return labels


def _asked(q: Question) -> dict[str, Any]:
    return {"question_id": q.id}


# ---------------------------------------------------------------- rules of both sides


def unknown_question(at: Cursor, key: object, ids: Sequence[str], sink: AnswerSink) -> None:
    """``answer.unknown_question``: ``key`` names no question of the form; the form's
    ``ids`` are given as ``allowed`` on the call's first only."""
    details: dict[str, Any] = {"value": key}
    if sink.first_time("unknown_question"):
        details["allowed"] = list(ids)
    at.add(ANSWER_UNKNOWN_QUESTION, details=details, value=key)


def within_options(at: Cursor, items: object, limit: int) -> bool:
    """``limit.options`` (§1) for a list longer than ``limit``, which is then not read."""
    if not isinstance(items, list | tuple) or len(items) <= limit:
        return True
    where = path_text(at.path)
    size = len(items)
    at.add(
        LIMIT_OPTIONS, details={"limit": limit, "actual": size}, what=where, size=size, limit=limit
    )
    return False


def type_matches(at: Cursor, q: Question, given: object, of: TypeOf = "answer") -> bool:
    """``answer.type_mismatch``, the one rule for every type an answer has: ``of`` says
    which. ``"type"``: the answer's ``type`` is its question's (variant ``type``);
    ``"answer"``: a single-choice (variant ``choice``: the string is an option value) or
    free-text answer is a string; ``"item"``: an item of a multi-choice answer is a
    string (variant ``item``); ``"other_text"``: ``other_text`` is a string (variant
    ``other_text``). Returns whether it matches."""
    if of == "type":
        if given == q.type:
            return True
        details = {**_asked(q), "expected": q.type, "value": given}
        at.add(
            ANSWER_TYPE_MISMATCH,
            variant="type",
            details=details,
            question=q.id,
            type=q.type,
            given=given,
        )
        return False
    if isinstance(given, str):
        return True
    expected = "string"
    if of == "other_text":
        details = {"expected": expected}
        at.add(ANSWER_TYPE_MISMATCH, variant="other_text", details=details, expected=expected)
        return False
    details = {**_asked(q), "expected": expected}
    if of == "item":
        at.add(ANSWER_TYPE_MISMATCH, variant="item", details=details, expected=expected)
        return False
    variant = "choice" if q.type == "single_choice" else None
    at.add(
        ANSWER_TYPE_MISMATCH,
        variant=variant,
        details=details,
        expected=expected,
        type=q.type,
        question=q.id,
    )
    return False


def other_allowed(at: Cursor, q: Question, value: str | None) -> bool:
    """``answer.other_not_allowed``: "other" (the ``value`` :data:`OTHER_VALUE`, or an
    ``other_text``, ``value`` ``None``) needs a choice with ``allow_other``; on a
    free-text question it is variant ``free_text``. Returns whether it is allowed."""
    if q.type == "free_text":
        at.add(ANSWER_OTHER_NOT_ALLOWED, variant="free_text", details=_asked(q), question=q.id)
        return False
    if q.allow_other:
        return True
    at.add(ANSWER_OTHER_NOT_ALLOWED, details={**_asked(q), "value": value}, question=q.id)
    return False


def choice_value(
    at: Cursor, q: Question, labels: Mapping[str, str], value: str, sink: AnswerSink
) -> None:
    """``answer.value_not_in_options``: a chosen ``value`` is an option value of ``q``,
    ``""`` (single choice: no answer) or :data:`OTHER_VALUE` when ``q`` allows "other"
    (:func:`other_allowed`); ``allowed`` is given on the question's first only."""
    if value == OTHER_VALUE:
        other_allowed(at, q, value)
        return
    if value in labels or (value == "" and q.type == "single_choice"):
        return
    details = {**_asked(q), "value": value}
    if sink.first_time("allowed " + q.id):
        details["allowed"] = list(labels)
    at.add(ANSWER_VALUE_NOT_IN_OPTIONS, details=details, value=value, question=q.id)


def chosen_once(at: Cursor, q: Question, value: str, seen: set[str]) -> bool:
    """``answer.duplicate_value``: a value of a multi-choice answer is chosen once;
    ``seen`` holds those chosen before it. Returns whether ``value`` is new."""
    if value in seen:
        at.add(
            ANSWER_DUPLICATE_VALUE,
            details={**_asked(q), "value": value},
            value=value,
            question=q.id,
        )
        return False
    seen.add(value)
    return True


def chosen_values(
    at: Cursor, q: Question, labels: Mapping[str, str], items: Iterable[Any], sink: AnswerSink
) -> list[str]:
    """The values of a multi-choice answer, each a string (:func:`type_matches`), chosen
    once (:func:`chosen_once`) and a :func:`choice_value`; returns those read, repeats
    left out, in the given order."""
    values: list[str] = []
    seen: set[str] = set()
    for j, item in enumerate(items):
        item_at = at.descend(j)
        if type_matches(item_at, q, item, "item") and chosen_once(item_at, q, item, seen):
            choice_value(item_at, q, labels, item, sink)
            values.append(item)
    return values


def other_text_fits(at: Cursor, q: Question, other_text: str | None, chose_other: bool) -> None:
    """``answer.other_text_unexpected``: ``other_text`` (at ``at``) goes with "other"
    only; on a free-text question :func:`other_allowed` reports it."""
    if other_text is None:
        return
    if q.type == "free_text":
        other_allowed(at, q, None)
    elif not chose_other:
        at.add(ANSWER_OTHER_TEXT_UNEXPECTED, details=_asked(q), other=OTHER_VALUE)


# ---------------------------------------------------------------- building: the shapes


def is_list(at: Cursor, q: Question, raw: object) -> bool:
    """``answer.values_not_list``: a multi-choice answer is a list (or tuple)."""
    if isinstance(raw, list | tuple):
        return True
    details = {**_asked(q), "expected": "array of strings"}
    at.add(ANSWER_VALUES_NOT_LIST, details=details, question=q.id)
    return False


def answer_fields(at: Cursor, q: Question, raw: Mapping[Any, Any]) -> bool:
    """``answer.field_invalid``: an answer object has ``value`` and no key but ``value``
    and ``other_text`` (one finding for each other key and for a missing ``value``); an
    ``other_text`` that is not a string fails :func:`type_matches`. Returns whether
    ``value`` is there."""
    for key in raw:
        if key not in INPUT_KEYS:
            at.add(ANSWER_FIELD_INVALID, key_text(key), details={"allowed": list(INPUT_KEYS)})
    if "value" not in raw:
        at.add(ANSWER_FIELD_INVALID, "value", variant="value_required")
        return False
    other_text = raw.get("other_text")
    if other_text is not None:
        type_matches(at.descend("other_text"), q, other_text, "other_text")
    return True


def typed_text(at: Cursor, text: str) -> None:
    """``json.lone_surrogate`` for a typed text (free text, ``other_text``) holding half
    of a surrogate pair, which the response JSON would not carry faithfully (§1)."""
    char = first_lone_surrogate(text)
    if char is not None:
        at.add(JSON_LONE_SURROGATE, variant="value", shown=f"U+{ord(char):04X}")


# ---------------------------------------------------------------- checking a response


def same_id(at: Cursor, given: str, expected: str | None) -> None:
    """``answer.questionnaire_id_mismatch`` when an ``expected`` id is given and the
    response answers another."""
    if expected is not None and given != expected:
        details = {"expected": expected, "value": given}
        at.add(ANSWER_QUESTIONNAIRE_ID_MISMATCH, details=details, given=given, expected_id=expected)


def first_answer(at: Cursor, question_id: str, seen: set[str]) -> bool:
    """``answer.duplicate``: a question is answered once (``seen`` holds the questions
    answered before). Returns whether this is the first answer."""
    if question_id in seen:
        at.add(ANSWER_DUPLICATE, details={"value": question_id}, question=question_id)
        return False
    seen.add(question_id)
    return True


def consistent(
    at: Cursor,
    q: Question,
    given: str | tuple[str, ...] | None,
    answer: str | tuple[str, ...],
    *,
    count: bool = False,
) -> bool:
    """``answer.inconsistent``: ``value`` (``values``) repeats ``answer``; with ``count``,
    ``given`` (the ``labels``) has one item per value of ``answer`` (variant ``labels``).
    An absent ``given`` (``None``) is consistent. Returns whether it is."""
    if given is None or (len(given) == len(answer) if count else given == answer):
        return True
    shown = list(given) if isinstance(given, tuple) else given
    if count:
        at.add(ANSWER_INCONSISTENT, variant="labels", details={**_asked(q), "value": shown})
        return False
    expected = list(answer) if isinstance(answer, tuple) else answer
    at.add(ANSWER_INCONSISTENT, details={**_asked(q), "value": shown, "expected": expected})
    return False


def labels_match(
    at: Cursor, q: Question, labels: Mapping[str, str], pairs: Iterable[tuple[str, str]]
) -> None:
    """Each ``(value, label)`` shown has the option's label, else the warning
    ``answer.label_mismatch`` (at ``at``, the ``label`` or ``labels`` field)."""
    for value, label in pairs:
        if value in labels and labels[value] != label:
            at.add(
                ANSWER_LABEL_MISMATCH,
                details={**_asked(q), "value": label, "expected": labels[value]},
                given=value,
                label=labels[value],
                given_label=label,
            )


def missing(at: Cursor, questions: Iterable[Question], seen: set[str]) -> None:
    """``answer.missing`` (at ``answers``) for each question of the form not answered."""
    for q in questions:
        if q.id not in seen:
            at.add(ANSWER_MISSING, details=_asked(q), question=q.id)
