"""Strict reader for fenced-YAML questionnaires (docs/protocol.md §4.2).

The field table of the seed is applied exactly: no aliases, no ``{value, label}``
options, no extra keys; every violation is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from replykit.cap import Collector
from replykit.codes import fields as F
from replykit.codes.payload import (
    YAML_EMPTY,
    YAML_JSON_PAYLOAD,
    YAML_ROOT_NOT_MAPPING,
)
from replykit.diagnostics import Finding, Path, format_path
from replykit.findings import Cursor, FindingSink
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits, form_lists
from replykit.questionnaire.model import OTHER_VALUE, Option, Question, Questionnaire, QuestionType
from replykit.questionnaire.payload.describe import (
    carried_value,
    kind_hint,
    no_string,
    one_of,
    yaml_kind,
)
from replykit.questionnaire.payload.fenced_plain import plain_form
from replykit.questionnaire.payload.nested_fence import nested_fences as nested_fences
from replykit.questionnaire.payload.results import (
    FormRead,
    Read,
    Span,
    SpanMap,
    finding_sink,
    locate,
    place,
)
from replykit.questionnaire.payload.yaml12 import read_yaml
from replykit.questionnaire.payload.yaml_build import refused_paths
from replykit.questionnaire.payload.yaml_core import names_carried
from replykit.questionnaire.payload.yaml_node import yaml_node_start
from replykit.text import is_blank

_TOP_FIELDS = ("title", "questions")
_QUESTION_FIELDS = ("type", "text", "default", "options", "allow_other")
_TYPES: tuple[QuestionType, ...] = ("single_choice", "multi_choice", "free_text")
_ALIASES: dict[str, QuestionType] = {"multiple_choice": "multi_choice", "text": "free_text"}
# Reader results after which field checks would only repeat the same problem.
_NO_FIELD_CHECKS = frozenset({YAML_JSON_PAYLOAD.name, YAML_ROOT_NOT_MAPPING.name})


def read_fenced_form(
    payload: str,
    *,
    max_depth: int | None = None,
    fence_length: int = 3,
    loader: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> FormRead:
    """Read the payload of a ```` ```questionnaire ```` block with the strict rules (§4).

    Input: the block's content (CommonMark's, offsets relative to it); ``fence_length``,
    the number of backticks of its opener; ``loader``, the YAML event source as for
    :func:`~replykit.questionnaire.payload.yaml12.read_yaml` (it changes no result). Output:
    :class:`FormRead`; ``value`` is ``Questionnaire(title, questions)`` with ids ``q1``,
    ``q2``... by position, options as ``Option(s, s)``, a multi-choice default as a
    tuple, ``allow_other`` False when absent; ``None`` when any error was found.

    Findings: ``yaml.empty``; ``yaml.nested_fence`` (one per line, and no
    ``yaml.syntax`` on that line: the fence is the error there, §8); every ``yaml.*`` of
    :func:`~replykit.questionnaire.payload.yaml12.read_yaml`; then the seed's field table:
    ``form.unknown_field``, ``form.title_required``, ``form.title_invalid``,
    ``form.questions_required``, ``form.questions_invalid``, ``question.not_mapping``,
    ``question.unknown_field``, ``question.type_required``, ``question.type_invalid``,
    ``question.text_required``, ``question.text_invalid``, ``question.default_required``,
    ``question.default_invalid``, ``question.default_not_in_options``,
    ``question.options_required``, ``question.option_invalid``,
    ``question.options_forbidden``, ``question.allow_other_forbidden``,
    ``question.allow_other_invalid`` (errors), ``question.duplicate_option`` and
    ``question.duplicate_default`` (warnings; a repeated multi-choice default item is
    kept once). Raises only the ``ValueError`` of a bad ``loader``.

    ``limits`` (§1): a ``questions``, ``options`` or multi-choice ``default`` list over
    ``max_questions``/``max_options`` is one ``limit.questions``/``limit.options`` error
    and the fields are not checked; at most ``max_diagnostics`` findings are kept (the
    first error always), the rest counted in ``overflow``. ``max_depth`` (default
    ``limits.max_depth``) limits YAML nesting.
    """
    if is_blank(payload):
        return FormRead(
            value=None,
            findings=(YAML_EMPTY.finding(start=0, end=len(payload)),),
        )
    depth = limits.max_depth if max_depth is None else max_depth
    nested, read = _read_yaml(payload, fence_length, depth, loader, limits)
    sink = _found(nested, read, limits.max_diagnostics)
    if not sink and read.overflow is None and type(read.value) is dict:
        # Nothing reported yet: a form with nothing to report is built without cursors,
        # paths or span lookups; any other goes to the field table's full checks.
        form = plain_form(read.value, limits)
        if form is not None:
            return FormRead(value=form, spans=read.spans)
    sink = finding_sink(limits.max_diagnostics) if sink is None else sink
    sink.absorb(read.overflow, len(read.findings))
    form = _checked_form(payload, read, limits, sink, loader) if _fields_apply(read) else None
    return _result(form, read.spans, sink)


def _read_yaml(
    payload: str, fence_length: int, depth: int, loader: str | None, limits: Limits
) -> tuple[list[Finding], Read]:
    """The ``yaml.nested_fence`` findings of ``payload`` and its YAML read (§4, §8)."""
    if "```" not in payload and "~~~" not in payload:
        nested: list[Finding] = []  # no line can be a fence (nested_fences finds none)
    else:
        nested = list(nested_fences(payload, fence_length))
    # The YAML reader keeps no more findings than the cap (an alias bomb has one per
    # alias) and no yaml.syntax on a nested fence line: the fence is the error there.
    read = read_yaml(
        payload,
        max_depth=depth,
        loader=loader,
        max_findings=limits.max_diagnostics,
        quiet=[(f.start, f.end) for f in nested if f.start is not None and f.end is not None],
    )
    return nested, read


def _found(nested: list[Finding], read: Read, limit: int) -> Collector[Finding] | None:
    """The findings so far in a collector of ``limit``, in this order: the nested
    fences', then the reader's; ``None`` when there is none (a valid form builds no
    collector)."""
    if not nested and not read.findings:
        return None
    sink = finding_sink(limit)
    sink.extend(nested)
    sink.extend(read.findings)
    return sink


def _fields_apply(read: Read) -> bool:
    """Whether the field table is checked: the root is a mapping and no reader result
    (kept or left out by the cap) makes every field check repeat it."""
    codes = {f.code for f in read.findings}
    if read.overflow is not None:
        codes.update(c.code for c in read.overflow.counts)
    return isinstance(read.value, dict) and not codes & _NO_FIELD_CHECKS


def _checked_form(
    payload: str,
    read: Read,
    limits: Limits,
    sink: Collector[Finding],
    loader: str | None = None,
) -> Questionnaire | None:
    """The form the field table builds from the mapping root of ``read``, its findings
    put in ``sink``; ``None`` when a list is over its limit (§1), and then nothing else
    is checked."""
    root = read.value
    over = form_lists(root, limits)
    if over is not None:
        # Placed on the list's first character by a walk that keeps no span: the span
        # map would hold every item.
        start = yaml_node_start(payload, over.path, loader)
        sink.append(over if start is None else attrs.evolve(over, start=start, end=start + 1))
        return None
    # An alias node stands for a value we never build, a refused number for one read as
    # a placeholder: each is reported once, and nothing at or under it is checked (§5).
    aliased = frozenset(read.aliases) | refused_paths(read.findings, read.spans)
    keyless, spans = read.keyless, read.spans

    def skip(path: Path) -> bool:
        # Under a placeholder; or a key missing from a mapping that had a placeholder
        # key (it may have been that key: "required" would be untrue, §4.1).
        return _under_any(path, aliased) or (path[:-1] in keyless and path not in spans)

    at = FindingSink(
        limits.max_diagnostics,
        locate=_locator(read.spans, read.key_spans),
        skip=skip if aliased or keyless else None,
        into=sink,
    )
    return _Checker(payload, read.spans, aliased).form(root, at.at())


def _result(form: Questionnaire | None, spans: SpanMap, sink: Collector[Finding]) -> FormRead:
    overflow = sink.overflow
    if overflow is not None:
        overflow = attrs.evolve(overflow, first=place((overflow.first,), spans)[0])
    return FormRead(
        value=None if sink.has_error else form,
        spans=spans,
        findings=tuple(sink),
        overflow=overflow,
    )


def _locator(spans: SpanMap, key_spans: SpanMap) -> Callable[[Path, bool], Span | None]:
    def find(path: Path, on_key: bool) -> Span | None:
        span = key_spans.get(path) if on_key else None
        return locate(spans, path) if span is None else span

    return find


class _Checker:
    """Applies the seed's field table to a built YAML mapping; reports at its cursor."""

    def __init__(self, payload: str, spans: SpanMap, placeholders: frozenset[Path]) -> None:
        self.payload = payload
        self.spans = spans
        # Lists holding a placeholder (an alias, a scalar with properties): a default is
        # not judged against options one of which is unknown (§4.1: never compared).
        self.unknown_in = frozenset(p[:cut] for p in placeholders for cut in range(len(p)))

    def source(self, path: Path) -> str | None:
        span = self.spans.get(path)
        return None if span is None else self.payload[span[0] : span[1]]

    def kind_hint(
        self, value: Any, path: Path, accepts: Callable[[str], bool] | None = None
    ) -> dict[str, Any]:
        """How YAML read the value at ``path``: :func:`~.describe.kind_hint`."""
        return kind_hint(value, None if isinstance(value, str) else self.source(path), accepts)

    def form(self, root: dict[str, Any], at: Cursor) -> Questionnaire | None:
        for key in root:
            if key not in _TOP_FIELDS:
                at.add(F.FORM_UNKNOWN_FIELD, key, on_key=True, field=repr(key))
        title = self.title(root, at)
        questions: list[Question] = []
        if "questions" not in root:
            at.add(F.FORM_QUESTIONS_REQUIRED, "questions")
        elif not isinstance(root["questions"], list) or not root["questions"]:
            raw = root["questions"]
            hint = (
                {"as": "empty_list"}
                if raw == []
                else self.kind_hint(raw, ("questions",), no_string)
            )
            at.add(F.FORM_QUESTIONS_INVALID, "questions", hint=hint)
        else:
            for i, raw in enumerate(root["questions"]):
                q = self.question(raw, at.descend("questions", i), i)
                if q is not None:
                    questions.append(q)
        # No question read is an error reported above: there is no form to build.
        return Questionnaire(title=title, questions=tuple(questions)) if questions else None

    def title(self, root: dict[str, Any], at: Cursor) -> str:
        if "title" not in root:
            at.add(F.FORM_TITLE_REQUIRED, "title")
            return ""
        title = root["title"]
        if not isinstance(title, str):
            at.add(F.FORM_TITLE_INVALID, "title", hint=self.kind_hint(title, ("title",)))
            return ""
        if is_blank(title):
            at.add(F.FORM_TITLE_REQUIRED, "title", variant="blank")
        return title

    def question(self, raw: Any, at: Cursor, index: int) -> Question | None:
        where = format_path(at.path)
        if not isinstance(raw, dict):
            at.add(F.QUESTION_NOT_MAPPING, actual=yaml_kind(raw))
            return None
        for key in raw:
            if key not in _QUESTION_FIELDS:
                at.add(
                    F.QUESTION_UNKNOWN_FIELD,
                    key,
                    on_key=True,
                    field=repr(key),
                    question=where,
                    allowed_fields=", ".join(_QUESTION_FIELDS),
                )
        qtype = self.qtype(raw, at)
        text = self.text(raw, at)
        if "default" not in raw:
            variant = qtype if qtype in ("multi_choice", "free_text") else None
            at.add(F.QUESTION_DEFAULT_REQUIRED, "default", variant=variant, question=where)
        if qtype is None:
            self.untyped(raw, at)
            return None
        if qtype == "free_text":
            return self.free_text(raw, at, index, text)
        return self.choice(raw, at, index, text, qtype)

    def qtype(self, raw: dict[str, Any], at: Cursor) -> QuestionType | None:
        """The question's type; for an alias (reported) the type it stands for, so the
        rest of the question is still checked; None when unknown."""
        if "type" not in raw:
            at.add(F.QUESTION_TYPE_REQUIRED, "type")
            return None
        value = raw["type"]
        if isinstance(value, str):
            for t in _TYPES:
                if value == t:
                    return t
            if value in _ALIASES:
                strict = _ALIASES[value]
                at.add(
                    F.QUESTION_TYPE_INVALID,
                    "type",
                    variant="alias",
                    given=repr(value),
                    strict=repr(strict),
                )
                return strict
            at.add(F.QUESTION_TYPE_INVALID, "type", given=repr(value))
        else:
            hint = self.kind_hint(value, (*at.path, "type"), no_string)
            at.add(F.QUESTION_TYPE_INVALID, "type", variant="not_string", hint=hint)
        return None

    def untyped(self, raw: dict[str, Any], at: Cursor) -> None:
        """The checks of a question whose type is missing or invalid that hold whatever
        its type (§4.2: every violation is reported): given ``options`` are a non-empty
        list of valid options (a free_text question takes none at all); a given
        ``allow_other`` is a boolean; ``default`` is a string or a list of strings (each
        item that is not one is ``question.default_invalid`` at ``default[k]``, as for a
        multi_choice question). What depends on the type (options required, a default
        among them, a repeated default item) is not judged."""
        if "options" in raw:
            self.options(raw, at.descend("options"))
        if "allow_other" in raw:
            self.allow_other(raw, at)
        default = raw.get("default", "")
        if isinstance(default, list):
            self.string_items(default, at.descend("default"))
        elif not isinstance(default, str):
            hint = self.kind_hint(default, (*at.path, "default"))
            at.add(F.QUESTION_DEFAULT_INVALID, "default", variant="any_type", hint=hint)

    def string_items(self, items: list[Any], at: Cursor) -> None:
        """``question.default_invalid`` at ``default[k]`` for each item of a list default
        that is not a string, for a question of no known type: any string would do."""
        for k, item in enumerate(items):
            if not isinstance(item, str):
                at.add(F.QUESTION_DEFAULT_INVALID, k, hint=self.kind_hint(item, (*at.path, k)))

    def allow_other(self, raw: dict[str, Any], at: Cursor) -> bool:
        allow_other = raw.get("allow_other", False)
        if isinstance(allow_other, bool):
            return allow_other
        hint = self.kind_hint(allow_other, (*at.path, "allow_other"), no_string)
        variant = "yes_no" if isinstance(allow_other, str) else None
        at.add(F.QUESTION_ALLOW_OTHER_INVALID, "allow_other", variant=variant, hint=hint)
        return False

    def text(self, raw: dict[str, Any], at: Cursor) -> str:
        if "text" not in raw:
            at.add(F.QUESTION_TEXT_REQUIRED, "text")
            return ""
        value = raw["text"]
        if not isinstance(value, str):
            at.add(F.QUESTION_TEXT_INVALID, "text", hint=self.kind_hint(value, (*at.path, "text")))
            return ""
        if is_blank(value):
            at.add(F.QUESTION_TEXT_REQUIRED, "text", variant="blank")
        return value

    def free_text(self, raw: dict[str, Any], at: Cursor, index: int, text: str) -> Question:
        if "options" in raw:
            at.add(F.QUESTION_OPTIONS_FORBIDDEN, "options", on_key=True)
        if "allow_other" in raw:
            at.add(F.QUESTION_ALLOW_OTHER_FORBIDDEN, "allow_other", on_key=True)
        default = raw.get("default", "")
        if "default" in raw and not isinstance(default, str):
            hint = self.kind_hint(default, (*at.path, "default"))
            at.add(F.QUESTION_DEFAULT_INVALID, "default", variant="free_text", hint=hint)
        return Question(
            id=f"q{index + 1}",
            type="free_text",
            text=text,
            default=default if isinstance(default, str) else "",
        )

    def options(
        self, raw: dict[str, Any], at: Cursor
    ) -> tuple[list[str], frozenset[str] | None] | None:
        """The option values read and, when an option failed, the values the failed
        ones carry (:func:`carried_value`: a default naming one gets no follow-on
        error, §4); ``None`` when there is no option list."""
        options = raw.get("options")
        if not isinstance(options, list) or not options:
            if "options" not in raw:
                hint: dict[str, Any] = {"as": "missing"}
            elif options == []:
                hint = {"as": "empty"}
            else:
                hint = self.kind_hint(options, at.path, no_string)
            at.add(F.QUESTION_OPTIONS_REQUIRED, hint=hint)
            return None
        values: list[str] = []
        seen: set[str] = set()
        failed: list[Any] = []
        for j, option in enumerate(options):
            if option == OTHER_VALUE:
                # An answer with this value means "other": the option could not be chosen.
                at.add(F.QUESTION_OPTION_INVALID, j, variant="reserved", value=option)
                failed.append(option)
                continue
            if isinstance(option, str) and not is_blank(option):
                if option in seen:
                    at.add(F.QUESTION_DUPLICATE_OPTION, j, value=option)
                seen.add(option)
                values.append(option)
                continue
            if isinstance(option, dict):
                hint = {"as": "option_object"}
            elif isinstance(option, str):
                hint = {"as": "blank"}
            else:
                hint = self.kind_hint(option, (*at.path, j))
            at.add(F.QUESTION_OPTION_INVALID, j, hint=hint)
            failed.append(option)
        excused = frozenset(filter(None, map(carried_value, failed))) if failed else None
        return values, excused

    def choice(
        self, raw: dict[str, Any], at: Cursor, index: int, text: str, qtype: QuestionType
    ) -> Question | None:
        read = self.options(raw, at.descend("options"))
        values, excused = (None, None) if read is None else read
        allow_other = self.allow_other(raw, at)
        default: str | tuple[str, ...] = "" if qtype == "single_choice" else ()
        if "default" in raw:
            if qtype == "single_choice":
                d_at = at.descend("default")
                default = self.single_default(raw["default"], d_at, values, excused)
            else:
                default = self.multi_default(raw["default"], at.descend("default"), values, excused)
        chosen = set(default) if isinstance(default, tuple) else {default} - {""}
        if not values or excused is not None or not chosen <= set(values):
            return None  # reported (or left unjudged beside a placeholder): no form
        options = tuple(Option(value=v, label=v) for v in values)
        return Question(
            id=f"q{index + 1}",
            type=qtype,
            text=text,
            options=options,
            default=default,
            allow_other=allow_other,
        )

    def single_default(
        self, value: Any, at: Cursor, values: list[str] | None, excused: frozenset[str] | None
    ) -> str:
        if not isinstance(value, str):
            hint = self.kind_hint(value, at.path, one_of(values, excused))
            at.add(F.QUESTION_DEFAULT_INVALID, variant="single_choice", hint=hint)
            return ""
        # No option read (``values`` empty): membership is not judged, the options'
        # errors say what to fix (§4.2).
        unknown = (*at.path[:-1], "options") in self.unknown_in
        if values and value not in values and not names_carried(value, excused) and not unknown:
            at.add(F.QUESTION_DEFAULT_NOT_IN_OPTIONS, value=value, allowed=values)
            return ""  # reported; the form is not built
        return value

    def multi_default(
        self, value: Any, at: Cursor, values: list[str] | None, excused: frozenset[str] | None
    ) -> tuple[str, ...]:
        if not isinstance(value, list):
            hint = self.kind_hint(value, at.path, no_string)
            at.add(F.QUESTION_DEFAULT_INVALID, variant="multi_choice", hint=hint)
            return ()
        out: list[str] = []
        seen: set[str] = set()
        unknown = (*at.path[:-1], "options") in self.unknown_in
        known = None if values is None or unknown else frozenset(values)
        for k, item in enumerate(value):
            if isinstance(item, str) and item in seen:
                # Kept once: an answer may not repeat a value, so the form could not be
                # submitted with its defaults otherwise (§4, §7).
                at.add(F.QUESTION_DUPLICATE_DEFAULT, k, value=item)
                continue
            if isinstance(item, str):
                seen.add(item)
            if not isinstance(item, str):
                hint = self.kind_hint(item, (*at.path, k), one_of(values, excused))
                at.add(F.QUESTION_DEFAULT_INVALID, k, hint=hint)
            elif values and known and item not in known and not names_carried(item, excused):
                at.add(F.QUESTION_DEFAULT_NOT_IN_OPTIONS, k, value=item, allowed=values)
            else:
                out.append(item)
        return tuple(out)


def _under_any(path: Path, prefixes: frozenset[Path]) -> bool:
    return bool(prefixes) and any(path[:cut] in prefixes for cut in range(len(path) + 1))
