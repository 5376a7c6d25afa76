"""Strict reader for fenced-YAML questionnaires (seed "fenced YAML 字段"; §4).

The field table of the seed is applied exactly: no aliases, no ``{value, label}``
options, no extra keys; every violation is reported.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator
from typing import Any

import attrs

from replykit.cap import Collector
from replykit.diagnostics import Finding, Path, Severity, format_path
from replykit.limits import DEFAULT_LIMITS, Limits, form_lists
from replykit.model import OTHER_VALUE, Option, Question, Questionnaire, QuestionType
from replykit.payload.describe import article, brief, yaml_kind
from replykit.payload.results import FormRead, SpanMap, finding_sink, locate, place
from replykit.payload.yaml12 import read_yaml
from replykit.text import is_blank, iter_lines

# A fence line: 0-3 spaces, a run of 3+ backticks or tildes, the rest of the line.
_FENCE_LINE = re.compile(r" {0,3}(?P<fence>`{3,}|~{3,})(?P<rest>.*)")
_TOP_FIELDS = ("title", "questions")
_QUESTION_FIELDS = ("type", "text", "default", "options", "allow_other")
_TYPES: tuple[QuestionType, ...] = ("single_choice", "multi_choice", "free_text")
_ALIASES: dict[str, QuestionType] = {"multiple_choice": "multi_choice", "text": "free_text"}
# Reader results after which field checks would only repeat the same problem.
_NO_FIELD_CHECKS = frozenset({"yaml.json_payload", "yaml.root_not_mapping"})


def _symbol(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "PS"


def _fence_message(payload: str, start: int, end: int, fence_length: int) -> str | None:
    """The ``yaml.nested_fence`` message for the line ``payload[start:end]``, or None
    when it is no fence line."""
    match = _FENCE_LINE.match(payload, start, end)
    if match is None:
        return None
    fence, rest = match.group("fence", "rest")
    if fence[0] == "`" and len(fence) >= fence_length:
        # Only punctuation and symbols (Unicode P* and S*) after a closing-length fence.
        text = rest.strip(" \t")
        if text and _symbol(text[0]) and all(ch in " \t" or _symbol(ch) for ch in text):
            return (
                "this line looks like a closing fence with text after it; a closing fence "
                "stands alone on its line, so the questionnaire does not end here"
            )
    if fence[0] == "~" or "`" not in rest:  # CommonMark: no backtick in a backtick info
        return (
            "a line inside the questionnaire opens a code fence; a questionnaire cannot "
            "contain other fenced blocks"
        )
    return None


def nested_fences(payload: str, fence_length: int = 3) -> Iterator[Finding]:
    """``yaml.nested_fence`` for each payload line that would open a CommonMark fence
    (0-3 spaces, then 3+ backticks with no backtick after, or 3+ tildes), or that looks
    like the closing fence of an opener of ``fence_length`` backticks with punctuation
    or symbols after it (§8); offsets of that line's content (§4, seed:
    问卷内部不能嵌套其他代码围栏)."""
    if "```" not in payload and "~~~" not in payload:
        return  # no line can be a fence: the common case, without a pass over lines
    for start, content_end, _end in iter_lines(payload):
        message = _fence_message(payload, start, content_end, fence_length)
        if message is not None:
            yield Finding(code="yaml.nested_fence", message=message, start=start, end=content_end)


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
    :func:`~replykit.payload.yaml12.read_yaml` (it changes no result). Output:
    :class:`FormRead`; ``value`` is ``Questionnaire(title, questions)`` with ids ``q1``,
    ``q2``... by position, options as ``Option(s, s)``, a multi-choice default as a
    tuple, ``allow_other`` False when absent; ``None`` when any error was found.

    Findings: ``yaml.empty``; ``yaml.nested_fence`` (one per line, and no
    ``yaml.syntax`` on that line: the fence is the error there, §8); every ``yaml.*`` of
    :func:`~replykit.payload.yaml12.read_yaml`; then the seed's field table:
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
            findings=(
                Finding(
                    code="yaml.empty",
                    message="the questionnaire block is empty",
                    start=0,
                    end=len(payload),
                ),
            ),
        )
    nested = list(nested_fences(payload, fence_length))
    sink = finding_sink(limits.max_diagnostics)
    sink.extend(nested)
    depth = limits.max_depth if max_depth is None else max_depth
    # The YAML reader keeps no more findings than the cap (an alias bomb has one per
    # alias) and no yaml.syntax on a nested fence line: the fence is the error there.
    read = read_yaml(
        payload,
        max_depth=depth,
        loader=loader,
        max_findings=limits.max_diagnostics,
        quiet=[(f.start, f.end) for f in nested if f.start is not None and f.end is not None],
    )
    sink.extend(read.findings)
    sink.absorb(read.overflow)
    codes = {f.code for f in read.findings}
    if read.overflow is not None:
        codes.update(c.code for c in read.overflow.counts)
    root = read.value
    if isinstance(root, dict) and not codes & _NO_FIELD_CHECKS:
        over = form_lists(root, limits)
        if over is not None:
            # Not placed by path: that would build the span map of every item. The
            # finding covers the payload, which is not read.
            sink.append(over)
        else:
            # An alias node stands for a value we never build: it is reported once, as
            # an alias, and nothing under it is checked.
            checker = _Checker(payload, read.spans, read.key_spans, read.aliases, sink)
            form = checker.form(root)
            return _result(form, read.spans, sink)
    return _result(None, read.spans, sink)


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


class _Checker:
    """Applies the seed's field table to a built YAML mapping, collecting findings."""

    def __init__(
        self,
        payload: str,
        spans: SpanMap,
        key_spans: SpanMap,
        aliased: frozenset[Path],
        sink: Collector[Finding],
    ) -> None:
        self.payload = payload
        self.spans = spans
        self.key_spans = key_spans
        self.aliased = aliased
        self.findings = sink

    def add(
        self,
        code: str,
        message: str,
        path: Path,
        *,
        on_key: bool = False,
        severity: Severity = "error",
    ) -> None:
        if _under_any(path, self.aliased):
            return
        span = self.key_spans.get(path) if on_key else None
        if span is None:
            span = locate(self.spans, path)
        self.findings.append(
            Finding(
                code=code,
                message=message,
                path=path,
                severity=severity,
                start=None if span is None else span[0],
                end=None if span is None else span[1],
            )
        )

    def source(self, path: Path) -> str | None:
        span = self.spans.get(path)
        return None if span is None else self.payload[span[0] : span[1]]

    def kind_hint(self, value: Any, path: Path) -> str:
        """How YAML read a non-string scalar, and the quoted spelling to use instead."""
        kind = yaml_kind(value)
        if isinstance(value, str):
            return f"it is the string {brief(value)}"
        if isinstance(value, dict | list):
            return f"it is {article(kind)}"
        src = self.source(path)
        if value is None and not src:
            return "it is empty (null)"
        if src is None:
            return f"it is {article(kind)}"
        if len(src) > 40:
            return f"YAML reads it as {article(kind)}; quote it to keep the text"
        return (
            f"YAML reads {src} as {article(kind)}; quote it to keep the text: "
            f"{json.dumps(src, ensure_ascii=False)}"
        )

    def form(self, root: dict[str, Any]) -> Questionnaire:
        for key in root:
            if key not in _TOP_FIELDS:
                self.add(
                    "form.unknown_field",
                    f"unknown top-level field {key!r}; a fenced questionnaire has only "
                    "title and questions",
                    (key,),
                    on_key=True,
                )
        title = self.title(root)
        questions: list[Question] = []
        if "questions" not in root:
            self.add(
                "form.questions_required",
                "questions is required: a non-empty list of questions",
                ("questions",),
            )
        elif not isinstance(root["questions"], list) or not root["questions"]:
            raw = root["questions"]
            what = "an empty list" if raw == [] else self.kind_hint(raw, ("questions",))
            self.add(
                "form.questions_invalid",
                f"questions must be a non-empty list of questions; {what}",
                ("questions",),
            )
        else:
            for i, raw in enumerate(root["questions"]):
                q = self.question(raw, ("questions", i), i)
                if q is not None:
                    questions.append(q)
        return Questionnaire(title=title, questions=tuple(questions))

    def title(self, root: dict[str, Any]) -> str:
        if "title" not in root:
            self.add("form.title_required", "title is required: a non-blank string", ("title",))
            return ""
        title = root["title"]
        if not isinstance(title, str):
            hint = self.kind_hint(title, ("title",))
            self.add("form.title_invalid", f"title must be a string; {hint}", ("title",))
            return ""
        if is_blank(title):
            self.add("form.title_required", "title must not be blank", ("title",))
        return title

    def question(self, raw: Any, path: Path, index: int) -> Question | None:
        where = format_path(path)
        if not isinstance(raw, dict):
            self.add(
                "question.not_mapping",
                f"{where} must be a mapping with type, text and default; "
                f"it is {article(yaml_kind(raw))}",
                path,
            )
            return None
        for key in raw:
            if key not in _QUESTION_FIELDS:
                self.add(
                    "question.unknown_field",
                    f"unknown field {key!r} in {where}; allowed: {', '.join(_QUESTION_FIELDS)}",
                    (*path, key),
                    on_key=True,
                )
        qtype = self.qtype(raw, path)
        text = self.text(raw, path)
        if "default" not in raw:
            example = {"multi_choice": "[]", "free_text": '""'}.get(
                qtype or "", "one of the options"
            )
            self.add(
                "question.default_required",
                f"{where}.default is required (for example {example})",
                (*path, "default"),
            )
        if qtype is None:
            return None
        if qtype == "free_text":
            return self.free_text(raw, path, index, text)
        return self.choice(raw, path, index, text, qtype)

    def qtype(self, raw: dict[str, Any], path: Path) -> QuestionType | None:
        """The question's type; for an alias (reported) the type it stands for, so the
        rest of the question is still checked; None when unknown."""
        p = (*path, "type")
        if "type" not in raw:
            self.add(
                "question.type_required",
                f"{format_path(p)} is required: single_choice, multi_choice or free_text",
                p,
            )
            return None
        value = raw["type"]
        if isinstance(value, str):
            for t in _TYPES:
                if value == t:
                    return t
            if value in _ALIASES:
                strict = _ALIASES[value]
                self.add(
                    "question.type_invalid",
                    f"{format_path(p)} {value!r} is an alias that strict fenced YAML does "
                    f"not accept; write {strict!r}",
                    p,
                )
                return strict
            else:
                message = (
                    f"{format_path(p)} {value!r} is not a question type; use "
                    "single_choice, multi_choice or free_text"
                )
        else:
            message = f"{format_path(p)} must be a string; {self.kind_hint(value, p)}"
        self.add("question.type_invalid", message, p)
        return None

    def text(self, raw: dict[str, Any], path: Path) -> str:
        p = (*path, "text")
        if "text" not in raw:
            self.add("question.text_required", f"{format_path(p)} is required", p)
            return ""
        value = raw["text"]
        if not isinstance(value, str):
            self.add(
                "question.text_invalid",
                f"{format_path(p)} must be a string; {self.kind_hint(value, p)}",
                p,
            )
            return ""
        if is_blank(value):
            self.add("question.text_required", f"{format_path(p)} must not be blank", p)
        return value

    def free_text(self, raw: dict[str, Any], path: Path, index: int, text: str) -> Question:
        for key, code in (
            ("options", "options_forbidden"),
            ("allow_other", "allow_other_forbidden"),
        ):
            if key in raw:
                self.add(
                    f"question.{code}",
                    f"a free_text question takes no {key}",
                    (*path, key),
                    on_key=True,
                )
        default = raw.get("default", "")
        p = (*path, "default")
        if "default" in raw and not isinstance(default, str):
            self.add(
                "question.default_invalid",
                f'{format_path(p)} of a free_text question must be a string ("" for none); '
                f"{self.kind_hint(default, p)}",
                p,
            )
        return Question(
            id=f"q{index + 1}",
            type="free_text",
            text=text,
            default=default if isinstance(default, str) else "",
        )

    def options(self, raw: dict[str, Any], path: Path) -> list[str] | None:
        p = (*path, "options")
        options = raw.get("options")
        if not isinstance(options, list) or not options:
            if "options" not in raw:
                what = "it is missing"
            elif options == []:
                what = "it is empty"
            else:
                what = self.kind_hint(options, p)
            self.add(
                "question.options_required",
                f"{format_path(p)} is required for a choice question: a non-empty list of "
                f"strings; {what}",
                p,
            )
            return None
        values: list[str] = []
        seen: set[str] = set()
        for j, option in enumerate(options):
            op = (*p, j)
            if option == OTHER_VALUE:
                # An answer with this value means "other": the option could not be chosen.
                self.add(
                    "question.option_invalid",
                    f"{format_path(op)} {brief(option)} is the value of the 'other' choice; "
                    "write another option",
                    op,
                )
                continue
            if isinstance(option, str) and not is_blank(option):
                if option in seen:
                    self.add(
                        "question.duplicate_option",
                        f"{format_path(op)} repeats the option {brief(option)}",
                        op,
                        severity="warning",
                    )
                seen.add(option)
                values.append(option)
                continue
            if isinstance(option, dict):
                what = (
                    "strict fenced YAML takes options as strings, not {value, label} "
                    "objects (those belong to XML+JSON and questionnaire_async)"
                )
            elif isinstance(option, str):
                what = "it is blank"
            else:
                what = self.kind_hint(option, op)
            self.add(
                "question.option_invalid",
                f"{format_path(op)} must be a non-blank string; {what}",
                op,
            )
        return values

    def choice(
        self, raw: dict[str, Any], path: Path, index: int, text: str, qtype: QuestionType
    ) -> Question:
        values = self.options(raw, path)
        allow_other = raw.get("allow_other", False)
        if not isinstance(allow_other, bool):
            p = (*path, "allow_other")
            hint = self.kind_hint(allow_other, p)
            if isinstance(allow_other, str):
                hint += " (YAML 1.2 reads only true/false as booleans, not yes/no/on/off)"
            self.add(
                "question.allow_other_invalid",
                f"{format_path(p)} must be true or false; {hint}",
                p,
            )
            allow_other = False
        default: str | tuple[str, ...] = "" if qtype == "single_choice" else ()
        if "default" in raw:
            if qtype == "single_choice":
                default = self.single_default(raw["default"], (*path, "default"), values)
            else:
                default = self.multi_default(raw["default"], (*path, "default"), values)
        options = tuple(Option(value=v, label=v) for v in (values or ()))
        return Question(
            id=f"q{index + 1}",
            type=qtype,
            text=text,
            options=options,
            default=default,
            allow_other=allow_other,
        )

    def single_default(self, value: Any, p: Path, values: list[str] | None) -> str:
        if not isinstance(value, str):
            self.add(
                "question.default_invalid",
                f"{format_path(p)} of a single_choice question must be one of the options "
                f"(a string); {self.kind_hint(value, p)}",
                p,
            )
            return ""
        if values is not None and value not in values:
            self.add(
                "question.default_not_in_options",
                f"{format_path(p)} {brief(value)} is not one of the options ({_listing(values)})",
                p,
            )
        return value

    def multi_default(self, value: Any, p: Path, values: list[str] | None) -> tuple[str, ...]:
        if not isinstance(value, list):
            self.add(
                "question.default_invalid",
                f"{format_path(p)} of a multi_choice question must be a list of options "
                f"([] for none); {self.kind_hint(value, p)}",
                p,
            )
            return ()
        out: list[str] = []
        seen: set[str] = set()
        known = None if values is None else frozenset(values)
        for k, item in enumerate(value):
            ip = (*p, k)
            if isinstance(item, str) and item in seen:
                # Kept once: an answer may not repeat a value, so the form could not be
                # submitted with its defaults otherwise (§4, §7).
                self.add(
                    "question.duplicate_default",
                    f"{format_path(ip)} repeats the default {brief(item)}; it is selected once",
                    ip,
                    severity="warning",
                )
                continue
            if isinstance(item, str):
                seen.add(item)
            if not isinstance(item, str):
                self.add(
                    "question.default_invalid",
                    f"{format_path(ip)} must be a string; {self.kind_hint(item, ip)}",
                    ip,
                )
            elif known is not None and values is not None and item not in known:
                self.add(
                    "question.default_not_in_options",
                    f"{format_path(ip)} {brief(item)} is not one of the options "
                    f"({_listing(values)})",
                    ip,
                )
            else:
                out.append(item)
        return tuple(out)


def _under_any(path: Path, prefixes: frozenset[Path]) -> bool:
    return bool(prefixes) and any(path[:cut] in prefixes for cut in range(len(path) + 1))


def _listing(values: list[str]) -> str:
    shown = ", ".join(brief(v) for v in values[:10])
    return shown + (", …" if len(values) > 10 else "")
