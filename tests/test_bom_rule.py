"""The byte order mark rule, in one sentence (docs/cli.md, docs/protocol.md §1): a JSON
*file* the CLI reads may start with a BOM (the file's encoding, ignored, by every reader
of the CLI); a JSON *text* passed to the library is strict JSON and a BOM is refused.

Each CLI reader is run on a file with and without a leading BOM: the outputs are equal
and a success; each library entry point that takes JSON text refuses the BOM."""

from __future__ import annotations

from pathlib import Path

import pytest

from replykit import questionnaire_async_json, segment
from replykit.actions import sanitize_json
from replykit.cli import main
from replykit.evals.record import audit_json
from replykit.fuzz.accept import load_accept
from replykit.questionnaire.conversation.responses import AnswersError
from replykit.questionnaire.conversation.responses.build import build_response_json

BOM = "\ufeff"
MESSAGE = (
    "Intro\n\n```questionnaire\ntitle: T\nquestions:\n"
    '  - type: free_text\n    text: Q\n    default: ""\n```\n'
)
ASSISTANT = '{"role": "assistant", "content": "Hi"}'
# command line (the JSON file is "f" + its suffix), the file's text
READERS = {
    "tool": (
        ["tool", "questionnaire_async", "f.json"],
        '{"questions":[{"type":"text","text":"a"}]}',
    ),
    "respond": (
        ["respond", "--message", "m.md", "--message-id", "m", "--answers", "f.json"],
        '{"q1": "x"}',
    ),
    "actions answer": (["actions", "f.json"], '{"actions": []}'),
    "actions context": (["actions", "--context", "f.json", "a.json"], '{"locale": "en"}'),
    "check json": (["check", "f.json"], f"[{ASSISTANT}]"),
    "check jsonl": (["check", "f.jsonl"], ASSISTANT + "\n" + ASSISTANT + "\n"),
    "audit json": (["audit", "--format", "json", "f.json"], f"[{ASSISTANT}]"),
    "audit jsonl": (["audit", "--format", "json", "f.jsonl"], ASSISTANT + "\n"),
    "stream sse": (
        ["stream", "--sse", "f.sse"],
        'data: {"choices": [{"delta": {"content": "Hi"}}]}\n\ndata: [DONE]\n\n',
    ),
}


def _run(
    tmp: Path, argv: list[str], text: str, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    (tmp / "m.md").write_text(MESSAGE, encoding="utf-8")
    (tmp / "a.json").write_text('{"actions": []}', encoding="utf-8")
    name = next(a for a in argv if a.startswith("f."))
    (tmp / name).write_text(text, encoding="utf-8")
    capsys.readouterr()
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("reader", sorted(READERS))
def test_every_cli_json_reader_ignores_one_leading_bom(
    reader: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv, text = READERS[reader]
    results = []
    for variant, content in (("plain", text), ("bom", BOM + text), ("two", BOM + BOM + text)):
        folder = tmp_path / variant
        folder.mkdir()
        monkeypatch.chdir(folder)
        results.append(_run(folder, argv, content, capsys))
    plain, with_bom, (status, out, err) = results
    assert plain[0] == 0, plain
    assert with_bom == plain
    # The file's encoding is one mark; a second is text, and not JSON (no reader may
    # skip one more than another: the same file gets the same verdict everywhere).
    if reader == "stream sse":
        # Not JSON: as the event-stream format says, one mark is dropped and the next
        # is part of the first field's name ("\ufeffdata"), which no reader knows.
        assert (status, out.count('"event"')) == (0, 1), out
    elif reader.startswith("audit"):
        assert '"input_errors":{"count":1' in out and "byte order mark" in out, out
    else:
        assert status == 2 and "byte order mark" in out + err, (status, out + err)


def test_the_fuzz_accept_file_ignores_a_leading_bom(tmp_path: Path) -> None:
    plain, bom = tmp_path / "a.json", tmp_path / "b.json"
    plain.write_text('{"accept": []}', encoding="utf-8")
    bom.write_text(BOM + '{"accept": []}', encoding="utf-8")
    assert load_accept(str(bom)) == load_accept(str(plain))


REFUSED = "the text starts with a byte order mark (U+FEFF), which is not JSON"


def test_every_library_json_text_refuses_a_bom() -> None:
    result = questionnaire_async_json(BOM + '{"questions":[{"type":"text","text":"a"}]}')
    assert [(e["code"], e["details"]["start"]) for e in result["errors"]] == [("json.syntax", 0)]
    (diagnostic,) = sanitize_json(BOM + '{"actions": []}').diagnostics
    assert (diagnostic.code, diagnostic.start, diagnostic.message) == (
        "json.syntax",
        0,
        "JSON syntax error: " + REFUSED,
    )
    assert audit_json(BOM + f"[{ASSISTANT}]")["error"] == "not strict JSON at column 1: " + REFUSED  # type: ignore[index]
    form = segment(MESSAGE, message_id="m").segments[1].questionnaire
    assert form is not None
    with pytest.raises(AnswersError, match="byte order mark"):
        build_response_json(form, BOM + "{}", questionnaire_id="m_q1")
