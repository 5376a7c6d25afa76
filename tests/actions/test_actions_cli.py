"""``replykit actions``: add_parser/run on a parser of the test's own (§12)."""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from replykit.cli.actions import add_parser, run

DATA = Path(__file__).parent / "data"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="replykit")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code = run(args)
    assert args.func is run
    return code


def write(tmp_path: Path, name: str, value: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_json_report_for_the_seed_example_with_context(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "actions",
            str(DATA / "seed_full_example.json"),
            "--context",
            str(DATA / "context_example.json"),
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert list(out) == ["actions", "added", "confirm", "diagnostics"]
    assert [a["id"] for a in out["actions"]] == ["detail", "chart-line", "continue", "create-order"]
    # view.detail and conversation.continue are present; only modify is added.
    assert out["added"] == [
        {"id": "auto.conversation.modify", "type": "conversation.modify", "label": "修改展示"}
    ]
    assert out["confirm"] == ["create-order"]
    assert out["diagnostics"] == []


def test_lint_and_diagnostics_for_the_unsafe_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = write(
        tmp_path,
        "a.json",
        {"actions": [{"id": "unsafe", "type": "business.execute", "label": "执行",
                      "tool": "mcp__delete_all", "params": {"prompt": "执行指定业务操作"}},
                     {"id": "x", "type": "nope", "label": "X"}]},
    )  # fmt: skip
    assert main(["actions", answer, "--lint"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["actions"] == [
        {"id": "unsafe", "type": "business.execute", "label": "执行",
         "params": {"prompt": "执行指定业务操作"}}
    ]  # fmt: skip
    assert out["diagnostics"] == [
        {
            "code": "action.field_removed",
            "path": "actions[1].tool",
            "message": "this field is not part of the protocol; the field is removed.",
        },
        {
            "code": "action.type_unknown",
            "path": "actions[2].type",
            "message": "type is missing or not one of the 8 supported events; "
            "the action is dropped.",
        },
    ]
    assert [w["code"] for w in out["lint"]] == [
        "lint.actions_not_beside_datasets",
        "lint.description_missing",
        "lint.forbidden_field",
    ]


def test_text_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    context = write(tmp_path, "c.json", {"hasFullDetails": True, "locale": "en"})
    code = main(
        ["actions", str(DATA / "seed_unsafe_action.json"), "--context", context, "--format", "text"]
    )
    assert code == 0
    assert capsys.readouterr().out == (
        "actions (1, from answerData):\n"
        '  1. "unsafe"  business.execute  "执行"  [confirm]  prompt: 执行指定业务操作\n'
        "added (1):\n"
        '  + "auto.view.detail"  view.detail  "View details"\n'
        "diagnostics (2):\n"
        "  action.field_removed  actions[1].tool  this field is not part of the protocol;"
        " the field is removed.\n"
        "  action.field_removed  actions[1].params.arguments  params holds only prompt and"
        " chartType; the field is removed.\n"
    )


def test_non_object_answer_is_exit_0_with_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["actions", write(tmp_path, "a.json", [1, 2])]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "actions": [],
        "added": [],
        "confirm": [],
        "diagnostics": [],
    }


def test_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.dumps({"actions": "x"}).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["actions", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["diagnostics"][0]["code"] == "actions.not_list"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read answer"),
        (b"\xff\xfe{", "is not UTF-8"),
        (b'{"actions": [}', "is not strict JSON at line 1, column 14: expected a value, found '}'"),
        (b'{"actions": NaN}', "at line 1, column 13: NaN is not JSON"),
        (b"", "at line 1, column 1: expected a value, found the end of the text"),
        (b"[" * 100_000 + b"]" * 100_000, "at line 1, column 65: JSON nesting deeper than 64"),
    ],
)
def test_unreadable_answer_is_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, message: str
) -> None:
    path = tmp_path / "answer.json"
    if content is not None:
        path.write_bytes(content)
    assert main(["actions", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("replykit actions: error: ")
    assert message in captured.err
    assert captured.err.count("\n") == 1


@pytest.mark.parametrize(
    ("context", "message"),
    [
        ({"hasFullDetail": True}, "context.hasFullDetail: unknown key"),
        ({"charts": [{"componentId": "c", "dataShape": "pie"}]}, "context.charts[1].dataShape"),
        ([], "context: must be a JSON object"),
    ],
)
def test_bad_context_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], context: Any, message: str
) -> None:
    answer = write(tmp_path, "a.json", {"actions": []})
    assert main(["actions", answer, "--context", write(tmp_path, "c.json", context)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


def test_utf8_bom_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"actions": []}).encode())
    assert main(["actions", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] == []


def test_lone_surrogate_escape_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.json"
    path.write_text(
        '{"actions": [{"id": "\\ud800", "type": "view.detail", "label": "工\U0001f600"}]}',
        encoding="utf-8",
    )
    assert main(["actions", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(
        f"replykit actions: error: answer {path} is not strict JSON at line 1, column 22: "
        "lone surrogate \\ud800 in a string"
    )
