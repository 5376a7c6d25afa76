"""The README's promises: its Python example runs, and CI runs its test command verbatim."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_quick_start_has_exactly_two_commands_and_ci_runs_the_second() -> None:
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", quick, re.S)
    assert len(commands) == 2
    assert all("\n" not in c and "python3 -m venv" in c for c in commands)
    assert "replykit segment" in commands[0] and "examples/" in commands[0]
    assert "pytest" in commands[1]
    # The browser tests need Debian's chromium: the command installs it when missing.
    assert commands[1].startswith("(command -v chromium >/dev/null || (apt-get update")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = ci.splitlines()
    assert commands[1] in lines
    # A failed step before pytest must fail CI: set -e alone ignores it inside an && list.
    after = lines[lines.index(commands[1]) + 1 :]
    checks = [line for line in after if not line.startswith("#")][:2]
    assert checks == ["status=$?", '[ "$status" -eq 0 ] || exit "$status"']


def test_library_example_runs_on_the_bundled_message(capsys: pytest.CaptureFixture[str]) -> None:
    code = re.search(r"```python\n(.*?)\n```", README, re.S)
    assert code is not None
    text = (ROOT / "examples" / "task_paused.md").read_text(encoding="utf-8")
    exec(compile(code.group(1), "README.md", "exec"), {"text": text})
    out = capsys.readouterr().out
    assert "msg-1_q1 任务已暂停" in out
    assert '<questionnaire-response>{"type":"questionnaire_response"' in out
    assert out.rstrip().endswith("True")


def _section(title: str) -> str:
    return README.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


def test_development_has_its_own_venv_and_the_commands_say_how_to_run_replykit() -> None:
    venvs = re.compile(r"python3 -m venv (\S+)")
    quick = set(venvs.findall(_section("Quick start")))
    development = set(venvs.findall(_section("Development")))
    assert quick and development and not quick & development
    used = set(re.findall(r"(\.venv[\w-]*)/bin/", _section("Development")))
    assert used == development  # every development command runs in its own venv
    command_line = _section("Command line")
    assert ".venv/bin/replykit" in command_line and ".venv/bin/activate" in command_line
    assert "python3 -m venv .venv " in _section("Quick start")  # the venv it refers to
