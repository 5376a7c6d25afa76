"""Every code has a Chinese template for every variant (docs/protocol.md §2): rendered in
``zh`` with real parameters it is Chinese, differs from the English, and fills every
placeholder it names; the findings of the conformance vectors render so too."""

from __future__ import annotations

import re
import string
from typing import Any

import pytest
from inputs import VECTORS

from replykit import StreamSegmenter, segment
from replykit.codes import CODES
from replykit.codes._core import fields
from replykit.diagnostics import LeftOut

# Real values of each parameter, as the readers record them.
PARAMS: dict[str, Any] = {
    "action_type": "business.execute", "actual": "string", "allowed": ["a", "b"],
    "allowed_fields": "id, type, text, options, default, allow_other", "anchor": "a",
    "category": "a credential", "char": "U+3000", "characters": "U+00A0, U+3000",
    "codepoint": "202E", "expected": "string", "expected_id": "m_q1", "fence": "```",
    "field": "label", "first": "actions[1]", "given": "m_q2", "given_label": "B",
    "hint": {"as": "source", "source": "yes", "actual": "boolean", "quoted": '"yes"'},
    "info": "questionnaire yaml", "invalid_items": ["x"], "key": "'title'", "label": "A",
    "left_out": [LeftOut("question.not_mapping", "error", 3)], "limit": 64,
    "lower": "questionnaire", "name": "Questionnaire", "number": 2,
    "other": "__questionnaire_other__",
    "path": "questions[2].default", "position": 3, "question": "q2",
    "quoted_type": "'questionnaire_response'", "reason": "expected ',' or '}'",
    "shape": "a non-blank string", "shown": "\\ud800", "size": 1001, "strict": "'multi_choice'",
    "tag": "!!str", "token": "NaN", "total": 5, "type": "single_choice", "value": "x",
    "want": '"awaiting_user_input"', "what": "the end of the payload", "where": "questions[1]",
}  # fmt: skip
CJK = re.compile(r"[\u4e00-\u9fff]")


def _names(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


CASES = [(name, variant) for name, code in CODES.items() for variant in code.en]


def test_every_variant_of_every_code_has_a_chinese_template() -> None:
    assert len(CASES) > 200
    assert [case for case in CASES if case[1] not in CODES[case[0]].zh] == []


@pytest.mark.parametrize(("name", "variant"), CASES, ids=[f"{n}:{v}" for n, v in CASES])
def test_each_renders_in_chinese_with_every_placeholder_filled(name: str, variant: str) -> None:
    code = CODES[name]
    assert {f.split("|")[0] for f in _names(code.en[variant])} <= set(PARAMS) | {"actual_clause"}
    zh = code.render(PARAMS, variant, "zh")
    assert zh != code.render(PARAMS, variant, "en")
    assert CJK.search(zh), zh
    filled = fields(PARAMS, "zh")
    for field in _names(code.zh[variant]):
        assert filled[field] and filled[field] in zh, (field, zh)
    # The parameters the English names are said in Chinese too (none silently dropped),
    # but for the ones the Chinese sentence says in its own words.
    said = {"actual", "expected", "actual_clause", "limit|level", "limit|character"}
    english = {f.split("|")[0] for f in _names(code.en[variant]) - said}
    chinese = {f.split("|")[0] for f in _names(code.zh[variant])}
    if "path" in chinese:  # the limits' English names the place in words ({what})
        english.discard("what")
    assert english <= chinese | {"actual", "expected"}, english - chinese


def test_real_findings_render_in_chinese() -> None:
    seen = set()
    for case in VECTORS:
        result = segment(case["input"], message_id=case["message_id"] or "m")
        for d in result.diagnostics:
            zh = CODES[d.code].render(d.params, d.variant, "zh")
            assert CJK.search(zh) and not re.search(r"\{\w+\}", zh), (d.code, zh)
            seen.add(d.code)
    assert len(seen) > 40
    stream = StreamSegmenter()
    stream.push("Intro\n\n```Questionnaire\nx\n```\n")
    (d,) = stream.finish().diagnostics
    assert CODES[d.code].render(d.params, d.variant, "zh") == (
        "围栏名称 'Questionnaire' 必须全部小写：'questionnaire'。"
    )
