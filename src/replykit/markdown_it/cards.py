"""The HTML of one block segment: a form, a response summary, an invalid block or an
unregistered one (docs/html.md section 3; the shape follows §2: valid as a card,
unregistered as ordinary Markdown, registered but invalid as its raw text).

Each function takes a :class:`~replykit.Segment` of a block and returns an HTML string
in which every string from the message is escaped (:mod:`.markup`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

import attrs

from replykit.diagnostics import Diagnostic
from replykit.jsonout import dumps
from replykit.markdown_it.markup import AUTO, attr, esc, id_part, isolated
from replykit.questionnaire.conversation.texts import (
    UI_TEXT_DEFAULTS,
    Locale,
    check_locale,
)
from replykit.questionnaire.model import (
    OTHER_VALUE,
    Answer,
    Question,
    Questionnaire,
    Response,
    Segment,
)

#: The card's own labels per locale, used where the form's ``ui_text`` gives none
#: (the §7 display-text defaults; ``ui_text`` has no key for the submit button, §5).
CARD_LABELS: Mapping[Locale, Mapping[str, str]] = MappingProxyType(
    {
        "zh": MappingProxyType({"submit": "提交", **UI_TEXT_DEFAULTS["zh"]}),
        "en": MappingProxyType({"submit": "Submit", **UI_TEXT_DEFAULTS["en"]}),
    }
)
#: The zh labels, the default (kept for callers of the old name).
DEFAULT_LABELS: Mapping[str, str] = CARD_LABELS["zh"]


@attrs.frozen
class CardOptions:
    """How cards are drawn (docs/html.md section 3). ``readonly``: every form locked
    (``data-replykit-readonly`` on the form, each ``<fieldset>`` and the submit button
    ``disabled``: nothing can be changed or submitted, §11); ``locale``: ``zh`` or
    ``en``, the language of the card's own labels (submit, other, answer title,
    unanswered)."""

    readonly: bool = False
    locale: Locale = "zh"

    @property
    def labels(self) -> Mapping[str, str]:
        """The card labels of :attr:`locale`."""
        return CARD_LABELS[self.locale]


#: Live forms, zh labels: the default.
DEFAULT_CARDS: Final = CardOptions()


def card_options(readonly: object, locale: object) -> CardOptions:
    """The checked :class:`CardOptions` of the public arguments: ``TypeError`` naming the
    argument when ``readonly`` is not a ``bool`` or ``locale`` not a ``str``,
    ``ValueError`` for a locale other than ``zh`` and ``en``."""
    if not isinstance(readonly, bool):
        raise TypeError(f"argument 'readonly' must be bool, not {type(readonly).__name__}")
    if not isinstance(locale, str):
        raise TypeError(f"argument 'locale' must be str, not {type(locale).__name__}")
    return CardOptions(readonly, check_locale(locale))


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def block_card(segment: Segment, options: CardOptions = DEFAULT_CARDS) -> tuple[str, bool]:
    """``(html, is_block)`` for a block segment: the form or response summary of a valid
    block, the escaped raw text and diagnostics of a registered invalid one, and the
    Markdown reading of an unregistered one (a code block for a fence, escaped text
    for an XML+JSON block, whose payload is raw, §3a), drawn as ``options`` say.
    ``is_block`` is false only for the inline text of an unregistered XML+JSON block."""
    if not segment.registered:
        if segment.encoding == "fenced_yaml":
            return unregistered_fence(segment), True
        return (
            f"<span{_block_attrs(segment, 'replykit-unregistered')}{AUTO}>"
            f"{esc(segment.text)}</span>",
            False,
        )
    if segment.valid and segment.questionnaire is not None:
        return form_html(segment, segment.questionnaire, options), True
    if segment.valid and segment.response is not None:
        return response_html(segment, segment.response, options), True
    return invalid_html(segment), True


def _block_attrs(segment: Segment, css: str) -> str:
    return _card_attrs(css, segment.id or "", segment.name or "")


def _card_attrs(css: str, block: str, name: str) -> str:
    return (
        attr("class", css) + attr("data-replykit-block", block) + attr("data-replykit-name", name)
    )


def form_html(segment: Segment, form: Questionnaire, options: CardOptions = DEFAULT_CARDS) -> str:
    """``<form class="replykit-form">``: the title in ``<h3>``, one ``<fieldset>`` per
    question, a submit button labelled in ``options.locale`` (提交 / Submit; ``ui_text``
    has no key for it, §5); locked when ``options.readonly``."""
    return questionnaire_card(form, segment.id or "", segment.name or "", options)


def questionnaire_card(form: Questionnaire, block: str, name: str, options: CardOptions) -> str:
    """The form card of ``form`` with block id ``block`` and name ``name`` (a segment's,
    or a tool form's: its ``tool_call_id`` and ``questionnaire_async``)."""
    labels = {**options.labels, **dict(form.ui_text)}
    lock = attr("data-replykit-readonly", "") if options.readonly else ""
    parts = [f"<form{_card_attrs('replykit-form', block, name)}{lock}>"]
    if form.title:
        parts.append(f"<h3{AUTO}>{esc(form.title)}</h3>")
    parts.extend(
        question_html(block, q, labels["other"], disabled=options.readonly) for q in form.questions
    )
    off = " disabled" if options.readonly else ""
    parts.append(f'<button type="submit"{off}>{esc(options.labels["submit"])}</button></form>')
    return "\n".join(parts)


def question_html(
    block: str, question: Question, other_label: str, *, disabled: bool = False
) -> str:
    """One ``<fieldset data-question-id data-question-type>`` (``disabled`` when
    ``disabled``: its controls locked) with the question text as
    its ``<legend>``, then radio buttons, checkboxes or a textarea. Names are
    ``{block}:{question}``; ids ``{block}:{question}:{n}`` (options, from 0),
    ``:other``, ``:other-text``, ``:text``; the block id and the question id each
    encoded by :func:`id_part`."""
    # Both parts come from the caller (message id, question id): encoded alike.
    base = f"{id_part(block)}:{id_part(question.id)}"
    head = (
        f"<fieldset{attr('data-question-id', question.id)}"
        f"{attr('data-question-type', question.type)}{' disabled' if disabled else ''}>"
        f"<legend{AUTO}>{esc(question.text)}</legend>"
    )
    if question.type == "free_text":
        default = question.default if isinstance(question.default, str) else ""
        body = (
            f"<textarea{attr('name', base)}{attr('id', base + ':text')}"
            f"{attr('data-question-id', question.id)}{AUTO}>\n{esc(default)}</textarea>"
        )
        return f"{head}\n{body}</fieldset>"
    kind = "radio" if question.type == "single_choice" else "checkbox"
    chosen = (question.default,) if isinstance(question.default, str) else question.default
    rows = [
        _choice(
            kind,
            base,
            f"{base}:{i}",
            question.id,
            option.value,
            option.label,
            option.value in chosen,
        )
        for i, option in enumerate(question.options)
    ]
    if question.allow_other:
        rows.append(_other(kind, base, question.id, other_label))
    return "\n".join([head, *rows, "</fieldset>"])


def _choice(
    kind: str, name: str, ident: str, qid: str, value: str, label: str, checked: bool
) -> str:
    mark = " checked" if checked else ""
    return (
        f'<div class="replykit-option"><input type="{kind}"{attr("name", name)}'
        f"{attr('value', value)}{attr('id', ident)}{attr('data-question-id', qid)}{mark}>"
        f"<label{attr('for', ident)}{AUTO}>{esc(label)}</label></div>"
    )


def _other(kind: str, base: str, qid: str, label: str) -> str:
    choice = _choice(kind, base, f"{base}:other", qid, OTHER_VALUE, label, False)
    text = (
        f'<input type="text"{attr("name", base + ":other")}{attr("id", base + ":other-text")}'
        f"{attr('aria-label', label)}{attr('data-question-id', qid)}{AUTO}>"
    )
    return choice.replace("</div>", f"{text}</div>").replace(
        'class="replykit-option"', 'class="replykit-option replykit-other"', 1
    )


def _as_text(value: object) -> str:
    """A response field as sent, as attribute text: a string itself, else its JSON."""
    return value if isinstance(value, str) else dumps(value, compact=True)


def response_html(
    segment: Segment, response: Response, options: CardOptions = DEFAULT_CARDS
) -> str:
    """``<div class="replykit-response">``: a read-only ``<dl>`` of each answer's
    question (else its id) and what was chosen or written (§7), its heading and the
    unanswered mark in ``options.locale``."""
    head = (
        f"<div{_block_attrs(segment, 'replykit-response')}"
        f"{attr('data-questionnaire-id', response.questionnaire_id)}"
        f"{attr('data-status', _as_text(response.status))}>"
        f"<h3>{esc(options.labels['answer_title'])}</h3><dl>"
    )
    rows = [
        f"<dt{attr('data-question-id', a.question_id)}{AUTO}>"
        f"{esc(a.question or a.question_id)}</dt>"
        f"<dd{AUTO}>{esc(answer_text(a, options.labels))}</dd>"
        for a in response.answers
    ]
    return "\n".join([head, *rows, "</dl></div>"])


def answer_text(answer: Answer, labels: Mapping[str, str] = DEFAULT_LABELS) -> str:
    """What an answer shows: its labels (else values, else the answer itself), then
    ``other_text``; ``labels["unanswered"]`` (未填写 / Not answered) when empty; items
    joined by ``labels["list_separator"]``."""
    join = labels["list_separator"]
    if answer.labels is not None:
        shown = join.join(answer.labels)
    elif answer.label is not None:
        shown = answer.label
    elif isinstance(answer.answer, str):
        shown = answer.answer
    elif isinstance(answer.answer, tuple) and all(isinstance(v, str) for v in answer.answer):
        shown = join.join(answer.answer)
    else:
        shown = dumps(answer.answer)
    if answer.other_text is not None:
        shown = f"{shown} ({answer.other_text})" if shown else answer.other_text
    return shown or labels["unanswered"]


def invalid_html(segment: Segment) -> str:
    """``<div class="replykit-invalid">``: the raw text escaped in ``<pre><code>`` and the
    block's diagnostics in ``<ul class="replykit-diagnostics">`` (§2: never dropped)."""
    return (
        f"<div{_block_attrs(segment, 'replykit-invalid')}>"
        f"<pre><code{AUTO}>{esc(segment.text)}</code></pre>\n"
        f"{diagnostics_html(segment.diagnostics)}</div>"
    )


def diagnostics_html(diagnostics: tuple[Diagnostic, ...]) -> str:
    """``<ul class="replykit-diagnostics">`` of ``<li data-code data-severity>`` each
    reading ``line L, column C: code: message (at path)``."""
    items = []
    for d in diagnostics:
        where = f" (at {isolated(d.path)})" if d.path else ""
        items.append(
            f"<li{attr('data-code', d.code)}{attr('data-severity', d.severity)}>"
            f"line {d.line}, column {d.column}: {esc(d.code)}: {isolated(d.message)}{where}</li>"
        )
    return '<ul class="replykit-diagnostics">' + "".join(items) + "</ul>"


def unregistered_fence(segment: Segment) -> str:
    """An unregistered fenced block as CommonMark shows a fence: its content (the
    opener's indentation removed, the closing fence left out) in ``<pre><code>``."""
    lines = _LINE.findall(segment.text)
    lines = [line for line in lines if line]
    opener = lines[0] if lines else ""
    indent = len(opener) - len(opener.lstrip(" "))
    ticks = len(opener[indent:]) - len(opener[indent:].lstrip("`"))
    body = lines[1:]
    closer = re.compile(f" {{0,3}}`{{{max(ticks, 3)},}}[ \t]*")
    if body and closer.fullmatch(body[-1].rstrip("\r\n")):
        body = body[:-1]
    # Each line's own ending becomes "\n" (after the dedent: a lone "\r" ending one line
    # must not pair with the "\n" of an emptied next line, §1).
    content = "".join(_lf(_dedent(line, indent)) for line in body)
    language = attr("class", f"language-{segment.name or ''}")
    return (
        f"<pre{_block_attrs(segment, 'replykit-unregistered')}>"
        f"<code{language}{AUTO}>{esc(content)}</code></pre>"
    )


def _lf(line: str) -> str:
    """``line`` with its line ending (``\r\n``, ``\r`` or ``\n``, if any) written ``\n``."""
    body = line.rstrip("\r\n")
    return body + "\n" if len(body) < len(line) else line


def _dedent(line: str, indent: int) -> str:
    """``line`` with up to ``indent`` columns of leading white space removed, as
    CommonMark removes a fence opener's indentation from its content: a tab advances
    to the next multiple of 4 columns, and the part of a tab left over stays as spaces."""
    column = 0
    for i, char in enumerate(line):
        if column >= indent or char not in " \t":
            return line[i:]
        step = 1 if char == " " else 4 - column % 4
        if column + step > indent:
            return " " * (column + step - indent) + line[i + 1 :]
        column += step
    return ""
