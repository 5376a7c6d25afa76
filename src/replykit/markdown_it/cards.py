"""The HTML of one block segment: a form, a response summary, an invalid block or an
unregistered one (docs/html.md section 3; the shape follows §2: valid as a card,
unregistered as ordinary Markdown, registered but invalid as its raw text).

Each function takes a :class:`~replykit.Segment` of a block and returns an HTML string
in which every string from the message is escaped (:mod:`.markup`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from replykit.diagnostics import Diagnostic
from replykit.jsonout import dumps
from replykit.markdown_it.markup import AUTO, attr, esc, id_part, isolated
from replykit.questionnaire.model import (
    OTHER_VALUE,
    Answer,
    Question,
    Questionnaire,
    Response,
    Segment,
)

#: Labels used when the form's ``ui_text`` gives none (zh, like the §7 display text).
DEFAULT_LABELS: Mapping[str, str] = {
    "submit": "提交",
    "other": "其他",
    "answer_title": "问卷回答",
    "unanswered": "未填写",
}
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def block_card(segment: Segment) -> tuple[str, bool]:
    """``(html, is_block)`` for a block segment: the form or response summary of a valid
    block, the escaped raw text and diagnostics of a registered invalid one, and the
    Markdown reading of an unregistered one (a code block for a fence, escaped text
    for an XML+JSON block, whose payload is raw, §3a). ``is_block`` is false only for
    the inline text of an unregistered XML+JSON block."""
    if not segment.registered:
        if segment.encoding == "fenced_yaml":
            return unregistered_fence(segment), True
        return (
            f"<span{_block_attrs(segment, 'replykit-unregistered')}{AUTO}>"
            f"{esc(segment.text)}</span>",
            False,
        )
    if segment.valid and segment.questionnaire is not None:
        return form_html(segment, segment.questionnaire), True
    if segment.valid and segment.response is not None:
        return response_html(segment, segment.response), True
    return invalid_html(segment), True


def _block_attrs(segment: Segment, css: str) -> str:
    return (
        attr("class", css)
        + attr("data-replykit-block", segment.id or "")
        + attr("data-replykit-name", segment.name or "")
    )


def form_html(segment: Segment, form: Questionnaire) -> str:
    """``<form class="replykit-form">``: the title in ``<h3>``, one ``<fieldset>`` per
    question, a submit button labelled 提交 (``ui_text`` has no key for it, §5)."""
    block = segment.id or ""
    labels = {**DEFAULT_LABELS, **dict(form.ui_text)}
    parts = [f"<form{_block_attrs(segment, 'replykit-form')}>"]
    if form.title:
        parts.append(f"<h3{AUTO}>{esc(form.title)}</h3>")
    parts.extend(question_html(block, q, labels["other"]) for q in form.questions)
    parts.append(f'<button type="submit">{esc(DEFAULT_LABELS["submit"])}</button></form>')
    return "\n".join(parts)


def question_html(block: str, question: Question, other_label: str) -> str:
    """One ``<fieldset data-question-id data-question-type>`` with the question text as
    its ``<legend>``, then radio buttons, checkboxes or a textarea. Names are
    ``{block}:{question}``; ids ``{block}:{question}:{n}`` (options, from 0),
    ``:other``, ``:other-text``, ``:text``; the block id and the question id each
    encoded by :func:`id_part`."""
    # Both parts come from the caller (message id, question id): encoded alike.
    base = f"{id_part(block)}:{id_part(question.id)}"
    head = (
        f"<fieldset{attr('data-question-id', question.id)}"
        f"{attr('data-question-type', question.type)}>"
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


def response_html(segment: Segment, response: Response) -> str:
    """``<div class="replykit-response">``: a read-only ``<dl>`` of each answer's
    question (else its id) and what was chosen or written (§7)."""
    head = (
        f"<div{_block_attrs(segment, 'replykit-response')}"
        f"{attr('data-questionnaire-id', response.questionnaire_id)}"
        f"{attr('data-status', _as_text(response.status))}>"
        f"<h3>{esc(DEFAULT_LABELS['answer_title'])}</h3><dl>"
    )
    rows = [
        f"<dt{attr('data-question-id', a.question_id)}{AUTO}>"
        f"{esc(a.question or a.question_id)}</dt>"
        f"<dd{AUTO}>{esc(answer_text(a))}</dd>"
        for a in response.answers
    ]
    return "\n".join([head, *rows, "</dl></div>"])


def answer_text(answer: Answer) -> str:
    """What an answer shows: its labels (else values, else the answer itself), then
    ``other_text``; 未填写 when empty."""
    if answer.labels is not None:
        shown = "、".join(answer.labels)
    elif answer.label is not None:
        shown = answer.label
    elif isinstance(answer.answer, str):
        shown = answer.answer
    elif isinstance(answer.answer, tuple) and all(isinstance(v, str) for v in answer.answer):
        shown = "、".join(answer.answer)
    else:
        shown = dumps(answer.answer)
    if answer.other_text is not None:
        shown = f"{shown} ({answer.other_text})" if shown else answer.other_text
    return shown or DEFAULT_LABELS["unanswered"]


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
    content = "".join(_dedent(line, indent) for line in body)
    content = content.replace("\r\n", "\n").replace("\r", "\n")
    language = attr("class", f"language-{segment.name or ''}")
    return (
        f"<pre{_block_attrs(segment, 'replykit-unregistered')}>"
        f"<code{language}{AUTO}>{esc(content)}</code></pre>"
    )


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
