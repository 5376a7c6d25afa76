"""The lenient form normalizer of ``questionnaire_async`` (§7), reused for XML+JSON
requests (§5).

Input is a plain JSON-like value (tool arguments, or a decoded payload); output is the
normalized :class:`~replykit.questionnaire.model.Questionnaire` or every ``questionnaire.start.*``
problem. Lenient means: aliases, ``{value, label}`` or string options, optional ids and
defaults, unknown keys ignored, and (as the seed's reference implementation does) text,
title, option values and labels and string defaults trimmed of blank characters (§1)
before they are checked. It never repairs a wrong value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from replykit.codes import start as S
from replykit.diagnostics import Path
from replykit.findings import Cursor, FindingSink, Locate
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits, form_lists
from replykit.questionnaire.model import (
    MAX_UI_TEXT,
    OTHER_VALUE,
    UI_TEXT_KEYS,
    Option,
    Question,
    Questionnaire,
    QuestionType,
)
from replykit.questionnaire.payload.describe import carried_value, json_type
from replykit.questionnaire.payload.numbers import is_timeout, unsigned_zero
from replykit.questionnaire.payload.results import FormRead
from replykit.questionnaire.payload.yaml_core import names_carried
from replykit.text import is_blank, trim_blank
from replykit.trusted import trusted

ACCEPTED_TYPES = ("single_choice", "multiple_choice", "multi_choice", "text", "free_text")
_TYPE_MAP: Mapping[str, QuestionType] = {
    "single_choice": "single_choice",
    "multiple_choice": "multi_choice",
    "multi_choice": "multi_choice",
    "text": "free_text",
    "free_text": "free_text",
}
#: A field the arguments leave out, told apart from one given as ``null``: a required
#: field left out "is required"; ``null`` in it is a value of the wrong type.
MISSING: Final = object()
# Built from what this module accepted: without the public constructors' checks.
_new_option = trusted(Option)
_new_question = trusted(Question)
_new_questionnaire = trusted(Questionnaire)


def normalize_form(
    args: Any,
    *,
    allow_extras: bool,
    limits: Limits = DEFAULT_LIMITS,
    dropped: frozenset[int] = frozenset(),
) -> FormRead:
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
    key's value not a string, blank (§1) or longer than :data:`MAX_UI_TEXT`),
    ``timeout_seconds_invalid``, ``default_duplicate_item`` (a multi-choice default item
    equal, after trimming, to an earlier one: kept once; without ``allow_extras`` it is
    kept once silently). A JSON ``null`` counts as absent for every optional field.
    Never raises.

    ``limits`` (§1): a ``questions``, ``options`` or multi-choice ``default`` list over
    ``max_questions``/``max_options`` is the one finding ``limit.questions`` /
    ``limit.options`` and nothing else is read; at most ``max_diagnostics`` findings are
    kept (the first error always), the rest counted in ``overflow``.

    ``dropped`` (§9 ``filter_invalid_questions``): the 0-based positions of questions
    left out. Each still claims its id (given, or ``q<n>`` by its position) for the
    duplicate check, as in the reading without ``dropped``, but is read no further and
    reports nothing; every other question keeps its id, path and findings.
    """
    over = form_lists(args, limits)
    if over is not None:
        return FormRead(value=None, findings=(over,))
    return normalize_fitting(args, allow_extras, limits, dropped)


def normalize_fitting(
    args: Any, allow_extras: bool, limits: Limits, dropped: frozenset[int] = frozenset(),
    locate: Locate | None = None, skip: Callable[[Path], bool] | None = None,
) -> FormRead:  # fmt: skip
    """:func:`normalize_form` of ``args`` whose lists fit ``limits`` (``form_lists``
    found none over), for a reader that checked them already. A JSON ``null`` counts as
    absent for every optional field (§7): ``.get`` reads both as ``None``. ``locate``:
    a payload reader's spans, so each finding is placed as it is reported and the cap
    keeps the first ones in offset order (§2.1); ``skip``: paths not to report."""
    sink = FindingSink(limits.max_diagnostics, path_in_details=True, locate=locate, skip=skip)
    # XML+JSON requests (allow_extras) have warnings; the tool's result has none.
    form = _form(args, allow_extras, sink.at(), dropped)
    return FormRead(
        value=None if sink.findings.has_error or form is None else form,
        findings=tuple(sink.findings),
        overflow=sink.findings.overflow,
    )


def _form(
    args: Any, allow_extras: bool, at: Cursor, dropped: frozenset[int]
) -> Questionnaire | None:
    if not isinstance(args, dict):
        at.add(S.ARGUMENTS_NOT_OBJECT, expected="object", actual=json_type(args))
        return None
    title = args.get("title")
    if title is None:
        title = ""
    elif not isinstance(title, str):
        at.add(S.TITLE_INVALID, "title", expected="string", actual=json_type(title))
        title = ""
    title = trim_blank(title)
    questions = _questions(
        args.get("questions", MISSING), at.descend("questions"), allow_extras, dropped
    )
    ui_text: tuple[tuple[str, str], ...] = ()
    timeout: int | float | None = None
    if allow_extras:
        ui_text = _ui_text(args.get("ui_text"), at.descend("ui_text"))
        timeout = _timeout(args.get("timeout_seconds"), at.descend("timeout_seconds"))
    if not questions:
        return None  # reported: no question could be read
    return _new_questionnaire(title, questions, ui_text, timeout)


def _questions(raw: Any, at: Cursor, warn: bool, dropped: frozenset[int]) -> tuple[Question, ...]:
    if not isinstance(raw, list):
        # "is required" reads better than "must be an array, not missing"
        variant = "missing" if raw is MISSING else None
        at.add(S.QUESTIONS_MUST_BE_LIST, variant=variant, expected="array", actual=_actual(raw))
        return ()
    if not raw:
        at.add(S.QUESTIONS_EMPTY)
        return ()
    out: list[Question] = []
    used: set[str] = set()
    for i, item in enumerate(raw):
        if i in dropped:
            _claim_id(item, i, used)
            continue
        q = _question(item, at.descend(i), i, used, warn)
        if q is not None:
            out.append(q)
    return tuple(out)


def _question(raw: Any, at: Cursor, index: int, used: set[str], warn: bool) -> Question | None:
    if not isinstance(raw, dict):
        at.add(S.QUESTION_NOT_OBJECT, expected="object", actual=json_type(raw))
        return None
    qid = _question_id(raw, at, index, used)
    qtype = _question_type(raw, at)
    text = _text(raw, at)
    if qtype is None:
        _untyped(raw, at)
        return None
    if qtype == "free_text":
        answer_text = _text_default(raw.get("default"), at.descend("default"))
        if qid is None:
            return None  # reported: a repeated id
        return _new_question(id=qid, type="free_text", text=text, default=answer_text)
    options, excused = _options(raw.get("options", MISSING), at.descend("options"))
    allow_other = _allow_other(raw, at)
    values = None if options is None else [o.value for o in options]
    d_at = at.descend("default")
    raw_default = raw.get("default")
    default: str | tuple[str, ...]
    if qtype == "single_choice":
        default = _single_default(raw_default, d_at, values, excused)
    else:
        default = _multi_default(raw_default, d_at, values, warn, excused)
    if qid is None or not options or excused is not None:
        return None  # reported: a repeated id; a choice without options, or with a bad one
    return _new_question(
        id=qid,
        type=qtype,
        text=text,
        options=tuple(options or ()),
        default=default,
        allow_other=allow_other,
    )


def _allow_other(raw: dict[str, Any], at: Cursor) -> bool:
    allow_other = raw.get("allow_other")
    if allow_other is None or isinstance(allow_other, bool):
        return bool(allow_other)
    at.add(
        S.ALLOW_OTHER_TYPE_INVALID, "allow_other", expected="boolean", actual=json_type(allow_other)
    )
    return False


def _untyped(raw: dict[str, Any], at: Cursor) -> None:
    """The checks of a question whose type is missing or unknown that hold whatever its
    type (§7: every violation is reported): ``options``, when given and not empty, a
    list of valid options; ``allow_other`` a boolean; ``default`` a string or a list of
    strings. What depends on the type (options required, a default among them) is not
    judged."""
    options, read = raw.get("options"), None
    if options is not None and options != []:
        read = _options(options, at.descend("options"))[0]
    _allow_other(raw, at)
    default = raw.get("default")
    if isinstance(default, list):
        # As for a multi-choice default (same code, path and details): not a string is
        # wrong whatever the type; whether an item is an option is not judged.
        _not_strings(default, at.descend("default"), [o.value for o in read or ()])
    elif default is not None and not isinstance(default, str):
        at.add(
            S.DEFAULT_TYPE_INVALID,
            "default",
            expected="string or array of strings",
            actual=json_type(default),
        )


def _claim_id(raw: Any, index: int, used: set[str]) -> None:
    """Add the id a left-out question at ``index`` claims in :func:`_question_id` (none
    for a non-object), reporting nothing (§9 ``filter_invalid_questions``)."""
    if isinstance(raw, dict):
        given = raw.get("id")
        good = isinstance(given, str) and not is_blank(given)
        used.add(str(given) if good else f"q{index + 1}")


def _question_id(raw: dict[str, Any], at: Cursor, index: int, used: set[str]) -> str | None:
    """The question's id (given, or ``q{n}`` by position), ``None`` when it repeats an
    earlier one (reported)."""
    given = raw.get("id")
    qid = f"q{index + 1}"
    if given is not None and not isinstance(given, str):
        at.add(S.QUESTION_ID_INVALID, "id", expected="string", actual=json_type(given))
    elif isinstance(given, str) and not is_blank(given):
        qid = given
    if qid in used:
        at.add(S.QUESTION_ID_DUPLICATE, "id", value=qid)
        return None
    used.add(qid)
    return qid


def normalize_type(given: Any) -> QuestionType | None:
    """The question type a ``type`` value names (§7: trimmed of blank characters, in
    any case, aliases mapped), or ``None`` when it names none."""
    if not isinstance(given, str):
        return None
    # A value spelled as a key already is its own trimmed, lower-cased form.
    return _TYPE_MAP.get(given) or _TYPE_MAP.get(trim_blank(given).lower())


def _question_type(raw: dict[str, Any], at: Cursor) -> QuestionType | None:
    given = raw.get("type", MISSING)
    qtype = normalize_type(given)
    if qtype is not None:
        return qtype
    allowed = list(ACCEPTED_TYPES)
    if given is MISSING:
        at.add(
            S.QUESTION_TYPE_INVALID, "type", variant="missing", allowed=allowed, actual="missing"
        )
    elif not isinstance(given, str):  # null or another JSON type: its kind, as for text
        at.add(
            S.QUESTION_TYPE_INVALID, "type", value=given, allowed=allowed, actual=json_type(given)
        )
    else:
        at.add(S.QUESTION_TYPE_INVALID, "type", value=given, allowed=allowed)
    return None


def _text(raw: dict[str, Any], at: Cursor) -> str:
    given = raw.get("text")
    if given is not None and not isinstance(given, str):
        # Only a blank or missing text falls back to the title (§7): 5 is neither.
        at.add(
            S.QUESTION_TEXT_REQUIRED,
            "text",
            variant="not_string",
            expected="non-blank string",
            actual=json_type(given),
        )
        return ""
    for key in ("text", "title"):
        value = raw.get(key)
        if isinstance(value, str) and not is_blank(value):
            return trim_blank(value)
    actual = _actual(raw.get("text", MISSING))
    at.add(S.QUESTION_TEXT_REQUIRED, "text", expected="non-blank string", actual=actual)
    return ""


def _options(raw: Any, at: Cursor) -> tuple[list[Option] | None, frozenset[str] | None]:
    """The options read (``None``: no list) and, when an item failed, the values the
    failed items carry (``carried_value``: a default naming one is no second error)."""
    if not isinstance(raw, list) or not raw:
        actual = "empty array" if raw == [] else _actual(raw)
        at.add(S.QUESTION_OPTIONS_REQUIRED, expected="non-empty array", actual=actual)
        return None, None
    out: list[Option] = []
    failed: list[Any] = []
    seen: set[str] = set()
    for j, item in enumerate(raw):
        pair = _option(item)
        if pair is None:
            at.add(
                S.QUESTION_OPTION_INVALID,
                j,
                expected="non-blank string or {value, label} object",
                actual=json_type(item),
                value=item,
            )
            failed.append(item)
            continue
        value, label = pair
        if value == OTHER_VALUE:
            # An answer with this value means "other": the option could not be chosen.
            at.add(S.QUESTION_OPTION_INVALID, j, variant="reserved", value=value)
            failed.append(value)
            continue
        if value in seen:
            at.add(S.QUESTION_OPTION_INVALID, j, variant="duplicate", value=value)
            continue
        seen.add(value)
        out.append(_new_option(value, label))
    excused = frozenset(filter(None, map(carried_value, failed))) if failed else None
    return out, excused


def _text_default(raw: Any, at: Cursor) -> str:
    if raw is None:
        return ""
    if not isinstance(raw, str):
        at.add(S.DEFAULT_TYPE_INVALID, expected="string", actual=json_type(raw))
        return ""
    return trim_blank(raw)


def _single_default(
    raw: Any, at: Cursor, values: list[str] | None, excused: frozenset[str] | None = None
) -> str:
    default = _text_default(raw, at)
    # "" is the seed's own normalized "no default".
    # No option read (``values`` empty): membership is not judged (§7).
    if default and values and default not in values and not names_carried(default, excused):
        at.add(S.DEFAULT_VALUE_NOT_IN_OPTIONS, value=default, allowed=values)
        return ""  # reported; the form is not built
    return default


def _multi_default(
    raw: Any,
    at: Cursor,
    values: list[str] | None,
    warn: bool,
    excused: frozenset[str] | None = None,
) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        at.add(S.DEFAULT_TYPE_INVALID, expected="array of strings", actual=json_type(raw))
        return ()
    items = _distinct_items(raw, at, warn)
    _not_strings(raw, at, values or [])
    if values:  # none read: membership is not judged, the options' errors say it (§7)
        known = frozenset(values)
        outside = [i for i in items if i not in known and not names_carried(i, excused)]
        if outside:
            at.add(
                S.DEFAULT_VALUE_NOT_IN_OPTIONS,
                variant="items",
                invalid_items=outside,
                allowed=values,
            )
            return ()  # reported; the form is not built
    return tuple(items)


def _not_strings(raw: list[Any], at: Cursor, allowed: list[str]) -> None:
    """``default_list_invalid_items`` at ``at`` for the items of the list default ``raw``
    that are not strings (``details.invalid_items``; ``allowed``: the option values)."""
    not_strings = [item for item in raw if not isinstance(item, str)]
    if not_strings:
        at.add(S.DEFAULT_LIST_INVALID_ITEMS, invalid_items=not_strings, allowed=allowed)


def _distinct_items(raw: list[Any], at: Cursor, warn: bool) -> list[str]:
    """The string items of a multi-choice default, trimmed, each kept once: an answer
    may not repeat a value, so a form with a repeated default item could not be
    submitted with its defaults (§7). A repeat is the warning
    ``default_duplicate_item`` where warnings are reported (``warn``: XML+JSON)."""
    items: list[str] = []
    seen: set[str] = set()
    for k, item in enumerate(raw):
        if not isinstance(item, str):
            continue
        value = trim_blank(item)
        if value in seen:
            if warn:
                at.add(S.DEFAULT_DUPLICATE_ITEM, k, value=value)
            continue
        seen.add(value)
        items.append(value)
    return items


def _ui_text(raw: Any, at: Cursor) -> tuple[tuple[str, str], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        at.add(S.UI_TEXT_INVALID, expected="object", actual=json_type(raw))
        return ()
    out: list[tuple[str, str]] = []
    for key, value in raw.items():
        if key not in UI_TEXT_KEYS or value is None:
            continue  # unknown ui_text keys are ignored like unknown top-level keys
        if not isinstance(value, str):
            at.add(S.UI_TEXT_INVALID, key, expected="string", actual=json_type(value))
            continue
        if is_blank(value):
            # Shown as is it would hide the text it stands for: the default is used.
            at.add(S.UI_TEXT_INVALID, key, variant="blank")
            continue
        if len(value) > MAX_UI_TEXT:
            # Every question's display line repeats it: a long one would multiply.
            at.add(S.UI_TEXT_INVALID, key, variant="too_long", limit=MAX_UI_TEXT, actual=len(value))
            continue
        out.append((key, value))
    return tuple(out)


def _timeout(raw: Any, at: Cursor) -> int | float | None:
    if raw is None:
        return None
    if not is_timeout(raw):
        at.add(
            S.TIMEOUT_SECONDS_INVALID,
            expected="non-negative number",
            actual=json_type(raw),
            value=raw,
        )
        return None
    return unsigned_zero(raw)  # -0.0 is kept as 0.0


def _actual(value: Any) -> str:
    return "missing" if value is MISSING else json_type(value)


def _option(item: Any) -> tuple[str, str] | None:
    """A string or ``{value, label}`` object as the value and label of an option (both
    trimmed, §7), else None."""
    if isinstance(item, str):
        return None if is_blank(item) else (trim_blank(item), trim_blank(item))
    if not isinstance(item, dict):
        return None
    value = item.get("value")
    label = item.get("label")
    if not isinstance(value, str) or is_blank(value):
        return None
    value = trim_blank(value)
    if label is None:
        return value, value
    if not isinstance(label, str):
        return None
    # A blank label would show an empty choice: it takes the value like a missing one.
    return value, value if is_blank(label) else trim_blank(label)
