"""The card of a ``questionnaire_async`` form (§7; docs/html.md section 3): the same
card a fenced or XML+JSON form gets, for a tool result opened by
:func:`~replykit.questionnaire_from_tool_result`."""

from __future__ import annotations

from replykit.argcheck import typed
from replykit.markdown_it.cards import card_options, questionnaire_card
from replykit.markdown_it.markup import attr, esc, isolated
from replykit.questionnaire.conversation.tool import TOOL_NAME, ToolForm


@typed
def tool_form_html(form: ToolForm, *, readonly: bool = False, locale: str = "zh") -> str:
    """The HTML card of one tool form (§7: the front end shows a tool result's
    normalized questions with the same questionnaire card).

    Input: ``form``, a :class:`~replykit.ToolForm` (from
    :func:`~replykit.questionnaire_from_tool_result`); ``readonly`` and ``locale`` as
    :func:`render_html` takes them (a locked form; the card's own labels, ``zh`` or
    ``en``). Output: an opened form is the ``<form class="replykit-form">`` card of
    :func:`render_html`, its ``data-replykit-block`` the ``tool_call_id`` (names
    ``{tool_call_id}:{question id}``) and ``data-replykit-name`` ``questionnaire_async``;
    a form that did not open is ``<div class="replykit-invalid">`` with its errors in
    ``<ul class="replykit-diagnostics">``, one ``<li data-code>`` each reading
    ``code: message (at path)``. Every string is escaped (docs/html.md section 5).

    Raises ``TypeError`` naming the argument for a wrong type and ``ValueError`` for a
    locale other than ``zh`` and ``en``, or a form whose id (the ``tool_call_id``) holds
    NUL: HTML reads NUL as U+FFFD, so the page's block id would not be the form's, as
    :func:`render_html` refuses such a ``message_id`` (docs/html.md).
    """
    options = card_options(readonly, locale)
    if "\x00" in form.id:
        raise ValueError("the form's id (tool_call_id) holds NUL, which HTML cannot carry")
    if form.questionnaire is not None:
        return questionnaire_card(form.questionnaire, form.id, TOOL_NAME, options)
    items = []
    for error in form.errors:
        where = f" (at {isolated(error.path)})" if error.path else ""
        items.append(
            f"<li{attr('data-code', error.code)}{attr('data-severity', 'error')}>"
            f"{esc(error.code)}: {isolated(error.message)}{where}</li>"
        )
    return (
        f"<div{attr('class', 'replykit-invalid')}{attr('data-replykit-block', form.id)}"
        f"{attr('data-replykit-name', TOOL_NAME)}>"
        f'<ul class="replykit-diagnostics">{"".join(items)}</ul></div>'
    )
