"""What a user sees of an answer (§7; docs/protocol-responses.md section 1.3): the
seven display texts resolved for a form, and the readable answer built from them."""

from __future__ import annotations

from collections.abc import Mapping

from replykit.questionnaire.conversation.texts import UI_TEXT_DEFAULTS, check_locale
from replykit.questionnaire.model import MAX_UI_TEXT, Answer, Question, Questionnaire
from replykit.questionnaire.payload import UI_TEXT_KEYS
from replykit.text import is_blank


def resolve_ui_text(
    questionnaire: Questionnaire, ui_text: Mapping[str, str] | None = None, locale: str = "zh"
) -> dict[str, str]:
    """The seven display texts used for ``questionnaire`` (§7), key -> text
    (docs/protocol-responses.md section 1.3).

    Precedence per key: ``ui_text`` (the argument), then the form's ``ui_text``, then the
    ``locale`` defaults (``zh`` or ``en``). A blank value (§1, ``""``, ``"  "``) counts as
    not given, so every text is shown non-blank: a blank ``other`` would make an "other"
    answer show as nothing (the readers drop one with ``ui_text_invalid``).
    Raises ``ValueError`` for a key outside ``other, answer_title, question_fallback,
    unanswered, unselected, answer_separator, list_separator``, for a value longer than
    :data:`~replykit.questionnaire.model.MAX_UI_TEXT` (64) code points, blank or not (the
    bound of the form's own ``ui_text``, §1.5, §5: the display text repeats a separator
    or fallback once per question, and ``check_answers`` quotes ``other`` once per
    finding; the message gives the key and the length, never the value), or an unknown
    locale; ``TypeError`` for a ``ui_text`` that is not a mapping or a non-string value.
    This is what every entry point taking a ``ui_text`` argument raises
    (``build_response``, ``build_response_json``, ``check_answers``).
    """
    if not isinstance(questionnaire, Questionnaire):
        name = type(questionnaire).__name__
        raise TypeError(f"questionnaire must be a Questionnaire, not {name}")
    if ui_text is not None and not isinstance(ui_text, Mapping):
        raise TypeError(f"ui_text must be a mapping, not {type(ui_text).__name__}")
    out = dict(UI_TEXT_DEFAULTS[check_locale(locale)])
    out.update((key, value) for key, value in questionnaire.ui_text if not is_blank(value))
    for key, value in (ui_text or {}).items():
        if key not in UI_TEXT_KEYS:
            raise ValueError(f"unknown ui_text key {key!r}; known: {', '.join(UI_TEXT_KEYS)}")
        if not isinstance(value, str):
            raise TypeError(f"ui_text[{key!r}] must be a str, not {type(value).__name__}")
        if len(value) > MAX_UI_TEXT:
            raise ValueError(
                f"ui_text[{key!r}] is {len(value)} code points long; a display text is at "
                f"most {MAX_UI_TEXT}"
            )
        if not is_blank(value):
            out[key] = value
    return out


def display_text(
    questions: Mapping[str, Question],
    answers: list[Answer] | tuple[Answer, ...],
    ui: dict[str, str],
) -> str:
    """The readable answer (§7): the ``answer_title`` line, then per answer
    ``{question text}{answer_separator}{answer}``.

    Input: the form's questions by id, the answers, the resolved texts of
    :func:`resolve_ui_text`. A question with a blank text shows ``question_fallback``;
    a choice shows its non-blank labels then a non-blank ``other_text``, joined by
    ``list_separator``, or ``unselected`` when nothing is shown; a blank free text shows
    ``unanswered`` (blank as everywhere: :func:`~replykit.text.is_blank`, §1). Never
    raises for answers built by
    :func:`~replykit.questionnaire.conversation.responses.build.build_response`.
    """
    lines = [ui["answer_title"]]
    for a in answers:
        q = questions.get(a.question_id)
        text = a.question if q is None else q.text
        if text is None or is_blank(text):
            text = ui["question_fallback"]
        lines.append(f"{text}{ui['answer_separator']}{_shown(a, ui)}")
    return "\n".join(lines)


def _shown(a: Answer, ui: Mapping[str, str]) -> str:
    """The answer part of one display line."""
    if a.type == "free_text":
        shown = a.answer if isinstance(a.answer, str) and not is_blank(a.answer) else None
        return shown or ui["unanswered"]
    parts = list(a.labels or ()) if a.type == "multi_choice" else [a.label or ""]
    parts = [p for p in parts if not is_blank(p)]
    if a.other_text is not None and not is_blank(a.other_text):
        parts.append(a.other_text)
    return ui["list_separator"].join(parts) if parts else ui["unselected"]
