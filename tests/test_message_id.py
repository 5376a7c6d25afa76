"""One rule for message ids (docs/protocol.md §6): ``segment()``, ``StreamSegmenter``,
the HTML renderers, the playground's API and every command's ``--message-id`` accept
and refuse the same ids, with the same reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from replykit import StreamSegmenter, segment
from replykit.cli import main
from replykit.markdown_it import questionnaire_plugin, render_html
from replykit.serve import api

FORM = 'Hi <questionnaire>{"questions":[{"type":"text","text":"Q"}]}</questionnaire>\n'

REFUSED = [
    ("", "is empty or only blank characters"),
    (" ", "is empty or only blank characters"),
    ("\t\n\u3000", "is empty or only blank characters"),
    # §1.1 blank is White_Space or Cf (pinned), not Python's str.isspace:
    ("\u200b\ufeff", "is empty or only blank characters"),
    ("\U000e0020", "is empty or only blank characters"),
    ("x" * 129, "is longer than 128 characters"),
    ("m\ud800", "holds a surrogate code point, which JSON cannot carry"),
]
ACCEPTED = ["m", " m ", "x" * 128, "消息-1", "\x1c"]  # U+001C: str.isspace, not blank


def _library_reasons(message_id: str) -> set[str]:
    reasons = set()
    for call in (
        lambda: segment(FORM, message_id=message_id),
        lambda: StreamSegmenter(message_id=message_id),
        lambda: render_html(FORM, message_id=message_id),
        lambda: questionnaire_plugin(MarkdownIt(), message_id=message_id),
    ):
        with pytest.raises(ValueError) as info:
            call()
        reasons.add(str(info.value))
    return reasons


@pytest.mark.parametrize(("message_id", "reason"), REFUSED)
def test_every_library_entry_refuses_the_same_ids(message_id: str, reason: str) -> None:
    assert _library_reasons(message_id) == {f"message_id {reason}"}
    with pytest.raises(api.RequestError) as info:
        api.analyze({"text": FORM, "message_id": message_id})
    assert str(info.value) == f"message_id: {reason}"


@pytest.mark.parametrize("message_id", ACCEPTED)
def test_every_library_entry_accepts_the_same_ids(message_id: str) -> None:
    assert segment(FORM, message_id=message_id).segments[1].id == f"{message_id}_q1"
    stream = StreamSegmenter(message_id=message_id)
    stream.push(FORM)
    assert stream.finish().segments[1].id == f"{message_id}_q1"
    assert f"{message_id}_q1" in render_html(FORM, message_id=message_id)
    assert api.analyze({"text": FORM, "message_id": message_id})["segments"][1]["id"] == (
        f"{message_id}_q1"
    )


@pytest.mark.parametrize(("message_id", "reason"), REFUSED)
def test_every_command_refuses_the_same_ids(
    message_id: str, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    message, answers = tmp_path / "m.md", tmp_path / "a.json"
    message.write_text(FORM, encoding="utf-8")
    answers.write_text("{}", encoding="utf-8")
    if "\ud800" in message_id:  # from the command line, only an undecodable byte
        reason = "is not valid UTF-8"
    commands = {
        "segment": [str(message)],
        "stream": [str(message)],
        "respond": ["--message", str(message), "--answers", str(answers)],
    }
    for command, rest in commands.items():
        assert main([command, *rest, "--message-id", message_id]) == 2
        err = capsys.readouterr().err
        assert err == f"replykit {command}: error: --message-id {reason}\n"
