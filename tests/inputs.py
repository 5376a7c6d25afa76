"""Real inputs the tests read: the conformance vectors, the CommonMark spec examples and
the sage-docs corpus (tests/corpus, with their licence files)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
#: The conformance vectors of ``segment()`` (tests/vectors/segment.json), each a dict.
VECTORS: list[dict[str, Any]] = json.loads(
    (HERE / "vectors" / "segment.json").read_text(encoding="utf-8")
)["cases"]
#: The Markdown of the 655 CommonMark spec examples.
SPEC: list[str] = [
    e["markdown"]
    for e in json.loads((HERE / "corpus" / "commonmark" / "spec.json").read_text("utf-8"))
]
#: The 110 sage-docs Markdown files.
CORPUS: list[Path] = sorted((HERE / "corpus" / "sage-docs").rglob("*.md"))


def benchmark_reply(size: int) -> str:
    """``size`` code points of the reply ``benchmarks/stream.py`` times (prose, lists,
    code, fenced and XML+JSON forms)."""
    path = HERE.parent / "benchmarks" / "stream.py"
    spec = importlib.util.spec_from_file_location("stream_benchmark", path)
    assert spec is not None and spec.loader is not None
    module = sys.modules.setdefault("stream_benchmark", importlib.util.module_from_spec(spec))
    if not hasattr(module, "reply"):
        spec.loader.exec_module(module)
    return str(module.reply(size))


def rich_reply_texts() -> list[str]:
    """The texts of the benchmarks' rich replies (``benchmarks/rich_replies.py``: nested
    lists, a block quote, a table, a code block and a form)."""
    path = HERE.parent / "benchmarks" / "rich_replies.py"
    spec = importlib.util.spec_from_file_location("rich_replies", path)
    assert spec is not None and spec.loader is not None
    module = sys.modules.setdefault("rich_replies", importlib.util.module_from_spec(spec))
    if not hasattr(module, "replies"):
        spec.loader.exec_module(module)
    return [r.text for r in module.replies()]
