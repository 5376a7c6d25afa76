"""The lenient form normalizer of ``questionnaire_async`` (§7), reused for XML+JSON
requests (§5).

Input is a plain JSON-like value (tool arguments, or a decoded payload); output is the
normalized :class:`~replykit.model.Questionnaire` or every ``questionnaire.start.*``
problem. Lenient means: aliases, ``{value, label}`` or string options, optional ids and
defaults, unknown keys ignored, and (as the seed's reference implementation does) text,
title, option values and labels and string defaults trimmed of blank characters (§1)
before they are checked. It never repairs a wrong value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from replykit.diagnostics import Finding, Path, Severity, format_path
from replykit.limits import DEFAULT_LIMITS, Limits, form_lists
from replykit.model import OTHER_VALUE, Option, Question, Questionnaire, QuestionType
from replykit.payload.describe import json_type
from replykit.payload.messages import render
from replykit.payload.results import FormRead, finding_sink
from replykit.text import is_blank, trim_blank

_P = "questionnaire.start."
ACCEPTED_TYPES = ("single_choice", "multiple_choice", "multi_choice", "text", "free_text")
_TYPE_MAP: Mapping[str, QuestionType] = {
    "single_choice": "single_choice",
    "multiple_choice": "multi_choice",
    "multi_choice": "multi_choice",
    "text": "free_text",
    "free_text": "free_text",
}
#: The longest ``ui_text`` value kept (code points, §1): the display text repeats a
#: separator or a fallback once per question, so a long one would multiply the output.
MAX_UI_TEXT = 64
UI_TEXT_KEYS = (
    "other",
    "answer_title",
    "question_fallback",
    "unanswered",
    "unselected",
    "answer_separator",
    "list_separator",
)


def normalize_form(args: Any, *, allow_extras: bool, limits: Limits = DEFAULT_LIMITS) -> FormRead:
    """Normalize ``questionnaire_async`` arguments or an XML+JSON request object (§5, §7).

    Input: ``args``, a JSON-like value (dict expected). ``allow_extras``: keep top-level
    ``ui_text`` (its seven known string keys) and ``timeout_seconds`` (XML+JSON, §5);
    otherwise they are ignored like any other unknown key.

    Output: :class:`FormRead` with ``value`` a :class:`Questionnaire` (``title`` ``""``
    when absent; each question with ``id`` (given, else ``q<n>``; not trimmed), ``type``
    (trimmed, lower-cased, aliases mapped), ``text`` (else ``title``), options as
    ``Option`` (a string is value and label; a missing or blank label takes the value),
    ``default`` (``""`` / ``()`` when absent or ``null``), ``allow_other``;
    ``free_text`` drops options and allow_other) or ``None`` on any error; ``spans``
    empty. The form title, question text and title, option values and labels, string
    defaults and the string items of a multi-choice default are trimmed of blank
    characters (§1, :func:`~replykit.text.trim_blank`) before they are checked, and
    output trimmed: option ``" a "`` with default ``"a"`` is the option ``"a"``
    selected, and ``"a"`` beside ``" a "`` is a duplicate.

    Findings (``questionnaire.start.`` + code; ``details`` has ``path`` in the seed's
    1-based form plus ``expected``/``actual``/``value``/``allowed``/``invalid_items``):
    errors ``arguments_not_object``, ``title_invalid``, ``questions_must_be_list``,
    ``questions_empty``, ``question_not_object``, ``question_type_invalid``,
    ``question_text_required``, ``question_id_invalid``, ``question_id_duplicate``,
    ``question_options_required``, ``question_option_invalid`` (also a repeated option
    value, and the value ``__questionnaire_other__`` of the "other" choice),
    ``default_type_invalid``,
    ``default_value_not_in_options`` (a single-choice default, ``value``; or the string
    items of a multi-choice default that are no option, ``invalid_items``),
    ``default_list_invalid_items`` (the items of a multi-choice default that are not
    strings, ``invalid_items``), ``allow_other_type_invalid``; warnings
    (``allow_extras`` only, value dropped) ``ui_text_invalid`` (not an object, a known
    key's value not a string or longer than :data:`MAX_UI_TEXT`),
    ``timeout_seconds_invalid``, ``default_duplicate_item`` (a multi-choice default item
    equal, after trimming, to an earlier one: kept once; without ``allow_extras`` it is
    kept once silently). A JSON ``null`` counts as absent for every optional field.
    Never raises.

    ``limits`` (§1): a ``questions``, ``options`` or multi-choice ``default`` list over
    ``max_questions``/``max_options`` is the one finding ``limit.questions`` /
    ``limit.options`` and nothing else is read; at most ``max_diagnostics`` findings are
    kept (the first error always), the rest counted in ``overflow``.
    """
    over = form_lists(args, limits)
    if over is not None:
        return FormRead(value=None, findings=(over,))
    n = _Normalizer(limits.max_diagnostics, warn=allow_extras)
    form = n.form(args, allow_extras)
    return FormRead(
        value=None if n.findings.has_error or form is None else form,
        findings=tuple(n.findings),
        overflow=n.findings.overflow,
    )


def _get(obj: Mapping[str, Any], key: str) -> Any:
    # §7 leniency: an explicit null is the same as an absent key.
    return obj.get(key)


class _Normalizer:
    def __init__(self, max_findings: int, *, warn: bool) -> None:
        self.findings = finding_sink(max_findings)
        self.warn = warn  # XML+JSON requests have warnings; the tool's result has none

    def add(
        self,
        code: str,
        path: Path,
        *,
        variant: str | None = None,
        severity: Severity = "error",
        **params: Any,
    ) -> None:
        details: dict[str, Any] = {"path": format_path(path), **params}
        self.findings.append(
            Finding(
                code=_P + code,
                message=render(_P + code, details, variant=variant),
                path=path,
                severity=severity,
                details=details,
            )
        )

    def form(self, args: Any, allow_extras: bool) -> Questionnaire | None:
        if not isinstance(args, dict):
            self.add("arguments_not_object", (), expected="object", actual=json_type(args))
            return None
        title = _get(args, "title")
        if title is None:
            title = ""
        elif not isinstance(title, str):
            self.add("title_invalid", ("title",), expected="string", actual=json_type(title))
            title = ""
        title = trim_blank(title)
        questions = self.questions(_get(args, "questions"))
        ui_text: tuple[tuple[str, str], ...] = ()
        timeout: int | float | None = None
        if allow_extras:
            ui_text = self.ui_text(_get(args, "ui_text"))
            timeout = self.timeout(_get(args, "timeout_seconds"))
        return Questionnaire(
            title=title, questions=questions, ui_text=ui_text, timeout_seconds=timeout
        )

    def questions(self, raw: Any) -> tuple[Question, ...]:
        path: Path = ("questions",)
        if not isinstance(raw, list):
            self.add("questions_must_be_list", path, expected="array", actual=_actual(raw))
            return ()
        if not raw:
            self.add("questions_empty", path)
            return ()
        out: list[Question] = []
        used: set[str] = set()
        for i, item in enumerate(raw):
            q = self.question(item, (*path, i), i, used)
            if q is not None:
                out.append(q)
        return tuple(out)

    def question(self, raw: Any, path: Path, index: int, used: set[str]) -> Question | None:
        if not isinstance(raw, dict):
            self.add("question_not_object", path, expected="object", actual=json_type(raw))
            return None
        qid = self.question_id(raw, path, index, used)
        qtype = self.question_type(raw, path)
        text = self.text(raw, path)
        if qtype is None:
            return None
        if qtype == "free_text":
            answer_text = self.text_default(_get(raw, "default"), (*path, "default"))
            return Question(id=qid, type="free_text", text=text, default=answer_text)
        options = self.options(_get(raw, "options"), (*path, "options"))
        allow_other = _get(raw, "allow_other")
        if allow_other is None:
            allow_other = False
        elif not isinstance(allow_other, bool):
            self.add(
                "allow_other_type_invalid",
                (*path, "allow_other"),
                expected="boolean",
                actual=json_type(allow_other),
            )
            allow_other = False
        values = None if options is None else [o.value for o in options]
        d_path = (*path, "default")
        raw_default = _get(raw, "default")
        default: str | tuple[str, ...]
        if qtype == "single_choice":
            default = self.single_default(raw_default, d_path, values)
        else:
            default = self.multi_default(raw_default, d_path, values)
        return Question(
            id=qid,
            type=qtype,
            text=text,
            options=tuple(options or ()),
            default=default,
            allow_other=allow_other,
        )

    def question_id(self, raw: dict[str, Any], path: Path, index: int, used: set[str]) -> str:
        given = _get(raw, "id")
        qid = f"q{index + 1}"
        if given is not None and not isinstance(given, str):
            self.add(
                "question_id_invalid", (*path, "id"), expected="string", actual=json_type(given)
            )
        elif isinstance(given, str) and not is_blank(given):
            qid = given
        if qid in used:
            self.add("question_id_duplicate", (*path, "id"), value=qid)
        used.add(qid)
        return qid

    def question_type(self, raw: dict[str, Any], path: Path) -> QuestionType | None:
        given = _get(raw, "type")
        if isinstance(given, str):
            qtype = _TYPE_MAP.get(trim_blank(given).lower())
            if qtype is not None:
                return qtype
        self.add(
            "question_type_invalid", (*path, "type"), value=given, allowed=list(ACCEPTED_TYPES)
        )
        return None

    def text(self, raw: dict[str, Any], path: Path) -> str:
        for key in ("text", "title"):
            value = _get(raw, key)
            if isinstance(value, str) and not is_blank(value):
                return trim_blank(value)
        given = _get(raw, "text")
        actual = "missing" if given is None else json_type(given)
        self.add(
            "question_text_required", (*path, "text"), expected="non-blank string", actual=actual
        )
        return ""

    def options(self, raw: Any, path: Path) -> list[Option] | None:
        if not isinstance(raw, list) or not raw:
            self.add(
                "question_options_required",
                path,
                expected="non-empty array",
                actual="empty array" if raw == [] else _actual(raw),
            )
            return None
        out: list[Option] = []
        seen: set[str] = set()
        for j, item in enumerate(raw):
            option = _option(item)
            if option is None:
                self.add(
                    "question_option_invalid",
                    (*path, j),
                    expected="non-blank string or {value, label} object",
                    actual=json_type(item),
                    value=item,
                )
                continue
            if option.value == OTHER_VALUE:
                # An answer with this value means "other": the option could not be chosen.
                self.add(
                    "question_option_invalid", (*path, j), variant="reserved", value=option.value
                )
                continue
            if option.value in seen:
                self.add(
                    "question_option_invalid", (*path, j), variant="duplicate", value=option.value
                )
                continue
            seen.add(option.value)
            out.append(option)
        return out

    def text_default(self, raw: Any, path: Path) -> str:
        if raw is None:
            return ""
        if not isinstance(raw, str):
            self.add("default_type_invalid", path, expected="string", actual=json_type(raw))
            return ""
        return trim_blank(raw)

    def single_default(self, raw: Any, path: Path, values: list[str] | None) -> str:
        default = self.text_default(raw, path)
        # "" is the seed's own normalized "no default".
        if default and values is not None and default not in values:
            self.add("default_value_not_in_options", path, value=default, allowed=values)
        return default

    def multi_default(self, raw: Any, path: Path, values: list[str] | None) -> tuple[str, ...]:
        if raw is None:
            return ()
        if not isinstance(raw, list):
            self.add(
                "default_type_invalid", path, expected="array of strings", actual=json_type(raw)
            )
            return ()
        items = self.distinct_items(raw, path)
        not_strings = [item for item in raw if not isinstance(item, str)]
        if not_strings:
            self.add(
                "default_list_invalid_items",
                path,
                invalid_items=not_strings,
                allowed=values or [],
            )
        if values is not None:
            known = frozenset(values)
            outside = [item for item in items if item not in known]
            if outside:
                self.add(
                    "default_value_not_in_options",
                    path,
                    variant="items",
                    invalid_items=outside,
                    allowed=values,
                )
        return tuple(items)

    def distinct_items(self, raw: list[Any], path: Path) -> list[str]:
        """The string items of a multi-choice default, trimmed, each kept once: an answer
        may not repeat a value, so a form with a repeated default item could not be
        submitted with its defaults (§7). A repeat is the warning
        ``default_duplicate_item`` where warnings are reported (XML+JSON)."""
        items: list[str] = []
        seen: set[str] = set()
        for k, item in enumerate(raw):
            if not isinstance(item, str):
                continue
            value = trim_blank(item)
            if value in seen:
                if self.warn:
                    self.add("default_duplicate_item", (*path, k), severity="warning", value=value)
                continue
            seen.add(value)
            items.append(value)
        return items

    def ui_text(self, raw: Any) -> tuple[tuple[str, str], ...]:
        if raw is None:
            return ()
        if not isinstance(raw, dict):
            self.add(
                "ui_text_invalid",
                ("ui_text",),
                severity="warning",
                expected="object",
                actual=json_type(raw),
            )
            return ()
        out: list[tuple[str, str]] = []
        for key, value in raw.items():
            if key not in UI_TEXT_KEYS or value is None:
                continue  # unknown ui_text keys are ignored like unknown top-level keys
            if not isinstance(value, str):
                self.add(
                    "ui_text_invalid",
                    ("ui_text", key),
                    severity="warning",
                    expected="string",
                    actual=json_type(value),
                )
                continue
            if len(value) > MAX_UI_TEXT:
                # Every question's display line repeats it: a long one would multiply.
                self.add(
                    "ui_text_invalid",
                    ("ui_text", key),
                    variant="too_long",
                    severity="warning",
                    limit=MAX_UI_TEXT,
                    actual=len(value),
                )
                continue
            out.append((key, value))
        return tuple(out)

    def timeout(self, raw: Any) -> int | float | None:
        if raw is None:
            return None
        if (
            isinstance(raw, bool)
            or not isinstance(raw, int | float)
            or raw < 0
            or (isinstance(raw, float) and not math.isfinite(raw))
        ):
            self.add(
                "timeout_seconds_invalid",
                ("timeout_seconds",),
                severity="warning",
                expected="non-negative number",
                actual=json_type(raw),
                value=raw,
            )
            return None
        return raw


def _actual(value: Any) -> str:
    return "missing" if value is None else json_type(value)


def _option(item: Any) -> Option | None:
    """A string or ``{value, label}`` object as an :class:`Option` (value and label
    trimmed, §7), else None."""
    if isinstance(item, str):
        return None if is_blank(item) else Option(value=trim_blank(item), label=trim_blank(item))
    if not isinstance(item, dict):
        return None
    value = _get(item, "value")
    label = _get(item, "label")
    if not isinstance(value, str) or is_blank(value):
        return None
    value = trim_blank(value)
    if label is None:
        return Option(value=value, label=value)
    if not isinstance(label, str):
        return None
    # A blank label would show an empty choice: it takes the value like a missing one.
    return Option(value=value, label=value if is_blank(label) else trim_blank(label))
