"""The AST: frozen attrs classes for forms, responses and message segments (§2, §4-§7)."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from replykit.argcheck import typed
from replykit.diagnostics import Diagnostic

QuestionType = Literal["single_choice", "multi_choice", "free_text"]
#: The value of the "other" choice in an answer (§7); no option may have it.
OTHER_VALUE = "__questionnaire_other__"
Encoding = Literal["fenced_yaml", "xml_json"]
SegmentKind = Literal["markdown", "questionnaire", "questionnaire_response"]


@typed
@attrs.frozen
class Option:
    """A choice: ``value`` is what an answer carries, ``label`` what the user sees.

    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    value: str
    label: str

    def to_json(self) -> dict[str, Any]:
        """``{"value": ..., "label": ...}``."""
        return {"value": self.value, "label": self.label}


@typed
@attrs.frozen
class Question:
    """A normalized question (§4, §5, §7).

    ``default`` is a ``str`` for ``single_choice`` and ``free_text`` (``""`` is "no
    default" for single choice) and a tuple of option values for ``multi_choice``.
    ``options`` is empty for ``free_text``.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    id: str
    type: QuestionType
    text: str
    options: tuple[Option, ...] = ()
    default: str | tuple[str, ...] = ""
    allow_other: bool = False

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


@typed
@attrs.frozen
class Questionnaire:
    """A normalized form: ``title`` (may be ``""`` for XML+JSON and tool forms), questions.

    ``ui_text`` (pairs of key and string, XML+JSON only) and ``timeout_seconds`` are kept
    as given when valid (§5).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    title: str
    questions: tuple[Question, ...]
    ui_text: tuple[tuple[str, str], ...] = ()
    timeout_seconds: int | float | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"title", "questions"}`` plus ``ui_text``/``timeout_seconds`` when present."""
        out: dict[str, Any] = {
            "title": self.title,
            "questions": [q.to_json() for q in self.questions],
        }
        if self.ui_text:
            out["ui_text"] = dict(self.ui_text)
        if self.timeout_seconds is not None:
            out["timeout_seconds"] = self.timeout_seconds
        return out


@typed
@attrs.frozen
class Answer:
    """One answer of a response (§7); fields absent from the JSON are ``None``.

    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    question_id: str
    type: str
    answer: Any
    question: str | None = None
    value: str | None = None
    label: str | None = None
    values: tuple[str, ...] | None = None
    labels: tuple[str, ...] | None = None
    other_text: str | None = None

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

    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    type: str
    questionnaire_id: str
    status: str
    answers: tuple[Answer, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"type", "questionnaire_id", "status", "answers"}``."""
        return {
            "type": self.type,
            "questionnaire_id": self.questionnaire_id,
            "status": self.status,
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


@typed
@attrs.frozen
class Segmentation:
    """Result of :func:`replykit.segment`: ``segments`` cover the input exactly, in order;
    ``diagnostics`` holds every diagnostic of the message (blocks' and near-misses'),
    ordered by offset, up to the cap of §1 (one ``limit.diagnostics`` warning counting
    the rest); ``decoded`` is the text the offsets index when a §9 transport
    decoding changed the input (else ``None``).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    segments: tuple[Segment, ...]
    diagnostics: tuple[Diagnostic, ...]
    decoded: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"segments": [...], "diagnostics": [...]}``, plus ``"decoded"`` (the text the
        offsets index) when a §9 transport decoding changed the input."""
        return {
            key: [item.to_json() for item in value] if isinstance(value, tuple) else value
            for key, value in self.json_fields().items()
        }

    def json_fields(self) -> dict[str, Any]:
        """The fields of :meth:`to_json` with ``segments`` and ``diagnostics`` as the
        objects themselves (each has ``to_json()``), for a writer that converts a few at
        a time."""
        out: dict[str, Any] = {"segments": self.segments, "diagnostics": self.diagnostics}
        if self.decoded is not None:
            out["decoded"] = self.decoded
        return out
