"""Messages that write "a {name}" take "an" before a vowel letter (a, e, i, o, u):
``with_article`` is the one rule, used by every such template (§1: clear messages)."""

from __future__ import annotations

from pathlib import Path

import pytest

from replykit.cli import main
from replykit.questionnaire.payload.yaml12 import read_yaml
from replykit.text import with_article


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("acme2-questionnaire", "an acme2-questionnaire"),
        ("env", "an env"),
        ("int", "an int"),
        ("object", "an object"),
        ("unknown", "an unknown"),
        ("Ordered", "an Ordered"),
        ("single_choice", "a single_choice"),
        ("list", "a list"),
        ("yes", "a yes"),
        ("", "a "),
    ],
)
def test_the_article_follows_the_first_letter(word: str, expected: str) -> None:
    assert with_article(word) == expected


MESSAGE = (
    "Intro\n\n```acme2-questionnaire\ntitle: T\nquestions:\n  - type: single_choice\n"
    "    text: Pick\n    options: [a, b]\n    default: a\n```\n"
)


def test_respond_names_an_unregistered_block_with_its_article(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    message = tmp_path / "pm.md"
    message.write_text(MESSAGE, encoding="utf-8")
    answers = tmp_path / "a.json"
    answers.write_text('{"q1": "a"}', encoding="utf-8")
    argv = ["respond", "--message", str(message), "--message-id", "m", "--id", "m_q1"]
    assert main([*argv, "--answers", str(answers)]) == 2
    assert capsys.readouterr().err == (
        f"replykit respond: error: block m_q1 of {message} is an acme2-questionnaire block, "
        "which profile client does not register (--profile product:acme2 does)\n"
    )


def test_a_mapping_key_is_named_with_its_article() -> None:
    (finding,) = read_yaml("? {a: 1}\n: x\n").findings
    assert (
        finding.message
        == "mapping key (a mapping) is a mapping, not a string; keys are field names"
    )
