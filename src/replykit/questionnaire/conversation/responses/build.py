"""Building the response to a form (§7; docs/protocol-responses.md sections 1.1 and 1.2).

:func:`build_response` gives the agent text ``<{name}-response>{json}</{name}-response>``,
the display text and the answers, from a form and the user's answers (the shapes of
:mod:`replykit.questionnaire.conversation.responses`); :func:`build_response_json` takes
the answers as JSON text, read strictly (§1); :func:`initial_answers` is the draft a
client starts from.

The JSON is strict (§1): compact, UTF-8 kept (a lone surrogate in a text is written as
a ``\\udXXX`` escape, so ``agent_text`` always encodes as UTF-8; ``display_text`` shows
it as U+FFFD), keys in the seed's order: ``type`` (the request name with ``-`` -> ``_``
plus ``_response``), ``questionnaire_id``, ``status`` (``submitted``), ``answers``;
each answer ``question_id, question, type, answer`` then ``value, label`` (single
choice), ``values, labels`` (multi choice), and ``other_text`` last when "other" is
chosen. An unanswered single choice has ``answer``/``value``/``label`` ``""``. Inside
the JSON every ``</`` is written ``\\u003c/`` and every ``&`` ``\\u0026``: valid JSON
that reads back unchanged, and never the closer of a block, not even under a reader
that also accepts ``<\\/name>`` or decodes HTML entities (§7, §9).

Answers that do not fit the form raise :class:`AnswersError`; each rule is a function of
:mod:`.rules`, shared with checking. Codes: ``answer.unknown_question``,
``answer.type_mismatch``, ``answer.values_not_list``, ``answer.value_not_in_options``,
``answer.duplicate_value`` (a value repeated in a multi-choice answer),
``answer.other_not_allowed``, ``answer.other_text_unexpected``, ``answer.field_invalid``,
``json.lone_surrogate`` (a typed text holding half of a surrogate pair);
``limit.questions`` when the answers have more entries than ``limits.max_questions``,
``limit.options`` for a list longer than ``limits.max_options`` plus one (not read); at most
``limits.max_diagnostics`` of them, the rest summarized by one ``limit.diagnostics``
warning (§1); ``details["allowed"]`` is given on the first
``answer.value_not_in_options`` of each question and the first
``answer.unknown_question`` only, so repeated mistakes cannot repeat the form.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from replykit.argcheck import typed
from replykit.codes.limits import LIMIT_QUESTIONS
from replykit.codes.payload import JSON_NOT_OBJECT
from replykit.diagnostics import Finding, format_path
from replykit.findings import Cursor
from replykit.jsonout import displayable, dumps
from replykit.questionnaire.conversation.responses import rules
from replykit.questionnaire.conversation.responses.display import display_text, resolve_ui_text
from replykit.questionnaire.limits import (
    DEFAULT_LIMITS,
    Limits,
    answer_list_limit,
    form_id_problem,
    payload_size,
)
from replykit.questionnaire.model import OTHER_VALUE, Answer, Question, Questionnaire, Response
from replykit.questionnaire.payload.describe import json_type
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.questionnaire.payload.xml_form import response_type
from replykit.questionnaire.scan.grammar import family_pattern
from replykit.surrogates import lone_surrogates
from replykit.text import LineIndex

#: The only ``status`` a client sends (§7).
STATUS_SUBMITTED = "submitted"
_MISSING: Any = object()


@typed
@attrs.frozen
class BuiltResponse:
    """What :func:`build_response` returns.

    ``agent_text``: the block sent to the model as the next user message,
    ``<{name}-response>{compact json}</{name}-response>``. ``display_text``: the lines a
    user sees instead (§7), joined with ``\\n``, no trailing newline. ``answers``: one
    :class:`~replykit.questionnaire.model.Answer` per question, in form order (multi-choice
    ``answer``/``values``/``labels`` as tuples, as ``segment()`` reads them back).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    agent_text: str
    display_text: str
    answers: tuple[Answer, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"agent_text", "display_text", "answers": [answer JSON, ...]}``."""
        return {
            "agent_text": self.agent_text,
            "display_text": self.display_text,
            "answers": [a.to_json() for a in self.answers],
        }


@typed
class AnswersError(ValueError):
    """The answers given to :func:`build_response` do not fit the form.

    ``findings`` holds every problem (:class:`~replykit.diagnostics.Finding`, code
    ``answer.*``, ``path`` a tuple whose first part is the question id, as in the
    answers mapping: ``("q2", 0)`` is shown ``q2[1]``; ``details["path"]`` holds that
    1-based text). The constructor raises ``TypeError`` naming ``findings`` when it is
    not a tuple of findings.
    """

    def __init__(self, findings: tuple[Finding, ...]) -> None:
        self.findings = findings
        super().__init__("; ".join(map(_located, findings)))

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from ``findings`` (``args`` holds the message): it pickles and
        copies, so a process-pool worker raising it reaches the caller as itself."""
        return type(self), (self.findings,), vars(self)


def _located(finding: Finding) -> str:
    """``finding``'s message, led by its path unless it already starts with it."""
    where = format_path(finding.path) or "answers"
    message = finding.message
    named = message.startswith(where) and message[len(where) : len(where) + 1] in (":", " ")
    return message if named else f"{where}: {message}"


@typed
def initial_answers(questionnaire: Questionnaire) -> dict[str, str | list[str]]:
    """The draft answers a client starts from: question id -> the question's default
    (``str`` for single choice and free text, a new ``list`` of option values for multi
    choice), in form order (§7: a question left out takes its default).

    Passing the result unchanged to :func:`build_response` answers every question with
    its default. Raises ``TypeError`` naming ``questionnaire`` when it is not a
    :class:`~replykit.questionnaire.model.Questionnaire`.
    """
    return {q.id: _default(q) for q in questionnaire.questions}


def _default(q: Question) -> str | list[str]:
    return list(q.default) if isinstance(q.default, tuple) else q.default


@typed
def build_response(
    questionnaire: Questionnaire,
    answers: Mapping[str, Any],
    *,
    name: str = "questionnaire",
    questionnaire_id: str,
    ui_text: Mapping[str, str] | None = None,
    locale: str = "zh",
    limits: Limits = DEFAULT_LIMITS,
) -> BuiltResponse:
    """Build the response to ``questionnaire`` (§7; docs/protocol-responses.md section 1).

    Input: the form; ``answers`` (question id -> ``str`` / ``list[str]`` /
    ``{"value", "other_text"}``, see :mod:`replykit.questionnaire.conversation.responses`;
    left-out questions take their default); ``name``, the request name the form came
    under (``questionnaire``, ``sage-questionnaire``...; the response tag is
    ``name + "-response"``); ``questionnaire_id`` (the block id ``{message_id}_q{n}``, or
    the tool call id of a ``questionnaire_async`` form); ``ui_text`` and ``locale`` for
    the display text (:func:`resolve_ui_text`; the "other" label comes from there too).

    Output: :class:`BuiltResponse`, its JSON as the module doc gives it. Raises
    :class:`AnswersError` listing every answer that does not fit the form (the codes of
    the module doc; ``details`` JSON-safe), or with the one ``limit.payload_size`` when
    the response payload would be longer than ``limits.max_payload`` (``segment()``
    would refuse it: long free-text answers, or every long option chosen).
    ``ValueError`` for a ``name`` outside ``([a-z0-9]+-)?questionnaire``, a
    ``questionnaire_id`` that breaks the id rule of §6 (:func:`form_id_problem`), a bad
    locale, a bad ``ui_text`` key or a value over 64 code points (a form's own bound,
    §1.5, §5); ``TypeError`` naming an argument of the wrong type.
    """
    if not re.fullmatch(family_pattern(), name):
        raise ValueError(f"name must match {family_pattern()}, got {name!r}")
    problem = form_id_problem(questionnaire_id)
    if problem is not None:
        raise ValueError(f"questionnaire_id {problem}")
    ui = resolve_ui_text(questionnaire, ui_text, locale)
    _no_lone_surrogate(questionnaire, questionnaire_id, ui)
    built, findings = _resolve(questionnaire, answers, ui["other"], limits)
    if findings:
        raise AnswersError(findings)
    response = Response(
        type=response_type(name),
        questionnaire_id=questionnaire_id,
        status=STATUS_SUBMITTED,
        answers=built,
    )
    payload = dumps(response.to_json(), compact=True)  # a lone surrogate as \\udXXX
    # "<" and "&" only occur inside JSON strings, so this touches string contents only.
    payload = payload.replace("</", "\\u003c/").replace("&", "\\u0026")
    too_big = payload_size(payload, limits)
    if too_big is not None:
        # The reader would refuse it (§1): a writer bounded as its reader is.
        raise AnswersError((too_big,))
    tag = f"{name}-response"
    by_id = {q.id: q for q in questionnaire.questions}
    return BuiltResponse(
        agent_text=f"<{tag}>{payload}</{tag}>",
        display_text=displayable(display_text(by_id, built, ui)),
        answers=built,
    )


def _no_lone_surrogate(form: Questionnaire, questionnaire_id: str, ui: Mapping[str, str]) -> None:
    """Raise ``ValueError`` when a text of the form (built by hand: no reader makes one),
    the id or ``ui_text`` holds a surrogate, which the JSON would not carry faithfully."""
    for what, value in (
        ("questionnaire", form.to_json()),
        ("questionnaire_id", questionnaire_id),
        ("ui_text", dict(ui)),
    ):
        for path, char in lone_surrogates(value):
            where = format_path(path)
            raise ValueError(
                f"{what}{'.' + where if where else ''} holds U+{ord(char):04X}, half of a "
                "surrogate pair and no character; JSON cannot carry it faithfully"
            )


@typed
def build_response_json(
    questionnaire: Questionnaire,
    answers_text: str,
    *,
    name: str = "questionnaire",
    questionnaire_id: str,
    ui_text: Mapping[str, str] | None = None,
    locale: str = "zh",
    limits: Limits = DEFAULT_LIMITS,
) -> BuiltResponse:
    """:func:`build_response` with the answers as JSON text, read strictly (§1, §7).

    For a backend that receives the answers as text: reading them here keeps what
    ``json.loads`` would silently resolve (``{"q1": "a", "q1": "b"}`` is refused, not
    read as ``b``). Input: ``answers_text``, the JSON of the answers mapping; the other
    arguments as :func:`build_response`. Output: as :func:`build_response`.

    Raises :class:`AnswersError` when the text is not strict JSON, one finding per
    problem in text order (at most ``max_diagnostics`` of ``limits``, the rest in one
    ``limit.diagnostics`` finding): ``json.syntax``, ``json.too_deep`` (over
    ``max_depth`` levels),
    ``json.constant``, ``json.duplicate_key``, ``json.number_too_large``,
    ``json.lone_surrogate``, or ``json.not_object`` when the value is not an object;
    ``start``/``end`` are code-point offsets into the text and ``details`` holds
    ``path`` (1-based, ``q2[1]``), ``line`` and ``column`` (1-based). Otherwise raises
    what :func:`build_response` raises; ``TypeError`` when ``answers_text`` is not a
    ``str``.
    """
    # Past the cap the reader only counts (§2.1): 10^5 repeated keys build 200 findings.
    read = read_json_value(
        answers_text, max_depth=limits.max_depth, max_findings=limits.max_diagnostics
    )
    findings = sorted(read.findings, key=lambda f: f.start or 0)
    upstream = () if read.overflow is None else read.overflow.counts
    if not findings and not isinstance(read.value, dict):
        findings = [
            JSON_NOT_OBJECT.finding(
                start=0, end=len(answers_text), variant="answers", actual=json_type(read.value)
            )
        ]
    if findings:
        placed = _placed(findings, answers_text)
        raise AnswersError(rules.capped(placed, limits.max_diagnostics, upstream))
    return build_response(
        questionnaire,
        read.value,
        name=name,
        questionnaire_id=questionnaire_id,
        ui_text=ui_text,
        locale=locale,
        limits=limits,
    )


def _placed(findings: list[Finding], text: str) -> tuple[Finding, ...]:
    """``findings`` with ``details`` ``{"path", "line", "column"}`` (1-based) in ``text``."""
    lines = LineIndex(text)
    placed = []
    for f in findings:
        line, column = lines.line_col(f.start or 0)
        details = {"path": format_path(f.path), "line": line, "column": column}
        placed.append(attrs.evolve(f, details=details))
    return tuple(placed)


def _resolve(
    form: Questionnaire, answers: Mapping[str, Any], other_label: str, limits: Limits
) -> tuple[tuple[Answer, ...], tuple[Finding, ...]]:
    """One :class:`Answer` per question of ``form`` and every finding (capped)."""
    sink = rules.AnswerSink(limits.max_diagnostics)
    if len(answers) > limits.max_questions:
        size, limit = len(answers), limits.max_questions
        details = {"limit": limit, "actual": size}
        sink.at().add(LIMIT_QUESTIONS, details=details, what="the answers", size=size, limit=limit)
        return (), sink.result()
    out: list[Answer] = []
    for q in form.questions:
        answer = _one(sink, q, answers.get(q.id, _MISSING), other_label, limits)
        if answer is not None:
            out.append(answer)
    ids = [q.id for q in form.questions]
    known = set(ids)
    for key in answers:
        if key not in known:
            rules.unknown_question(sink.at(key), key, ids, sink)
    return tuple(out), sink.result()


def _one(
    sink: rules.AnswerSink, q: Question, raw: Any, other_label: str, limits: Limits
) -> Answer | None:
    """The answer to ``q`` from the user's ``raw`` (its default when missing), or
    ``None`` when a finding was reported for it."""
    at = sink.at(q.id)
    before = sink.added
    if raw is _MISSING:
        raw = _default(q)
    other_text: str | None = None
    value_at = at
    if isinstance(raw, Mapping):
        if not rules.answer_fields(at, q, raw):
            return None
        given = raw.get("other_text")
        if isinstance(given, str):
            other_text = given
            rules.typed_text(at.descend("other_text"), given)
        raw = raw["value"]
        value_at = at.descend("value")
    part = _Part(value_at, at.descend("other_text"), q, rules.option_labels(q), other_text)
    if q.type == "multi_choice":
        answer = part.multi(raw, other_label, sink, limits)
    elif q.type == "single_choice":
        answer = part.single(raw, other_label, sink)
    else:
        answer = part.free(raw)
    return answer if sink.added == before else None


@attrs.frozen
class _Part:
    """One question's answer being read: where its value and ``other_text`` are, the
    question, its option labels, the ``other_text`` given."""

    at: Cursor
    other_at: Cursor
    q: Question
    labels: Mapping[str, str]
    other_text: str | None

    def label(self, value: str, other_label: str) -> str:
        if value == OTHER_VALUE:
            return other_label
        return self.labels.get(value, value)

    def kept_other_text(self, chose_other: bool) -> str | None:
        """``other_text`` as sent: ``""`` when "other" is chosen without one (§7)."""
        return (self.other_text or "") if chose_other else None

    def single(self, raw: Any, other_label: str, sink: rules.AnswerSink) -> Answer | None:
        q = self.q
        if not rules.type_matches(self.at, q, raw):
            return None
        rules.choice_value(self.at, q, self.labels, raw, sink)
        rules.other_text_fits(self.other_at, q, self.other_text, raw == OTHER_VALUE)
        return Answer(
            question_id=q.id,
            question=q.text,
            type="single_choice",
            answer=raw,
            value=raw,
            label=self.label(raw, other_label) if raw else "",
            other_text=self.kept_other_text(raw == OTHER_VALUE),
        )

    def multi(
        self, raw: Any, other_label: str, sink: rules.AnswerSink, limits: Limits
    ) -> Answer | None:
        q = self.q
        if not rules.within_options(self.at, raw, answer_list_limit(limits)):
            return None
        if not rules.is_list(self.at, q, raw):
            return None
        values = tuple(rules.chosen_values(self.at, q, self.labels, raw, sink))
        is_other = OTHER_VALUE in values
        rules.other_text_fits(self.other_at, q, self.other_text, is_other)
        return Answer(
            question_id=q.id,
            question=q.text,
            type="multi_choice",
            answer=values,
            values=values,
            labels=tuple(self.label(v, other_label) for v in values),
            other_text=self.kept_other_text(is_other),
        )

    def free(self, raw: Any) -> Answer | None:
        q = self.q
        if not rules.type_matches(self.at, q, raw):
            return None
        rules.typed_text(self.at, raw)
        rules.other_text_fits(self.other_at, q, self.other_text, False)
        return Answer(question_id=q.id, question=q.text, type="free_text", answer=raw)
