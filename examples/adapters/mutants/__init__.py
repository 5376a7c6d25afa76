"""Mutant adapters: replykit with one realistic client fault, a benchmark for
``replykit fuzz`` (docs/fuzzing.md, "A benchmark for the fuzzer").

Each :class:`Fault` is one family of mistakes a JavaScript or Swift client makes,
written as a small layer over replykit's own answer (``base.py``): ``splitting.py``
(where blocks are found), ``payloads.py`` (how payloads are read), ``tools.py`` (the
tool and the answer-actions sanitizer). :data:`FAULTS` lists them, each with a
``witness``: a request body where the mutant and replykit disagree.

:func:`build` stacks the layers of some faults over replykit; the mutant named
``combined`` has every fault at once. A mutant answers as a client does: segments
without diagnostics (``base.client_view``). Run one as an adapter with
``python examples/adapters/mutant_adapter.py NAME``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from replykit import Compat

from . import payloads, splitting, tools
from .base import Answer, Layer, Request, Response, client_view, only, replykit_answer

_FORM = (
    "title: T\nquestions:\n  - type: single_choice\n    text: Go?\n"
    "    options: [a, b]\n    default: a\n"
)
_FREE = 'title: T\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n'
_JSON = '{"title":"T","questions":[{"type":"free_text","text":"Q"}]}'


def _seg(text: str) -> dict[str, Any]:
    return {"text": text, "message_id": "m", "profile": "client"}


@dataclass(frozen=True)
class Fault:
    """One client fault: ``name`` (the mutant's name), ``family`` (what the client gets
    wrong, with the rule it breaks), ``op``, ``layer`` (None when the fault is only
    one of replykit's §9 switches), ``compat`` (the docs/protocol.md §9 switches turned
    on for it), ``witness`` (a request body where it disagrees). Where it may disagree
    at all: its trigger in ``triggers.py``."""

    name: str
    family: str
    op: str
    witness: dict[str, Any]
    layer: Layer | None = None
    compat: tuple[str, ...] = field(default=())


def _fence(body: str, before: str = "Intro\n\n") -> str:
    return f"{before}```questionnaire\n{body}```\n"


#: Every fault, in the order the combined mutant stacks them (the first outermost):
#: transport decoding first, then UTF-16 offsets (which index the decoded text), then
#: the rest, each of which keeps its answer's offsets on its own request's text.
FAULTS: tuple[Fault, ...] = (
    Fault(
        "json_string_message",
        "a message that is a JSON string is decoded first (§1)",
        "segment",
        _seg(json.dumps(_fence(_FREE))),
        splitting.json_string_message,
    ),
    Fault(
        "entities_decoded",
        "HTML entities decoded before splitting (§1)",
        "segment",
        _seg(f"Intro &lt;questionnaire&gt;{_JSON}&lt;/questionnaire&gt;"),
        splitting.entities_decoded,
    ),
    Fault(
        "utf16_offsets",
        "offsets in UTF-16 code units (§1)",
        "segment",
        _seg(f"\U0001f600 <questionnaire>{_JSON}</questionnaire>"),
        splitting.utf16_offsets,
    ),
    Fault(
        "case_insensitive_names",
        "names read case-insensitively (§3a, §8)",
        "segment",
        _seg(f"Intro <Questionnaire>{_JSON}</Questionnaire>"),
        splitting.case_insensitive_fences,
        ("case_insensitive",),
    ),
    Fault(
        "tag_attributes",
        "attributes on the opening tag accepted (§3a, §8)",
        "segment",
        _seg(f'Intro <questionnaire id="1">{_JSON}</questionnaire>'),
        compat=("tag_attributes",),
    ),
    Fault(
        "escaped_closer",
        "`<\\/name>` accepted as a closer (§1, §3a)",
        "segment",
        _seg(f"Intro <questionnaire>{_JSON}<\\/questionnaire>"),
        compat=("escaped_closers",),
    ),
    Fault(
        "lone_cr",
        "a lone CR is not a line ending (§1)",
        "segment",
        _seg(_fence(_FREE).replace("\n", "\r")),
        splitting.lone_cr,
    ),
    Fault(
        "tab_before_fence",
        "a tab before a fence counted as one column of indentation (§3a)",
        "segment",
        _seg(f"Intro\n\n\t```questionnaire\n{_FREE}```\n"),
        splitting.tab_before_fence,
    ),
    Fault(
        "fence_not_dedented",
        "fence content not dedented by the opener's indentation (§3a)",
        "segment",
        _seg(
            "Intro\n\n  ```questionnaire\ntitle: T\nquestions:\n- type: free_text\n"
            '  text: Q\n  default: ""\n  ```\n'
        ),
        splitting.fence_not_dedented,
    ),
    Fault(
        "fence_in_container",
        "fences inside list items or block quotes accepted (§3c)",
        "segment",
        _seg(
            "Intro\n\n> ```questionnaire\n"
            + "".join(f"> {ln}\n" for ln in _FREE.splitlines())
            + "> ```\n"
        ),
        splitting.fence_in_container,
    ),
    Fault(
        "html_blocks_not_inert",
        "HTML blocks not inert (§3b)",
        "segment",
        _seg(f"<details>\n```questionnaire\n{_FREE}```\n</details>\n"),
        splitting.html_blocks_not_inert,
    ),
    Fault(
        "html_comments_not_inert",
        "HTML comments not inert (§3b)",
        "segment",
        _seg(f"Intro <!-- <questionnaire>{_JSON}</questionnaire> -->"),
        splitting.html_comments_not_inert,
    ),
    Fault(
        "escaped_backtick",
        "an escaped backtick opens a code span (§3b)",
        "segment",
        _seg(f"Intro \\`<questionnaire>{_JSON}</questionnaire>` x"),
        splitting.escaped_backtick,
    ),
    Fault(
        "span_across_blank_lines",
        "code spans run across blank lines (§3b)",
        "segment",
        _seg(f"Intro `a\n\n<questionnaire>{_JSON}</questionnaire>` x"),
        splitting.span_across_blank_lines,
    ),
    Fault(
        "indented_always_code",
        "any line indented 4 spaces read as code, even a paragraph continuation (§3b)",
        "segment",
        _seg(f"Intro\n    <questionnaire>{_JSON}</questionnaire>"),
        splitting.indented_always_code,
    ),
    Fault(
        "invisible_preface",
        "zero-width or BOM characters counted as preface prose (§4 preface)",
        "segment",
        _seg(_fence(_FORM, before="\u200b\n\n")),
        splitting.invisible_preface,
    ),
    Fault(
        "preface_ignored",
        "the preface rule ignored (§4 preface)",
        "segment",
        _seg(_fence(_FORM, before="")),
        splitting.preface_ignored,
    ),
    Fault(
        "short_closer",
        "a shorter closing fence accepted (§3a closer)",
        "segment",
        _seg(f"Intro\n\n````questionnaire\n{_FREE}```\nmore: x\n````\n"),
        splitting.short_closer,
    ),
    Fault(
        "curly_quotes",
        "curly quotes accepted in JSON (§5)",
        "segment",
        _seg(
            'Intro <questionnaire>{\u201ctitle\u201d:"T","questions":[{"type":"free_text",'
            '"text":"Q"}]}</questionnaire>'
        ),
        payloads.curly_quotes,
    ),
    Fault(
        "string_payload",
        "a payload that is a JSON string decoded (§5)",
        "segment",
        _seg("Intro <questionnaire>" + '"' + _JSON.replace('"', '\\"') + '"</questionnaire>'),
        payloads.string_payload,
    ),
    Fault(
        "invalid_question_dropped",
        "an invalid question dropped instead of failing the form (§5)",
        "segment",
        _seg(
            'Intro <questionnaire>{"questions":[{"type":"free_text","text":"Q"},'
            '{"type":"bogus","text":"R"}]}</questionnaire>'
        ),
        compat=("filter_invalid_questions",),
    ),
    Fault(
        "yaml_aliases",
        "YAML anchors and aliases accepted (§4)",
        "segment",
        _seg(
            _fence('title: &t T\nquestions:\n  - type: free_text\n    text: *t\n    default: ""\n')
        ),
        payloads.yaml_aliases,
    ),
    Fault(
        "yaml11_scalars",
        "YAML 1.1 scalars: yes, 9:16, 0o7, 1_000 (§4)",
        "segment",
        _seg(_fence(_FORM.replace("[a, b]", "[yes, no]").replace("default: a", "default: yes"))),
        payloads.yaml11_scalars,
    ),
    Fault(
        "tool_duplicate_ids",
        "the tool skips one §7 check: duplicate question ids (§7)",
        "questionnaire_async",
        {
            "arguments": {
                "title": "T",
                "questions": [
                    {"id": "a", "type": "free_text", "text": "Q"},
                    {"id": "a", "type": "free_text", "text": "R"},
                ],
            }
        },
        tools.tool_duplicate_ids,
    ),
    Fault(
        "sanitizer_keeps_url",
        "the sanitizer keeps a url (§12)",
        "sanitize_actions",
        {"answer": {"actions": [{"id": "a", "type": "answer.refresh", "label": "L", "url": "u"}]}},
        tools.sanitizer_keeps_url,
    ),
    Fault(
        "sanitizer_keeps_duplicate_id",
        "the sanitizer keeps a duplicate id (§12)",
        "sanitize_actions",
        {
            "answer": {
                "actions": [
                    {"id": "a", "type": "answer.refresh", "label": "L"},
                    {"id": "a", "type": "answer.refresh", "label": "M"},
                ]
            }
        },
        tools.sanitizer_keeps_duplicate_id,
    ),
    Fault(
        "sanitizer_utf16_labels",
        "the sanitizer counts labels in UTF-16 units (§12)",
        "sanitize_actions",
        {
            "answer": {
                "actions": [{"id": "a", "type": "answer.refresh", "label": "\U0001f600" * 20}]
            }
        },
        tools.sanitizer_utf16_labels,
    ),
)

#: The name of the mutant with every fault at once.
COMBINED = "combined"
#: Fault by name.
BY_NAME: dict[str, Fault] = {f.name: f for f in FAULTS}


def build(faults: Sequence[Fault]) -> Answer:
    """The answer function of a client with ``faults`` (a request with ``op`` ->
    a response without ``id``, as a client reports it)."""
    compat = Compat(**{switch: True for f in faults for switch in f.compat})
    answer: Answer = lambda request: replykit_answer(request, compat)  # noqa: E731
    for fault in reversed(faults):
        if fault.layer is not None:
            answer = _stacked(only(fault.op, fault.layer), answer)
    final = answer
    return lambda request: client_view(final(request))


def _stacked(layer: Layer, inner: Answer) -> Answer:
    return lambda request: layer(request, inner)


def mutant(name: str) -> Answer:
    """The answer function of the mutant ``name`` (a fault's name or ``combined``);
    raises ``KeyError`` for another name."""
    if name == COMBINED:
        return build(FAULTS)
    return build([BY_NAME[name]])


def ops_of(name: str) -> tuple[str, ...]:
    """The ops where the mutant ``name`` differs from replykit."""
    if name == COMBINED:
        return tuple(dict.fromkeys(f.op for f in FAULTS))
    return (BY_NAME[name].op,)


__all__ = [
    "BY_NAME",
    "COMBINED",
    "FAULTS",
    "Fault",
    "Request",
    "Response",
    "build",
    "mutant",
    "ops_of",
]
