"""The YAML loader is chosen once, when a ``StreamSegmenter`` is made (§1.2): a later
change of ``REPLYKIT_YAML_LOADER`` never reaches a push or ``finish()``."""

from __future__ import annotations

import pytest

from replykit import StreamSegmenter, segment

FORM = (
    "Hi\n\n```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: Q\n"
    '    default: ""\n'
)


def test_a_later_bad_loader_name_does_not_reach_the_stream(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("REPLYKIT_YAML_LOADER", raising=False)
    expected = segment(FORM + "```\n", message_id="m")
    seg = StreamSegmenter(message_id="m")
    monkeypatch.setenv("REPLYKIT_YAML_LOADER", "bogus")
    seg.push(FORM)
    seg.push("```\n")  # closes the fence: the payload is read now
    assert seg.finish() == expected


def test_a_bad_loader_name_fails_at_construction(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPLYKIT_YAML_LOADER", "bogus")
    with pytest.raises(ValueError, match="REPLYKIT_YAML_LOADER must be one of auto, c, pure"):
        StreamSegmenter(message_id="m")
