"""The AST: frozen attrs classes for forms, responses and message segments (§2, §4-§7).

Every class checks its invariants when it is built, so an instance that exists is valid
(a ``ValueError`` or ``TypeError`` naming the field otherwise); replykit's own readers
build what they accepted with ``trusted.py``'s builders, which check nothing again
(tests prove every value they return passes these checks). What is the model's and
what the readers report (docs/architecture.md, "Who decides the rest"): the model holds what makes
a value mean anything at all (a question's type, its options and a default it can be
submitted with; unique question ids; an answer's shape for its type; a segment's
offsets and the fields its kind has); a reader reports, as diagnostics, everything a
payload can get wrong, and builds a model value only from what it accepted. What
depends on a second value (an answer against its form) is checked by
``check_answers``, never by the model.
"""

from __future__ import annotations

import math
from typing import Any, Final, Literal

import attrs

from replykit.argcheck import typed
from replykit.diagnostics import Diagnostic
from replykit.frozen import freeze, thaw
from replykit.jsonout import dumps
from replykit.text import is_blank, with_article

QuestionType = Literal["single_choice", "multi_choice", "free_text"]
QUESTION_TYPES: Final[tuple[QuestionType, ...]] = ("single_choice", "multi_choice", "free_text")
#: The value of the "other" choice in an answer (§7); no option may have it.
OTHER_VALUE = "__questionnaire_other__"
Encoding = Literal["fenced_yaml", "xml_json"]
SegmentKind = Literal["markdown", "questionnaire", "questionnaire_response"]
#: The keys of a form's ``ui_text`` (§7; docs/protocol-responses.md section 1.3).
UI_TEXT_KEYS: Final[tuple[str, ...]] = (
    "other",
    "answer_title",
    "question_fallback",
    "unanswered",
    "unselected",
    "answer_separator",
    "list_separator",
)
#: The longest ``ui_text`` value a form keeps (code points, §1): the display text repeats
#: a separator or a fallback once per question, so a long one would multiply the output.
MAX_UI_TEXT: Final = 64
_UI_TEXT_KEY_SET: Final = frozenset(UI_TEXT_KEYS)


def _blank(text: str) -> bool:
    """:func:`~replykit.text.is_blank`, with a quick answer for text that starts with a
    visible ASCII character (most do; such a character is neither White_Space nor Cf)."""
    return not "!" <= text[:1] <= "~" and is_blank(text)


@typed
@attrs.frozen
class Option:
    """A choice: ``value`` is what an answer carries, ``label`` what the user sees.

    Both are non-blank (§1); ``value`` is never :data:`OTHER_VALUE` (an answer with it
    means "other", §7). The constructor raises ``ValueError`` naming the field for a
    value that breaks this, ``TypeError`` when a value has the wrong type.
    """

    value: str
    label: str

    def __attrs_post_init__(self) -> None:
        if _blank(self.value) or _blank(self.label):
            raise ValueError(f"{'value' if _blank(self.value) else 'label'} must not be blank (§1)")
        if self.value == OTHER_VALUE:
            raise ValueError(f"value must not be {OTHER_VALUE}, the value of the 'other' choice")

    def to_json(self) -> dict[str, Any]:
        """``{"value": ..., "label": ...}``."""
        return {"value": self.value, "label": self.label}


@typed
@attrs.frozen
class Question:
    """A normalized question (§4, §5, §7).

    ``id`` is non-blank; ``type`` one of the three. ``options`` is empty for
    ``free_text`` and not empty for a choice (two options may share a value: the fenced
    form keeps a repeat with a warning). ``default`` is a ``str`` for ``single_choice``
    (``""``, "no default", or an option value) and ``free_text`` (any text), and a tuple
    of distinct option values for ``multi_choice``: every question can be submitted
    with its default (§7). ``allow_other`` is ``False`` for ``free_text``. ``text`` may
    be blank (the display shows ``question_fallback``, §7). The constructor raises
    ``ValueError`` naming the field for a value that breaks this, ``TypeError`` when a
    value has the wrong type.
    """

    id: str
    type: QuestionType
    text: str
    options: tuple[Option, ...] = ()
    default: str | tuple[str, ...] = ""
    allow_other: bool = False

    def __attrs_post_init__(self) -> None:
        problem = question_problem(self)
        if problem is not None:
            raise ValueError(problem)

    def to_json(self) -> dict[str, Any]:
        """Keys in the seed's order: ``id, type, text, options, default, allow_other``."""
        default: Any = list(self.default) if isinstance(self.default, tuple) else self.default
        return {
            "id": self.id,
            "type": self.type,
            "text": self.text,
            "options": [o.to_json() for o in self.options],
            "default": default,
            "allow_other": self.allow_other,
        }


def question_problem(q: Question) -> str | None:
    """Why ``q`` breaks an invariant of :class:`Question`, naming the field, or ``None``.
    Linear in the number of options and default items."""
    if _blank(q.id):
        return "id must not be blank (§1)"
    if q.type not in QUESTION_TYPES:
        return f"type must be single_choice, multi_choice or free_text, not {q.type!r}"
    if q.type == "free_text":
        if q.options:
            return "options must be empty for a free_text question"
        if q.allow_other:
            return "allow_other must be False for a free_text question"
        if not isinstance(q.default, str):
            return "default of a free_text question must be a str"
        return None
    if not q.options:
        return f"options must not be empty for {with_article(q.type)} question"
    if q.type == "single_choice":
        if not isinstance(q.default, str):
            return "default of a single_choice question must be a str"
        if q.default and all(o.value != q.default for o in q.options):
            return f"default {q.default!r} is not an option value"
        return None
    if not isinstance(q.default, tuple):
        return "default of a multi_choice question must be a tuple of option values"
    if q.default:
        if len(set(q.default)) != len(q.default):
            return "default must not repeat a value"
        values = {o.value for o in q.options}
        outside = next((v for v in q.default if v not in values), None)
        if outside is not None:
            return f"default item {outside!r} is not an option value"
    return None


def _check_ui_text(pairs: tuple[tuple[str, str], ...]) -> None:
    keys = {key for key, _ in pairs}
    if len(keys) != len(pairs) or not keys <= _UI_TEXT_KEY_SET:
        raise ValueError("ui_text keys must be distinct keys of UI_TEXT_KEYS")
    if any(len(value) > MAX_UI_TEXT for _, value in pairs):
        raise ValueError(f"ui_text values must be at most {MAX_UI_TEXT} code points")


@typed
@attrs.frozen
class Questionnaire:
    """A normalized form: ``title`` (may be ``""`` for XML+JSON and tool forms), questions.

    ``questions`` is not empty and their ids are distinct. ``ui_text`` (XML+JSON only)
    holds pairs of a key of :data:`UI_TEXT_KEYS`, each at most once, and a string of at
    most :data:`MAX_UI_TEXT` code points; ``timeout_seconds`` is ``None`` or a
    non-negative finite number (§5). The constructor raises ``ValueError`` naming the
    field for a value that breaks this, ``TypeError`` when a value has the wrong type.
    """

    title: str
    questions: tuple[Question, ...]
    ui_text: tuple[tuple[str, str], ...] = ()
    timeout_seconds: int | float | None = None

    def __attrs_post_init__(self) -> None:
        questions = self.questions
        if not questions:
            raise ValueError("questions must not be empty")
        if len(questions) > 1 and len({q.id for q in questions}) != len(questions):
            raise ValueError("questions must have distinct ids")
        if self.ui_text:
            _check_ui_text(self.ui_text)
        timeout = self.timeout_seconds
        if timeout is not None and (
            timeout < 0 or (isinstance(timeout, float) and not math.isfinite(timeout))
        ):
            raise ValueError("timeout_seconds must be a non-negative finite number")

    def to_json(self) -> dict[str, Any]:
        """``{"title", "questions"}`` plus ``ui_text``/``timeout_seconds`` when present
        (a ``-0.0`` timeout written ``0.0``)."""
        out: dict[str, Any] = {
            "title": self.title,
            "questions": [q.to_json() for q in self.questions],
        }
        if self.ui_text:
            out["ui_text"] = dict(self.ui_text)
        timeout = self.timeout_seconds
        if timeout is not None:
            # Written as positive zero whoever built the form (§1.3: -0.0 is 0.0).
            out["timeout_seconds"] = 0.0 if isinstance(timeout, float) and timeout == 0 else timeout
        return out


#: The optional fields each type of answer has (§7).
_ANSWER_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "single_choice": ("value", "label"),
    "multi_choice": ("values", "labels"),
    "free_text": (),
}


@typed
@attrs.frozen
class Answer:
    """One answer of a response (§7); fields absent from the JSON are ``None``.

    ``question_id`` is non-blank and ``type`` one of the three question types. Its shape
    follows the type: a ``single_choice`` or ``free_text`` ``answer`` is a ``str``, a
    ``multi_choice`` one a tuple of ``str``; ``value`` and ``label`` belong to a single
    choice only, ``values`` and ``labels`` to a multi choice only (the response reader
    reports any other shape as ``response.answer_invalid``). Whether the answer fits its
    form is :func:`~replykit.check_answers`'s business. The constructor raises
    ``ValueError`` naming the field for a value that breaks this, ``TypeError`` when a
    value has the wrong type.
    """

    question_id: str
    type: QuestionType
    answer: str | tuple[str, ...]
    question: str | None = None
    value: str | None = None
    label: str | None = None
    values: tuple[str, ...] | None = None
    labels: tuple[str, ...] | None = None
    other_text: str | None = None

    def __attrs_post_init__(self) -> None:
        if _blank(self.question_id):
            raise ValueError("question_id must not be blank (§1)")
        if self.type not in QUESTION_TYPES:
            raise ValueError(
                f"type must be single_choice, multi_choice or free_text, not {self.type!r}"
            )
        multi = self.type == "multi_choice"
        if isinstance(self.answer, tuple) != multi:
            shape = "a tuple of str" if multi else "a str"
            raise ValueError(f"answer of {with_article(self.type)} answer must be {shape}")
        own = _ANSWER_FIELDS[self.type]
        for name in ("value", "label", "values", "labels"):
            if name not in own and getattr(self, name) is not None:
                raise ValueError(f"{name} must be None for {with_article(self.type)} answer")

    def to_json(self) -> dict[str, Any]:
        """Keys in the seed's order, absent fields left out."""
        out: dict[str, Any] = {"question_id": self.question_id}
        if self.question is not None:
            out["question"] = self.question
        out["type"] = self.type
        out["answer"] = list(self.answer) if isinstance(self.answer, tuple) else self.answer
        for key in ("value", "label"):
            v = getattr(self, key)
            if v is not None:
                out[key] = v
        for key in ("values", "labels"):
            v = getattr(self, key)
            if v is not None:
                out[key] = list(v)
        if self.other_text is not None:
            out["other_text"] = self.other_text
        return out


@typed
@attrs.frozen
class Response:
    """A parsed ``<{name}-response>`` payload (§5, §7).

    ``questionnaire_id`` is non-blank. ``type`` is kept as read (the reader reports one
    that is not its tag's as ``response.type_mismatch``) and ``status`` as sent, whatever
    its JSON type (``1`` stays ``1``; ``None`` when absent or ``null``): anything but
    ``submitted`` is only a warning, and nothing the caller sent is replaced (§5, §7).
    The constructor raises
    ``ValueError`` naming the field for a blank ``questionnaire_id``, ``TypeError`` when
    a value has the wrong type.
    """

    type: str
    questionnaire_id: str
    status: Any = attrs.field(converter=freeze)  # a JSON value, frozen (replykit.frozen)
    answers: tuple[Answer, ...]

    def __attrs_post_init__(self) -> None:
        if _blank(self.questionnaire_id):
            raise ValueError("questionnaire_id must not be blank (§1)")

    def to_json(self) -> dict[str, Any]:
        """``{"type", "questionnaire_id", "status", "answers"}``."""
        return {
            "type": self.type,
            "questionnaire_id": self.questionnaire_id,
            "status": thaw(self.status),
            "answers": [a.to_json() for a in self.answers],
        }


@typed
@attrs.frozen
class Segment:
    """A slice ``text == message[start:end]`` of a message (§2).

    Markdown segments carry only ``kind``, offsets and ``text``. A candidate block
    (§3a) also carries ``encoding``, ``name`` (as written, e.g. ``sage-questionnaire``
    or ``questionnaire-response``), ``registered`` (in the profile), ``valid``
    (registered and free of errors), ``id`` (§6), its own ``diagnostics`` (the
    message's diagnostics that belong to it, within the cap of §1), and when valid
    ``questionnaire`` (a request) or ``response``.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    kind: SegmentKind
    start: int
    end: int
    text: str
    encoding: Encoding | None = None
    name: str | None = None
    registered: bool = False
    valid: bool = False
    id: str | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    questionnaire: Questionnaire | None = None
    response: Response | None = None

    def __attrs_post_init__(self) -> None:
        if not 0 <= self.start < self.end:
            raise ValueError(
                f"start and end must satisfy 0 <= start < end, not {self.start}, {self.end}"
            )
        if len(self.text) != self.end - self.start:
            raise ValueError("text must have end - start code points")
        if self.kind == "markdown":
            # One expression on the common path: a Markdown segment has only its text.
            if not (
                self.encoding is None
                and self.name is None
                and self.id is None
                and self.questionnaire is None
                and self.response is None
                and not (self.registered or self.valid or self.diagnostics)
            ):
                raise ValueError(_markdown_problem(self))
            return
        problem = _candidate_problem(self)
        if problem is not None:
            raise ValueError(problem)

    def to_json(self) -> dict[str, Any]:
        """The CLI/JSON shape documented in docs/cli.md."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "start": self.start,
            "end": self.end,
            "text": self.text,
        }
        if self.kind == "markdown":
            return out
        out.update(
            encoding=self.encoding,
            name=self.name,
            registered=self.registered,
            valid=self.valid,
            id=self.id,
            diagnostics=[d.to_json() for d in self.diagnostics],
        )
        if self.questionnaire is not None:
            out["questionnaire"] = self.questionnaire.to_json()
        if self.response is not None:
            out["response"] = self.response.to_json()
        return out


def _markdown_problem(seg: Segment) -> str:
    for name in ("encoding", "name", "id", "questionnaire", "response"):
        if getattr(seg, name) is not None:
            return f"{name} must be None for a markdown segment"
    return "registered, valid and diagnostics are a candidate's: a markdown segment has none"


def _candidate_problem(seg: Segment) -> str | None:
    if seg.encoding is None or seg.name is None or seg.id is None:
        return f"encoding, name and id are required for {with_article(seg.kind)} segment"
    is_response = seg.kind == "questionnaire_response"
    if is_response and seg.encoding != "xml_json":
        return "encoding must be xml_json for a questionnaire_response segment"
    held, other = ("response", "questionnaire") if is_response else ("questionnaire", "response")
    if getattr(seg, other) is not None:
        return f"{other} must be None for {with_article(seg.kind)} segment"
    if not seg.valid:
        return None if getattr(seg, held) is None else f"{held} must be None when not valid"
    if not seg.registered:
        return "valid requires registered"
    if getattr(seg, held) is None:
        return f"{held} is required when valid"
    if any(d.severity == "error" for d in seg.diagnostics):
        return "valid requires diagnostics without an error"
    return None


@typed
@attrs.frozen
class Segmentation:
    """Result of :func:`replykit.segment`: ``segments`` cover the input exactly, in order;
    ``diagnostics`` holds every diagnostic of the message (blocks' and near-misses'),
    ordered by offset, up to the cap of §1 (one ``limit.diagnostics`` warning counting
    the rest); ``decoded`` is the text the offsets index when a §9 transport
    decoding changed the input (else ``None``).
    Invariants: the segments are contiguous from offset 0 (each starts where the one
    before ends), no two Markdown segments are adjacent, and with ``decoded`` they end
    at its length. The constructor raises ``ValueError`` naming ``segments`` for
    segments that break this, ``TypeError`` when a value has the wrong type.
    """

    segments: tuple[Segment, ...]
    diagnostics: tuple[Diagnostic, ...]
    decoded: str | None = None

    def __attrs_post_init__(self) -> None:
        # One comparison per segment, against the segmenter's own work per segment.
        at = 0
        markdown = False
        for seg in self.segments:
            if seg.start != at:
                raise ValueError(
                    f"segments must be contiguous from 0: one starts at {seg.start}, not {at}"
                )
            if markdown and seg.kind == "markdown":
                raise ValueError("segments must not hold two adjacent markdown segments")
            at, markdown = seg.end, seg.kind == "markdown"
        if self.decoded is not None and at != len(self.decoded):
            raise ValueError("segments must end at the length of decoded")

    def to_json(self) -> dict[str, Any]:
        """``{"segments": [...], "diagnostics": [...]}``, plus ``"decoded"`` (the text the
        offsets index) when a §9 transport decoding changed the input.

        The strings are the input's own: Markdown text from a Python caller's ``str``
        may hold a lone surrogate, which UTF-8 cannot encode. Write the value with
        :meth:`to_json_text` (or ``json.dumps`` with its default ``ensure_ascii=True``),
        not ``json.dumps(..., ensure_ascii=False).encode()`` (§1.3)."""
        return {
            key: [item.to_json() for item in value] if isinstance(value, tuple) else value
            for key, value in self.json_fields().items()
        }

    def to_json_text(self, *, indent: int | None = None) -> str:
        """:meth:`to_json` as strict RFC 8259 JSON text (§1.3): non-ASCII characters
        kept, a lone surrogate written as a ``\\udXXX`` escape, so the text always
        encodes as UTF-8. ``indent``: spaces per level; ``None`` (the default): one
        compact line (no space after ``,`` and ``:``), the bytes ``replykit segment``
        prints (one writer, :func:`replykit.jsonout.dumps`), less its final newline."""
        return dumps(self.to_json(), indent=indent, compact=indent is None)

    def json_fields(self) -> dict[str, Any]:
        """The fields of :meth:`to_json` with ``segments`` and ``diagnostics`` as the
        objects themselves (each has ``to_json()``), for a writer that converts a few at
        a time."""
        out: dict[str, Any] = {"segments": self.segments, "diagnostics": self.diagnostics}
        if self.decoded is not None:
            out["decoded"] = self.decoded
        return out
