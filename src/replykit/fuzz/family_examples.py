"""Hand-written examples of the fault families (docs/fuzzing.md, "Fault families").

At least one per family of :mod:`replykit.fuzz.families` that the other explicit
examples do not already cover, each a valid form (or valid arguments, or keepable
actions) changed in the one way the family is about, tagged with its rule and family.
The fuzzer runs them first (:func:`replykit.fuzz.examples.explicit_examples`), so a
client with one of these faults shows it in the first second. Plain data.
"""

from __future__ import annotations

import json
from typing import Any, Final

from replykit.codes import Rule, rules
from replykit.fuzz.example import Example

_FREE = 'title: T\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n'
_FORM: Final[dict[str, Any]] = {
    "title": "T",
    "questions": [
        {"type": "single_choice", "text": "Go?", "options": ["a", "b"], "default": "a"},
        {"type": "free_text", "text": "Why?", "default": ""},
    ],
}
_JSON = json.dumps(_FORM, separators=(",", ":"))
_FENCED = f"```questionnaire\n{_FREE}```\n"


def _indent(text: str, prefix: str) -> str:
    return "".join(prefix + line for line in text.splitlines(keepends=True))


def _json_with(**changes: Any) -> str:
    form = json.loads(_JSON)
    form.update(changes)
    return json.dumps(form, separators=(",", ":"), ensure_ascii=False)


def _seg(rule: Rule, family: str, name: str, text: str) -> Example:
    body = {"text": text, "message_id": "m", "profile": "client"}
    return Example("segment", rule.tag, name, body, family)


_S1, _S3A, _S3B, _S3C = rules.TEXT_UNITS, rules.CANDIDATES, rules.INERT, rules.TOP_LEVEL

SEGMENT: Final[tuple[Example, ...]] = (
    _seg(
        _S1,
        "html-entities",
        "entity-tags",
        f"Intro &lt;questionnaire&gt;{_JSON}&lt;/questionnaire&gt;\n",
    ),
    _seg(
        _S1,
        "html-entities",
        "entity-quotes",
        f"Intro <questionnaire>{_JSON.replace(chr(34), '&quot;')}</questionnaire>\n",
    ),
    _seg(
        _S1,
        "html-entities",
        "entity-fence",
        f"Intro\n\n&#96;&#96;&#96;questionnaire\n{_FREE}&#96;&#96;&#96;\n",
    ),
    _seg(
        _S1,
        "json-string-message",
        "json-string-message",
        json.dumps(f"Intro <questionnaire>{_JSON}</questionnaire>\n"),
    ),
    _seg(
        _S1,
        "json-string-message",
        "json-string-message-fenced",
        json.dumps(f"Intro\n\n{_FENCED}"),
    ),
    _seg(
        _S1,
        "escaped-closer",
        "escaped-closer",
        f"Intro <questionnaire>{_JSON}<\\/questionnaire>\n",
    ),
    _seg(
        _S1,
        "escaped-closer",
        "escaped-closer-in-string",
        "Intro <questionnaire>"
        + _json_with(title="a</questionnaire>b").replace("</", "<\\/")
        + "</questionnaire>\n",
    ),
    _seg(
        _S1,
        "lone-cr",
        "mixed-line-endings",
        "Intro\r\n\r```questionnaire\r" + _FREE.replace("\n", "\r\n", 2) + "```\n",
    ),
    _seg(
        _S1,
        "lone-cr",
        "lone-cr-indented-code",
        f"Intro\r\r    <questionnaire>{_JSON}</questionnaire>\r",
    ),
    _seg(
        rules.TOOL,
        "utf16-lengths",
        "ui-text-astral",
        f"Intro <questionnaire>{_json_with(ui_text={'other': '😀' * 33})}</questionnaire>\n",
    ),
    _seg(
        _S3B,
        "code-span-blank-line",
        "code-span-across-blank-line",
        f"Intro `a\n\n<questionnaire>{_JSON}</questionnaire> b` c\n",
    ),
    _seg(
        _S3B,
        "escaped-backtick",
        "escaped-backtick",
        f"Intro \\`<questionnaire>{_JSON}</questionnaire>` b\n",
    ),
    _seg(
        _S3B,
        "escaped-backtick",
        "backslash-ends-code-span",
        f"Intro `a\\`<questionnaire>{_JSON}</questionnaire>` b\n",
    ),
    _seg(
        _S3B,
        "html-block",
        "tag-in-html-block",
        f"Intro\n\n<div>\n<questionnaire>{_JSON}</questionnaire>\n</div>\n",
    ),
    _seg(_S3B, "html-block", "fence-in-pre", f"Intro\n\n<pre>\n{_FENCED}</pre>\n"),
    _seg(
        _S3B,
        "html-block",
        "fence-after-html-block-ends",
        f"Intro\n\n<div>\n\n{_FENCED}</div>\n",
    ),
    _seg(_S3B, "html-comment", "fence-in-comment", f"Intro\n\n<!--\n{_FENCED}-->\n"),
    _seg(
        _S3B,
        "four-space-continuation",
        "tag-on-continuation-line",
        f"Intro\n    <questionnaire>{_JSON}</questionnaire>\n",
    ),
    _seg(
        _S3B,
        "four-space-continuation",
        "tag-in-list-content",
        f"- Intro\n\n    <questionnaire>{_JSON}</questionnaire>\n",
    ),
    _seg(
        _S3C,
        "four-space-continuation",
        "fence-in-list-content",
        "Intro\n\n1. Step\n\n" + _indent(_FENCED, "    "),
    ),
    _seg(_S3B, "tab-before-fence", "tab-before-fence", "Intro\n\n" + _indent(_FENCED, "\t")),
    _seg(
        _S3B,
        "tab-before-fence",
        "space-tab-before-fence",
        "Intro\n\n" + _indent(_FENCED, " \t"),
    ),
    _seg(
        _S3B,
        "tab-before-fence",
        "tab-before-closer",
        f"Intro\n\n```questionnaire\n{_FREE}\t```\n",
    ),
    _seg(
        _S3B,
        "tab-before-fence",
        "tab-before-tag",
        f"Intro\n\n  \t<questionnaire>{_JSON}</questionnaire>\n",
    ),
    _seg(
        _S3C,
        "fence-in-container",
        "valid-form-in-block-quote",
        "Intro\n\n" + _indent(_FENCED, "> "),
    ),
    _seg(
        _S3A,
        "fence-dedent",
        "dedented-content",
        "Intro\n\n  ```questionnaire\ntitle: T\n" + _indent(_FREE[9:], "  ") + "  ```\n",
    ),
    _seg(
        rules.NEAR_MISS,
        "name-case",
        "tag-case",
        f"Intro <Questionnaire>{_JSON}</Questionnaire>\n",
    ),
    _seg(
        rules.NEAR_MISS,
        "name-case",
        "closer-case",
        f"Intro <questionnaire>{_JSON}</QUESTIONNAIRE>\n",
    ),
    _seg(
        rules.NEAR_MISS,
        "tag-attributes",
        "tag-space",
        f"Intro <questionnaire >{_JSON}</questionnaire>\n",
    ),
    _seg(
        rules.PROFILES,
        "unregistered-name",
        "unregistered-fence",
        f"Intro\n\n```agent-questionnaire\n{_FREE}```\n",
    ),
    _seg(rules.PREFACE, "invisible-preface", "preface-bom-only", "\ufeff" + _FENCED),
    _seg(
        rules.PREFACE,
        "invisible-preface",
        "preface-word-joiner",
        "\u2060\u00ad\n\n" + _FENCED,
    ),
    _seg(
        rules.PREFACE,
        "no-preface",
        "preface-only-comment",
        "<!-- note -->\n" + _FENCED,
    ),
    _seg(
        rules.XML_JSON,
        "curly-quote",
        "json-curly-quotes",
        f"Intro <questionnaire>{_JSON.replace(chr(34) + 'T' + chr(34), '“T”')}</questionnaire>\n",
    ),
    _seg(
        rules.XML_JSON,
        "curly-quote",
        "json-curly-closing-quote",
        f"Intro <questionnaire>{_JSON.replace(chr(34) + 'T' + chr(34), chr(34) + 'T”')}"
        "</questionnaire>\n",
    ),
    _seg(
        rules.XML_JSON,
        "curly-quote",
        "curly-quotes-in-json-string",
        f"Intro <questionnaire>{_json_with(title='Say “yes”')}</questionnaire>\n",
    ),
    _seg(
        rules.YAML,
        "curly-quote",
        "yaml-curly-quotes",
        "Intro\n\n```questionnaire\n" + _FREE.replace("text: Q", "text: “Q”") + "```\n",
    ),
    _seg(
        rules.XML_JSON,
        "json-string-payload",
        "json-string-payload",
        f"Intro <questionnaire>{json.dumps(_JSON)}</questionnaire>\n",
    ),
    _seg(
        rules.TOOL,
        "json-string-payload",
        "json-string-questions",
        f"Intro <questionnaire>{_json_with(questions=json.dumps(_FORM['questions']))}"
        "</questionnaire>\n",
    ),
    _seg(
        rules.YAML,
        "json-string-payload",
        "yaml-json-string-payload",
        f"Intro\n\n```questionnaire\n{json.dumps(_JSON)}\n```\n",
    ),
    _seg(
        rules.TOOL,
        "one-bad-question",
        "one-bad-question-json",
        "Intro <questionnaire>"
        + _json_with(questions=[*_FORM["questions"], {"type": "choice", "text": "Q"}])
        + "</questionnaire>\n",
    ),
    _seg(
        rules.FIELDS,
        "one-bad-question",
        "one-bad-question-yaml",
        "Intro\n\n```questionnaire\n"
        + _FREE
        + "  - type: single_choice\n    text: R\n    options: [a, b]\n```\n",
    ),
    _seg(
        rules.YAML,
        "yaml-alias",
        "yaml-merge-key",
        "Intro\n\n```questionnaire\ntitle: T\nquestions:\n  - &q\n    type: free_text\n"
        '    text: Q\n    default: ""\n  - <<: *q\n    text: R\n```\n',
    ),
    _seg(
        rules.XML_JSON,
        "yaml-alias",
        "json-alias",
        'Intro <questionnaire>{"title": &t "T", "questions": [{"type": "free_text", '
        '"text": *t, "default": ""}]}</questionnaire>\n',
    ),
    _seg(
        rules.YAML,
        "yaml11-scalar",
        "yaml11-octal",
        "Intro\n\n```questionnaire\ntitle: 0o7\nquestions:\n"
        "  - type: free_text\n    text: Q\n    default: on\n```\n",
    ),
    _seg(
        rules.XML_JSON,
        "yaml11-scalar",
        "yaml11-in-json",
        'Intro <questionnaire>{"title": 9:16, "questions": [{"type": "free_text", '
        '"text": "Q", "default": yes}]}</questionnaire>\n',
    ),
)


def _qa(name: str, arguments: Any) -> Example:
    return Example(
        "questionnaire_async", rules.TOOL.tag, name, {"arguments": arguments}, "tool-one-rule"
    )


_Q = {"type": "single_choice", "text": "Q", "options": ["a", "b"], "default": "a"}

TOOL: Final[tuple[Example, ...]] = (
    _qa("option-other-value", {"questions": [{**_Q, "options": ["a", "__questionnaire_other__"]}]}),
    _qa("option-trimmed-repeat", {"questions": [{**_Q, "options": ["a", "b", " a\u3000"]}]}),
    _qa("text-from-title", {"questions": [{"type": "text", "title": "Q", "text": "\u200b"}]}),
    _qa(
        "multi-default-repeat",
        {"questions": [{**_Q, "type": "multi_choice", "default": ["a", " a"]}]},
    ),
    _qa("null-is-absent", {"title": None, "questions": [{**_Q, "id": None, "allow_other": None}]}),
    _qa("arguments-json-string", json.dumps({"questions": [_Q]})),
    _qa("questions-json-string", {"questions": json.dumps([_Q])}),
)


def _sa(family: str, name: str, actions: list[Any]) -> Example:
    return Example(
        "sanitize_actions", rules.ACTIONS.tag, name, {"answer": {"actions": actions}}, family
    )


def _act(i: int, **extra: Any) -> dict[str, Any]:
    return {"id": f"a{i}", "type": "view.detail", "label": "Details", **extra}


ACTIONS: Final[tuple[Example, ...]] = (
    _sa("action-url", "url-in-target", [_act(1, target={"componentId": "c1", "url": "x"})]),
    _sa(
        "action-url",
        "url-in-params",
        [_act(1, type="render.change", params={"chartType": "bar", "url": "x"})],
    ),
    _sa(
        "action-duplicate-id",
        "duplicate-after-dropped",
        [_act(1, label=""), _act(1, label="Again")],
    ),
    _sa(
        "action-duplicate-id",
        "duplicate-after-over-limit",
        [_act(i) for i in range(1, 10)] + [_act(9, label="Again")],
    ),
    _sa("action-label-utf16", "id-astral-80", [_act(1, id="😀" * 80)]),
    _sa("action-label-utf16", "label-astral-mixed", [_act(1, label="😀" * 20 + "a" * 12)]),
    _sa("action-label-utf16", "title-astral-80", [_act(1, title="🎉" * 80)]),
)

#: Every example of this module, segment first.
FAMILY_EXAMPLES: Final[tuple[Example, ...]] = SEGMENT + TOOL + ACTIONS

__all__ = ["ACTIONS", "FAMILY_EXAMPLES", "SEGMENT", "TOOL"]
