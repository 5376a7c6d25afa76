"""Checking a response against its form (§7; docs/protocol-responses.md section 1.4).

:func:`check_answers` reports every way a parsed
:class:`~replykit.questionnaire.model.Response` does not fit its form. A parsed
response has its shape by construction (each answer's ``answer`` a string or, for a
multi choice, a tuple of strings: the reader reports any other shape as
``response.answer_invalid``), so what is left is the form's business; each rule is a
function of :mod:`.rules`, the same one building applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

import attrs

from replykit.argcheck import typed
from replykit.codes.limits import LIMIT_QUESTIONS
from replykit.diagnostics import Finding
from replykit.findings import Cursor
from replykit.questionnaire.conversation.responses import rules
from replykit.questionnaire.conversation.responses.display import resolve_ui_text
from replykit.questionnaire.conversation.texts import LOCALES
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits, answer_list_limit, form_id_problem
from replykit.questionnaire.model import OTHER_VALUE, Answer, Question, Questionnaire, Response


@typed
def check_answers(
    questionnaire: Questionnaire,
    response: Response,
    *,
    questionnaire_id: str | None = None,
    ui_text: Mapping[str, str] | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> tuple[Finding, ...]:
    """Every way ``response`` does not fit ``questionnaire`` (§7; docs/protocol-responses.md 1.4).

    Input: the form and a parsed response (from ``segment()`` or
    :func:`~replykit.questionnaire.payload.read_xml_response`); ``questionnaire_id``, when
    given, the id the response must name. Output: :class:`~replykit.diagnostics.Finding`
    objects in response order, each with ``path`` into the response JSON (0-based ints in
    the tuple, 1-based in ``details["path"]``: ``answers[2].values[1]``); ``()`` when it fits.

    Errors: ``answer.questionnaire_id_mismatch`` (``questionnaire_id``),
    ``answer.unknown_question`` and ``answer.duplicate`` (``answers[i].question_id``),
    ``answer.type_mismatch`` (``answers[i].type`` differs from the question's),
    ``answer.value_not_in_options``, ``answer.other_not_allowed`` ("other" without
    ``allow_other``, or ``other_text`` on free text), ``answer.other_text_unexpected``
    (``other_text`` without "other"), ``answer.inconsistent`` (``answer`` differs from
    ``value``/``values``, or not one label per value), ``answer.duplicate_value`` (a
    value repeated in a multi-choice answer), ``answer.missing`` (a question with no
    answer: path ``answers``, ``details["question_id"]``). Warning:
    ``answer.label_mismatch`` (a label that is not the option's; for an unanswered
    single choice one that is not ``""``; for "other" one that is none of the ``other``
    texts :func:`build_response` could write with this ``ui_text``, in either locale:
    the argument's, else the form's, else 其他 or Other).

    ``limits`` (§1): over ``max_questions`` answers is the one ``limit.questions``; a
    value list over ``max_options`` + 1 (options and "other") is ``limit.options``, the
    answer read no further; ``max_diagnostics`` findings at most, then one
    ``limit.diagnostics``; ``details["allowed"]`` only on the first
    ``answer.value_not_in_options`` of each question and first ``answer.unknown_question``.
    Raises ``TypeError`` naming an argument (or ``ui_text`` value) of the wrong type,
    ``ValueError`` when ``questionnaire_id`` breaks the id rule of §6 (:func:`form_id_problem`)
    or ``ui_text`` has an unknown key or a value over 64 code points
    (:func:`resolve_ui_text`, §5), whatever the response holds.
    """
    problem = None if questionnaire_id is None else form_id_problem(questionnaire_id)
    if problem is not None:
        raise ValueError(f"questionnaire_id {problem}")
    other = tuple(dict.fromkeys(resolve_ui_text(questionnaire, ui_text, loc)["other"]
                                for loc in LOCALES))  # fmt: skip
    sink = rules.AnswerSink(limits.max_diagnostics)
    if len(response.answers) > limits.max_questions:
        size, limit = len(response.answers), limits.max_questions
        details = {"limit": limit, "actual": size}
        sink.at("answers").add(
            LIMIT_QUESTIONS, details=details, what="answers", size=size, limit=limit
        )
        return sink.result()
    rules.same_id(sink.at("questionnaire_id"), response.questionnaire_id, questionnaire_id)
    by_id = {q.id: q for q in questionnaire.questions}
    seen: set[str] = set()
    for i, a in enumerate(response.answers):
        _answer(sink.at("answers", i), by_id, a, seen, sink, limits, other)
    rules.missing(sink.at("answers"), questionnaire.questions, seen)
    return sink.result()


def _answer(
    at: Cursor,
    by_id: Mapping[str, Question],
    a: Answer,
    seen: set[str],
    sink: rules.AnswerSink,
    limits: Limits,
    other: tuple[str, ...],
) -> None:
    """The findings of one answer (at ``answers[i]``); ``other``: the labels "other" may
    carry, the first the one reported as expected."""
    q = by_id.get(a.question_id)
    if q is None:
        rules.unknown_question(at.descend("question_id"), a.question_id, list(by_id), sink)
        return
    if not rules.first_answer(at.descend("question_id"), a.question_id, seen):
        return
    if not rules.type_matches(at.descend("type"), q, a.type, "type"):
        return
    for key, items in (("answer", a.answer), ("values", a.values), ("labels", a.labels)):
        if not rules.within_options(at.descend(key), items, answer_list_limit(limits)):
            return
    labels = rules.option_labels(q)
    # The labels build_response writes: "other" has its display text, no answer "".
    shown = {"": "", **({OTHER_VALUE: other[0]} if q.allow_other else {}), **labels}
    if q.type == "single_choice":
        _single(at, q, labels, _other_as_first(a, other), sink, shown)
    elif q.type == "multi_choice":
        _multi(at, q, labels, _other_as_first(a, other), sink, shown)
    else:
        rules.other_text_fits(at.descend("other_text"), q, a.other_text, False)


def _other_as_first(a: Answer, other: tuple[str, ...]) -> Answer:
    """``a`` with any accepted "other" label written as the first one, so that every
    label :func:`build_response` could write for "other" matches (a Python-side view
    for the label check only; the reported ``given_label`` is never one of these)."""
    if a.label is not None and a.answer == OTHER_VALUE and a.label in other:
        return attrs.evolve(a, label=other[0])
    if a.labels is not None and isinstance(a.answer, tuple) and OTHER_VALUE in a.answer:
        pairs = zip(a.answer, a.labels, strict=False)
        fixed = tuple(other[0] if v == OTHER_VALUE and lb in other else lb for v, lb in pairs)
        return attrs.evolve(a, labels=fixed + a.labels[len(fixed) :])
    return a


def _single(
    at: Cursor,
    q: Question,
    labels: Mapping[str, str],
    a: Answer,
    sink: rules.AnswerSink,
    shown: Mapping[str, str],
) -> None:
    answer = cast(str, a.answer)  # a single-choice answer is a str (the model's invariant)
    rules.consistent(at.descend("value"), q, a.value, answer)
    # The finding names the field holding the value judged: "value" only when it
    # repeats "answer" (an inconsistent one is reported above, its own value unjudged).
    field = "value" if a.value == answer else "answer"
    rules.choice_value(at.descend(field), q, labels, answer, sink)
    rules.other_text_fits(at.descend("other_text"), q, a.other_text, answer == OTHER_VALUE)
    if a.label is not None:
        rules.labels_match(at.descend("label"), q, shown, [(answer, a.label)])


def _multi(
    at: Cursor,
    q: Question,
    labels: Mapping[str, str],
    a: Answer,
    sink: rules.AnswerSink,
    shown: Mapping[str, str],
) -> None:
    values = cast(tuple[str, ...], a.answer)  # a tuple for a multi choice (the model's)
    rules.consistent(at.descend("values"), q, a.values, values)
    field = "values" if a.values == values else "answer"
    rules.chosen_values(at.descend(field), q, labels, values, sink)
    rules.other_text_fits(at.descend("other_text"), q, a.other_text, OTHER_VALUE in values)
    if a.labels is not None and rules.consistent(
        at.descend("labels"), q, a.labels, values, count=True
    ):
        rules.labels_match(at.descend("labels"), q, shown, zip(values, a.labels, strict=True))
