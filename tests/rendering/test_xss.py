"""The XSS probe matrix: hostile payloads through every field a message can fill, none
reaching the HTML unescaped (docs/html.md section 5).

Each payload goes into one field at a time (form title, question text, option labels
and values, defaults, submit and "other" labels, question and message ids, response
fields, diagnostics that quote the input, answer actions, unregistered blocks, the
Markdown around). The output is parsed with ``html.parser``: every element and
attribute must be one the renderer writes, no ``on*`` attribute, no URL with a scheme
other than http(s), no Markdown markup inside a card, and the counts of forms and
fieldsets must be those of the segmentation; the field's value must be on the page as
text or an attribute value, decoded back to what the message said.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from replykit.markdown_it import render_segments
from replykit.markdown_it.markup import text_safe
from replykit.questionnaire.model import Segmentation

from .checker import read_html

PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '"><script>alert(1)</script>',
    "'><svg onload=alert(1)>",
    '" onmouseover="alert(1)',
    "' onfocus='alert(1)' autofocus='",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&#60;script&#62;alert(1)&#60;/script&#62;",
    "&#x3C;img src=x onerror=alert(1)&#x3E;",
    "&quot; onclick=&quot;alert(1)",
    '<a href="javascript:alert(1)">x</a>',
    "[x](javascript:alert(1))",
    "![x](data:image/svg+xml,<svg onload=alert(1)>)",
    '<iframe src="javascript:alert(1)"></iframe>',
    "<style>*{background:url(javascript:alert(1))}</style>",
    "</textarea><script>alert(1)</script>",
    "</legend></fieldset></form><script>alert(1)</script>",
    "</label><input onfocus=alert(1) autofocus>",
    "<!--<script>alert(1)//-->",
    "<![CDATA[<script>alert(1)</script>]]>",
    "\"'`><\u0000script>alert(1)</script>",
    "\u202eeluos<script>alert(1)</script>",
    "\u2066<b onclick=alert(1)>\u2069",
    "\uff1cscript\uff1ealert(1)\uff1c/script\uff1e",
    "\ufe64script\ufe65alert(1)\ufe64/script\ufe65",
    "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e",
    "<scr<script>ipt>alert(1)</script>",
    "<svg><script>alert&#40;1&#41;</script></svg>",
    '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
    "<details open ontoggle=alert(1)>",
    "<body onload=alert(1)>",
    '<form action="javascript:alert(1)"><button>x</button></form>',
    '<input type="hidden" name="m_q1:q1" value="forged">',
    "{{constructor.constructor('alert(1)')()}}",
    "${alert(1)}",
    "\u0000<script>alert(1)</script>",
    "\ufdd0\uffff\U0010ffff<b>x</b>",
    "\ue000<script>\ue000",
    "\ue0000\ue000",
    "&#xE000;0&#xE000;",
    '<a href=" javascript:alert(1)">x</a>',
    "java\tscript:alert(1)",
    '<base href="javascript:alert(1)//">',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<object data="data:text/html,<script>alert(1)</script>">',
    "\u2028<script>alert(1)</script>",
    'x" data-replykit-block="forged',
    "</questionnaire><script>alert(1)</script>",
    "<<script>script>alert(1)<</script>/script>",
    "`<script>alert(1)</script>`",
    "*<em onclick=alert(1)>x</em>*",
    "![x](data:image/png;base64,iVBORw0KGgo=)",
    "[x](file:///etc/passwd)",
]


def _xml(payload: dict[str, Any], name: str = "questionnaire") -> str:
    return f"<{name}>{json.dumps(payload, ensure_ascii=False)}</{name}>"


def _free(**extra: Any) -> dict[str, Any]:
    return {"id": "q1", "type": "free_text", "text": "t", **extra}


def _choice(options: list[Any], **extra: Any) -> dict[str, Any]:
    return {"id": "q1", "type": "single_choice", "text": "t", "options": options, **extra}


def _response(answer: dict[str, Any], qid: str = "m_q0") -> str:
    body = {
        "type": "questionnaire_response",
        "questionnaire_id": qid,
        "status": "submitted",
        "answers": [answer],
    }
    return _xml(body, "questionnaire-response")


FIELDS: dict[str, Callable[[str], str]] = {
    "title": lambda p: _xml({"title": p, "questions": [_free()]}),
    "question text": lambda p: _xml({"questions": [_free(text=p)]}),
    "option label": lambda p: _xml({"questions": [_choice([{"value": "a", "label": p}])]}),
    "option value": lambda p: _xml({"questions": [_choice([p, "b"], default=p)]}),
    "multi default": lambda p: _xml(
        {"questions": [_choice([p, "b"], type="multi_choice", default=[p])]}
    ),
    "free text default": lambda p: _xml({"questions": [_free(default=p)]}),
    "submit label": lambda p: _xml({"questions": [_free()], "ui_text": {"submit": p}}),
    "other label": lambda p: _xml(
        {"questions": [_choice(["a"], allow_other=True)], "ui_text": {"other": p}}
    ),
    "question id": lambda p: _xml({"questions": [_free(id=p)]}),
    "fenced title": lambda p: (
        f"```questionnaire\ntitle: {json.dumps(p)}\nquestions:\n"
        '  - id: q1\n    type: free_text\n    text: t\n    default: ""\n```\n'
    ),
    "fenced option": lambda p: (
        "```questionnaire\ntitle: T\nquestions:\n  - id: q1\n"
        f"    type: single_choice\n    text: t\n    options: [{json.dumps(p)}]\n"
        f"    default: {json.dumps(p)}\n```\n"
    ),
    "diagnostic (type)": lambda p: _xml({"questions": [_free(type=p)]}),
    "diagnostic (syntax)": lambda p: f"<questionnaire>{{{p}</questionnaire>",
    "diagnostic (yaml)": lambda p: f"```questionnaire\ntitle: T\nquestions: {p}\n```\n",
    "response question": lambda p: _response(
        {"question_id": "q1", "question": p, "type": "free_text", "answer": "a"}
    ),
    "response answer": lambda p: _response({"question_id": "q1", "type": "free_text", "answer": p}),
    "response label": lambda p: _response(
        {"question_id": "q1", "type": "single_choice", "answer": "a", "value": "a", "label": p}
    ),
    "response ids": lambda p: _response({"question_id": p, "type": "free_text", "answer": "a"}, p),
    "unregistered xml": lambda p: f"<foo-questionnaire>{p}</foo-questionnaire>",
    "unregistered fence": lambda p: f"```foo-questionnaire\n{p}\n```\n",
    "markdown": lambda p: f"{p}\n\n- {p}\n\n> {p} [l]({p}) ![i]({p}) <{p}>\n",
    "markdown around a block": lambda p: f"{p} " + _xml({"questions": [_free()]}) + f" {p}\n",
}

ACTION_FIELDS: dict[str, Callable[[str], dict[str, Any]]] = {
    "action label": lambda p: {"id": "a", "type": "conversation.continue", "label": p,
                               "params": {"prompt": "go"}},
    "action id": lambda p: {"id": p, "type": "business.execute", "label": "Pay",
                            "params": {"prompt": "go"}},
    "action confirmation": lambda p: {"id": "a", "type": "business.execute", "label": "Pay",
                                      "title": p, "description": p, "params": {"prompt": p}},
}  # fmt: skip


def _problems(html: str, seg: Segmentation) -> list[str]:
    reading = read_html(html)
    problems = list(reading.problems)
    forms = [s for s in seg.segments if s.valid and s.questionnaire is not None]
    questions = sum(len(s.questionnaire.questions) for s in forms if s.questionnaire)
    if reading.counts.get("form", 0) != len(forms):
        problems.append(f"{reading.counts.get('form', 0)} forms for {len(forms)} requests")
    if reading.counts.get("fieldset", 0) != questions:
        problems.append(f"{reading.counts.get('fieldset', 0)} fieldsets for {questions}")
    if len(set(reading.ids)) != len(reading.ids):
        problems.append(f"duplicate ids {reading.ids}")
    if reading.unisolated:
        problems.append(f"bidi controls outside an isolate: {reading.unisolated}")
    return problems


def _shown(html: str, value: str) -> bool:
    reading = read_html(html)
    wanted = text_safe(value)
    return any(wanted in t for t in ["".join(reading.texts), *reading.values])


def test_the_matrix_has_at_least_40_payloads() -> None:
    assert len(set(PAYLOADS)) == len(PAYLOADS) >= 40


@pytest.mark.parametrize("field", list(FIELDS))
def test_no_payload_escapes_its_field(field: str) -> None:
    failures = []
    for payload in PAYLOADS:
        message = FIELDS[field](payload)
        rendered = render_segments(message, message_id="m")
        problems = _problems(rendered.html, rendered.segmentation)
        blocks = [s for s in rendered.segmentation.segments if s.kind != "markdown"]
        for block in blocks:
            value = _field_value(field, block, payload)
            if not _shown(rendered.html, value):
                problems.append(f"value {value!r} not on the page")
        if problems:
            failures.append((payload, problems))
    assert failures == []


def _field_value(field: str, block: Any, payload: str) -> str:
    """The text the page must show: the normalized value of a valid block's field, else
    the block's raw text (escaped in ``<pre><code>``)."""
    form = block.questionnaire
    if form is None or field in ("submit label", "other label"):
        if block.response is not None:
            answer = block.response.answers[0]
            return {
                "response question": answer.question,
                "response answer": answer.answer,
                "response label": answer.label,
            }.get(field, answer.question_id)
        if block.valid and form is not None and field == "submit label":
            return "提交"  # ui_text has no submit key (§5): the key is ignored
        if block.valid and form is not None:
            return dict(form.ui_text)["other"]
        if block.encoding == "fenced_yaml" and not block.registered:
            return payload  # the fence's content, shown as code
        return block.text
    question = form.questions[0]
    return {
        "title": form.title,
        "fenced title": form.title,
        "question text": question.text,
        "option label": question.options[0].label if question.options else "",
        "option value": question.options[0].value if question.options else "",
        "fenced option": question.options[0].value if question.options else "",
        "multi default": question.options[0].value if question.options else "",
        "free text default": question.default,
        "question id": question.id,
    }.get(field, question.text)


@pytest.mark.parametrize("field", list(ACTION_FIELDS))
def test_no_payload_escapes_an_action(field: str) -> None:
    failures = []
    for payload in PAYLOADS:
        action = ACTION_FIELDS[field](payload)
        rendered = render_segments("Done.", message_id="m", actions=[action])
        problems = _problems(rendered.html, rendered.segmentation)
        if problems:
            failures.append((payload, problems))
    assert failures == []


def test_message_ids_are_escaped_in_every_block_id() -> None:
    failures = []
    message = _xml({"questions": [_free()]}) + "\n\n" + _xml({"bad": 1})
    for payload in PAYLOADS:
        if "\0" in payload:  # HTML cannot carry it: refused (docs/html.md section 1)
            with pytest.raises(ValueError, match="NUL"):
                render_segments(message, message_id=payload)
            continue
        rendered = render_segments(message, message_id=payload)
        problems = _problems(rendered.html, rendered.segmentation)
        if not _shown(rendered.html, f"{payload}_q1"):
            problems.append("block id not on the page")
        if problems:
            failures.append((payload, problems))
    assert failures == []
