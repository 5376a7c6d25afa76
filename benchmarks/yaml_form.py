"""A fenced YAML form read on its own, against PyYAML's C loader (docs/performance.md).

Usage: ``python benchmarks/yaml_form.py [--repeats N] [--src PATH]``

For forms of 1 to 4 questions in English and in Chinese, prints the least time per
call over the rounds (``time.process_time``, CPU microseconds) of what ``segment()``
does with the payload of one fenced block (``read_fenced_form(payload, limits=...,
fence_length=3)``: the YAML 1.2 reading and the field checks into a
``Questionnaire``), of ``yaml.load(payload, Loader=yaml.CSafeLoader)`` (PyYAML with
libyaml, YAML 1.1, no checks) and of libyaml's event stream alone, and the ratio
replykit / C load (target at most 1.5). The calls are interleaved round by round so
that a change of load hits every figure alike; CPU time leaves out the time the process
waited for a core, and the least round is the one least disturbed by other work on a
shared machine. ``--src`` measures another checkout's ``src`` directory. A script, not
a test: nothing fails.

:func:`form_ratios` returns the rows, for a caller that prints them in its own table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

_EN = (
    ("single_choice", "How should I continue?", ["Apply the change", "Show me a diff first",
     "Stop here"], "Show me a diff first"),
    ("multi_choice", "Which checks should run as well?", ["Unit tests", "Integration tests",
     "Security scan"], ["Unit tests"]),
    ("free_text", "Anything else I should know?", None, ""),
    ("single_choice", "Which environment first?", ["staging", "production"], "staging"),
)  # fmt: skip
_ZH = (
    ("single_choice", "是否现在部署到测试环境？", ["现在部署", "稍后再说"], "现在部署"),
    ("multi_choice", "需要同时运行哪些检查？", ["单元测试", "集成测试", "安全扫描"], ["单元测试"]),
    ("free_text", "还有其他要求吗？", None, ""),
    ("single_choice", "先部署到哪个环境？", ["测试环境", "生产环境"], "测试环境"),
)  # fmt: skip


def _form(title: str, questions: tuple[tuple[str, str, Any, Any], ...]) -> str:
    lines = [f"title: {title}", "questions:"]
    for qtype, text, options, default in questions:
        lines += [f"  - type: {qtype}", f"    text: {text}"]
        if options is not None:
            lines.append("    options:")
            lines += [f"      - {o}" for o in options]
        if isinstance(default, list):
            lines.append("    default:")
            lines += [f"      - {d}" for d in default]
        else:
            shown = '""' if default == "" else default
            lines.append(f"    default: {shown}")
        if qtype == "multi_choice":
            lines.append("    allow_other: true")
    return "\n".join(lines) + "\n"


#: name -> payload: 1 to 4 questions, English and Chinese.
FORMS: dict[str, str] = {
    **{f"en, {n} question{'s' * (n > 1)}": _form("Next step", _EN[:n]) for n in range(1, 5)},
    **{f"zh, {n} question{'s' * (n > 1)}": _form("部署确认", _ZH[:n]) for n in range(1, 5)},
}


def _per_call(fns: list[Callable[[str], object]], payload: str, repeats: int) -> list[float]:
    """Least microseconds per call of each function over the rounds, interleaved."""
    n = max(1, 40_000 // len(payload.encode()))
    rounds: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, acc in zip(fns, rounds, strict=True):
            start = time.process_time()
            for _ in range(n):
                fn(payload)
            acc.append((time.process_time() - start) / n * 1e6)
    return [min(acc) for acc in rounds]


def form_ratios(repeats: int = 15) -> list[tuple[str, int, float, float, float, float]]:
    """``(name, bytes, replykit µs, C load µs, C events µs, replykit / C load)`` per form
    of :data:`FORMS`, measured in this process (replykit as imported)."""
    import yaml

    from replykit.questionnaire.limits import DEFAULT_LIMITS
    from replykit.questionnaire.payload.fenced_form import read_fenced_form

    def replykit(payload: str) -> object:
        return read_fenced_form(payload, limits=DEFAULT_LIMITS, fence_length=3)

    def c_load(payload: str) -> object:
        return yaml.load(payload, Loader=yaml.CSafeLoader)

    def c_events(payload: str) -> object:
        return list(yaml.parse(payload, Loader=yaml.CBaseLoader))

    rows = []
    for name, payload in FORMS.items():
        assert replykit(payload).value is not None, name  # type: ignore[attr-defined]
        rk, load, events = _per_call([replykit, c_load, c_events], payload, repeats)
        rows.append((name, len(payload.encode()), rk, load, events, rk / load))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15, help="rounds per figure (least kept)")
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="the src directory to time")
    args = ap.parse_args()
    sys.path.insert(0, str(args.src.resolve()))
    print(f"{'form':<16} {'bytes':>5} {'replykit':>9} {'C load':>8} {'C events':>8} {'ratio':>6}")
    rows = form_ratios(args.repeats)
    for name, size, rk, load, events, ratio in rows:
        print(f"{name:<16} {size:5d} {rk:9.1f} {load:8.1f} {events:8.1f} {ratio:6.2f}")
    print(f"median ratio {statistics.median(r[-1] for r in rows):.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
