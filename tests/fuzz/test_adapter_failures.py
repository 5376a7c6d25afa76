"""Adapter crashes, hangs, non-JSON lines and foreign ids are classes of their own, and
the adapter is restarted after each (docs/fuzzing.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replykit.fuzz import Adapter, AdapterStartError, fuzz
from replykit.fuzz.reference import reference

from .helpers import python_adapter, run_cli


@pytest.mark.parametrize(
    ("mode", "rule", "detail"),
    [
        ("crash", "adapter.crash", "exit status 3"),
        ("hang", "adapter.timeout", "no answer within 0.5 s"),
        ("garbage", "adapter.invalid_json", "this is not JSON"),
        ("badid", "adapter.bad_response", "answer id 'someone-else'"),
        ("nan", "adapter.invalid_json", "not a strict JSON line (column 24: NaN is not JSON;"),
        ("dupkey", "adapter.invalid_json", '(column 28: duplicate key "result"'),
        ("overflow", "adapter.invalid_json", "(column 30: the number 1e400 is beyond"),
        ("surrogate", "adapter.invalid_json", "(column 31: lone surrogate \\ud800"),
    ],
)
def test_failure_is_its_own_class_and_adapter_restarts(mode: str, rule: str, detail: str) -> None:
    report = fuzz(
        python_adapter("broken_adapter.py", mode),
        ops=("sanitize_actions",),
        examples=5,
        explicit=False,
        seed=4,
        timeout=0.5,
    )
    assert [c.rule for c in report.classes] == [rule]
    found = report.classes[0]
    assert found.op == "sanitize_actions"
    assert found.count == 1  # requests 1, 2 fine, 3 fails; then 1, 2 of the next process
    assert found.found_after_examples == 3
    assert detail in found.detail
    assert found.actual is None and "result" in found.expected
    assert report.adapter_starts == 2
    assert report.examples_run == 5


def test_failure_exit_status_1(tmp_path: Path) -> None:
    argv = ["fuzz", "--impl", " ".join(python_adapter("broken_adapter.py", "crash"))]
    argv += ["--op", "sanitize_actions", "--examples", "3", "--no-explicit", "--out", str(tmp_path)]
    assert run_cli(argv) == 1
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert [(c["rule"], c["count"]) for c in data["classes"]] == [("adapter.crash", 1)]
    assert "adapter failure" in (tmp_path / "report.txt").read_text(encoding="utf-8")


def test_missing_command_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["fuzz", "--impl", str(tmp_path / "no-such-adapter"), "--out", str(tmp_path)]
    assert run_cli(argv) == 2
    assert "cannot start adapter" in capsys.readouterr().err
    with pytest.raises(AdapterStartError), Adapter((str(tmp_path / "nope"),)) as adapter:
        adapter.request("segment", {"text": "", "message_id": "m", "profile": "client"})
    assert run_cli(["fuzz", "--impl", "  ", "--out", str(tmp_path)]) == 2


def test_budget_options_are_exclusive() -> None:
    with pytest.raises(SystemExit) as exc:
        run_cli(["fuzz", "--impl", "x", "--examples", "3", "--seconds", "2"])
    assert exc.value.code == 2


def test_a_field_left_in_a_kept_action_is_a_disagreement() -> None:
    """Fields outside the protocol are ignored elsewhere, but not in a kept action: a
    tool name reaching the execution object is what sanitizing must prevent (§12)."""
    report = fuzz(
        python_adapter("broken_adapter.py", "leak"),
        ops=("sanitize_actions",),
        examples=60,
        explicit=True,
        seed=4,
        timeout=5,
    )
    leaks = [c for c in report.classes if c.field.endswith("/tool")]
    assert leaks and leaks[0].rule == "§12" and not leaks[0].is_failure


def _in_process(mode: str) -> Any:
    """A Python client answering in this process, failing as ``mode`` says on its
    third request, replykit's own answer otherwise."""
    seen = 0

    def client(request: dict[str, Any]) -> Any:
        nonlocal seen
        seen += 1
        if seen == 3:
            if mode == "raise":
                raise KeyError("actions")
            if mode == "nan":
                return {"result": {"x": float("nan")}}
            if mode == "object":
                return {"result": object()}
            if mode == "list":
                return ["result"]
            return {"id": "someone-else", "result": {}}
        body = {k: v for k, v in request.items() if k not in ("id", "op")}
        return reference(request["op"], body)

    return client


@pytest.mark.parametrize(
    ("mode", "rule", "detail"),
    [
        ("raise", "adapter.crash", "the function raised KeyError: 'actions'"),
        ("nan", "adapter.invalid_json", "NaN is not JSON"),
        ("object", "adapter.invalid_json", "not a JSON value: Object of type object"),
        ("badid", "adapter.bad_response", "answer id 'someone-else'"),
        ("list", "adapter.bad_response", "the answer is not a JSON object"),
    ],
)
def test_an_in_process_client_fails_as_an_adapter_does(mode: str, rule: str, detail: str) -> None:
    client = _in_process(mode)
    report = fuzz(client, ops=("sanitize_actions",), examples=5, explicit=False, seed=4)
    assert [c.rule for c in report.classes] == [rule]
    found = report.classes[0]
    assert (found.count, found.found_after_examples) == (1, 3)
    assert detail in found.detail
    assert report.adapter_starts == 1 and report.examples_run == 5
    assert report.command == ("python:_in_process.<locals>.client",)
