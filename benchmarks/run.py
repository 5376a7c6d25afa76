"""Throughput of ``segment()`` and ``self_check()`` against markdown-it-py and PyYAML on
real Markdown (docs/performance.md).

Usage: ``python benchmarks/run.py [--quick] [--repeats N] [--clock cpu|wall] [--json FILE]
[--installed]``

Prints, in one run, the median time of several repeats (CPU time of the process,
``time.process_time``, or ``--clock wall`` for ``time.perf_counter``; the repeats of
the functions compared interleaved) and their ratio, each beside its target:

* ``replykit.segment(text)`` against ``MarkdownIt("commonmark").parse(text)`` on the
  whole sage-docs corpus (``tests/corpus/sage-docs``, every file once); the two
  documents that describe the protocol (en and zh ``QUESTIONNAIRE_FORMATS.md``);
  typical assistant messages (1-4 KB of real prose from the corpus followed by one
  valid form, fenced YAML or XML+JSON); the rich replies of ``rich_replies.py``
  (nested lists, a block quote, a table, a code block, a 2-4 question form); messages
  under 1 KB in all; one message of 10 KB, 100 KB and 1 MB of real prose with a form
  every 4 KB or so;
* a fenced YAML form read on its own: ``replykit.questionnaire.payload.read_fenced_form
  (payload)`` (the YAML read, its checks and the field table, giving the
  ``Questionnaire``) against PyYAML's ``yaml.load(payload, Loader=yaml.CSafeLoader)``
  of the same payload, over the payload of every fenced form of the rich set (also,
  for reference: against the C event stream alone, and ``segment()`` of a message that
  is one line of prose and the block);
* ``self_check([{"role": "assistant", "content": text}])`` against ``segment(text)``
  on the typical and rich sets, and against markdown-it-py on the rich set;
* time per byte at 1 MB against 10 KB.

``--json FILE`` also writes every figure as JSON (``-``: to stdout, the table then goes
to stderr). ``--installed`` measures the replykit the interpreter imports (a compiled
build, say) instead of this checkout's ``src/``. This is a script, not a test: nothing
fails, and it exits 0.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

import yaml
from markdown_it import MarkdownIt

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SRC = ROOT / "src"
if "--installed" not in sys.argv and (SRC / "replykit").is_dir():
    # Measure this checkout, not whatever replykit the interpreter has installed.
    sys.path.insert(0, str(SRC))
sys.path.insert(0, str(HERE))

from rich_replies import replies as rich_replies  # noqa: E402

from replykit import self_check  # noqa: E402
from replykit.questionnaire.payload import read_fenced_form  # noqa: E402
from replykit.questionnaire.payload.yaml_loader import choose_loader  # noqa: E402
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


def median_times(
    fns: list[Callable[[], object]], repeats: int, clock: Callable[[], float] = time.process_time
) -> list[float]:
    """Median time of each function by ``clock``; the repeats are interleaved so that a
    change of load on the machine hits every function alike and the ratios stay fair."""
    times: list[list[float]] = [[] for _ in fns]
    for fn in fns:
        fn()  # warm up: caches, the grammar, first-call imports
    for _ in range(repeats):
        for fn, acc in zip(fns, times, strict=True):
            gc.collect()
            t0 = clock()
            fn()
            acc.append(clock() - t0)
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


def fenced_payloads(texts: Iterable[str]) -> list[tuple[str, str]]:
    """``(block, payload)`` of every fenced form in ``texts``: the block's text and its
    content lines (opener and closing fence removed; the forms are not indented)."""
    out = []
    for text in texts:
        for seg in segment(text).segments:
            if seg.encoding == "fenced_yaml":
                lines = seg.text.splitlines(keepends=True)
                out.append((seg.text, "".join(lines[1:-1])))
    return out


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def build_kind() -> str:
    """``compiled`` when the scanner module is an extension module (a mypyc build)."""
    scanner = importlib.import_module("replykit.questionnaire.scan.scanner")
    suffix = Path(getattr(scanner, "__file__", "") or "").suffix
    return "compiled" if suffix in (".so", ".pyd") else "pure"


@dataclass
class Row:
    """One figure: ``case``, what replykit ran (``subject``) against what
    (``reference``), the input's UTF-8 bytes, both median times in seconds, their
    ratio, and the target(s) the ratio is held to."""

    case: str
    subject: str
    reference: str
    nbytes: int
    subject_s: float
    reference_s: float
    targets: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return self.subject_s / self.reference_s

    def met(self) -> list[bool]:
        return [self.ratio <= t for t in self.targets]

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "ratio": self.ratio, "met": self.met()}


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def verdict(value: float, target: float) -> str:
    return "ok" if value <= target else "MISSED"


class Report:
    """Prints each row as it is measured and keeps it for ``--json``."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.rows: list[Row] = []

    def line(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def add(self, row: Row) -> Row:
        self.rows.append(row)
        goal = "; ".join(f"<= {t:g} {verdict(row.ratio, t)}" for t in row.targets) or "-"
        cells = (
            row.case,
            f"{row.subject} / {row.reference}",
            f"{row.nbytes / KB:.1f} KB",
            fmt_ms(row.subject_s),
            fmt_ms(row.reference_s),
            f"{row.ratio:.3f}",
            goal,
        )
        self.line("  " + " | ".join(cells))
        return row


def each(fn: Callable[[Any], object], items: list[Any]) -> Callable[[], None]:
    def run() -> None:
        for item in items:
            fn(item)

    return run


def write_json(doc: object, target: str) -> None:
    """Write ``doc`` as indented JSON to the file ``target`` (``-``: stdout)."""
    text = json.dumps(doc, indent=2)
    if target == "-":
        print(text)
    else:
        Path(target).write_text(text + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    ap.add_argument("--repeats", type=int, default=None, help="repeats per figure")
    ap.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="cpu: this process's CPU time (default; other load on a shared machine "
        "does not count); wall: time.perf_counter",
    )
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON (-: stdout)")
    ap.add_argument(
        "--installed", action="store_true", help="measure the installed replykit, not src/"
    )
    args = ap.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 9)
    big_repeats = max(1, repeats // 3) if args.quick else max(3, repeats // 2)
    report = Report(sys.stderr if args.json == "-" else sys.stdout)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    load_start = load()

    md = MarkdownIt("commonmark")
    docs = all_blocks(md)
    files = [read(p) for p in corpus_files()]
    protocol = [read(CORPUS / lang / "QUESTIONNAIRE_FORMATS.md") for lang in ("en", "zh")]
    typical = messages(docs, 1 * KB, 4 * KB, None)
    small = messages(docs, 200, 1 * KB, 1 * KB)
    rich = [r.text for r in rich_replies()]
    assert all(t.endswith(FORMS) for t in typical + small)
    assert all(nbytes(t) < KB for t in small)
    payloads = fenced_payloads(rich)
    alone = [f"Here is the form.\n\n{block}" for block, _ in payloads]
    payload_texts = [p for _, p in payloads]

    where = Path(sys.modules["replykit"].__file__ or "").parent
    report.line(
        f"replykit benchmark: Python {platform.python_version()}, {platform.machine()}, "
        f"replykit {build_kind()} build from {where}, "
        f"YAML events {choose_loader()}, clock {args.clock}, "
        f"repeats {repeats} (large messages {big_repeats})"
    )
    report.line(f"load average (1, 5, 15 min) at start: {load_start}")
    report.line(
        f"corpus: {len(files)} files, {sum(map(nbytes, files)) / KB:.0f} KB; "
        f"typical: {len(typical)} messages ({check(typical, 1)}); "
        f"rich: {len(rich)} messages ({check(rich, 1)}); "
        f"under 1 KB: {len(small)} messages ({check(small, 1)}); "
        f"fenced payloads of the rich set: {len(payloads)}, "
        f"{sum(map(nbytes, payload_texts)) / KB:.1f} KB"
    )
    report.line()
    report.line("  case | replykit / reference | bytes | replykit | reference | ratio | target")

    def versus_md(label: str, texts: list[str], target: float | None, reps: int) -> Row:
        rk, mdt = median_times([each(segment, texts), each(md.parse, texts)], reps, clock)
        size = sum(map(nbytes, texts))
        goals = [] if target is None else [target]
        return report.add(Row(label, "segment", "markdown-it", size, rk, mdt, goals))

    conversations = {
        name: [[{"role": "assistant", "content": t}] for t in texts]
        for name, texts in (("typical", typical), ("rich", rich))
    }

    def with_self_check(label: str, name: str, texts: list[str], target: float) -> None:
        """segment, self_check and markdown-it-py timed together, so all three ratios
        come from the same repeats."""
        fns = [each(segment, texts), each(self_check, conversations[name]), each(md.parse, texts)]
        rk, sc, mdt = median_times(fns, repeats, clock)
        size = sum(map(nbytes, texts))
        report.add(Row(label, "segment", "markdown-it", size, rk, mdt, [target]))
        report.add(Row(label, "self_check", "segment", size, sc, rk, [1.10]))
        if name == "rich":
            # 0.52: 5x faster than the product's Python Self-check (2.6x markdown-it-py
            # on the reply the targets were set on); 0.26: 10x.
            report.add(Row(label, "self_check", "markdown-it", size, sc, mdt, [0.52, 0.26]))

    versus_md("whole sage-docs corpus", files, 0.25, repeats)
    versus_md("QUESTIONNAIRE_FORMATS en+zh", protocol, 0.75, repeats)
    with_self_check("typical 1-4 KB + form", "typical", typical, 0.3)
    with_self_check("rich 1-4 KB", "rich", rich, 0.4)
    versus_md("under 1 KB incl. form", small, 0.6, repeats)

    size = sum(map(nbytes, payload_texts))
    c_load = each(lambda p: yaml.load(p, Loader=yaml.CSafeLoader), payload_texts)
    c_events = each(lambda p: sum(1 for _ in yaml.parse(p, Loader=yaml.CSafeLoader)), payload_texts)
    fns = [each(read_fenced_form, payload_texts), c_load, c_events, each(segment, alone)]
    rf, cl, ce, seg_alone = median_times(fns, repeats, clock)
    label = "fenced YAML form alone"
    report.add(Row(label, "read_fenced_form", "yaml.load CSafeLoader", size, rf, cl, [1.5]))
    report.add(Row(label, "read_fenced_form", "yaml.parse CSafeLoader", size, rf, ce))
    alone_size = sum(map(nbytes, alone))
    report.add(
        Row(label, "segment(line + block)", "yaml.load CSafeLoader", alone_size, seg_alone, cl)
    )

    per_byte: dict[int, float] = {}
    for target in (10 * KB, 100 * KB, 1024 * KB):
        text, forms = large_message(docs, target)
        check([text], forms)
        label = f"one message {target // KB} KB ({forms} forms)"
        reps = big_repeats if target > 100 * KB else repeats
        row = versus_md(label, [text], None, reps)
        per_byte[target] = row.subject_s / nbytes(text)

    growth = per_byte[1024 * KB] / per_byte[10 * KB]
    load_end = load()
    report.line()
    report.line(
        f"  time per byte: 10 KB {per_byte[10 * KB] * 1e9:.1f} ns/B, "
        f"1 MB {per_byte[1024 * KB] * 1e9:.1f} ns/B, ratio {growth:.2f} "
        f"(target <= 1.5 {verdict(growth, 1.5)})"
    )
    report.line(f"load average (1, 5, 15 min) at end: {load_end}")
    if args.json:
        doc = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "build": build_kind(),
            "yaml_events": choose_loader(),
            "clock": args.clock,
            "repeats": repeats,
            "large_repeats": big_repeats,
            "load_start": load_start,
            "load_end": load_end,
            "rows": [r.to_json() for r in report.rows],
            "per_byte_ns": {"10KB": per_byte[10 * KB] * 1e9, "1MB": per_byte[1024 * KB] * 1e9},
            "per_byte_ratio": {"value": growth, "target": 1.5, "met": growth <= 1.5},
        }
        write_json(doc, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
