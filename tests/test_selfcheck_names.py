"""The repair instruction's examples use the failing block's own registered name, and
a response block is named by its own tag (docs/protocol-responses.md section 3)."""

from __future__ import annotations

import pytest

from replykit import self_check

NAMES = (
    "questionnaire, ling-questionnaire, movo-questionnaire, sage-questionnaire, yiii-questionnaire"
)


def repair(content: str, locale: str) -> str:
    result = self_check([{"role": "assistant", "content": content}], locale=locale)
    assert not result.passed and result.repair_prompt is not None
    return result.repair_prompt


def closing(name: str, locale: str) -> str:
    """The closing sentences of a questionnaire repair instruction naming ``name``."""
    if locale == "en":
        return (
            f"Use a fenced YAML block opened by ```{name} on its own line, or XML+JSON "
            f"<{name}>{{...}}</{name}>; you may switch between these two encodings as long "
            f"as you keep the same registered name ({name}). Registered names: {NAMES}."
        )
    return (
        f"可以使用独占一行的 ```{name} 开始的 fenced YAML，或 XML+JSON 形式的 "
        f"<{name}>{{...}}</{name}>；只要保持同一个注册名称（{name}），就可以在这两种编码"
        f"之间切换。注册名称：{NAMES.replace(', ', '、')}。"
    )


@pytest.mark.parametrize("locale", ["en", "zh"])
@pytest.mark.parametrize(
    ("content", "name"),
    [
        ("Intro\n\n```yiii-questionnaire\ntitle: T\n```\n", "yiii-questionnaire"),
        ("Intro <sage-questionnaire>{}</sage-questionnaire>", "sage-questionnaire"),
        # Near-misses: the registered name they were written with, lower case.
        ("Intro\n\n```Sage-Questionnaire\ntitle: T\n```\n", "sage-questionnaire"),
        ("Intro <MOVO-questionnaire>{}</MOVO-questionnaire>", "movo-questionnaire"),
        ("Intro\n\n> ``ling-questionnaire\n", "ling-questionnaire"),
        ("Intro\n\n```questionnaire\ntitle: T\n```\n", "questionnaire"),
        # No registered name at stake: the standard one.
        ("Intro <foo-questionnaire>{}</foo-questionnaire>", "questionnaire"),
    ],
)
def test_the_examples_use_the_failing_blocks_name(content: str, name: str, locale: str) -> None:
    assert repair(content, locale).endswith(closing(name, locale))


@pytest.mark.parametrize(
    ("locale", "start", "remove"),
    [
        (
            "en",
            "Your last reply contains a questionnaire response block "
            "(<sage-questionnaire-response>), which",
            "Also remove the questionnaire response block (<sage-questionnaire-response>): ",
        ),
        (
            "zh",
            "你上一条回复中包含回答块（<sage-questionnaire-response>），",
            "另外请删除回答块（<sage-questionnaire-response>）：",
        ),
    ],
)
def test_a_response_block_is_named_by_its_own_tag(locale: str, start: str, remove: str) -> None:
    response = "<sage-questionnaire-response>{}</sage-questionnaire-response>"
    assert repair("Intro " + response, locale).startswith(start)
    both = repair("Intro <sage-questionnaire>{}</sage-questionnaire>\n\n" + response, locale)
    last = both.splitlines()[-1]
    assert last.startswith(remove)
    assert closing("sage-questionnaire", locale) in both
