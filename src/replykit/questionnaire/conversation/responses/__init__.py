"""Answers to a questionnaire (§7; docs/protocol-responses.md section 1): building
(:mod:`.build`), checking (:mod:`.check`) and display (:mod:`.display`), each
``answer.*`` rule one function of :mod:`.rules` that building and checking share.

- :func:`initial_answers`: the draft a client starts from (the form's defaults).
- :func:`build_response`: the agent text ``<{name}-response>{json}</{name}-response>``,
  the readable display text, and the answers, from a form and the user's answers;
  :func:`build_response_json` takes the answers as JSON text, read strictly (§1).
- :func:`check_answers`: every way a parsed
  :class:`~replykit.questionnaire.model.Response` does not fit its form.
- :func:`resolve_ui_text` and :func:`display_text`: what the user sees.

Answers as input (also the ``replykit respond`` file): a mapping from question id to a
string (single choice: an option value, ``""`` for none; free text: the text), a list of
strings (multi choice: option values), or ``{"value": ..., "other_text": ...}`` where
``value`` has one of those shapes. "Other" is chosen with the value
:data:`OTHER_VALUE` (allowed only when the question has ``allow_other``). A question
left out takes its default.
"""

from replykit.questionnaire.conversation.responses.build import (
    STATUS_SUBMITTED,
    AnswersError,
    BuiltResponse,
    build_response,
    build_response_json,
    initial_answers,
)
from replykit.questionnaire.conversation.responses.check import check_answers
from replykit.questionnaire.conversation.responses.display import display_text, resolve_ui_text
from replykit.questionnaire.model import OTHER_VALUE

__all__ = [
    "OTHER_VALUE",
    "STATUS_SUBMITTED",
    "AnswersError",
    "BuiltResponse",
    "build_response",
    "build_response_json",
    "check_answers",
    "display_text",
    "initial_answers",
    "resolve_ui_text",
]
