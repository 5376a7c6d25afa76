"""The field table of a fenced-YAML form with nothing to report (docs/protocol.md §4):
the fast path of :func:`~replykit.questionnaire.payload.fenced_form.read_fenced_form`.

It builds the form straight from the YAML root, with no cursor, path, finding or span
lookup, and gives up (``None``) at the first thing the full checks would report; they
then run and report everything. Its answer, when it gives one, is the form the full
checks build.
"""

from __future__ import annotations

from typing import Any

from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits
from replykit.questionnaire.model import OTHER_VALUE, Option, Question, Questionnaire, QuestionType
from replykit.text import is_blank
from replykit.trusted import trusted

_QUESTION_FIELDS = frozenset({"type", "text", "default", "options", "allow_other"})
_TYPE_OF: dict[str, QuestionType] = {
    "single_choice": "single_choice",
    "multi_choice": "multi_choice",
    "free_text": "free_text",
}
# Built from what this module accepted: without the public constructors' checks.
_option = trusted(Option)
_question = trusted(Question)
_questionnaire = trusted(Questionnaire)


def _blank(text: str) -> bool:
    """:func:`~replykit.text.is_blank`, answered at once for text that starts with a
    visible ASCII character (such a character is neither White_Space nor Cf, §1)."""
    return not "!" <= text[:1] <= "~" and is_blank(text)


def plain_form(root: dict[str, Any], limits: Limits = DEFAULT_LIMITS) -> Questionnaire | None:
    """The form of a YAML root mapping on which the field table (§4) reports nothing,
    else ``None`` (the full checks then run and report every problem). The same
    ``Questionnaire`` as the full checks build: ids ``q1``, ``q2``... by position,
    options as ``Option(s, s)``, a multi-choice default as a tuple, ``allow_other``
    False when absent. Nothing to report means: exactly the fields ``title`` (a
    non-blank string) and ``questions`` (a non-empty list within ``max_questions``);
    each question a mapping of known fields with a known ``type``, a non-blank ``text``
    and a ``default``; a free-text question without ``options`` and ``allow_other``, its
    default a string; a choice with a non-empty list of at most ``max_options`` distinct
    non-blank strings, none the reserved value, ``allow_other`` a bool when present, and
    a default among the options (a list of distinct ones, at most ``max_options``, for
    multi-choice). Linear in the size of ``root``."""
    title = root.get("title")
    raw_questions = root.get("questions")
    if (
        len(root) != 2
        or type(title) is not str
        or _blank(title)
        or type(raw_questions) is not list
        or not raw_questions
        or len(raw_questions) > limits.max_questions
    ):
        return None
    questions: list[Question] = []
    for index, raw in enumerate(raw_questions):
        question = _plain_question(raw, index, limits.max_options)
        if question is None:
            return None
        questions.append(question)
    return _questionnaire(title, tuple(questions))


def _plain_question(raw: Any, index: int, max_options: int) -> Question | None:
    """One question of :func:`plain_form`, or ``None`` when the field table would
    report anything about it."""
    if type(raw) is not dict or not _QUESTION_FIELDS.issuperset(raw):
        return None
    given, text, default = raw.get("type"), raw.get("text"), raw.get("default")
    qtype = _TYPE_OF.get(given) if type(given) is str else None
    if qtype is None or "default" not in raw:
        return None
    if type(text) is not str or _blank(text):
        return None
    qid = f"q{index + 1}"
    if qtype == "free_text":
        if "options" in raw or "allow_other" in raw or type(default) is not str:
            return None
        return _question(qid, "free_text", text, (), default)
    options, allow_other = raw.get("options"), raw.get("allow_other", False)
    if type(options) is not list or not options or len(options) > max_options:
        return None
    if type(allow_other) is not bool:
        return None
    values: set[str] = set()
    add = values.add
    for option in options:
        if type(option) is not str or option in values or option == OTHER_VALUE:
            return None
        # _blank inline: one call less per option.
        if not "!" <= option[:1] <= "~" and is_blank(option):
            return None
        add(option)
    if qtype == "single_choice":
        if type(default) is not str or default not in values:
            return None
        chosen: str | tuple[str, ...] = default
    else:
        if type(default) is not list or len(default) > max_options:
            return None
        for item in default:
            if type(item) is not str or item not in values:
                return None
        chosen = tuple(default)
        if len(set(chosen)) != len(chosen):
            return None
    return _question(qid, qtype, text, tuple(map(_option, options, options)), chosen, allow_other)
