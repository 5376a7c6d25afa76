"""replykit.evals.compliance: Self-check's pass rules (§8.2) with what a benchmark
expects, under a profile (§6), beside the lenient verdict (§9)."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from replykit import CLIENT, SELF_CHECK, self_check
from replykit.evals import BLOCK_PRESENT, FORM_MISSING, Compliance, Reason, compliance

ROOT = Path(__file__).resolve().parents[2]

FORM = """Two choices before I book:

```questionnaire
title: Trip
questions:
  - type: single_choice
    text: Which city?
    options: [Paris, Rome]
    default: Paris
```
"""
PLAIN = "The build is green again; the flaky test was a timezone bug."
TILDE = "Pick one:\n\n~~~questionnaire\ntitle: T\n~~~\n"
XML_OK = (
    'Pick:\n\n<{n}>{{"questions":[{{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}}]}}</{n}>\n'
)
RESPONSE = (
    'Echo:\n\n<questionnaire-response>{"type":"questionnaire_response",'
    '"questionnaire_id":"m_q1","status":"submitted","answers":[]}</questionnaire-response>\n'
)


def codes(result: Compliance) -> list[str]:
    return [r.code for r in result.reasons]


@pytest.mark.parametrize(
    ("text", "expect", "passed", "reasons"),
    [
        (FORM, "any", True, []),
        (FORM, "form", True, []),
        (FORM, "none", False, [BLOCK_PRESENT]),
        (PLAIN, "any", True, []),
        (PLAIN, "form", False, [FORM_MISSING]),
        (PLAIN, "none", True, []),
        (TILDE, "any", False, ["near_miss.tilde"]),
        (TILDE, "none", False, ["near_miss.tilde"]),
        (TILDE, "form", False, [FORM_MISSING, "near_miss.tilde"]),
        (
            FORM.replace("Two choices before I book:\n\n", ""),
            "form",
            False,
            [FORM_MISSING, "fence.no_preface"],
        ),
        # A response block is the user's answer: a reply holding one fails as Self-check
        # fails it (docs/protocol-responses.md section 3).
        (RESPONSE, "form", False, [FORM_MISSING, "selfcheck.response_in_reply"]),
        (RESPONSE, "any", False, ["selfcheck.response_in_reply"]),
        (RESPONSE, "none", False, [BLOCK_PRESENT, "selfcheck.response_in_reply"]),
        # An unregistered response name is Markdown to a client: name.unregistered fails
        # the reply, as in Self-check, and no response is in it.
        (
            RESPONSE.replace("questionnaire-response", "foo-questionnaire-response"),
            "any",
            False,
            ["name.unregistered"],
        ),
    ],
)
def test_verdict_by_expectation(text: str, expect: str, passed: bool, reasons: list[str]) -> None:
    result = compliance(text, expect=expect)  # type: ignore[arg-type]
    assert (result.passed, result.score, codes(result)) == (passed, int(passed), reasons)
    assert result.expect == expect
    assert result.lenient is None


def test_block_present_names_the_block_and_its_place() -> None:
    (reason,) = compliance(FORM, expect="none").reasons
    assert reason == Reason(
        BLOCK_PRESENT, "no form was due and the reply has a questionnaire block", 3, 1
    )


def test_blocks_and_diagnostics_are_the_segmentation_s() -> None:
    result = compliance(FORM + "\n" + TILDE)
    assert [(b.kind, b.valid, b.name) for b in result.blocks] == [
        ("questionnaire", True, "questionnaire")
    ]
    assert [(d.code, d.line, d.column) for d in result.diagnostics] == [("near_miss.tilde", 14, 1)]
    assert result.near_misses == ("tilde",)


def test_profile_decides_what_is_registered() -> None:
    text = XML_OK.format(n="yiii-questionnaire")
    assert compliance(text, expect="form").passed
    strict = compliance(text, expect="form", profile=CLIENT)
    assert codes(strict) == [FORM_MISSING, "name.unregistered"]


def test_lenient_verdict_beside_the_strict_one() -> None:
    text = XML_OK.format(n="Questionnaire")
    result = compliance(text, expect="form", lenient=True)
    assert codes(result) == [FORM_MISSING, "near_miss.case"]
    assert result.lenient is not None
    assert (result.lenient.passed, result.lenient.score, result.lenient.lenient) == (True, 1, None)
    assert [b.name for b in result.lenient.blocks] == ["questionnaire"]
    assert result.to_json()["lenient"]["passed"] is True


def test_lenient_expect_none_places_the_decoded_block() -> None:
    # The JSON-string transport (§9) is decoded first: the block's place is in the decoded text.
    text = json.dumps("Intro\n\n" + XML_OK.format(n="questionnaire"))
    lenient = compliance(text, expect="none", lenient=True).lenient
    assert lenient is not None
    assert [(r.code, r.line, r.column) for r in lenient.reasons] == [(BLOCK_PRESENT, 5, 1)]


def test_compliance_is_frozen_and_checked() -> None:
    result = compliance(PLAIN)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        result.passed = False  # type: ignore[misc]
    with pytest.raises(TypeError, match="Compliance\\(\\) argument 'lenient'"):
        Compliance(True, 1, "any", (), (), (), lenient=True)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="argument 'text'"):
        compliance(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="expect must be one of any, form, none"):
        compliance(PLAIN, expect="sometimes")  # type: ignore[arg-type]


def test_to_json_shape() -> None:
    data = compliance(TILDE, expect="form").to_json()
    assert data["passed"] is False and data["score"] == 0
    assert data["reasons"][1] == {
        "code": "near_miss.tilde",
        "message": data["diagnostics"][0]["message"],
        "line": 3,
        "column": 1,
    }
    assert json.loads(json.dumps(data)) == data


def _vector_texts() -> list[str]:
    cases = json.loads((ROOT / "tests/vectors/segment.json").read_text("utf-8"))["cases"]
    return [c["input"] for c in cases]


def test_expect_any_is_self_check_on_every_vector() -> None:
    texts = [t for t in _vector_texts() if t.strip()]
    assert len(texts) > 300
    differ = [
        t
        for t in texts
        if compliance(t, profile=SELF_CHECK).passed
        != self_check([{"role": "assistant", "content": t}]).passed
    ]
    assert differ == []
    failing = sum(not compliance(t).passed for t in texts)
    assert 50 < failing < len(texts)  # the vectors exercise both verdicts
