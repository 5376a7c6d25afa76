"""The documentation tells the truth: it quotes no library's error text (replykit prints
its own, docs/protocol.md §1.2), and the command outputs it shows are what the
commands print (compact JSON on one line)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from replykit.cli import main
from replykit.questionnaire.conversation.stored import ConversationError, read_conversations
from replykit.questionnaire.payload.yaml_loader import c_available

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_BAD_JSON = ["", "{", "[1,]", '{"a" 1}', '"abc', '{"a":1}x', '"\x01"', '"\\q"', "{'a':1}",
             "[1 2]", "tru", '{"a":}', '{"a":1,}', "[", "1e", "-"]  # fmt: skip
_BAD_YAML = ["a: b: c", "a: [b", "a: 'b", "- a\nb: c", "a: *x", "a: &", "{a", "a:\n\t- b", "`x",
             'a: "\\q"', "a: !<x", "%YAML 1.2\n%YAML 1.2\n---\na", "a: |x", "'a' b", "a: ]",
             "a: {b c, d: e f: g}", "- a\n- 'b' c"]  # fmt: skip


def _library_error_texts() -> set[str]:
    """The messages CPython's ``json`` and PyYAML's parsers give for typical bad input."""
    texts: set[str] = set()
    for bad in _BAD_JSON:
        try:
            json.loads(bad)
        except json.JSONDecodeError as error:
            texts.add(error.msg)
    loaders = [yaml.BaseLoader] + ([yaml.CBaseLoader] if c_available() else [])
    for bad in _BAD_YAML:
        for loader in loaders:
            try:
                parser = loader(bad)
                try:
                    while parser.check_event():
                        parser.get_event()
                finally:
                    parser.dispose()
            except yaml.MarkedYAMLError as error:
                texts |= {t for t in (error.problem, error.context) if t}
    return texts


def test_no_doc_quotes_a_library_error() -> None:
    texts = _library_error_texts()
    assert len(texts) > 20  # the probe itself works
    for doc in DOCS:
        content = doc.read_text(encoding="utf-8")
        assert [t for t in sorted(texts) if t in content] == [], doc.name


def _block_after(doc: str, marker: str) -> str:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    found = re.search(re.escape(marker) + r".*?```\w*\n(.*?)\n```", text, re.S)
    assert found is not None, marker
    return found.group(1)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def test_cli_segment_json_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    message = (
        "Please pick\n```questionnaire\ntitle: T\nquestions:\n  - type: single_choice\n"
        "    text: Continue?\n    options: [Yes]\n    default: Yes\n```\n"
    )
    path = tmp_path / "m.md"
    path.write_text(message, encoding="utf-8")
    code, out = _run(["segment", str(path)], capsys)
    assert code == 0 and out.count("\n") == 1  # one compact line
    assert out.startswith('{"segments":[{"kind":"markdown","start":0,"end":12,')
    printed = json.loads(out)
    printed["segments"][1]["text"] = "```questionnaire\n...```\n"  # left out in the doc
    assert printed == json.loads(_block_after("cli.md", "### JSON (default)"))


def test_cli_segment_text_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(["segment", "--format", "text", "examples/task_paused.md"], capsys)
    assert code == 0
    assert out.rstrip("\n") == _block_after("cli.md", "### Text")


def test_check_json_lines_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(
        '[{"role":"user","content":"hi"},{"role":"assistant","content":"ok"}]\n'
        '[{"role":"assistant","content":"Intro\\n\\n```Questionnaire\\ntitle: T\\n```\\n"}]\n',
        encoding="utf-8",
    )
    code, out = _run(["check", str(path)], capsys)
    shown = _block_after("protocol-responses.md", "`replykit check c.jsonl` prints").split("\n")
    printed = out.rstrip("\n").split("\n")
    assert code == 1 and len(printed) == len(shown) == 2
    for line, doc_line in zip(printed, shown, strict=True):
        assert re.fullmatch(re.escape(doc_line).replace("…", ".*"), line), (line, doc_line)


def test_conversation_error_example() -> None:
    text = '[{"role":"user","content":"x"}]\n[{"role":"user","content":"y"}]\n[{"role": ,}]\n'
    with pytest.raises(ConversationError) as info:
        read_conversations(text)
    doc = (ROOT / "docs" / "protocol-responses.md").read_text(encoding="utf-8")
    assert str(info.value) in " ".join(doc.split())
