"""Every command whose ``--help`` describes its JSON output names every key that output
has (docs/cli.md), checked against real output of rich inputs: blocks of both
encodings, a response, near-misses, the diagnostics cap, a Sage-decoded message,
streaming with previews, failing answers. The inside of a form, a response, a preview,
answers and ``details`` is described in the docs, not in the help."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import pytest

from replykit.cli import build_parser, main

_FORM = (
    '{"title":"T","questions":[{"id":"q1","type":"single_choice","text":"Q",'
    '"options":["a","b"],"allow_other":true}]}'
)
_RESPONSE = (
    '{"questionnaire_id":"m_q1","status":"submitted","answers":[{"question_id":"q1","answer":"a"}]}'
)
_MANY_ERRORS = json.dumps({"questions": [{"type": "bogus", "text": "Q"}] * 300})
_RICH = (
    f"Intro\n\n<questionnaire>{_FORM}</questionnaire>\n<Questionnaire>\n"
    f"<questionnaire>{_MANY_ERRORS}</questionnaire>\n```questionnaire\ntitle: T\n```\n"
    f"<questionnaire-response>{_RESPONSE}</questionnaire-response>\n<yiii-questionnaire>"
    "{}</yiii-questionnaire>\n"
)
# Described in the docs, not the help: the inside of these values.
_OPAQUE = {"questionnaire", "response", "details", "answers", "preview", "questions"}


def _keys(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            out.add(key)
            if key not in _OPAQUE:
                _keys(item, out)
    elif isinstance(value, list):
        for item in value:
            _keys(item, out)
    return out


def _output_keys(args: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> set[str]:
    main(args)
    out = capsysbinary.readouterr().out.decode("utf-8")
    keys: set[str] = set()
    for line in out.splitlines():
        _keys(json.loads(line), keys)
    return keys


def _help(command: str) -> str:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return " ".join((sub.choices[command].description or "").split())


def _files(tmp_path: Path) -> dict[str, Path]:
    files = {
        "rich": _RICH,
        "sage": json.dumps("Intro\n<questionnaire>" + _MANY_ERRORS + "</questionnaire>"),
        "conversation": json.dumps([{"role": "assistant", "content": _RICH}]),
        "good": json.dumps({"q1": {"value": "__questionnaire_other__", "other_text": "x"}}),
        "bad": json.dumps({"q1": "zzz", "q9": "x"}),
    }
    paths = {}
    for name, text in files.items():
        paths[name] = tmp_path / name
        paths[name].write_text(text, encoding="utf-8")
    return paths


_RUNS: dict[str, list[list[str]]] = {
    "segment": [["{rich}"], ["{sage}", "--compat", "sage"], ["{rich}", "--profile", "self_check"]],
    "stream": [["{rich}", "--preview"], ["{sage}", "--compat", "sage", "--chunk-size", "7"]],
    "check": [["{conversation}"], ["{conversation}", "--jsonl"]],
    "respond": [
        ["--message", "{rich}", "--message-id", "m", "--answers", "{good}"],
        ["--message", "{rich}", "--message-id", "m", "--answers", "{bad}"],
    ],
}


@pytest.mark.parametrize("command", sorted(_RUNS))
def test_help_names_every_json_key(
    command: str, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    paths = {name: str(path) for name, path in _files(tmp_path).items()}
    keys: set[str] = set()
    for args in _RUNS[command]:
        keys |= _output_keys([command, *(a.format(**paths) for a in args)], capsysbinary)
    described = _help(command)
    missing = sorted(
        k for k in keys if not re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", described)
    )
    assert missing == [], (missing, described)
    assert len(keys) >= 6  # the runs did produce the shapes
