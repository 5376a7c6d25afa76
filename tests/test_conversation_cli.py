"""``replykit check | respond | tool | schema`` through add_parser on the test's own parser
(docs/protocol-responses.md section 5)."""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from replykit.cli.conversation import add_parser, run_check, run_respond
from replykit.cli.io import label
from replykit.cli.tool import add_parser as add_tool_parser
from replykit.cli.tool import run_schema, run_tool
from replykit.questionnaire.conversation.tool import questionnaire_async, tool_schema

SEED = Path(__file__).parent / "data" / "seed"
FENCED = (SEED / "fenced_task_paused.md").read_bytes()
SEED_RESPONSE = (SEED / "xml_response.md").read_bytes().decode("utf-8").rstrip("\n")
SEED_ARGS = {
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
NEAR_MISS = "请选择：\n\n```Questionnaire\ntitle: T\n```\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="replykit")
    sub = parser.add_subparsers(dest="command", required=True)
    parsers = (*add_parser(sub), *add_tool_parser(sub))
    assert [p.prog for p in parsers] == [
        "replykit check",
        "replykit respond",
        "replykit tool",
        "replykit schema",
    ]
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


def put(tmp_path: Path, name: str, value: Any) -> str:
    path = tmp_path / name
    if isinstance(value, bytes):
        path.write_bytes(value)
    else:
        path.write_bytes(json.dumps(value, ensure_ascii=False).encode("utf-8"))
    return str(path)


def out_json(capsys: pytest.CaptureFixture[str]) -> Any:
    captured = capsys.readouterr()
    assert captured.err == ""
    return json.loads(captured.out)


def err_line(capsys: pytest.CaptureFixture[str], prefix: str) -> str:
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(prefix) and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err
    return captured.err


def test_runners_are_registered() -> None:
    parser = argparse.ArgumentParser(prog="replykit")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    add_tool_parser(sub)
    assert parser.parse_args(["check", "c.json"]).func is run_check
    assert (
        parser.parse_args(["respond", "--message", "m", "--message-id", "i", "--answers", "a"]).func
        is run_respond
    )
    assert parser.parse_args(["tool", "questionnaire_async", "a.json"]).func is run_tool
    assert parser.parse_args(["schema", "tool"]).func is run_schema


# --- check ---------------------------------------------------------------------------------


def test_check_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conv = [{"role": "user", "content": "q"}, {"role": "assistant", "content": FENCED.decode()}]
    assert main(["check", put(tmp_path, "c.json", conv)]) == 0
    assert out_json(capsys) == {
        "passed": True,
        "index": 1,
        "diagnostics": [],
        "repair_prompt": None,
    }


def test_check_fails_json_and_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conv = [{"role": "user", "content": "q"}, {"role": "assistant", "content": NEAR_MISS}]
    path = put(tmp_path, "c.json", conv)
    assert main(["check", path, "--locale", "en"]) == 1
    out = out_json(capsys)
    assert list(out) == ["passed", "index", "diagnostics", "repair_prompt"]
    assert (out["passed"], out["index"]) == (False, 1)
    assert out["diagnostics"] == [
        {
            "code": "near_miss.case",
            "severity": "warning",
            "message": "fence name 'Questionnaire' must be lower case: 'questionnaire'",
            "start": 6,
            "end": 22,
            "line": 3,
            "column": 1,
            "path": None,
        }
    ]
    assert out["repair_prompt"].startswith("Your last reply contains a questionnaire block")
    assert main(["check", path, "--format", "text"]) == 1
    text = capsys.readouterr().out
    # A long path is named once, then by its last characters (docs/cli.md).
    short = label(path)
    assert text.startswith(
        (f"file: {path}\n" if short != path else "") + f"{short}: failed (message 1)\n"
        f"{short}: message 1 3:1: warning near_miss.case 问卷名称必须全部小写。\n"
        f"{short}: repair prompt:\n{short}:   | 你上一条回复中的问卷没有通过协议校验"
    )


def test_check_empty_conversation_passes_in_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    put(tmp_path, "c.json", [])
    assert main(["check", "c.json", "--format", "text"]) == 0
    assert capsys.readouterr().out == "c.json: passed (no assistant reply to check)\n"


def test_check_reads_bytes_keeping_crlf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A raw CR/LF pair inside a JSON file is whitespace between tokens; the message's own
    # CRLF (escaped in the JSON) reaches segment() and shifts the offsets by one per line.
    content = FENCED.decode().replace("\n", "\r\n").replace("questionnaire\r", "Questionnaire\r")
    raw = json.dumps([{"role": "assistant", "content": content}], ensure_ascii=False)
    path = put(tmp_path, "c.json", ("\ufeff" + raw.replace(", ", ",\r\n")).encode("utf-8"))
    assert main(["check", path, "--locale", "en"]) == 1
    diags = out_json(capsys)["diagnostics"]
    assert [(d["code"], d["line"], d["start"]) for d in diags] == [
        ("near_miss.case", 3, content.index("```"))
    ]


def test_check_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.dumps([{"role": "assistant", "content": "hello"}]).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["check", "-"]) == 0
    assert out_json(capsys)["index"] == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{}", "a conversation object needs a messages list (or a role, for one message)"),
        (b"[1]", "the conversation is malformed: messages[0] must be an object, not a number"),
        (b'[{"role": "assistant", "content": 3}]', "the conversation is malformed"),
        (b"[NaN]", "is not strict JSON at line 1, column 2: NaN is not JSON"),
        (b"[", "is not strict JSON at line 1, column 2: expected a value, found the end"),
        (b"\xff[]", "is not UTF-8 (byte 0)"),
    ],
)
def test_check_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    assert main(["check", put(tmp_path, "c.json", content)]) == 2
    assert message in err_line(capsys, "replykit check: error: ")


def test_check_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "none.json")]) == 2
    assert "cannot read conversation" in err_line(capsys, "replykit check: error: ")


def test_check_bad_locale_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as info:
        main(["check", "c.json", "--locale", "fr"])
    assert info.value.code == 2


# --- respond -------------------------------------------------------------------------------


def _respond(tmp_path: Path, message: bytes, answers: Any, *extra: str) -> int:
    return main(
        [
            "respond",
            "--message",
            put(tmp_path, "m.md", message),
            "--message-id",
            "MESSAGE_ID",
            "--answers",
            put(tmp_path, "a.json", answers),
            *extra,
        ]
    )


def test_respond_reproduces_the_seed_response(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _respond(tmp_path, FENCED, {}) == 0
    assert out_json(capsys) == {
        "agent_text": SEED_RESPONSE,
        "display_text": "问卷回答\n是否继续当前任务？：继续",
        "answers": [
            {
                "question_id": "q1",
                "question": "是否继续当前任务？",
                "type": "single_choice",
                "answer": "继续",
                "value": "继续",
                "label": "继续",
            }
        ],
    }


def test_respond_with_crlf_message_and_block_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    xml = (SEED / "xml_sage_project.md").read_bytes().rstrip(b"\n")
    message = FENCED.replace(b"\n", b"\r\n") + b"\r\n" + xml + b"\r"
    assert (
        _respond(tmp_path, message, {"q1": "调整"}, "--id", "MESSAGE_ID_q2", "--locale", "en") == 0
    )
    out = out_json(capsys)
    assert out["agent_text"] == (
        '<sage-questionnaire-response>{"type":"sage_questionnaire_response",'
        '"questionnaire_id":"MESSAGE_ID_q2","status":"submitted","answers":[{"question_id":'
        '"q1","question":"下一步如何处理？","type":"single_choice","answer":"调整",'
        '"value":"调整","label":"调整"}]}</sage-questionnaire-response>'
    )
    assert out["display_text"] == "Questionnaire answers\n下一步如何处理？: 调整"


def test_respond_answers_that_do_not_fit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _respond(tmp_path, FENCED, {"q1": "停止", "q2": "x"}) == 1
    assert out_json(capsys) == {
        "diagnostics": [
            {
                "code": "answer.value_not_in_options",
                "severity": "error",
                "path": "q1",
                "message": 'q1: "停止" is not an option value of question q1',
                "details": {
                    "path": "q1",
                    "question_id": "q1",
                    "value": "停止",
                    "allowed": ["继续"],
                },
            },
            {
                "code": "answer.unknown_question",
                "severity": "error",
                "path": "q2",
                "message": 'q2: the form has no question with id "q2"',
                "details": {"path": "q2", "value": "q2", "allowed": ["q1"]},
            },
        ]
    }


@pytest.mark.parametrize(
    ("message", "answers", "extra", "error"),
    [
        (FENCED, ["继续"], [], "the answers must be a JSON object"),
        (b"no form here", {}, [], "has no valid questionnaire"),
        (FENCED.split(b"\n\n", 1)[1], {}, [], "has no valid questionnaire"),  # no preface
        (FENCED, {}, ["--id", "MESSAGE_ID_q9"], "has no questionnaire with id MESSAGE_ID_q9"),
        (
            b"x <questionnaire>{}</questionnaire>",
            {},
            ["--id", "MESSAGE_ID_q1"],
            "block MESSAGE_ID_q1 of",
        ),
        (FENCED, {}, ["--profile", "product:Bad"], "product namespace must match"),
        (b"\xc3", {}, [], "is not UTF-8"),
    ],
)
def test_respond_usage_errors(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    message: bytes,
    answers: Any,
    extra: list[str],
    error: str,
) -> None:
    assert _respond(tmp_path, message, answers, *extra) == 2
    assert error in err_line(capsys, "replykit respond: error: ")


def test_respond_profile_decides_registration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    message = FENCED.replace(b"```questionnaire", b"```yiii-questionnaire")
    assert _respond(tmp_path, message, {}) == 2
    capsys.readouterr()
    assert _respond(tmp_path, message, {}, "--profile", "product:yiii") == 0
    assert out_json(capsys)["agent_text"].startswith(
        '<yiii-questionnaire-response>{"type":"yiii_questionnaire_response"'
    )


# --- tool and schema -----------------------------------------------------------------------


def test_tool_success(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tool", "questionnaire_async", put(tmp_path, "a.json", SEED_ARGS)]) == 0
    out = out_json(capsys)
    assert out == questionnaire_async(SEED_ARGS["title"], SEED_ARGS["questions"])
    assert out["message"] == "问卷已发起并等待用户回复，共 1 题。"


def test_tool_validation_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = put(tmp_path, "a.json", {"questions": []})
    assert main(["tool", "questionnaire_async", path, "--locale", "en"]) == 1
    assert out_json(capsys) == {
        "success": False,
        "status": "error",
        "error_code": "INVALID_ARGUMENT",
        "validation_passed": False,
        "errors": [
            {
                "code": "questionnaire.start.questions_empty",
                "path": "questions",
                "message": "questions must contain at least one question.",
                "details": {"path": "questions"},
            }
        ],
    }


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"[]", "the tool-call arguments must be a JSON object"),
        (b"{", "is not strict JSON at line 1, column 2: expected a string key or '}'"),
        (b'{"questions": [Infinity]}', "at line 1, column 16: Infinity is not JSON"),
    ],
)
def test_tool_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, error: str
) -> None:
    assert main(["tool", "questionnaire_async", put(tmp_path, "a.json", content)]) == 2
    assert error in err_line(capsys, "replykit tool: error: ")


def test_tool_unknown_name_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as info:
        main(["tool", "questionnaire_sync", "a.json"])
    assert info.value.code == 2


def test_schema_tool(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "tool"]) == 0
    assert out_json(capsys) == tool_schema()


def test_check_text_prefixes_every_line_of_a_json_lines_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    fence = "Intro\\n\\n```Questionnaire\\ntitle: T\\n```\\n"
    line = f'[{{"role":"assistant","content":"{fence}"}}]'
    Path("two.jsonl").write_text(line + "\n" + line + "\n", encoding="utf-8")
    assert main(["check", "two.jsonl", "--format", "text", "--locale", "en"]) == 1
    lines = capsys.readouterr().out.splitlines()
    first = [x for x in lines if x.startswith("two.jsonl:1: ")]
    second = [x for x in lines if x.startswith("two.jsonl:2: ")]
    assert len(first) + len(second) == len(lines)
    assert first == [x.replace("two.jsonl:2: ", "two.jsonl:1: ", 1) for x in second]
    assert "two.jsonl:1: repair prompt:" in first and len(first) > 4
