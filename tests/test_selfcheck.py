"""Self-check (§8.2) and the submission rule (§11)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit.diagnostics import Diagnostic
from replykit.questionnaire.conversation.selfcheck import (
    SelfCheckResult,
    can_submit,
    is_blocking,
    self_check,
)
from replykit.questionnaire.profiles import SELF_CHECK
from replykit.questionnaire.segmentation.segmenter import segment
from replykit.text import is_blank

from forms import fenced_yaml, prose, valid_forms, xml_json

HERE = Path(__file__).parent
SEED = HERE / "data" / "seed"
SAGE_DOCS = HERE / "corpus" / "sage-docs"
SAGE_FILES = sorted(SAGE_DOCS.rglob("*.md"))
VECTORS = json.loads((HERE / "vectors" / "segment.json").read_text(encoding="utf-8"))["cases"]

FENCED_OK = (SEED / "fenced_task_paused.md").read_bytes().decode("utf-8")
NEAR_MISS = "请选择：\n\n```Questionnaire\ntitle: T\n```\n"


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def _conv(*contents: str) -> list[dict[str, Any]]:
    """A user message followed by assistant messages with ``contents``."""
    return [{"role": "user", "content": "hi"}] + [
        {"role": "assistant", "content": c} for c in contents
    ]


def _expected_pass(text: str) -> bool:
    result = segment(text, message_id="m", profile=SELF_CHECK)
    # A response block in the reply fails too (docs/protocol-responses.md section 3).
    return not any(
        d.severity == "error" or d.code.startswith("near_miss.") or d.code == "name.unregistered"
        for d in result.diagnostics
    ) and not any(s.kind == "questionnaire_response" for s in result.segments)


# --- the seed's examples and the five names -------------------------------------------------


@pytest.mark.parametrize(
    "name", ["fenced_task_paused.md", "xml_loop_recovery.md", "xml_sage_project.md"]
)
def test_seed_examples_pass(name: str) -> None:
    result = self_check(_conv(_read(SEED / name)))
    assert result == SelfCheckResult(True, 1, (), None)


@pytest.mark.parametrize("prefix", ["", "yiii-", "movo-", "ling-", "sage-"])
def test_the_five_registered_names_pass_in_both_encodings(prefix: str) -> None:
    name = f"{prefix}questionnaire"
    xml = f'说明\n\n<{name}>{{"questions":[{{"type":"text","text":"Why?"}}]}}</{name}>\n'
    fenced = FENCED_OK.replace("```questionnaire", f"```{name}")
    assert self_check(_conv(xml)).passed
    assert self_check(_conv(fenced)).passed


def test_near_miss_fails_with_one_repair_instruction_zh() -> None:
    result = self_check(_conv(NEAR_MISS))
    assert result == SelfCheckResult(
        False,
        1,
        (Diagnostic("near_miss.case", "warning", "问卷名称必须全部小写。", 6, 22, 3, 1, None),),
        "你上一条回复中的问卷没有通过协议校验，用户无法作答：\n"
        "- 第 3 行第 1 列 [near_miss.case]：问卷名称必须全部小写。"
        "（fence name 'Questionnaire' must be lower case: 'questionnaire'）\n"
        "请重新输出完整的问卷（包含全部问题，不要只输出修改的部分），并在问卷前保留普通说明文字。"
        "可以使用独占一行的 ```questionnaire 开始的 fenced YAML，"
        "或 XML+JSON 形式的 <questionnaire>{...}</questionnaire>；"
        "只要保持同一个注册名称（questionnaire），就可以在这两种编码之间切换。"
        "注册名称：questionnaire、ling-questionnaire、movo-questionnaire、"
        "sage-questionnaire、yiii-questionnaire。",
    )


def test_near_miss_fails_with_one_repair_instruction_en() -> None:
    result = self_check(_conv(NEAR_MISS), locale="en")
    assert [d.message for d in result.diagnostics] == [
        "fence name 'Questionnaire' must be lower case: 'questionnaire'"
    ]
    assert result.repair_prompt == (
        "Your last reply contains a questionnaire block that fails the protocol check, so "
        "the user cannot answer it:\n"
        "- line 3, column 1 [near_miss.case]: fence name 'Questionnaire' must be lower "
        "case: 'questionnaire'\n"
        "Write the complete questionnaire again, every question included, not only the "
        "corrected part, with ordinary explanatory text before it. Use a fenced YAML block "
        "opened by ```questionnaire on its own line, or XML+JSON "
        "<questionnaire>{...}</questionnaire>; you may switch between these two encodings "
        "as long as you keep the same registered name (questionnaire). Registered names: "
        "questionnaire, "
        "ling-questionnaire, movo-questionnaire, sage-questionnaire, yiii-questionnaire."
    )
    assert result.to_json()["diagnostics"][0]["code"] == "near_miss.case"


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        (FENCED_OK.split("\n\n", 1)[1], ["fence.no_preface"]),
        ("Hi\n\n<foo-questionnaire>{}</foo-questionnaire>", ["name.unregistered"]),
        ("Hi\n\n~~~questionnaire\ntitle: T\n~~~\n", ["near_miss.tilde"]),
        (
            'Hi <questionnaire>{"questions": []}</questionnaire>',
            ["questionnaire.start.questions_empty"],
        ),
        ('Hi <questionnaire>{"questions": [1]}', ["near_miss.unclosed_tag"]),
        (
            "Hi\n\n```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: Q\n",
            ["fence.unclosed", "question.default_required"],
        ),
        ("> Hi\n> ```questionnaire\n> title: T\n> ```\n", ["near_miss.in_container"]),
    ],
)
def test_invalid_forms_fail(text: str, codes: list[str]) -> None:
    result = self_check(_conv(text), locale="en")
    assert not result.passed and result.index == 1
    assert [d.code for d in result.diagnostics if is_blocking(d)] == codes
    assert result.repair_prompt is not None
    for code in codes:
        assert f"[{code}]" in result.repair_prompt


def test_zh_messages_carry_the_path() -> None:
    text = (
        'Hi <questionnaire>{"questions":[{"type":"single_choice","text":"Q",'
        '"options":["a"],"default":"b"}]}</questionnaire>'
    )
    result = self_check(_conv(text))
    assert [(d.code, d.path, d.message) for d in result.diagnostics] == [
        (
            "questionnaire.start.default_value_not_in_options",
            "questions[1].default",
            "questions[1].default 必须是选项值之一。",
        )
    ]


def test_a_warning_alone_passes_and_is_reported() -> None:
    text = (
        "Hi\n\n```questionnaire\ntitle: T\nquestions:\n  - type: single_choice\n"
        "    text: Q\n    options:\n      - a\n      - a\n    default: a\n```\n"
    )
    result = self_check(_conv(text), locale="en")
    assert result.passed and result.repair_prompt is None
    assert [d.code for d in result.diagnostics] == ["question.duplicate_option"]


# --- which message is inspected -----------------------------------------------------------------


def test_no_assistant_reply_passes_with_index_none() -> None:
    assert self_check([]) == SelfCheckResult(True, None, (), None)
    assert self_check([{"role": "user", "content": "x"}]) == SelfCheckResult(True, None, (), None)
    # An assistant reply before the last user message is not inspected.
    conv = [{"role": "assistant", "content": NEAR_MISS}, {"role": "user", "content": "x"}]
    assert self_check(conv).index is None


def test_latest_counting_assistant_message_is_inspected() -> None:
    conv: list[dict[str, Any]] = [
        {"role": "system", "content": NEAR_MISS},
        {"role": "user", "content": NEAR_MISS},
        {"role": "assistant", "content": NEAR_MISS},
        {"role": "tool", "content": NEAR_MISS},
        {"role": "assistant", "content": " \n\u200b"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c"}]},
        {"role": "assistant", "content": "x", "message_type": "token_usage"},
        {"role": "assistant", "content": "y", "message_type": "empty"},
    ]
    # The tool call alone is the latest reply (it holds no form: passes).
    result = self_check(conv)
    assert (result.passed, result.index) == (True, 5)
    del conv[5]
    result = self_check(conv)
    assert (result.passed, result.index) == (False, 2)
    conv.append({"role": "assistant", "content": FENCED_OK, "message_type": "normal"})
    assert (self_check(conv).passed, self_check(conv).index) == (True, 7)


def test_without_a_user_message_all_messages_are_considered() -> None:
    conv = [{"role": "assistant", "content": NEAR_MISS}, {"role": "tool", "content": "r"}]
    assert (self_check(conv).passed, self_check(conv).index) == (False, 0)


def test_question_marks_never_make_a_form_due() -> None:
    for text in ("你想继续吗？要不要调整？", "Shall I go on? Which option do you prefer?"):
        assert self_check(_conv(text)) == SelfCheckResult(True, 1, (), None)


@pytest.mark.parametrize(
    "conv",
    [
        ["text"],
        [{"content": "x"}],
        [{"role": 1, "content": "x"}],
        [{"role": "assistant", "content": ["x"]}],
        [{"role": "assistant", "content": "x", "message_type": 3}],
    ],
)
def test_malformed_messages_raise_type_error(conv: list[Any]) -> None:
    with pytest.raises(TypeError):
        self_check(conv)


def test_unknown_locale_raises() -> None:
    with pytest.raises(ValueError):
        self_check([], locale="de")


# --- the corpus and the core vectors ----------------------------------------------------------


@pytest.mark.parametrize("path", SAGE_FILES, ids=lambda p: p.relative_to(SAGE_DOCS).as_posix())
def test_corpus_documents_pass(path: Path) -> None:
    # The Sage docs (QUESTIONNAIRE_FORMATS.md included) hold protocol examples only in
    # code: as an assistant reply each passes, also with a valid form after it, and fails
    # with a near-miss after it.
    doc = _read(path)
    assert self_check(_conv(doc)) == SelfCheckResult(True, 1, (), None)
    assert self_check(_conv(doc + "\n\n" + FENCED_OK)).passed
    failed = self_check(_conv(doc + "\n\n" + NEAR_MISS), locale="en")
    assert not failed.passed
    assert [d.code for d in failed.diagnostics] == ["near_miss.case"]


@pytest.mark.parametrize("case", VECTORS, ids=[c["id"] for c in VECTORS])
def test_core_vectors(case: dict[str, Any]) -> None:
    text = case["input"]
    result = self_check(_conv(text), locale="en")
    assert result.passed == _expected_pass(text)
    if is_blank(text):
        assert result.index is None
    else:
        assert result.index == 1
    if case["profile"] == "self_check":
        expected = case["expected"]["diagnostics"]
        own = [d.code for d in result.diagnostics if d.code != "selfcheck.response_in_reply"]
        assert own == [d["code"] for d in expected]
    # The vectors' own profile does not matter: Self-check always reads the five names.
    assert (result.repair_prompt is None) == result.passed


# --- property: passes exactly when segment() shows nothing blocking ---------------------------

_NAMES = st.sampled_from(
    ["questionnaire", "sage-questionnaire", "yiii-questionnaire", "foo-questionnaire"]
)
_NOISE = st.sampled_from(
    [
        "```Questionnaire\n",
        "~~~questionnaire\n",
        "``questionnaire\n",
        "```questionnaire yaml\n",
        "<questionnaire id=1>",
        "<questionnaire>{",
        "> ```questionnaire\n",
        "- ```questionnaire\n",
        "`<questionnaire>{}</questionnaire>`",
        "    <questionnaire>{}</questionnaire>\n",
        "你想继续吗？\n",
        "```\n",
        "\n",
    ]
)


@st.composite
def _messages(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["prose", "fenced", "xml", "noise"]))
        if kind == "prose":
            parts.append(draw(prose()))
        elif kind == "fenced":
            parts.append(fenced_yaml(draw(valid_forms())))
        elif kind == "xml":
            parts.append(xml_json(draw(valid_forms()), draw(_NAMES)))
        else:
            parts.append(draw(_NOISE))
    return "".join(parts)


@given(_messages(), st.sampled_from(["zh", "en"]))
def test_self_check_passes_exactly_when_nothing_blocks(text: str, locale: str) -> None:
    result = self_check(_conv(text), locale=locale)
    assert result.passed == _expected_pass(text)
    assert (result.repair_prompt is None) == result.passed
    raw = segment(text, message_id="m", profile=SELF_CHECK).diagnostics
    assert [(d.code, d.start, d.end, d.path) for d in result.diagnostics] == [
        (d.code, d.start, d.end, d.path) for d in raw
    ]
    if locale == "en":
        assert result.diagnostics == raw


# --- §11 submission rule ----------------------------------------------------------------------


def test_can_submit_only_the_latest_counting_assistant_message() -> None:
    conv: list[dict[str, Any]] = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": FENCED_OK},
        {"role": "tool", "content": "r"},
        {"role": "assistant", "content": "  "},
        {"role": "assistant", "content": "t", "message_type": "token_usage"},
        {"role": "assistant", "content": "e", "message_type": "empty"},
    ]
    assert can_submit(conv, 1)
    assert not can_submit(conv, 1, readonly=True)
    assert not can_submit(conv, 0)  # a user message
    assert not can_submit(conv, 2)  # a tool message
    assert not can_submit(conv, 3)  # blank
    assert not can_submit(conv, 4)  # token_usage
    later_reply = [*conv, {"role": "assistant", "content": "more"}]
    assert not can_submit(later_reply, 1)
    assert can_submit(later_reply, 6)
    answered = [
        *conv,
        {"role": "user", "content": "<questionnaire-response>{}</questionnaire-response>"},
    ]
    assert not can_submit(answered, 1)


def test_can_submit_a_tool_call_message() -> None:
    conv: list[dict[str, Any]] = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1"}]},
        {"role": "tool", "content": "{}", "tool_call_id": "call_1"},
    ]
    assert can_submit(conv, 1)
    conv.append({"role": "assistant", "content": None, "tool_calls": [{"id": "call_2"}]})
    assert not can_submit(conv, 1)
    assert can_submit(conv, 3)


@pytest.mark.parametrize("index", [-1, 2])
def test_can_submit_index_out_of_range(index: int) -> None:
    with pytest.raises(IndexError):
        can_submit(_conv("x"), index)


def test_stored_shapes_with_content_parts_are_read() -> None:
    """§8: a list of content parts is the most common stored shape of ``content``; its
    text parts, joined with nothing between them, are the message text, and a
    ``{"messages": [...]}`` object is a conversation too."""
    half = len(FENCED_OK) // 2
    parts = [{"type": "text", "text": FENCED_OK[:half]}, {"type": "text", "text": FENCED_OK[half:]}]
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "Plan the trip"}]},
        {"role": "assistant", "content": parts},
    ]
    assert self_check(messages) == SelfCheckResult(True, 1, (), None)
    assert self_check({"messages": messages}) == SelfCheckResult(True, 1, (), None)
    assert can_submit(messages, 1)
    near_miss = [{"role": "assistant", "content": [{"type": "text", "text": NEAR_MISS}]}]
    result = self_check(near_miss)
    assert not result.passed and [d.code for d in result.diagnostics] == ["near_miss.case"]
