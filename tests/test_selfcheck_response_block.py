"""Self-check on a response block in the assistant reply (docs/protocol-responses.md
section 3): its own error, and a repair instruction that never calls it a
questionnaire."""

from __future__ import annotations

import json

import pytest

from replykit import self_check

VALID = json.dumps(
    {"type": "questionnaire_response", "questionnaire_id": "x", "status": "submitted",
     "answers": []}
)  # fmt: skip
BROKEN = '{"type":"bogus","answers":5}'
FORM = 'Intro\n\n<questionnaire>{"questions":[{"type":"text","text":"Q"}]}</questionnaire>'
BAD_FORM = 'Intro\n\n<questionnaire>{"questions":[{"type":"bogus","text":"Q"}]}</questionnaire>'


def check(content: str, locale: str = "en") -> dict[str, object]:
    return self_check([{"role": "assistant", "content": content}], locale=locale).to_json()


@pytest.mark.parametrize("payload", [VALID, BROKEN])
@pytest.mark.parametrize("name", ["questionnaire", "sage-questionnaire", "yiii-questionnaire"])
def test_a_response_block_fails_with_its_own_error(payload: str, name: str) -> None:
    result = check(f"Intro <{name}-response>{payload}</{name}-response>")
    assert result["passed"] is False
    first = result["diagnostics"][0]  # type: ignore[index]
    assert (first["code"], first["severity"], first["start"], first["line"], first["column"]) == (
        "selfcheck.response_in_reply", "error", 6, 1, 7,
    )  # fmt: skip
    assert first["message"] == (
        f"<{name}-response> is a user's answer: it belongs in the next user message, never "
        "in an assistant reply (1 response block in this reply)"
    )
    prompt = str(result["repair_prompt"])
    assert prompt.startswith("Your last reply contains a questionnaire response block")
    assert "questionnaire block that fails" not in prompt
    assert "Write the complete questionnaire again" not in prompt
    assert "[response." not in prompt  # the block's own faults are not to be repaired
    assert prompt.count("\n- ") == 1


def test_the_chinese_instruction_names_the_response() -> None:
    prompt = str(check(f"Intro <questionnaire-response>{BROKEN}</questionnaire-response>",
                       "zh")["repair_prompt"])  # fmt: skip
    assert prompt.startswith(
        "你上一条回复中包含回答块（<questionnaire-response>），它是用户对问卷的答复"
    )
    assert "问卷没有通过协议校验" not in prompt


def test_many_response_blocks_give_one_error_with_the_count() -> None:
    block = f"<questionnaire-response>{VALID}</questionnaire-response>\n"
    result = check("Intro " + block * 3)
    codes = [d["code"] for d in result["diagnostics"]]  # type: ignore[attr-defined]
    assert codes == ["selfcheck.response_in_reply"]
    assert "(3 response blocks in this reply)" in str(result["repair_prompt"])


def test_a_broken_form_and_a_response_get_both_instructions() -> None:
    result = check(BAD_FORM + f"\n\n<questionnaire-response>{VALID}</questionnaire-response>")
    prompt = str(result["repair_prompt"])
    assert prompt.startswith("Your last reply contains a questionnaire block that fails")
    assert "[questionnaire.start.question_type_invalid]" in prompt
    assert "[selfcheck.response_in_reply]" in prompt
    assert prompt.endswith(
        "Also remove the questionnaire response block (<questionnaire-response>): a response is "
        "the user's answer and "
        "only the user's next message carries it."
    )


def test_a_form_alone_and_a_response_in_code_still_pass() -> None:
    assert check(FORM)["passed"] is True
    fenced = f"Intro\n\n```\n<questionnaire-response>{VALID}</questionnaire-response>\n```\n"
    assert check(fenced) == {"passed": True, "index": 0, "diagnostics": [],
                             "repair_prompt": None}  # fmt: skip


def test_the_error_fits_within_the_diagnostics_cap() -> None:
    questions = ",".join(['{"type":"bogus","text":"x"}'] * 300)
    noisy = f'Intro\n\n<questionnaire>{{"questions":[{questions}]}}</questionnaire>\n'
    result = check(noisy + f"<questionnaire-response>{VALID}</questionnaire-response>")
    diagnostics = result["diagnostics"]
    assert len(diagnostics) == 200  # type: ignore[arg-type]
    codes = [d["code"] for d in diagnostics]  # type: ignore[attr-defined]
    assert codes.count("selfcheck.response_in_reply") == 1
    assert codes.count("limit.diagnostics") == 1
    assert codes.count("questionnaire.start.question_type_invalid") == 198


@pytest.mark.parametrize("length", [10, 100_000])
def test_an_unregistered_response_block_is_no_response_and_its_name_is_shown_bounded(
    length: int,
) -> None:
    name = "a" * length + "-questionnaire-response"
    result = self_check(
        [{"role": "assistant", "content": f"Intro <{name}>{{}}</{name}>"}], locale="en"
    )
    assert not result.passed
    assert [d.code for d in result.diagnostics] == ["name.unregistered"]
    assert result.repair_prompt is not None
    # A response-shaped block all the same: the instruction asks to remove it, never to
    # write a questionnaire (docs/protocol-responses.md section 3), and quotes only the
    # registered response name, never the message's own (§8 bounded).
    assert result.repair_prompt.startswith(
        "Your last reply contains a questionnaire response block (<questionnaire-response>)"
    )
    assert "Write the complete questionnaire again" not in result.repair_prompt
    assert len(result.repair_prompt) < 2000
    assert len(result.diagnostics[0].message) < 1100
