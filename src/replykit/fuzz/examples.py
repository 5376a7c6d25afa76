"""The hand-written examples the fuzzer runs before any generated input.

One or more per family of edge cases, each tagged with the rule it exercises (a
``docs/protocol.md`` section, ``§3b``, or a seed heading). Plain data with no
dependency on Hypothesis: ``replykit vectors export`` writes them, with replykit's
answers, as the generated conformance cases.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from replykit.argcheck import typed
from replykit.codes import rules
from replykit.fuzz.example import Example
from replykit.fuzz.family_examples import FAMILY_EXAMPLES
from replykit.fuzz.ops import OPS, Op

_FORM = (
    "title: T\nquestions:\n  - type: single_choice\n    text: Go?\n    options:\n"
    '      - "a"\n      - "b"\n    default: "a"\n'
)
_FREE = 'title: T\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n'
_JSON = (
    '{"title":"T","questions":[{"type":"single_choice","text":"Go?",'
    '"options":["a","b"],"default":"a"}]}'
)
_BOUNDARY = rules.CLOSER.tag
_FIELDS = rules.FIELDS.tag
_STANDARD = rules.PREFACE.tag


def _seg(rule: str, name: str, text: str, profile: str = "client", *, family: str = "") -> Example:
    return Example(
        "segment", rule, name, {"text": text, "message_id": "m", "profile": profile}, family
    )


_SEGMENT_EXAMPLES: Final[tuple[Example, ...]] = (
    _seg("§3a", "fence-basic", f"Intro\n\n```questionnaire\n{_FORM}```\nAfter\n"),
    _seg("§3a", "xml-basic", f"Intro <questionnaire>{_JSON}</questionnaire> after\n"),
    _seg("§8", "tilde-fence", f"Intro\n\n~~~questionnaire\n{_FORM}~~~\n"),
    _seg("§8", "two-backticks", f"Intro\n\n``questionnaire\n{_FORM}``\n"),
    _seg("§8", "info-case", f"Intro\n\n```Questionnaire\n{_FORM}```\n", family="name-case"),
    _seg("§8", "info-extra-words", f"Intro\n\n```questionnaire yaml\n{_FORM}```\n"),
    _seg(
        "§8",
        "tag-attributes",
        f'Intro <questionnaire id="1">{_JSON}</questionnaire>\n',
        family="tag-attributes",
    ),
    _seg("§8", "unclosed-tag", f"Intro <questionnaire>{_JSON}\n"),
    _seg(
        _BOUNDARY,
        "short-closer",
        f"Intro\n\n````questionnaire\n{_FREE}```\nmore: x\n````\n",
        family="short-closer",
    ),
    _seg(_BOUNDARY, "longer-closer", f"Intro\n\n```questionnaire\n{_FREE}`````\nAfter\n"),
    _seg(_BOUNDARY, "closer-with-text", f"Intro\n\n```questionnaire\n{_FREE}``` x\n```\n"),
    _seg("§3a", "unclosed-fence", f"Intro\n\n```questionnaire\n{_FREE}"),
    _seg("§3b", "indented-fence", f"Intro\n\n    ```questionnaire\n    {_FREE}    ```\n"),
    _seg("§3b", "indented-tag", f"Intro\n\n    <questionnaire>{_JSON}</questionnaire>\n"),
    _seg("§3b", "indented-after-paragraph", f"Intro\n    ```questionnaire\n{_FREE}```\n"),
    _seg("§3b", "tag-in-code-span", f"Intro `<questionnaire>{_JSON}</questionnaire>` x\n"),
    _seg(
        "§3b",
        "tag-in-comment",
        f"Intro <!-- <questionnaire>{_JSON}</questionnaire> -->\n",
        family="html-comment",
    ),
    _seg(
        "§3b", "form-in-fenced-code", f"Intro\n\n````markdown\n```questionnaire\n{_FREE}```\n````\n"
    ),
    _seg(
        "§3b",
        "fence-in-html-block",
        f"<details>\n```questionnaire\n{_FREE}```\n</details>\n",
        family="html-block",
    ),
    _seg(
        "§3b",
        "comment-ends-with-its-html-block",
        f"<!--\n<questionnaire\n-->\n\nIntro\n\n```questionnaire\n{_FREE}```\n",
    ),
    _seg(
        "§3b",
        "comment-then-tag-on-closing-line",
        "<!--<questionnaire\n--><questionnaire></questionnaire>",
    ),
    _seg(
        "§3b",
        "block-ended-before-comment",
        f"<!--> <!-- <questionnaire>{_JSON}</questionnaire>\n-->\n",
    ),
    _seg(
        "§3b", "unclosed-comment-in-list-item", f"Intro\n\n- <!--\n\n```questionnaire\n{_FREE}```\n"
    ),
    _seg("§8", "fence-indent", f"Intro\n\n\u3000```questionnaire\n{_FREE}```\n"),
    _seg(
        "§3c",
        "fence-in-block-quote",
        "Intro\n\n> ```questionnaire\n> title: T\n> ```\n",
        family="fence-in-container",
    ),
    _seg(
        "§3c",
        "fence-in-list-item",
        f"Intro\n\n- ```questionnaire\n  {_FREE}  ```\n",
        family="fence-in-container",
    ),
    _seg("§3a", "tag-in-list-item", f"Intro\n\n- <questionnaire>{_JSON}</questionnaire>\n"),
    _seg(
        "§4",
        "yaml11-booleans",
        "Intro\n\n```questionnaire\ntitle: T\nquestions:\n"
        "  - type: single_choice\n    text: Go?\n    options: [yes, no]\n    default: yes\n```\n",
        family="yaml11-scalar",
    ),
    _seg(
        "§4",
        "yaml11-plain-no",
        "Intro\n\n```questionnaire\ntitle: T\nquestions:\n"
        "  - type: free_text\n    text: Q\n    default: no\n```\n",
        family="yaml11-scalar",
    ),
    _seg(
        "§4",
        "yaml11-sexagesimal",
        "Intro\n\n```questionnaire\ntitle: 9:16\nquestions:\n"
        "  - type: free_text\n    text: 2026-11-30\n    default: 1_000\n```\n",
        family="yaml11-scalar",
    ),
    _seg("§4", "yaml-duplicate-key", f"Intro\n\n```questionnaire\ntitle: U\n{_FORM}```\n"),
    _seg(
        "§4",
        "yaml-alias",
        "Intro\n\n```questionnaire\ntitle: &t T\nquestions:\n"
        "  - type: free_text\n    text: *t\n    default: ''\n```\n",
        family="yaml-alias",
    ),
    _seg(rules.YAML_PAYLOAD.tag, "json-in-fence", f"Intro\n\n```questionnaire\n{_JSON}\n```\n"),
    _seg(_FIELDS, "unknown-field", f"Intro\n\n```questionnaire\n{_FREE}subtitle: S\n```\n"),
    _seg(_STANDARD, "no-preface", f"```questionnaire\n{_FREE}```\n", family="no-preface"),
    _seg(
        _STANDARD,
        "preface-only-code",
        f"`code`\n\n```questionnaire\n{_FREE}```\n",
        family="no-preface",
    ),
    _seg(
        _STANDARD,
        "preface-zero-width",
        f"\u200b\n```questionnaire\n{_FREE}```\n",
        family="invisible-preface",
    ),
    _seg("§5", "json-nan", 'Intro <questionnaire>{"questions": NaN}</questionnaire>\n'),
    _seg("§5", "json-duplicate", 'Intro <questionnaire>{"a": 1, "a": 2}</questionnaire>\n'),
    _seg(
        "§5",
        "lenient-xml",
        'Intro <questionnaire>{"questions":[{"type":"text","title":"Q"}]}</questionnaire>\n',
    ),
    _seg(
        "§6",
        "unregistered",
        f"Intro <foo-questionnaire>{_JSON}</foo-questionnaire>\n",
        family="unregistered-name",
    ),
    _seg(
        "§6",
        "self-check-name",
        f"Intro <yiii-questionnaire>{_JSON}</yiii-questionnaire>\n",
        "self_check",
    ),
    _seg("§6", "product-name", f"Intro\n\n```acme-questionnaire\n{_FREE}```\n", "product:acme"),
    _seg(
        "§7",
        "response",
        'Intro <questionnaire-response>{"type":"questionnaire_response",'
        '"questionnaire_id":"m_q1","status":"submitted","answers":[]}</questionnaire-response>',
    ),
    _seg(
        "§1",
        "crlf",
        f"Intro\r\n\r\n```questionnaire\r\n{_FREE.replace(chr(10), chr(13) + chr(10))}```\r\n",
    ),
    _seg(
        "§1",
        "lone-cr",
        f"Intro\r\r```questionnaire\r{_FREE.replace(chr(10), chr(13))}```\r",
        family="lone-cr",
    ),
    _seg("§1", "bom", f"\ufeffIntro\n\n```questionnaire\n{_FREE}```\n"),
    _seg(
        "§1",
        "astral-offsets",
        f"😀😀 Intro <questionnaire>{_JSON}</questionnaire> 😀\n",
        family="astral-offsets",
    ),
    _seg("§1", "u2028-not-a-line-end", f"Intro\u2028```questionnaire\n{_FREE}```\n"),
    _seg(
        "§3b",
        "text-after-closer",
        f"Intro <questionnaire>{_JSON}</questionnaire>```questionnaire\nx\n```\n",
    ),
    _seg(
        "§6",
        "two-blocks",
        f"Intro\n\n```questionnaire\n{_FREE}```\n<questionnaire>{_JSON}</questionnaire>\n",
    ),
)


def _qa(rule: str, name: str, arguments: Any, family: str = "") -> Example:
    return Example("questionnaire_async", rule, name, {"arguments": arguments}, family)


_SEED_ARGUMENTS: Final[dict[str, Any]] = {
    "title": "继续执行",
    "questions": [
        {
            "id": "action",
            "type": "single_choice",
            "text": "是否继续当前任务？",
            "options": [{"value": "continue", "label": "继续"}],
            "default": "continue",
            "allow_other": False,
        }
    ],
}
_QA_RESULT = _QA_ARGS = rules.TOOL.tag

_QA_EXAMPLES: Final[tuple[Example, ...]] = (
    _qa(_QA_RESULT, "seed-example", _SEED_ARGUMENTS),
    _qa(
        _QA_ARGS,
        "aliases",
        {
            "questions": [
                {"type": "multiple_choice", "text": "Q", "options": ["a", "b"]},
                {"type": "text", "title": "T"},
            ]
        },
    ),
    _qa(
        _QA_ARGS,
        "generated-ids",
        {"questions": [{"type": "text", "text": "A"}, {"id": "q1", "type": "text", "text": "B"}]},
    ),
    _qa(
        _QA_ARGS,
        "label-defaults",
        {
            "questions": [
                {"type": "single_choice", "text": "Q", "options": [{"value": "v"}], "default": "v"}
            ]
        },
    ),
    _qa(
        "§7",
        "type-case",
        {"questions": [{"type": " Single_Choice ", "text": "Q", "options": ["a"]}]},
        family="tool-one-rule",
    ),
    _qa("§7", "questions-not-list", {"title": "T", "questions": "x"}, family="tool-one-rule"),
    _qa("§7", "questions-empty", {"questions": []}, family="tool-one-rule"),
    _qa("§7", "question-not-object", {"questions": [1]}, family="tool-one-rule"),
    _qa(
        "§7",
        "type-invalid",
        {"questions": [{"type": "choice", "text": "Q"}]},
        family="tool-one-rule",
    ),
    _qa(
        "§7",
        "text-required",
        {"questions": [{"type": "text", "text": " "}]},
        family="tool-one-rule",
    ),
    _qa(
        "§7",
        "id-duplicate",
        {
            "questions": [
                {"id": "a", "type": "text", "text": "Q"},
                {"id": "a", "type": "text", "text": "R"},
            ]
        },
        family="tool-one-rule",
    ),
    _qa(
        "§7",
        "id-invalid",
        {"questions": [{"id": 3, "type": "text", "text": "Q"}]},
        family="tool-one-rule",
    ),
    _qa(
        "§7",
        "options-required",
        {"questions": [{"type": "single_choice", "text": "Q"}]},
        family="tool-one-rule",
    ),
    _qa(
        "§7",
        "option-invalid",
        {"questions": [{"type": "single_choice", "text": "Q", "options": ["a", "a", " "]}]},
    ),
    _qa(
        "§7",
        "default-type",
        {"questions": [{"type": "multi_choice", "text": "Q", "options": ["a"], "default": "a"}]},
        family="tool-one-rule",
    ),
    _qa(
        "§7",
        "default-not-in-options",
        {"questions": [{"type": "single_choice", "text": "Q", "options": ["a"], "default": "b"}]},
        family="tool-one-rule",
    ),
    _qa(
        "§7",
        "default-list-items",
        {
            "questions": [
                {"type": "multi_choice", "text": "Q", "options": ["a"], "default": ["a", "b", 1]}
            ]
        },
    ),
    _qa(
        "§7",
        "allow-other-type",
        {
            "questions": [
                {"type": "single_choice", "text": "Q", "options": ["a"], "allow_other": "yes"}
            ]
        },
        family="tool-one-rule",
    ),
    _qa(
        "§7",
        "title-invalid",
        {"title": 5, "questions": [{"type": "text", "text": "Q"}]},
        family="tool-one-rule",
    ),
    _qa(
        "§7",
        "trimmed",
        {
            "title": " T\u3000",
            "questions": [
                {"type": "single_choice", "text": "\u00a0Q ", "options": [" a "], "default": "a"},
                {
                    "type": "multi_choice",
                    "text": "R",
                    "options": [{"value": "b ", "label": " B"}],
                    "default": [" b"],
                },
                {"type": "free_text", "text": "S", "default": " s\u200b"},
            ],
        },
    ),
    _qa(
        "§7",
        "trimmed-duplicate-option",
        {"questions": [{"type": "single_choice", "text": "Q", "options": ["a", " a"]}]},
        family="tool-one-rule",
    ),
    _qa("§7", "default-null", {"questions": [{"type": "text", "text": "Q", "default": None}]}),
    _qa(
        "§7",
        "free-text-ignores-options",
        {"questions": [{"type": "free_text", "text": "Q", "options": ["a"], "allow_other": True}]},
    ),
    _qa("§7", "not-an-object", ["questions"], family="tool-one-rule"),
)


def _sa(name: str, answer: Any, family: str = "") -> Example:
    return Example("sanitize_actions", "§12", name, {"answer": answer}, family)


def _act(i: int, **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": f"a{i}", "type": "view.detail", "label": "Details"}
    base.update(extra)
    return base


_SA_EXAMPLES: Final[tuple[Example, ...]] = (
    _sa("basic", {"actions": [_act(1)]}),
    _sa("answer-data-wins", {"answerData": {"actions": "x"}, "payload": {"actions": [_act(1)]}}),
    _sa("bare-payload", {"template": "t", "actions": [_act(1)]}),
    _sa("not-object", {"actions": [1, _act(2)]}),
    _sa("type-unknown", {"actions": [_act(1, type="tool.call")]}),
    _sa(
        "id-duplicate", {"actions": [_act(1), _act(1, label="Again")]}, family="action-duplicate-id"
    ),
    _sa("id-too-long", {"actions": [_act(1, id="a" * 81)]}),
    _sa("id-reserved", {"actions": [_act(1, id="__proto__"), _act(2, id="constructor")]}),
    _sa(
        "text-unsafe",
        {
            "actions": [
                _act(1, id="x\u0000y"),
                _act(
                    2, type="business.cancel", label="\u202eetelpmoC\u202c", params={"prompt": "p"}
                ),
                _act(3, title="t\u2066", description="line\nbreak"),
                _act(4, type="conversation.continue", params={"prompt": "a\r\nb\tc"}),
            ]
        },
    ),
    _sa("label-astral-32", {"actions": [_act(1, label="😀" * 32)]}, family="action-label-utf16"),
    _sa("label-astral-33", {"actions": [_act(1, label="😀" * 33)]}),
    _sa("prompt-required", {"actions": [_act(1, type="business.execute")]}),
    _sa("chart-type", {"actions": [_act(1, type="render.change", params={"chartType": "pie"})]}),
    _sa(
        "field-removed",
        {"actions": [_act(1, tool="shell", url="x", params={"prompt": "p"})]},
        family="action-url",
    ),
    _sa(
        "modify-prompt", {"actions": [_act(1, type="conversation.modify", params={"prompt": " "})]}
    ),
    _sa("nine-actions", {"actions": [_act(i) for i in range(1, 10)]}),
    _sa(
        "confirm-fields",
        {
            "actions": [
                _act(
                    1,
                    type="business.execute",
                    riskLevel="high",
                    requiresConfirmation="true",
                    params={"prompt": "Do it"},
                )
            ]
        },
    ),
)


@typed
def explicit_examples(ops: Sequence[Op] = OPS) -> tuple[Example, ...]:
    """The hand-written examples for ``ops``, in a fixed order (segment first). The
    fuzzer runs them before any generated input; ``replykit vectors export`` writes
    them, with replykit's answers, as generated conformance cases."""
    table: dict[Op, tuple[Example, ...]] = {
        "segment": _SEGMENT_EXAMPLES,
        "questionnaire_async": _QA_EXAMPLES,
        "sanitize_actions": _SA_EXAMPLES,
    }
    families = {op: tuple(e for e in FAMILY_EXAMPLES if e.op == op) for op in OPS}
    return tuple(e for op in OPS if op in ops for e in table[op] + families[op])


def examples_first(ops: Sequence[Op], explicit: bool | Sequence[Example]) -> tuple[Example, ...]:
    """The examples :func:`~replykit.fuzz.runner.fuzz` runs before generated ones:
    ``explicit`` ``True``: the hand-written ones for ``ops`` (:func:`explicit_examples`,
    then, with ``stream`` among ``ops``, the stream examples); ``False``: none; a
    sequence of :class:`Example`: those of ``ops``, in order. Raises ``TypeError`` for
    an item that is not an :class:`Example`."""
    if isinstance(explicit, bool):
        if not explicit:
            return ()
        if "stream" not in ops:
            return explicit_examples(ops)
        from replykit.fuzz.stream_examples import stream_examples

        return (*explicit_examples(ops), *stream_examples())
    for n, example in enumerate(explicit):
        if not isinstance(example, Example):
            raise TypeError(f"explicit[{n}] is {type(example).__name__}, not an Example")
    return tuple(e for e in explicit if e.op in ops)


__all__ = ["Example", "examples_first", "explicit_examples"]
