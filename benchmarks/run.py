"""Throughput of ``segment()`` against markdown-it-py on real Markdown (docs/performance.md).

Usage: ``python benchmarks/run.py [--quick] [--repeats N]``

Prints, in one run, the median time of several repeats (``time.perf_counter``) of
``replykit.questionnaire.segmentation.segmenter.segment(text)`` and of
``MarkdownIt("commonmark").parse(text)``
and their ratio for:

* the whole sage-docs corpus (``tests/corpus/sage-docs``, every file once);
* the two documents that describe the protocol (en and zh ``QUESTIONNAIRE_FORMATS.md``);
* typical assistant messages: 1-4 KB of real prose from the corpus followed by one
  valid form (fenced YAML or XML+JSON), and separately messages under 1 KB in all;
* one message of 10 KB, 100 KB and 1 MB of real prose with a form every 4 KB or so;
* time per byte at 1 MB against 10 KB.

Each figure is printed beside its target. This is a script, not a test: nothing fails.
"""

from __future__ import annotations

import argparse
import gc
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
if (SRC / "replykit").is_dir():
    # Measure this checkout, not whatever replykit the interpreter has installed.
    sys.path.insert(0, str(SRC))

from markdown_it import MarkdownIt  # noqa: E402

from replykit.questionnaire.segmentation.segmenter import segment  # noqa: E402

CORPUS = ROOT / "tests" / "corpus" / "sage-docs"
KB = 1024

_FRONT_MATTER = re.compile(r"\A---\r?\n.*?\r?\n---\r?\n", re.DOTALL)

# Forms appended after the prose: fenced YAML and XML+JSON, English and Chinese, with
# one to three questions. The prose before each one serves as the fenced preface.
FORMS: tuple[str, ...] = (
    "```questionnaire\n"
    "title: Next step\n"
    "questions:\n"
    "  - type: single_choice\n"
    "    text: How should I continue?\n"
    "    options:\n"
    "      - Apply the change\n"
    "      - Show me a diff first\n"
    "      - Stop here\n"
    "    default: Show me a diff first\n"
    "```\n",
    '<questionnaire>{"title":"执行路径正在重复","questions":[{"id":"loop_recovery_action",'
    '"type":"free_text","text":"请说明你希望我接下来如何处理","default":""}]}</questionnaire>\n',
    "```questionnaire\n"
    "title: 部署确认\n"
    "questions:\n"
    "  - type: single_choice\n"
    "    text: 是否现在部署到测试环境？\n"
    "    options:\n"
    "      - 现在部署\n"
    "      - 稍后再说\n"
    "    default: 现在部署\n"
    "  - type: multi_choice\n"
    "    text: 需要同时运行哪些检查？\n"
    "    options:\n"
    "      - 单元测试\n"
    "      - 集成测试\n"
    "      - 安全扫描\n"
    "    default:\n"
    "      - 单元测试\n"
    "    allow_other: true\n"
    "  - type: free_text\n"
    "    text: 还有其他要求吗？\n"
    '    default: ""\n'
    "```\n",
    '<sage-questionnaire>{"title":"Project confirmation","questions":[{"type":"single_choice",'
    '"text":"How should the next step proceed?","options":["Continue","Revise"],'
    '"default":"Continue"},{"id":"notes","type":"text","title":"Notes for the reviewer"}]}'
    "</sage-questionnaire>\n",
)


def nbytes(text: str) -> int:
    return len(text.encode("utf-8"))


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def corpus_files() -> list[Path]:
    return sorted(CORPUS.rglob("*.md"))


def prose_blocks(md: MarkdownIt, text: str) -> list[str]:
    """The top-level blocks of a document (front matter dropped), each as its source
    lines, in order: paragraphs, headings, lists, tables, code, quotes."""
    text = _FRONT_MATTER.sub("", text)
    lines = text.splitlines(keepends=True)
    out = []
    for tok in md.parse(text):
        if tok.level == 0 and tok.map is not None and tok.nesting >= 0:
            if tok.type == "html_block":
                continue
            block = "".join(lines[tok.map[0] : tok.map[1]]).rstrip("\n")
            if block.strip():
                out.append(block)
    return out


def all_blocks(md: MarkdownIt) -> list[list[str]]:
    return [prose_blocks(md, read(p)) for p in corpus_files()]


def messages(docs: list[list[str]], low: int, high: int, total_max: int | None) -> list[str]:
    """Messages of consecutive blocks of one document whose prose is ``low`` to
    ``high`` bytes, each followed by one form (cycling through :data:`FORMS`); with
    ``total_max``, the whole message stays under that many bytes."""
    out: list[str] = []
    targets = [low + (high - low) * k // 7 for k in range(8)]
    for doc in docs:
        i = 0
        while i < len(doc):
            form = FORMS[len(out) % len(FORMS)]
            target = targets[len(out) % len(targets)]
            prose: list[str] = []
            size = 0
            j = i
            while j < len(doc) and size < target:
                prose.append(doc[j])
                size += nbytes(doc[j]) + 2
                j += 1
            i = max(j, i + 1)
            text = "\n\n".join(prose) + "\n\n"
            cap = high if total_max is None else min(high, total_max - 1 - nbytes(form))
            if low <= nbytes(text) <= cap:
                out.append(text + form)
    return out


def large_message(docs: list[list[str]], target: int) -> tuple[str, int]:
    """Real prose from the corpus, a form every 4 KB or so, until ``target`` bytes."""
    parts: list[str] = []
    size = since_form = forms = 0
    blocks = [b for doc in docs for b in doc]
    k = 0
    while size < target:
        block = blocks[k % len(blocks)] + "\n\n"
        k += 1
        parts.append(block)
        size += nbytes(block)
        since_form += nbytes(block)
        if since_form >= 4 * KB and size < target:
            form = FORMS[forms % len(FORMS)] + "\n"
            parts.append(form)
            size += nbytes(form)
            since_form = 0
            forms += 1
    return "".join(parts), forms


def median_times(fns: list[Callable[[], object]], repeats: int) -> list[float]:
    """Median wall time of each function; the repeats are interleaved so that a change
    of load on the machine hits every function alike and the ratios stay fair."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, acc in zip(fns, times, strict=True):
            gc.collect()
            t0 = time.perf_counter()
            fn()
            acc.append(time.perf_counter() - t0)
    return [statistics.median(acc) for acc in times]


def check(texts: Iterable[str], forms_each: int | None = None) -> str:
    """Sanity: segments concatenate back and the inserted forms are found and valid."""
    found = valid = 0
    for text in texts:
        result = segment(text)
        assert "".join(s.text for s in result.segments) == text
        blocks = [s for s in result.segments if s.kind != "markdown"]
        found += len(blocks)
        valid += sum(s.valid for s in blocks)
        if forms_each is not None:
            assert len(blocks) == forms_each, (len(blocks), text[:200])
    return f"{found} blocks, {valid} valid"


def row(*cells: str) -> None:
    print("  " + " | ".join(cells), flush=True)


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def verdict(value: float, target: float) -> str:
    return "ok" if value <= target else "MISSED"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    ap.add_argument("--repeats", type=int, default=None, help="repeats per figure")
    args = ap.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 9)
    big_repeats = max(1, repeats // 3) if args.quick else max(3, repeats // 2)

    md = MarkdownIt("commonmark")
    docs = all_blocks(md)
    files = [read(p) for p in corpus_files()]
    protocol = [read(CORPUS / lang / "QUESTIONNAIRE_FORMATS.md") for lang in ("en", "zh")]
    typical = messages(docs, 1 * KB, 4 * KB, None)
    small = messages(docs, 200, 1 * KB, 1 * KB)
    assert all(t.endswith(FORMS) for t in typical + small)
    assert all(nbytes(t) < KB for t in small)

    print(
        f"replykit benchmark: Python {platform.python_version()}, {platform.machine()}, "
        f"repeats {repeats} (large messages {big_repeats})"
    )
    print(
        f"corpus: {len(files)} files, {sum(map(nbytes, files)) / KB:.0f} KB; "
        f"typical: {len(typical)} messages ({check(typical, 1)}); "
        f"under 1 KB: {len(small)} messages ({check(small, 1)})"
    )
    print()
    print("  case | bytes | replykit | markdown-it-py | ratio | target")

    def both(label: str, texts: list[str], target: float | None, reps: int) -> float:
        def run_rk() -> None:
            for t in texts:
                segment(t)

        def run_md() -> None:
            for t in texts:
                md.parse(t)

        run_rk()
        run_md()
        rk, mdt = median_times([run_rk, run_md], reps)
        ratio = rk / mdt
        size = sum(map(nbytes, texts))
        goal = "-" if target is None else f"<= {target:g} {verdict(ratio, target)}"
        row(label, f"{size / KB:.1f} KB", fmt_ms(rk), fmt_ms(mdt), f"{ratio:.3f}", goal)
        return rk

    both("whole sage-docs corpus", files, 0.25, repeats)
    both("QUESTIONNAIRE_FORMATS en+zh", protocol, 0.75, repeats)
    both("typical 1-4 KB + form", typical, 0.5, repeats)
    both("under 1 KB incl. form", small, 1.0, repeats)

    per_byte: dict[int, float] = {}
    for target in (10 * KB, 100 * KB, 1024 * KB):
        text, forms = large_message(docs, target)
        check([text], forms)
        label = f"one message {target // KB} KB ({forms} forms)"
        reps = big_repeats if target > 100 * KB else repeats
        rk = both(label, [text], None, reps)
        per_byte[target] = rk / nbytes(text)

    growth = per_byte[1024 * KB] / per_byte[10 * KB]
    print()
    print(
        f"  time per byte: 10 KB {per_byte[10 * KB] * 1e9:.1f} ns/B, "
        f"1 MB {per_byte[1024 * KB] * 1e9:.1f} ns/B, ratio {growth:.2f} "
        f"(target <= 1.5 {verdict(growth, 1.5)})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
