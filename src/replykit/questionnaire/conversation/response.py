"""Answers to a questionnaire (§7; docs/protocol-responses.md section 1).

- :func:`initial_answers`: the draft a client starts from (the form's defaults).
- :func:`build_response`: the agent text ``<{name}-response>{json}</{name}-response>``,
  the readable display text, and the answers, from a form and the user's answers;
  :func:`build_response_json` takes the answers as JSON text, read strictly (§1).
- :func:`check_answers`: every way a parsed :class:`~replykit.questionnaire.model.Response` does not
  fit its form.

Answers as input (also the ``replykit respond`` file): a mapping from question id to a
string (single choice: an option value, ``""`` for none; free text: the text), a list of
strings (multi choice: option values), or ``{"value": ..., "other_text": ...}`` where
``value`` has one of those shapes. "Other" is chosen with the value
:data:`OTHER_VALUE` (allowed only when the question has ``allow_other``). A question
left out takes its default.

Inside the JSON every ``</`` is written ``\\u003c/`` (§7) and every ``&`` ``\\u0026``:
valid JSON that reads back unchanged, and never the closer of a block, not even under
a reader that also accepts ``<\\/name>`` or decodes HTML entities (§9).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from replykit.argcheck import typed
from replykit.cap import Collector, finish, summary_params
from replykit.codes import Code
from replykit.codes.limits import LIMIT_DIAGNOSTICS as SUMMARY
from replykit.codes.limits import LIMIT_OPTIONS, LIMIT_QUESTIONS
from replykit.codes.payload import JSON_NOT_OBJECT
from replykit.diagnostics import Finding, LeftOut, Path, Severity, format_path
from replykit.jsonout import displayable, dumps, portable
from replykit.questionnaire.conversation.texts import UI_TEXT_DEFAULTS, check_locale
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits
from replykit.questionnaire.model import (
    OTHER_VALUE as OTHER_VALUE,  # the value answers carry for "other"
)
from replykit.questionnaire.model import Answer, Question, Questionnaire, Response
from replykit.questionnaire.payload import UI_TEXT_KEYS, response_type
from replykit.questionnaire.payload.describe import brief, json_type
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.questionnaire.scan.grammar import family_pattern
from replykit.surrogates import first_lone_surrogate, lone_surrogate_finding, lone_surrogates
from replykit.text import LineIndex, is_blank

#: The only ``status`` a client sends (§7).
STATUS_SUBMITTED = "submitted"
_INPUT_KEYS = ("value", "other_text")
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
        super().__init__(
            "; ".join(f"{format_path(f.path) or 'answers'}: {f.message}" for f in findings)
        )


def _finding(
    code: str, message: str, path: Path, severity: Severity = "error", **details: Any
) -> Finding:
    return Finding(
        code=code,
        message=message,
        path=path,
        severity=severity,
        details=portable({"path": format_path(path), **details}),
    )


class _Findings(Collector[Finding]):
    """The findings of one call: at most ``limit`` kept (§1), every one counted in
    ``added``; :meth:`first_time` lets a list such as ``allowed`` be given once."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit, lambda f: f.code, lambda f: f.severity)
        self.added = 0
        self._seen: set[str] = set()

    def append(self, item: Finding) -> None:
        self.added += 1
        super().append(item)

    def first_time(self, key: str) -> bool:
        """True the first time ``key`` is asked for."""
        if key in self._seen:
            return False
        self._seen.add(key)
        return True

    def result(self) -> tuple[Finding, ...]:
        """The findings within the cap, the rest summarized by one ``limit.diagnostics``
        warning (``details``: ``limit``, ``left_out``)."""
        limit = self.limit

        def summary(counts: tuple[LeftOut, ...]) -> Finding:
            params, variant = summary_params(counts, limit)
            left_out = [c.to_json() for c in counts]
            details = portable({"path": None, "limit": limit, "left_out": left_out})
            return SUMMARY.finding(variant=variant, details=details, params=params)

        overflow = self.overflow
        return tuple(
            finish(
                list(self),
                limit,
                code=lambda f: f.code,
                severity=lambda f: f.severity,
                summary=summary,
                upstream=overflow.counts if overflow else (),
            )
        )


def _option_labels(q: Question) -> dict[str, str]:
    """Option value -> label (the first option with that value), built once per question
    so each answer value costs one lookup."""
    labels: dict[str, str] = {}
    for o in q.options:
        labels.setdefault(o.value, o.label)
    return labels


def _over_limit(code: Code, what: str, size: int, limit: int, path: Path) -> Finding:
    where = format_path(path)
    details = {"path": where, "limit": limit, "actual": size}
    return code.finding(path, details=details, what=what, size=size, limit=limit, path=where)


def _require(value: object, cls: type, what: str) -> None:
    if not isinstance(value, cls):
        raise TypeError(f"{what} must be a {cls.__name__}, not {type(value).__name__}")


@typed
def initial_answers(questionnaire: Questionnaire) -> dict[str, str | list[str]]:
    """The draft answers a client starts from: question id -> the question's default
    (``str`` for single choice and free text, a new ``list`` of option values for multi
    choice), in form order (§7: a question left out takes its default).

    Passing the result unchanged to :func:`build_response` answers every question with
    its default. Raises ``TypeError`` naming ``questionnaire`` when it is not a
    :class:`~replykit.questionnaire.model.Questionnaire`.
    """
    return {
        q.id: list(q.default) if isinstance(q.default, tuple) else q.default
        for q in questionnaire.questions
    }


def resolve_ui_text(
    questionnaire: Questionnaire, ui_text: Mapping[str, str] | None = None, locale: str = "zh"
) -> dict[str, str]:
    """The seven display texts used for ``questionnaire`` (§7), key -> text.

    Precedence per key: ``ui_text`` (the argument), then the form's ``ui_text``, then the
    ``locale`` defaults (``zh`` or ``en``). Raises ``ValueError`` for a key outside
    ``other, answer_title, question_fallback, unanswered, unselected, answer_separator,
    list_separator`` or an unknown locale, ``TypeError`` for a non-string value.
    """
    _require(questionnaire, Questionnaire, "questionnaire")
    if ui_text is not None and not isinstance(ui_text, Mapping):
        raise TypeError(f"ui_text must be a mapping, not {type(ui_text).__name__}")
    out = dict(UI_TEXT_DEFAULTS[check_locale(locale)])
    out.update(dict(questionnaire.ui_text))
    for key, value in (ui_text or {}).items():
        if key not in UI_TEXT_KEYS:
            raise ValueError(f"unknown ui_text key {key!r}; known: {', '.join(UI_TEXT_KEYS)}")
        if not isinstance(value, str):
            raise TypeError(f"ui_text[{key!r}] must be a str, not {type(value).__name__}")
        out[key] = value
    return out


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

    Input: the form; ``answers`` (see the module doc: question id -> ``str`` /
    ``list[str]`` / ``{"value", "other_text"}``; left-out questions take their default);
    ``name``, the request name the form came under (``questionnaire``,
    ``sage-questionnaire``...; the response tag is ``name + "-response"``);
    ``questionnaire_id`` (the block id ``{message_id}_q{n}``, or the tool call id of a
    ``questionnaire_async`` form); ``ui_text`` and ``locale`` for the display text (see
    :func:`resolve_ui_text`; the "other" label also comes from there).

    Output: :class:`BuiltResponse`. The JSON is strict (§1): compact, UTF-8 kept (a lone
    surrogate in a text is written as a ``\\udXXX`` escape, so ``agent_text`` always
    encodes as UTF-8; ``display_text`` shows it as U+FFFD), keys in the seed's order:
    ``type`` (``name`` with ``-`` -> ``_`` plus ``_response``), ``questionnaire_id``,
    ``status`` (``submitted``), ``answers``; each answer
    ``question_id, question, type, answer`` then ``value, label`` (single choice),
    ``values, labels`` (multi choice), and ``other_text`` last when "other" is chosen.
    An unanswered single choice has ``answer``/``value``/``label`` ``""``.

    Raises :class:`AnswersError` listing every answer that does not fit the form
    (``details`` made JSON-safe by :func:`~replykit.jsonout.portable`; codes
    ``answer.unknown_question``, ``answer.type_mismatch``,
    ``answer.values_not_list``, ``answer.value_not_in_options``,
    ``answer.duplicate_value`` (a value repeated in a multi-choice answer),
    ``answer.other_not_allowed``, ``answer.other_text_unexpected``,
    ``answer.field_invalid``; ``limit.questions`` when ``answers`` has more entries
    than ``limits.max_questions``, ``limit.options`` for a list longer than
    ``limits.max_options``, which is then not read), at most
    ``limits.max_diagnostics`` of them, the rest summarized by one
    ``limit.diagnostics`` warning (§1); ``details["allowed"]`` is given on the first
    ``answer.value_not_in_options`` of each question and the first
    ``answer.unknown_question`` only, so repeated mistakes cannot repeat the form.
    ``ValueError`` for a ``name`` outside
    ``([a-z0-9]+-)?questionnaire``, a blank ``questionnaire_id`` or a bad ``ui_text``
    key or locale; ``TypeError`` naming the argument when an argument has the wrong
    type (``questionnaire`` not a :class:`~replykit.questionnaire.model.Questionnaire`, ``answers``
    not a mapping with ``str`` keys, ``ui_text`` not a mapping of ``str`` to ``str``,
    ``questionnaire_id`` not a ``str``, ``limits`` not a
    :class:`~replykit.questionnaire.limits.Limits`).
    """
    if not re.fullmatch(family_pattern(), name):
        raise ValueError(f"name must match {family_pattern()}, got {name!r}")
    if is_blank(questionnaire_id):
        raise ValueError("questionnaire_id must not be blank")
    ui = resolve_ui_text(questionnaire, ui_text, locale)
    _no_lone_surrogate(questionnaire, questionnaire_id, ui)
    built, findings = _resolve(questionnaire, answers, ui["other"], limits)
    if findings:
        raise AnswersError(findings)
    response = Response(
        type=response_type(name),
        questionnaire_id=questionnaire_id,
        status=STATUS_SUBMITTED,
        answers=tuple(built),
    )
    payload = dumps(response.to_json(), compact=True)  # a lone surrogate as \\udXXX
    # "<" and "&" only occur inside JSON strings, so this touches string contents only.
    payload = payload.replace("</", "\\u003c/").replace("&", "\\u0026")
    tag = f"{name}-response"
    agent_text = f"<{tag}>{payload}</{tag}>"
    by_id = {q.id: q for q in questionnaire.questions}
    return BuiltResponse(
        agent_text=agent_text,
        display_text=displayable(display_text(by_id, built, ui)),
        answers=tuple(built),
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
) -> BuiltResponse:
    """:func:`build_response` with the answers as JSON text, read strictly (§1, §7).

    For a backend that receives the answers as text: reading them here keeps what
    ``json.loads`` would silently resolve (``{"q1": "a", "q1": "b"}`` is refused, not
    read as ``b``). Input: ``answers_text``, the JSON of the answers mapping; the other
    arguments as :func:`build_response`. Output: as :func:`build_response`.

    Raises :class:`AnswersError` when the text is not strict JSON, one finding per
    problem in text order: ``json.syntax``, ``json.too_deep`` (over 64 levels),
    ``json.constant``, ``json.duplicate_key``, ``json.number_too_large``,
    ``json.lone_surrogate``, or ``json.not_object`` when the value is not an object;
    ``start``/``end`` are code-point offsets into the text and ``details`` holds
    ``path`` (1-based, ``q2[1]``), ``line`` and ``column`` (1-based). Otherwise raises
    what :func:`build_response` raises; ``TypeError`` when ``answers_text`` is not a
    ``str``.
    """
    if not isinstance(answers_text, str):
        raise TypeError(f"answers_text must be a str, not {type(answers_text).__name__}")
    read = read_json_value(answers_text, max_depth=DEFAULT_LIMITS.max_depth)
    findings = sorted(read.findings, key=lambda f: f.start or 0)
    if not findings and not isinstance(read.value, dict):
        findings = [
            JSON_NOT_OBJECT.finding(
                start=0, end=len(answers_text), variant="answers", actual=json_type(read.value)
            )
        ]
    if findings:
        lines = LineIndex(answers_text)
        placed = []
        for f in findings:
            line, column = lines.line_col(f.start or 0)
            details = {"path": format_path(f.path), "line": line, "column": column}
            placed.append(attrs.evolve(f, details=details))
        raise AnswersError(tuple(placed))
    return build_response(
        questionnaire,
        read.value,
        name=name,
        questionnaire_id=questionnaire_id,
        ui_text=ui_text,
        locale=locale,
    )


def display_text(
    questions: Mapping[str, Question],
    answers: list[Answer] | tuple[Answer, ...],
    ui: dict[str, str],
) -> str:
    """The readable answer (§7): the ``answer_title`` line, then per answer
    ``{question text}{answer_separator}{answer}``.

    Input: the form's questions by id, the answers, the resolved texts of
    :func:`resolve_ui_text`. A question with a blank text shows ``question_fallback``;
    a choice shows its labels then a non-blank ``other_text``, joined by
    ``list_separator``, or ``unselected`` when nothing is chosen; a blank free text shows
    ``unanswered``. Never raises for answers built by :func:`build_response`.
    """
    lines = [ui["answer_title"]]
    for a in answers:
        q = questions.get(a.question_id)
        text = a.question if q is None else q.text
        if text is None or is_blank(text):
            text = ui["question_fallback"]
        if a.type == "free_text":
            shown = a.answer if isinstance(a.answer, str) and not is_blank(a.answer) else None
            lines.append(f"{text}{ui['answer_separator']}{shown or ui['unanswered']}")
            continue
        parts = list(a.labels or ()) if a.type == "multi_choice" else [a.label or ""]
        parts = [p for p in parts if p]
        if a.other_text is not None and not is_blank(a.other_text):
            parts.append(a.other_text)
        shown = ui["list_separator"].join(parts) if parts else ui["unselected"]
        lines.append(f"{text}{ui['answer_separator']}{shown}")
    return "\n".join(lines)


def _resolve(
    form: Questionnaire, answers: Mapping[str, Any], other_label: str, limits: Limits
) -> tuple[list[Answer], tuple[Finding, ...]]:
    out: list[Answer] = []
    findings = _Findings(limits.max_diagnostics)
    if len(answers) > limits.max_questions:
        size, limit = len(answers), limits.max_questions
        return [], (_over_limit(LIMIT_QUESTIONS, "the answers", size, limit, ()),)
    known = {q.id for q in form.questions}
    for q in form.questions:
        raw = answers.get(q.id, _MISSING)
        answer = _one(q, raw, other_label, findings, limits)
        if answer is not None:
            out.append(answer)
    for key in answers:
        if key not in known:
            extra: dict[str, Any] = {"allowed": [q.id for q in form.questions]}
            findings.append(
                _finding(
                    "answer.unknown_question",
                    f"the form has no question with id {brief(key)}",
                    (key if isinstance(key, str) else brief(key),),
                    value=key,
                    **(extra if findings.first_time("unknown_question") else {}),
                )
            )
    return out, findings.result()


def _one(
    q: Question, raw: Any, other_label: str, findings: _Findings, limits: Limits
) -> Answer | None:
    base: Path = (q.id,)
    if raw is _MISSING:
        raw = list(q.default) if isinstance(q.default, tuple) else q.default
    other_text: Any = None
    value_path = base
    before = findings.added
    if isinstance(raw, Mapping):
        for key in raw:
            if key not in _INPUT_KEYS:
                findings.append(
                    _finding(
                        "answer.field_invalid",
                        f"{format_path((*base, str(key)))} is not an answer field; "
                        "use value and other_text",
                        (*base, str(key)),
                        allowed=list(_INPUT_KEYS),
                    )
                )
        if "value" not in raw:
            findings.append(
                _finding(
                    "answer.field_invalid",
                    f"{format_path((*base, 'value'))} is required in an answer object",
                    (*base, "value"),
                )
            )
            return None
        other_text = raw.get("other_text")
        if other_text is not None and not isinstance(other_text, str):
            findings.append(
                _finding(
                    "answer.type_mismatch",
                    f"{format_path((*base, 'other_text'))} must be a string",
                    (*base, "other_text"),
                    expected="string",
                )
            )
            other_text = None
        elif isinstance(other_text, str):
            _check_text(other_text, (*base, "other_text"), findings)
        raw = raw["value"]
        value_path = (*base, "value")
    labels = _option_labels(q)
    if q.type == "multi_choice":
        if isinstance(raw, list | tuple) and len(raw) > limits.max_options:
            what = format_path(value_path) or q.id
            size, limit = len(raw), limits.max_options
            findings.append(_over_limit(LIMIT_OPTIONS, what, size, limit, value_path))
            return None
        answer = _multi(q, labels, raw, value_path, other_label, other_text, findings)
    elif q.type == "single_choice":
        answer = _single(q, labels, raw, value_path, other_label, other_text, findings)
    else:
        answer = _free(q, raw, value_path, other_text, findings)
    return answer if findings.added == before else None


def _check_value(
    q: Question, labels: Mapping[str, str], value: str, path: Path, findings: _Findings
) -> None:
    """Report a choice value that is neither an option value, ``""`` (single choice: no
    answer) nor an allowed "other"; ``allowed`` only on the question's first."""
    if value == OTHER_VALUE:
        if not q.allow_other:
            findings.append(
                _finding(
                    "answer.other_not_allowed",
                    f"{format_path(path)}: question {q.id} does not allow an 'other' answer",
                    path,
                    question_id=q.id,
                    value=value,
                )
            )
        return
    if value in labels:
        return
    if value == "" and q.type == "single_choice":
        return
    extra: dict[str, Any] = (
        {"allowed": list(labels)} if findings.first_time("allowed " + q.id) else {}
    )
    findings.append(
        _finding(
            "answer.value_not_in_options",
            f"{format_path(path)}: {brief(value)} is not an option value of question {q.id}",
            path,
            question_id=q.id,
            value=value,
            **extra,
        )
    )


def _duplicate_value(q: Question, value: str, path: Path, findings: _Findings) -> None:
    findings.append(
        _finding(
            "answer.duplicate_value",
            f"{format_path(path)}: {dumps(value)} is already chosen "
            f"earlier in the answer to question {q.id}",
            path,
            question_id=q.id,
            value=value,
        )
    )


def _check_text(text: str, path: Path, findings: _Findings) -> None:
    """``json.lone_surrogate`` for a typed text (free text, ``other_text``) holding a
    surrogate, which the response JSON would not carry faithfully (§1)."""
    char = first_lone_surrogate(text)
    if char is not None:
        findings.append(lone_surrogate_finding(path, char))


def _label(labels: Mapping[str, str], value: str, other_label: str) -> str:
    if value == OTHER_VALUE:
        return other_label
    return labels.get(value, value)


def _other_text_unexpected(q: Question, path: Path, findings: _Findings) -> None:
    findings.append(
        _finding(
            "answer.other_text_unexpected",
            f"{format_path(path)}: other_text is only allowed with the value {OTHER_VALUE}",
            path,
            question_id=q.id,
        )
    )


def _single(
    q: Question,
    labels: Mapping[str, str],
    raw: Any,
    path: Path,
    other_label: str,
    other_text: str | None,
    findings: _Findings,
) -> Answer | None:
    if not isinstance(raw, str):
        findings.append(
            _finding(
                "answer.type_mismatch",
                f"{format_path(path)} must be a string (an option value) for the "
                f"single_choice question {q.id}",
                path,
                question_id=q.id,
                expected="string",
            )
        )
        return None
    _check_value(q, labels, raw, path, findings)
    if other_text is not None and raw != OTHER_VALUE:
        _other_text_unexpected(q, (q.id, "other_text"), findings)
    is_other = raw == OTHER_VALUE
    return Answer(
        question_id=q.id,
        question=q.text,
        type="single_choice",
        answer=raw,
        value=raw,
        label=_label(labels, raw, other_label) if raw else "",
        other_text=(other_text or "") if is_other else None,
    )


def _multi(
    q: Question,
    labels: Mapping[str, str],
    raw: Any,
    path: Path,
    other_label: str,
    other_text: str | None,
    findings: _Findings,
) -> Answer | None:
    if not isinstance(raw, list | tuple):
        findings.append(
            _finding(
                "answer.values_not_list",
                f"{format_path(path)} must be a list of option values for the multi_choice "
                f"question {q.id}",
                path,
                question_id=q.id,
                expected="array of strings",
            )
        )
        return None
    values: list[str] = []
    seen: set[str] = set()
    for j, item in enumerate(raw):
        item_path = (*path, j)
        if isinstance(item, str) and item in seen:
            _duplicate_value(q, item, item_path, findings)
            continue
        if not isinstance(item, str):
            findings.append(
                _finding(
                    "answer.type_mismatch",
                    f"{format_path(item_path)} must be a string (an option value)",
                    item_path,
                    question_id=q.id,
                    expected="string",
                )
            )
            continue
        _check_value(q, labels, item, item_path, findings)
        seen.add(item)
        values.append(item)
    is_other = OTHER_VALUE in values
    if other_text is not None and not is_other:
        _other_text_unexpected(q, (q.id, "other_text"), findings)
    return Answer(
        question_id=q.id,
        question=q.text,
        type="multi_choice",
        answer=tuple(values),
        values=tuple(values),
        labels=tuple(_label(labels, v, other_label) for v in values),
        other_text=(other_text or "") if is_other else None,
    )


def _free(
    q: Question, raw: Any, path: Path, other_text: str | None, findings: _Findings
) -> Answer | None:
    if not isinstance(raw, str):
        findings.append(
            _finding(
                "answer.type_mismatch",
                f"{format_path(path)} must be a string for the free_text question {q.id}",
                path,
                question_id=q.id,
                expected="string",
            )
        )
        return None
    _check_text(raw, path, findings)
    if other_text is not None:
        findings.append(
            _finding(
                "answer.other_not_allowed",
                f"{format_path((q.id, 'other_text'))}: a free_text question has no 'other' answer",
                (q.id, "other_text"),
                question_id=q.id,
            )
        )
    return Answer(question_id=q.id, question=q.text, type="free_text", answer=raw)


@typed
def check_answers(
    questionnaire: Questionnaire,
    response: Response,
    *,
    questionnaire_id: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> tuple[Finding, ...]:
    """Every way ``response`` does not fit ``questionnaire`` (§7; docs/protocol-responses.md 1.4).

    Input: the form and a parsed response (from ``segment()`` or
    :func:`~replykit.questionnaire.payload.read_xml_response`); ``questionnaire_id``, when given,
    the
    id the response must name. Output: :class:`~replykit.diagnostics.Finding` objects,
    in response order, each with ``path`` into the response JSON (0-based ints in the
    tuple, 1-based in ``details["path"]`` and :func:`~replykit.diagnostics.format_path`:
    ``answers[2].values[1]``). ``()`` when it fits.

    Errors: ``answer.questionnaire_id_mismatch`` (``questionnaire_id``),
    ``answer.unknown_question`` and ``answer.duplicate`` (``answers[i].question_id``),
    ``answer.type_mismatch`` (``answers[i].type`` differs from the question's, or an
    ``answer`` of the wrong JSON type), ``answer.values_not_list`` (a multi-choice
    ``answer``/``values`` not a list), ``answer.value_not_in_options``,
    ``answer.other_not_allowed`` ("other" without ``allow_other``, or ``other_text`` on
    free text), ``answer.other_text_unexpected`` (``other_text`` without "other"),
    ``answer.inconsistent`` (``answer`` differs from ``value``/``values``),
    ``answer.duplicate_value`` (a value repeated in a multi-choice answer),
    ``answer.missing`` (a question of the form with no answer: path ``answers``,
    ``details["question_id"]``). Warning: ``answer.label_mismatch`` (a label that is not
    the option's).

    ``limits`` (§1): more answers than ``max_questions`` is the one finding
    ``limit.questions`` (nothing else is read); an answer whose ``answer``, ``values``
    or ``labels`` is longer than ``max_options`` is ``limit.options`` and not read
    further; at most ``max_diagnostics`` findings, the rest summarized by one
    ``limit.diagnostics`` warning (``details``: ``limit``, ``left_out``);
    ``details["allowed"]`` only on the first ``answer.value_not_in_options`` of each
    question and the first ``answer.unknown_question``.

    Raises ``TypeError`` naming the argument only when an argument has the wrong type
    (``questionnaire`` or ``response`` not the model class it names, ``limits`` not a
    :class:`~replykit.questionnaire.limits.Limits`).
    """
    if len(response.answers) > limits.max_questions:
        size, limit = len(response.answers), limits.max_questions
        return (_over_limit(LIMIT_QUESTIONS, "answers", size, limit, ("answers",)),)
    findings = _Findings(limits.max_diagnostics)
    if questionnaire_id is not None and response.questionnaire_id != questionnaire_id:
        findings.append(
            _finding(
                "answer.questionnaire_id_mismatch",
                f"the response answers {response.questionnaire_id!r}, not {questionnaire_id!r}",
                ("questionnaire_id",),
                expected=questionnaire_id,
                value=response.questionnaire_id,
            )
        )
    by_id = {q.id: q for q in questionnaire.questions}
    seen: set[str] = set()
    for i, a in enumerate(response.answers):
        base: Path = ("answers", i)
        q = by_id.get(a.question_id)
        if q is None:
            extra: dict[str, Any] = (
                {"allowed": list(by_id)} if findings.first_time("unknown_question") else {}
            )
            findings.append(
                _finding(
                    "answer.unknown_question",
                    f"the form has no question with id {a.question_id!r}",
                    (*base, "question_id"),
                    value=a.question_id,
                    **extra,
                )
            )
            continue
        if a.question_id in seen:
            findings.append(
                _finding(
                    "answer.duplicate",
                    f"question {a.question_id!r} is answered more than once",
                    (*base, "question_id"),
                    value=a.question_id,
                )
            )
            continue
        seen.add(a.question_id)
        if a.type != q.type:
            findings.append(
                _finding(
                    "answer.type_mismatch",
                    f"question {q.id!r} is {q.type}, the answer says {a.type}",
                    (*base, "type"),
                    question_id=q.id,
                    expected=q.type,
                    value=a.type,
                )
            )
            continue
        too_long = next(
            (
                (key, len(v))
                for key, v in (("answer", a.answer), ("values", a.values), ("labels", a.labels))
                if isinstance(v, list | tuple) and len(v) > limits.max_options
            ),
            None,
        )
        if too_long is not None:
            key, size = too_long
            where = format_path((*base, key)) or key
            findings.append(
                _over_limit(LIMIT_OPTIONS, where, size, limits.max_options, (*base, key))
            )
            continue
        labels = _option_labels(q)
        if q.type == "single_choice":
            _check_single_answer(q, labels, a, base, findings)
        elif q.type == "multi_choice":
            _check_multi_answer(q, labels, a, base, findings)
        else:
            _check_free_answer(q, a, base, findings)
    for q in questionnaire.questions:
        if q.id not in seen:
            findings.append(
                _finding(
                    "answer.missing",
                    f"question {q.id!r} has no answer",
                    ("answers",),
                    question_id=q.id,
                )
            )
    return findings.result()


def _wrong_type(q: Question, path: Path, expected: str, findings: _Findings) -> None:
    findings.append(
        _finding(
            "answer.type_mismatch",
            f"{format_path(path)} must be {expected} for the {q.type} question {q.id!r}",
            path,
            question_id=q.id,
            expected=expected,
        )
    )


def _check_other_text(
    q: Question, a: Answer, base: Path, chose_other: bool, out: _Findings
) -> None:
    if a.other_text is not None and not chose_other:
        _other_text_unexpected(q, (*base, "other_text"), out)


def _check_labels(
    q: Question,
    labels: Mapping[str, str],
    pairs: list[tuple[str, str]],
    path: Path,
    out: _Findings,
) -> None:
    for value, label in pairs:
        if value in labels and labels[value] != label:
            out.append(
                _finding(
                    "answer.label_mismatch",
                    f"{format_path(path)}: the label of {value!r} is {labels[value]!r}, "
                    f"not {label!r}",
                    path,
                    "warning",
                    question_id=q.id,
                    value=label,
                    expected=labels[value],
                )
            )


def _check_single_answer(
    q: Question, labels: Mapping[str, str], a: Answer, base: Path, out: _Findings
) -> None:
    if not isinstance(a.answer, str):
        _wrong_type(q, (*base, "answer"), "a string", out)
        return
    if a.value is not None and a.value != a.answer:
        out.append(
            _finding(
                "answer.inconsistent",
                f"{format_path((*base, 'value'))} differs from answer",
                (*base, "value"),
                question_id=q.id,
                value=a.value,
                expected=a.answer,
            )
        )
    field = "value" if a.value is not None else "answer"
    _check_value(q, labels, a.answer, (*base, field), out)
    _check_other_text(q, a, base, a.answer == OTHER_VALUE, out)
    if a.label is not None and a.answer:
        _check_labels(q, labels, [(a.answer, a.label)], (*base, "label"), out)


def _check_multi_answer(
    q: Question, labels: Mapping[str, str], a: Answer, base: Path, out: _Findings
) -> None:
    for field, raw in (("answer", a.answer), ("values", a.values)):
        if raw is not None and not isinstance(raw, list | tuple):
            out.append(
                _finding(
                    "answer.values_not_list",
                    f"{format_path((*base, field))} must be a list of option values",
                    (*base, field),
                    question_id=q.id,
                    expected="array of strings",
                )
            )
            return
    values = tuple(a.answer)
    if a.values is not None and tuple(a.values) != values:
        out.append(
            _finding(
                "answer.inconsistent",
                f"{format_path((*base, 'values'))} differs from answer",
                (*base, "values"),
                question_id=q.id,
                value=list(a.values),
                expected=list(values),
            )
        )
    field = "values" if a.values is not None else "answer"
    seen: set[str] = set()
    for j, value in enumerate(values):
        if not isinstance(value, str):
            _wrong_type(q, (*base, field, j), "a string", out)
            continue
        if value in seen:
            _duplicate_value(q, value, (*base, field, j), out)
            continue
        seen.add(value)
        _check_value(q, labels, value, (*base, field, j), out)
    _check_other_text(q, a, base, OTHER_VALUE in values, out)
    if a.labels is not None and len(a.labels) != len(values):
        out.append(
            _finding(
                "answer.inconsistent",
                f"{format_path((*base, 'labels'))} must have one label per value",
                (*base, "labels"),
                question_id=q.id,
                value=list(a.labels),
            )
        )
    elif a.labels is not None:
        pairs = list(zip(values, a.labels, strict=True))
        _check_labels(q, labels, pairs, (*base, "labels"), out)


def _check_free_answer(q: Question, a: Answer, base: Path, out: _Findings) -> None:
    if not isinstance(a.answer, str):
        _wrong_type(q, (*base, "answer"), "a string", out)
    if a.other_text is not None:
        out.append(
            _finding(
                "answer.other_not_allowed",
                f"{format_path((*base, 'other_text'))}: a free_text question has no 'other' answer",
                (*base, "other_text"),
                question_id=q.id,
            )
        )
