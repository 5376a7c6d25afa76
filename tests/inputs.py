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


def line_ends(text: str) -> list[int]:
    """Where each complete line of ``text`` ends (its line ending included; a final
    ``\r`` is not a complete line ending yet: ``\n`` may follow, §1)."""
    from replykit.text import LINE_END_RE

    return [
        m.end()
        for m in LINE_END_RE.finditer(text)
        if not (m.group() == "\r" and m.end() == len(text))
    ]


def reading_fields(reading: Any) -> tuple[Any, ...]:
    """The fields of a streaming reading (``stream_reading.Reading``) the segmenter uses:
    parts, near-misses, checkpoint, tags without a closer, taint and ``waits_blank``."""
    return (
        reading.parts, reading.near_misses, reading.checkpoint, reading.misses,
        reading.taint, reading.waits_blank,
    )  # fmt: skip


def compare_direct(text: str, starts: list[tuple[Any, int, Any]], direct: Any, compat: Any) -> int:
    """For each ``(resume, after, key)`` of ``starts`` and each line end of ``text``
    after ``after``: where a streaming reading without the scanner,
    ``direct(text[resume.at - 1 : end], resume, key)``, answers (not ``None``), it must
    equal the scanner's reading (``stream_reading.read``) in :func:`reading_fields` and
    scan no more. Returns how many times it answered."""
    from replykit.questionnaire.scan.grammar import lexemes
    from replykit.questionnaire.segmentation.stream_reading import read

    answered = 0
    for resume, after, key in starts:
        at = resume.at
        for m in line_ends(text):
            if m <= after:
                continue
            found = direct(text[at - 1 : m], resume, key)
            if found is None:
                continue
            full = read(text[at - 1 : m], at - 1, resume, lexemes(), compat, final=False, limit=m)
            assert reading_fields(found) == reading_fields(full), (at, m)
            assert found.scanned <= full.scanned
            answered += 1
    return answered
