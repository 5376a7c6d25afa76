"""The rich reply set of the benchmarks (``benchmarks/rich_replies.py``): at least 50
replies of 1-4 KB in English and Chinese, each with nested lists, a block quote, a
table and a code block (read by markdown-it-py, the CommonMark oracle of the suite),
and each giving exactly one valid form, the one it states (§2, §4, §5), under the client
profile and Self-check (§8). The benchmark's ratios are only meaningful on such input."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from markdown_it import MarkdownIt

from replykit import Option, Question, self_check
from replykit.questionnaire.segmentation.segmenter import segment

# Every test here runs under each YAML loader (docs/protocol.md §4.1).
pytestmark = pytest.mark.usefixtures("yaml_loader")

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "rich_replies.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rich_replies", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("rich_replies", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


RICH = _load()
REPLIES = RICH.replies()
MD = MarkdownIt("commonmark").enable("table")


def _expected(i: int, q: dict[str, Any]) -> Question:
    options = tuple(Option(o, o) for o in q.get("options", ()))
    default = q["default"]
    return Question(
        id=f"q{i}",
        type=q["type"],
        text=q["text"],
        options=options,
        default=tuple(default) if isinstance(default, list) else default,
        allow_other=q.get("allow_other", False),
    )


def test_the_set_is_large_and_mixed() -> None:
    assert len(REPLIES) >= 50
    sizes = [len(r.text.encode("utf-8")) for r in REPLIES]
    assert min(sizes) >= 1024 and max(sizes) <= 4096
    langs = {t.lang for t in RICH.TOPICS}
    assert langs == {"en", "zh"}
    encodings = [r.encoding for r in REPLIES]
    assert 0 < encodings.count("xml_json") < encodings.count("fenced_yaml")
    assert {len(r.questions) for r in REPLIES} == {2, 3, 4}
    assert len({r.text for r in REPLIES}) == len(REPLIES)


@pytest.mark.parametrize("k", range(len(REPLIES)))
def test_each_reply_is_rich_markdown(k: int) -> None:
    """Nested lists, a block quote, a table and a code block (not the form), as
    CommonMark (with tables) reads the reply."""
    tokens = MD.parse(REPLIES[k].text)
    lists = [t for t in tokens if t.type in ("bullet_list_open", "ordered_list_open")]
    assert any(t.level > 0 for t in lists), "no nested list"
    assert any(t.type == "blockquote_open" for t in tokens)
    assert any(t.type == "table_open" for t in tokens)
    fences = [t.info.strip() for t in tokens if t.type == "fence"]
    assert any(info != "questionnaire" for info in fences), "no code block"


@pytest.mark.parametrize("k", range(len(REPLIES)))
def test_each_reply_gives_its_one_valid_form(k: int) -> None:
    reply = REPLIES[k]
    result = segment(reply.text)
    assert "".join(s.text for s in result.segments) == reply.text
    blocks = [s for s in result.segments if s.kind != "markdown"]
    assert len(blocks) == 1
    (block,) = blocks
    assert block.valid and block.encoding == reply.encoding
    assert result.diagnostics == ()
    form = block.questionnaire
    assert form is not None
    assert form.title == reply.title
    assert form.questions == tuple(_expected(i, q) for i, q in enumerate(reply.questions, 1))
    check = self_check([{"role": "assistant", "content": reply.text}])
    assert check.passed and check.diagnostics == ()
