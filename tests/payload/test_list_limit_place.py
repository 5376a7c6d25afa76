"""A list over its limit is reported on the list itself (docs/protocol.md §1): the
``limit.*`` finding starts at the list node's first character, where the full reading
places that node (its span in ``spans``), under each loader, for fenced YAML in block
and flow style, for XML+JSON requests and for responses."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import Limits, segment
from replykit.questionnaire.payload.fenced_form import read_fenced_form
from replykit.questionnaire.payload.json_strict import read_json
from replykit.questionnaire.payload.xml_form import read_xml_request, read_xml_response
from replykit.questionnaire.payload.yaml12 import read_yaml

LIMITS = Limits(max_questions=3, max_options=3)
OPTION = st.sampled_from(["a", "b", "c d", "é"])
QUESTION = st.fixed_dictionaries(
    {
        "type": st.just("multi_choice"),
        "text": st.just("Q"),
        "options": st.lists(OPTION, max_size=5),
    },
    optional={"default": st.lists(OPTION, max_size=5)},
)
FORMS = st.fixed_dictionaries(
    {"title": st.just("T"), "questions": st.lists(QUESTION, min_size=1, max_size=5)}
)


def _block_yaml(form: dict[str, Any], flow_lists: bool) -> str:
    lines = ["title: T", "questions:"]
    for question in form["questions"]:
        first = "  - "
        for key, value in question.items():
            if isinstance(value, list) and not flow_lists:
                lines.append(f"{first}{key}:")
                lines += [f"      - {json.dumps(item)}" for item in value] or ["      []"]
            else:
                lines.append(f"{first}{key}: {json.dumps(value)}")
            first = "    "
    return "\n".join(lines) + "\n"


def _over(findings: Any) -> list[Any]:
    return [f for f in findings if f.code.startswith("limit.")]


@settings(max_examples=60, deadline=None)
@given(FORMS, st.booleans())
def test_a_fenced_list_over_its_limit_is_placed_on_the_list(
    form: dict[str, Any], flow: bool
) -> None:
    payload = _block_yaml(form, flow)
    over = _over(read_fenced_form(payload, limits=LIMITS).findings)
    if not over:
        return
    (finding,) = over
    start = read_yaml(payload).spans[finding.path][0]
    assert (finding.start, finding.end) == (start, start + 1)
    assert payload[start] in "-["


@settings(max_examples=60, deadline=None)
@given(FORMS, st.sampled_from([None, 1, "\t"]))
def test_an_xml_list_over_its_limit_is_placed_on_the_list(
    form: dict[str, Any], indent: Any
) -> None:
    payload = json.dumps(form, indent=indent)
    over = _over(read_xml_request(payload, limits=LIMITS).findings)
    if not over:
        return
    (finding,) = over
    start = read_json(payload).spans[finding.path][0]
    assert (finding.start, finding.end) == (start, start + 1)
    assert payload[start] == "["


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(OPTION, max_size=5), min_size=1, max_size=5))
def test_a_response_list_over_its_limit_is_placed_on_the_list(values: list[list[str]]) -> None:
    answers = [
        {"question_id": f"q{i}", "type": "multi_choice", "answer": v} for i, v in enumerate(values)
    ]
    payload = json.dumps({"type": "questionnaire_response", "answers": answers})
    over = _over(read_xml_response(payload, "questionnaire-response", limits=LIMITS).findings)
    if not over:
        return
    (finding,) = over
    start = read_json(payload).spans[finding.path][0]
    assert (finding.start, finding.end, payload[start]) == (start, start + 1, "[")


def test_line_and_column_name_the_list() -> None:
    questions = "".join(
        f"  - type: free_text\n    text: Q{i}\n    default: ''\n" for i in range(1001)
    )
    message = "Intro\n\n```questionnaire\ntitle: T\nquestions:\n" + questions + "```\n"
    (d,) = [d for s in segment(message).segments for d in s.diagnostics]
    assert (d.code, d.path, d.line, d.column, message[d.start : d.end]) == (
        "limit.questions",
        "questions",
        6,
        3,
        "-",
    )
    options = ",".join(f'"o{i}"' for i in range(1001))
    message = (
        '<questionnaire>{"questions":[{"type":"single_choice","text":"a","options":['
        + options
        + "]}]}</questionnaire>"
    )
    (d,) = [d for s in segment(message).segments for d in s.diagnostics]
    assert (d.code, d.path, d.line, d.column, message[d.start : d.end]) == (
        "limit.options",
        "questions[1].options",
        1,
        75,
        "[",
    )
