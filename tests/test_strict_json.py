"""Strict JSON in and out (§1): every JSON replykit reads is read as strictly as a
payload, every JSON it writes is RFC 8259, and the library takes JSON text strictly."""

from __future__ import annotations

import json
import math
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_hostile import LINEAR, calls

import replykit
import replykit.actions
from replykit import (
    build_response,
    build_response_json,
    questionnaire_async,
    questionnaire_async_json,
    segment,
)
from replykit.actions import ActionDiagnostic, sanitize, sanitize_json
from replykit.cli import main
from replykit.jsonout import displayable, dumps, portable
from replykit.questionnaire.compat import SAGE, decode_transport
from replykit.questionnaire.conversation.responses import OTHER_VALUE, AnswersError
from replykit.questionnaire.conversation.tool import (
    call_questionnaire_async,
    questionnaire_from_tool_result,
)
from replykit.questionnaire.model import Option, Question, Questionnaire
from replykit.questionnaire.payload.json_strict import read_json_value

FENCED = (Path(__file__).parent / "data" / "seed" / "fenced_task_paused.md").read_bytes()
ARGS = '{"questions": [{"type": "text", "text": "x"}]}'


def _strict_loads(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(name)

    return json.loads(text, parse_constant=refuse)


# --- reading: one strict core --------------------------------------------------------

# (text, code, path, start, end)
REFUSED = [
    ('{"a": 1e400}', "json.number_too_large", ("a",), 6, 11),
    ('{"a": -1e400}', "json.number_too_large", ("a",), 6, 12),
    ("[1.8e308]", "json.number_too_large", (0,), 1, 8),
    ("[1" + "0" * 400 + "]", "json.number_too_large", (0,), 1, 402),
    ("[0." + "0" * 4300 + "1]", "json.number_too_large", (0,), 1, 4304),
    ("[" + "1" * 5000 + "]", "json.number_too_large", (0,), 1, 5001),
    ('{"a": "Why\\ud800?"}', "json.lone_surrogate", ("a",), 10, 16),
    ('{"a": "\\udc00"}', "json.lone_surrogate", ("a",), 7, 13),
    ('["\\ude00\\ud83d"]', "json.lone_surrogate", (0,), 2, 8),  # a pair in the wrong order
    ('["\\ud83d\\u0041"]', "json.lone_surrogate", (0,), 2, 8),
    ('["\\ud83d \\ude00"]', "json.lone_surrogate", (0,), 2, 8),
    ('{"\\udbff": 1}', "json.lone_surrogate", ("\udbff",), 2, 8),
    ('["x\ud800"]', "json.lone_surrogate", (0,), 3, 4),  # a raw one, from a Python str
    ('{"a": 1, "a": 2}', "json.duplicate_key", ("a",), 9, 12),
    ('{"a": NaN}', "json.constant", ("a",), 6, 9),
]


@pytest.mark.parametrize(("text", "code", "path", "start", "end"), REFUSED)
def test_strict_reading_refuses(text: str, code: str, path: Any, start: int, end: int) -> None:
    (f,) = read_json_value(text).findings
    assert (f.code, f.path, f.start, f.end, f.severity) == (code, path, start, end, "error")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("[9223372036854775807, -9223372036854775808]", [2**63 - 1, -(2**63)]),
        ("[18446744073709551615]", [2**64 - 1]),
        ("[1.7976931348623157e308, 1e-400, 5e-324]", [1.7976931348623157e308, 0.0, 5e-324]),
        ('["\\ud83d\\ude00", "\\\\ud800", "\\u00e9"]', ["😀", "\\ud800", "é"]),
        ("[1" + "0" * 300 + "]", [10**300]),
    ],
)
def test_strict_reading_keeps(text: str, value: Any) -> None:
    read = read_json_value(text)
    assert read.findings == () and read.value == value


def test_payload_gets_the_same_strictness() -> None:
    payload = '{"questions": [{"type": 1e400, "text": "Why\\ud800?"}]}'
    result = segment(f"Hi <questionnaire>{payload}</questionnaire>")
    assert not result.segments[1].valid
    assert [(d.code, d.path, d.start - 18, d.end - 18) for d in result.diagnostics] == [
        ("json.number_too_large", "questions[1].type", 24, 29),
        ("json.lone_surrogate", "questions[1].text", 43, 49),
    ]


# --- the command line: every JSON file is an input error, exit 2 ----------------------


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _put(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return str(path)


def _input_error(
    argv: list[str], capsys: pytest.CaptureFixture[str], command: str, expected: str
) -> None:
    code, out, err = _run(argv, capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"replykit {command}: error: ") and expected in err, err


def test_tool_duplicate_title_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = '{"title":"A","title":"B","questions":[{"type":"text","text":"x"}]}'
    path = _put(tmp_path, "a.json", text)
    _input_error(
        ["tool", "questionnaire_async", path],
        capsys,
        "tool",
        f'arguments {path} is not strict JSON at line 1, column 14: duplicate key "title"',
    )


def test_actions_duplicate_type_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = '{"actions":[{"id":"a","type":"business.execute","type":"view.detail","label":"x"}]}'
    path = _put(tmp_path, "a.json", text)
    _input_error(
        ["actions", path],
        capsys,
        "actions",
        f'answer {path} is not strict JSON at line 1, column 49: duplicate key "type"',
    )
    context = _put(tmp_path, "c.json", '{"locale": "en",\n"locale": "zh"}')
    answer = _put(tmp_path, "ok.json", '{"actions": []}')
    _input_error(
        ["actions", answer, "--context", context],
        capsys,
        "actions",
        f'context {context} is not strict JSON at line 2, column 1: duplicate key "locale"',
    )


@pytest.mark.parametrize(
    ("content", "where"),
    [
        ('{"questions":[{"type":1e400,"text":"x"}]}', "line 1, column 23: the number 1e400"),
        ('{"questions":[{"type":' + "1" * 5000 + ',"text":"x"}]}', "column 23: a number written"),
        ('{"questions":[\n{"type":"text","text":"Why\\ud800?"}]}', "line 2, column 27: lone"),
        ('{"questions": [NaN]}', "line 1, column 16: NaN is not JSON"),
        ("[" * 65 + "]" * 65, "line 1, column 65: JSON nesting deeper than 64 levels"),
    ],
)
def test_tool_refuses_what_a_payload_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, where: str
) -> None:
    path = _put(tmp_path, "a.json", content)
    _input_error(["tool", "questionnaire_async", path], capsys, "tool", where)


def test_tool_reads_64_bit_integers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _put(tmp_path, "a.json", '{"questions":[{"type":-9223372036854775808,"text":"x"}]}')
    code, out, _err = _run(["tool", "questionnaire_async", path, "--locale", "en"], capsys)
    assert code == 1
    assert json.loads(out)["errors"][0]["details"]["value"] == -(2**63)


def test_respond_answers_and_check_conversation_are_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    message = _put(tmp_path, "m.md", FENCED)
    answers = _put(tmp_path, "a.json", '{"q1": "继续", "q1": "停止"}')
    _input_error(
        ["respond", "--message", message, "--message-id", "m", "--answers", answers],
        capsys,
        "respond",
        f'answers {answers} is not strict JSON at line 1, column 14: duplicate key "q1"',
    )
    conversation = _put(
        tmp_path, "c.json", '[{"role": "user", "role": "assistant", "content": "hi"}]'
    )
    _input_error(
        ["check", conversation],
        capsys,
        "check",
        f"conversation {conversation} is not strict JSON at line 1, column 19: duplicate key",
    )


def test_input_error_counts_the_other_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _put(tmp_path, "a.json", '{"a": 1, "a": 2, "b": NaN, "c": 1e999}')
    _input_error(["tool", "questionnaire_async", path], capsys, "tool", "column 10: duplicate key ")
    _input_error(["tool", "questionnaire_async", path], capsys, "tool", "(2 more problems)")


# --- writing: strict JSON out ---------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (math.inf, "Infinity"),
        (-math.inf, "-Infinity"),
        (math.nan, "NaN"),
        (10**400, "1e+400"),
        (-(10**5000), "-1e+5000"),
        (123456789123456789123 * 10**400, "1.2345678912345678e+420"),
        (object(), "<object>"),
        ({1, 2}, "<set>"),
    ],
    ids=lambda v: v if isinstance(v, str) else type(v).__name__,
)
def test_library_details_hold_only_json(value: Any, shown: str) -> None:
    result = questionnaire_async(questions=[{"type": value, "text": "x"}], locale="en")
    (error,) = result["errors"]
    assert error["code"] == "questionnaire.start.question_type_invalid"
    assert error["details"]["value"] == shown
    text = json.dumps(result, allow_nan=False)
    assert _strict_loads(text) == result


def test_library_details_survive_deep_and_cyclic_values() -> None:
    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    cyclic: list[Any] = ["a"]
    cyclic.append(cyclic)
    for value in (deep, cyclic):
        # Nesting past the limits is refused before any value is described (§1).
        result = call_questionnaire_async({"questions": [{"type": value, "text": "x"}]})
        assert [e["code"] for e in result["errors"]] == ["json.too_deep"]
        assert _strict_loads(dumps(result)) == result
    assert "<cycle>" in dumps(portable(cyclic))


def test_answers_details_hold_only_json() -> None:
    form = Questionnaire(title="T", questions=(Question(id="q1", type="free_text", text="Q"),))
    # A key JSON cannot hold is a wrong argument type; an odd value is a finding whose
    # details stay JSON.
    with pytest.raises(TypeError, match="argument 'answers'"):
        build_response(form, {"q1": "ok", math.inf: "x"}, questionnaire_id="m_q1")
    for odd in (math.inf, 10**5000, math.nan):
        with pytest.raises(AnswersError) as info:
            build_response(form, {"q1": odd}, questionnaire_id="m_q1")
        assert [f.code for f in info.value.findings] == ["answer.type_mismatch"]
        json.loads(dumps([f.details for f in info.value.findings]))


def test_a_lone_surrogate_from_a_python_caller_is_refused() -> None:
    # JSON cannot carry one faithfully: "\ud800\udc00" written as two escapes reads back
    # as U+10000. So no form, id or answer may hold one (§1).
    form = Questionnaire(
        title="T",
        questions=(
            Question(id="q1", type="free_text", text="Q"),
            Question(
                id="q2", type="single_choice", text="R", options=(Option("a", "a"),),
                allow_other=True,
            ),
        ),
    )  # fmt: skip
    with pytest.raises(AnswersError) as info:
        answers = {"q1": "a\ud800\udc00b", "q2": {"value": OTHER_VALUE, "other_text": "\udfff"}}
        build_response(form, answers, questionnaire_id="m_q1")
    assert [(f.code, f.path, dict(f.details)) for f in info.value.findings] == [
        ("json.lone_surrogate", ("q1",), {"path": "q1"}),
        ("json.lone_surrogate", ("q2", "other_text"), {"path": "q2.other_text"}),
    ]
    assert info.value.findings[0].message == (
        "q1 holds U+D800, half of a surrogate pair and no character; JSON cannot carry it "
        "faithfully"
    )
    by_hand = Questionnaire(
        title="T", questions=(Question(id="q1", type="free_text", text="Why\ud800?"),)
    )
    with pytest.raises(ValueError, match=r"^questionnaire\.questions\[1\]\.text holds U\+D800"):
        build_response(by_hand, {}, questionnaire_id="m_q1")
    # The form-id rule of §6, with the message id's reason.
    with pytest.raises(
        ValueError, match=r"^questionnaire_id holds a surrogate code point, which JSON cannot"
    ):
        build_response(form, {}, questionnaire_id="m\udc00")
    with pytest.raises(ValueError, match=r"^ui_text\.other holds U\+D800"):
        build_response(form, {}, questionnaire_id="m_q1", ui_text={"other": "\ud800"})
    with pytest.raises(ValueError, match="message_id holds a surrogate"):
        segment("Hi", message_id="m\ud800")
    # An answer key that is no question id only reaches a diagnostic: escaped there.
    with pytest.raises(AnswersError) as info:
        build_response(form, {"x\ud800": "a"}, questionnaire_id="m_q1")
    assert [f.code for f in info.value.findings] == ["answer.unknown_question"]
    assert dumps([dict(f.details) for f in info.value.findings]).encode("utf-8")


def test_tool_arguments_with_a_lone_surrogate_are_not_read() -> None:
    questions = [
        {"type": "single_choice", "text": "Q", "options": ["a", {"value": "b", "label": "\udc00"}]},
        {"type": "text", "text": "R", "x\ud800y": 1},
    ]
    result = questionnaire_async("T\ud800", questions, locale="en")
    assert result["success"] is False
    assert [(e["code"], e["path"]) for e in result["errors"]] == [
        ("json.lone_surrogate", "title"),
        ("json.lone_surrogate", "questions[1].options[2].label"),
        ("json.lone_surrogate", 'questions[2]["x\\ud800y"]'),  # a key: at its entry, escaped
    ]
    assert dumps(result).encode("utf-8")
    zh = questionnaire_async("T\ud800", questions[:1])["errors"][0]
    assert zh["message"] == (
        "title 含有 U+D800，这是不成对的代理项（不是字符），严格 JSON 无法如实表示。"
    )
    # A forged success result holding one opens no form either.
    forged = {
        "success": True, "status": "awaiting_user_input", "validation_passed": True,
        "title": "T", "question_count": 1,
        "questions": [{"id": "q1", "type": "free_text", "text": "\ud800", "default": ""}],
    }  # fmt: skip
    opened = questionnaire_from_tool_result(forged, "call_1", locale="en")
    assert opened.questionnaire is None
    assert [(e.code, e.path) for e in opened.errors] == [
        ("json.lone_surrogate", "questions[1].text")
    ]


def test_respond_refuses_a_form_whose_yaml_escape_is_a_surrogate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The whole chain: the form is refused where it is read, so no answer to it is
    # ever built and read back as another character.
    message = "Intro\n\n```questionnaire\ntitle: T\nquestions:\n  - type: multi_choice\n"
    message += '    text: Q\n    options: ["\\ud800\\udc00", "a"]\n    default: []\n```\n'
    path = _put(tmp_path, "m.md", message)
    answers = _put(tmp_path, "a.json", "{}")
    code, out, err = _run(
        ["respond", "--message", path, "--message-id", "m", "--answers", answers], capsys
    )
    assert (code, out) == (2, "")
    assert "no valid questionnaire" in err
    (diag,) = segment(message).diagnostics
    assert (diag.code, diag.path) == ("yaml.lone_surrogate", "questions[1].options[1]")


def test_writer_guards() -> None:
    with pytest.raises(ValueError):
        dumps([math.nan])
    with pytest.raises(ValueError):
        dumps([math.inf])
    assert dumps({"a": "x\ud800é"}) == '{"a": "x\\ud800é"}'
    assert dumps({"a": "é"}, ascii_only=True) == '{"a": "\\u00e9"}'
    assert displayable("a\ud800\udc00b") == "a\ufffd\ufffdb"


json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.floats()
    | st.integers()
    | st.integers(min_value=10**300, max_value=10**320)
    | st.text(st.characters(), max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=3) | st.integers() | st.floats(), inner, max_size=3)
    ),
    max_leaves=12,
)


@given(json_like)
def test_portable_values_are_always_strict_json(value: Any) -> None:
    text = dumps(portable(value))
    text.encode("utf-8")
    again = _strict_loads(text)
    assert dumps(portable(again)) == text


# --- strict entry points taking JSON text ---------------------------------------------


def test_sanitize_json_refuses_what_json_loads_resolves() -> None:
    text = '{"actions":[{"id":"a","type":"business.execute","type":"view.detail","label":"x"}]}'
    assert [a.type for a in sanitize(json.loads(text)).actions] == ["view.detail"]
    result = sanitize_json(text)
    assert result.actions == () and result.source is None
    assert result.diagnostics == (
        ActionDiagnostic(
            "json.duplicate_key",
            "actions[1].type",
            'duplicate key "type"; each key may appear once',
            48,
            54,
            1,
            49,
        ),
    )
    assert result.diagnostics[0].to_json() == {
        "code": "json.duplicate_key",
        "path": "actions[1].type",
        "message": 'duplicate key "type"; each key may appear once',
        "start": 48,
        "end": 54,
        "line": 1,
        "column": 49,
    }


def test_sanitize_json_reads_valid_text_as_sanitize_does() -> None:
    text = (
        '{"answerData": {"actions": [{"id": "a", "type": "continue", "label": "Go",'
        ' "params": {"prompt": "p"}, "tool": "x"}, 7]}}'
    )
    assert sanitize_json(text) == sanitize(json.loads(text))
    (d,) = sanitize_json('{"answerData": {"a.b": [1,]}}').diagnostics
    assert (d.code, d.path, d.line, d.column) == ("json.syntax", None, 1, 27)
    (d,) = sanitize_json('{"answerData": {"a.b": [NaN]}}').diagnostics
    assert (d.code, d.path) == ("json.constant", 'answerData["a.b"][1]')


@pytest.mark.parametrize("bad", [b"{}", None, {"actions": []}, 3])
def test_json_text_entry_points_take_only_str(bad: Any) -> None:
    form = Questionnaire(title="T", questions=(Question(id="q1", type="free_text", text="Q"),))
    with pytest.raises(TypeError, match="argument 'text' must be str"):
        sanitize_json(bad)
    with pytest.raises(TypeError, match="argument 'arguments_text' must be str"):
        questionnaire_async_json(bad)
    with pytest.raises(TypeError, match="argument 'answers_text' must be str"):
        build_response_json(form, bad, questionnaire_id="m_q1")


def test_questionnaire_async_json() -> None:
    assert questionnaire_async_json(ARGS, locale="en") == call_questionnaire_async(
        json.loads(ARGS), locale="en"
    )
    assert questionnaire_async_json("[1]", locale="en")["errors"][0]["code"] == (
        "questionnaire.start.arguments_not_object"
    )
    text = '{"title": "A",\n "title": "B", "questions": [{"type": 1e400, "text": "x"}]}'
    result = questionnaire_async_json(text, locale="en")
    assert {k: result[k] for k in ("success", "status", "error_code", "validation_passed")} == {
        "success": False,
        "status": "error",
        "error_code": "INVALID_ARGUMENT",
        "validation_passed": False,
    }
    assert result["errors"] == [
        {
            "code": "json.duplicate_key",
            "path": "title",
            "message": 'duplicate key "title"; each key may appear once',
            "details": {"path": "title", "start": 16, "end": 23, "line": 2, "column": 2},
        },
        {
            "code": "json.number_too_large",
            "path": "questions[1].type",
            "message": "the number 1e400 is beyond a 64-bit float's range (it would read as "
            "infinity); write it as a string or a smaller number",
            "details": {
                "path": "questions[1].type",
                "start": 53,
                "end": 58,
                "line": 2,
                "column": 39,
            },
        },
    ]
    zh = questionnaire_async_json(text)["errors"][0]["message"]
    assert (
        zh
        == 'JSON 中存在重复的键（第 2 行第 2 列）：duplicate key "title"; each key may appear once'
    )
    with pytest.raises(ValueError):
        questionnaire_async_json(ARGS, locale="fr")


def test_build_response_json() -> None:
    form = Questionnaire(title="T", questions=(Question(id="q1", type="free_text", text="Q"),))
    built = build_response_json(form, '{"q1": "ok"}', questionnaire_id="m_q1")
    assert built == build_response(form, {"q1": "ok"}, questionnaire_id="m_q1")
    with pytest.raises(AnswersError) as info:
        build_response_json(form, '{"q1": "a", "q1": "b"}', questionnaire_id="m_q1")
    (f,) = info.value.findings
    assert (f.code, f.path, f.start, f.end) == ("json.duplicate_key", ("q1",), 12, 16)
    assert f.details == {"path": "q1", "line": 1, "column": 13}
    with pytest.raises(AnswersError) as info:
        build_response_json(form, '["ok"]', questionnaire_id="m_q1")
    (f,) = info.value.findings
    assert (f.code, f.start, f.end) == ("json.not_object", 0, 6)
    assert f.message == "the answers must be a JSON object from question id to answer, not an array"


def test_entry_points_are_exported() -> None:
    assert "questionnaire_async_json" in replykit.__all__
    assert "build_response_json" in replykit.__all__
    assert "sanitize_json" in replykit.actions.__all__


# --- other readers: Sage decoding, tag attributes -------------------------------------


def test_sage_json_string_decoding_is_strict() -> None:
    assert decode_transport('"a\\nb"', SAGE) == "a\nb"
    assert decode_transport('"a\\ud800"', SAGE) == '"a\\ud800"'  # left as it is


@pytest.mark.parametrize("value", ["9" * 5000, "1" * 400 + ".5", "1" * 400])
def test_sage_timeout_attribute_out_of_range_is_ignored_with_a_warning(value: str) -> None:
    body = '{"questions":[{"type":"text","text":"Q"}]}'
    text = f'Hi <questionnaire timeout_seconds="{value}">{body}</questionnaire>'
    result = segment(text, compat="sage")
    seg = result.segments[1]
    assert seg.valid and seg.questionnaire is not None
    assert seg.questionnaire.timeout_seconds is None
    (d,) = result.diagnostics
    assert (d.code, d.severity, d.start, d.end, d.path) == (
        "questionnaire.start.timeout_seconds_invalid",
        "warning",
        35,
        35 + len(value),
        "timeout_seconds",
    )
    dumps(result.to_json())


def test_every_json_code_is_documented_and_translated() -> None:
    from replykit.codes import CODES

    doc = (Path(__file__).parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(json\.[a-z_]+)` \| E \|", doc, flags=re.MULTILINE))
    codes = {f.code for text, *_ in REFUSED for f in read_json_value(text).findings}
    codes |= {"json.syntax", "json.too_deep", "json.not_object", "json.string_payload"}
    codes |= {"json.key_not_string"}  # a Python caller's tool arguments only, never a text
    assert codes == rows
    assert codes == {c for c in CODES if c.startswith("json.")}
    assert all(CODES[c].summary_zh for c in codes)


@pytest.mark.parametrize(
    "build",
    [
        lambda n: "{" + ", ".join(f'"k": {i}' for i in range(n)) + "}",  # duplicates
        lambda n: '["' + "\\ud800" * n + '"]',  # one string of lone surrogates
        lambda n: "[" + ", ".join(['"\\udc00x"'] * n) + "]",
        lambda n: "[" + ", ".join(["1e400"] * n) + "]",
        lambda n: "[" + ", ".join(["1" + "0" * 400] * n) + "]",
        lambda n: "[" + ", ".join(["NaN"] * n) + "]",
    ],
)
def test_strict_reading_is_linear(build: Any) -> None:
    small, large = (calls(partial(read_json_value, build(n))) for n in (100, 1000))
    assert large / small <= LINEAR, (small, large)
