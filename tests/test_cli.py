"""The ``replykit segment`` command (docs/cli.md)."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import subprocess
import sys
from pathlib import Path

import pytest

import replykit
from replykit.cli import build_parser
from replykit.questionnaire.payload.yaml_loader import ENV_VAR, c_available

FORM = (
    "Please answer.\r\n\r\n```questionnaire\r\ntitle: T\r\nquestions:\r\n"
    '  - type: free_text\r\n    text: "Why?"\r\n    default: ""\r\n```\r\n'
)


def run(
    *args: str, stdin: bytes | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "replykit.cli", *args],
        input=stdin,
        cwd=cwd,
        capture_output=True,
        timeout=60,
        check=False,
    )


def test_json_output_has_the_documented_shape(tmp_path: Path) -> None:
    path = tmp_path / "m.md"
    path.write_bytes(FORM.encode("utf-8"))
    proc = run("segment", str(path), "--message-id", "m7")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"segments", "diagnostics"}
    kinds = [s["kind"] for s in out["segments"]]
    assert kinds == ["markdown", "questionnaire"]
    block = out["segments"][1]
    assert block["text"].startswith("```questionnaire\r\n")  # CRLF reaches the parser
    assert (block["id"], block["valid"], block["encoding"]) == ("m7_q1", True, "fenced_yaml")
    assert block["questionnaire"]["questions"][0] == {
        "id": "q1",
        "type": "free_text",
        "text": "Why?",
        "options": [],
        "default": "",
        "allow_other": False,
    }
    assert "".join(s["text"] for s in out["segments"]) == FORM


def test_text_output_lists_segments_and_diagnostics(tmp_path: Path) -> None:
    (tmp_path / "bad.md").write_text("```questionnaire\ntitle: T\n```\n", encoding="utf-8")
    path = "bad.md"  # a short name: each line repeats it (a long one is shortened)
    proc = run("segment", "--format", "text", path, cwd=tmp_path)
    assert proc.returncode == 0
    lines = proc.stdout.decode("utf-8").splitlines()
    assert lines[0] == f"{path}:1-3: questionnaire fenced_yaml questionnaire message_q1 invalid"
    assert f"{path}:1:1: error fence.no_preface" in "\n".join(lines)
    assert any(line.startswith(f"{path}:") and "form.questions_required" in line for line in lines)


def test_stdin_and_profiles() -> None:
    text = b"Hi <yiii-questionnaire>{}</yiii-questionnaire>"
    client = json.loads(run("segment", "-", stdin=text).stdout)
    assert client["segments"][1]["registered"] is False
    checker = json.loads(run("segment", "--profile", "self_check", stdin=text).stdout)
    assert checker["segments"][1]["registered"] is True
    yiii = json.loads(run("segment", "--profile", "product:yiii", stdin=text).stdout)
    assert yiii["segments"][1]["registered"] is True


def test_usage_and_input_errors_exit_2_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.md"
    bad.write_bytes("caf\xe9".encode("latin-1"))
    cases = [
        run("segment", str(bad)),
        run("segment", str(tmp_path / "missing.md")),
        run("segment", "--profile", "product:Bad Name", str(bad)),
        run("segment", "--format", "yaml", str(bad)),
        run("nosuchcommand"),
    ]
    for proc in cases:
        assert proc.returncode == 2
        err = proc.stderr.decode("utf-8")
        assert err.count("\n") == 1 and "Traceback" not in err, err


def test_compat_sage_reads_escaped_tags() -> None:
    text = b"Hi &lt;questionnaire&gt;{}&lt;/questionnaire&gt;"
    out = json.loads(run("segment", "--compat", "sage", stdin=text).stdout)
    assert out["decoded"] == "Hi <questionnaire>{}</questionnaire>"
    assert [s["kind"] for s in out["segments"]] == ["markdown", "questionnaire"]


def test_a_yaml_surrogate_escape_is_a_diagnostic_and_output_stays_utf8(tmp_path: Path) -> None:
    # YAML's "\ud800" escape denotes no character: the form is refused, as a JSON
    # payload's is, and nothing unencodable reaches the output.
    path = tmp_path / "s.md"
    path.write_text(
        'Intro\n\n```questionnaire\ntitle: "工\\ud800"\nquestions:\n  - type: free_text\n'
        '    text: Q\n    default: ""\n```\n',
        encoding="utf-8",
    )
    out = json.loads(run("segment", str(path)).stdout.decode("utf-8"))
    assert out["segments"][1]["valid"] is False
    assert [(d["code"], d["start"], d["end"], d["path"]) for d in out["diagnostics"]] == [
        ("yaml.lone_surrogate", 31, 40, "title")
    ]
    text = run("segment", "--format", "text", str(path)).stdout.decode("utf-8")
    assert "yaml.lone_surrogate" in text


def test_lone_surrogate_escape_in_a_payload_is_a_diagnostic(tmp_path: Path) -> None:
    path = tmp_path / "s.md"
    path.write_text(
        '<questionnaire>{"title":"\\ud800","questions":[{"type":"text","text":"Q"}]}'
        "</questionnaire>",
        encoding="utf-8",
    )
    out = json.loads(run("segment", str(path)).stdout.decode("utf-8"))
    assert out["segments"][0]["valid"] is False
    assert [(d["code"], d["start"], d["end"], d["path"]) for d in out["diagnostics"]] == [
        ("json.lone_surrogate", 25, 31, "title")
    ]


def test_docs_text_example_is_what_the_command_prints() -> None:
    root = Path(__file__).resolve().parents[1]
    doc = (root / "docs" / "cli.md").read_text(encoding="utf-8")
    example = doc.split("### Text", 1)[1].split("```\n", 2)[1]
    proc = subprocess.run(
        [sys.executable, "-m", "replykit.cli", "segment", "--format", "text",
         "examples/task_paused.md"],
        cwd=root, capture_output=True, timeout=60, check=True,
    )  # fmt: skip
    assert proc.stdout.decode("utf-8") == example


def test_yaml_loader_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same output under every loader; a bad name is a one-line error, exit 2.
    tabbed = FORM.replace("title: T", "title:\tT").encode()
    outputs = set()
    for loader in ("auto", "pure", *(["c"] if c_available() else [])):
        monkeypatch.setenv(ENV_VAR, loader)
        done = run("segment", "-", stdin=tabbed)
        assert done.returncode == 0, done.stderr
        outputs.add(done.stdout)
    assert len(outputs) == 1
    assert json.loads(outputs.pop())["segments"][1]["valid"] is True
    monkeypatch.setenv(ENV_VAR, "cython")
    done = run("segment", "-", stdin=tabbed)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode() == (
        "replykit segment: error: REPLYKIT_YAML_LOADER must be one of auto, c, pure; got 'cython'\n"
    )


def _options(parser: argparse.ArgumentParser, prog: str) -> list[tuple[str, str | None]]:
    """Every option, positional and subcommand of ``parser``'s tree with its help."""
    found: list[tuple[str, str | None]] = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                found.append((f"{prog} {name}", helps.get(name)))
                found += _options(sub, f"{prog} {name}")
            continue
        found.append((f"{prog} {'/'.join(action.option_strings) or action.dest}", action.help))
    return found


def test_every_option_of_every_command_has_help() -> None:
    options = _options(build_parser(), "replykit")
    assert len(options) > 40
    assert [name for name, text in options if not text or text == argparse.SUPPRESS] == []
    names = {name for name, _ in options}
    assert {"replykit --version", "replykit segment --format", "replykit schema which"} <= names


def test_version_is_the_installed_distributions() -> None:
    proc = run("--version")
    assert proc.returncode == 0
    version = importlib.metadata.version("replykit")
    label = replykit.build_info().label()
    assert proc.stdout.decode("utf-8") == f"replykit {version} ({label})\n"
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text("utf-8")
    assert f'\nversion = "{version}"\n' in pyproject


def test_schema_command_names_every_schema() -> None:
    for which in ("tool", "form", "response", "actions"):
        proc = run("schema", which)
        assert proc.returncode == 0
        assert json.loads(proc.stdout)["$schema"].startswith("https://json-schema.org/")
    assert run("schema", "nothing").returncode == 2


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every subcommand path of the parser tree (``("vectors", "export")``)."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += [(*path, name), *_commands(sub, (*path, name))]
    return found


def test_every_subcommand_names_itself_in_its_usage_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from replykit.cli import main

    commands = _commands(build_parser())
    assert ("segment",) in commands and ("vectors", "export") in commands
    for command in commands:
        assert main([*command, "--no-such-option"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"replykit {' '.join(command)}: error: "), err
        assert err.count("\n") == 1


def test_an_unknown_option_after_a_complete_command_is_that_commands_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from replykit.cli import main

    path = tmp_path / "m.md"
    path.write_text("Hi\n", encoding="utf-8")
    assert main(["segment", str(path), "--bogus", "x"]) == 2
    assert capsys.readouterr().err == "replykit segment: error: unrecognized arguments: --bogus x\n"
    assert main(["--bogus", "segment", str(path)]) == 2
    assert capsys.readouterr().err == "replykit: error: unrecognized arguments: --bogus\n"
