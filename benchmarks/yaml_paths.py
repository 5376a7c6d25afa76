"""Time of the fenced-YAML payload reader on each of its paths (docs/protocol.md §4.1).

Usage: ``python benchmarks/yaml_paths.py [--repeats N] [--src PATH]``

Prints the median time per call (``time.perf_counter``, microseconds) of
``read_fenced_form(payload)`` for typical valid forms, with ``REPLYKIT_YAML_LOADER``
set to ``auto`` (PyYAML's C parser as the fast path) and to ``pure`` (the YAML 1.2
referee alone), and for the same forms written with tabs (which the referee reads
under every loader). ``--src`` measures another checkout's ``src`` directory (an older
checkout ignores the variable: every row is its only path). A script, not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SMALL = (
    "title: Next step\n"
    "questions:\n"
    "  - type: single_choice\n"
    "    text: How should I continue?\n"
    "    options:\n"
    "      - Apply the change\n"
    "      - Show me a diff first\n"
    "      - Stop here\n"
    "    default: Show me a diff first\n"
)
MEDIUM = (
    "title: 部署确认\n"
    "questions:\n"
    "  - type: single_choice\n"
    "    text: 是否现在部署到测试环境？\n"
    "    options: [现在部署, 稍后再说]\n"
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
)
LARGE = "title: Survey\nquestions:\n" + "".join(
    f"  - type: single_choice\n    text: Question {i}, why?\n"
    f"    options: [Yes, No, 'Not sure']\n    default: 'Not sure'\n"
    for i in range(50)
)
FORMS = {"small (9 lines)": SMALL, "medium (18 lines)": MEDIUM, "large (50 questions)": LARGE}


def per_call(fn: object, payload: str, repeats: int) -> float:
    """Median microseconds per call over ``repeats`` rounds of enough calls each."""
    assert callable(fn)
    n = max(1, 20_000 // len(payload))
    rounds = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(n):
            fn(payload)
        rounds.append((time.perf_counter() - start) / n * 1e6)
    return statistics.median(rounds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15, help="rounds per figure (median)")
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="the src directory to time")
    args = ap.parse_args()
    sys.path.insert(0, str(args.src.resolve()))
    from replykit.questionnaire.payload.fenced_form import read_fenced_form

    print(f"{'form':<22} {'path':<34} {'us/call':>9}")
    for name, form in FORMS.items():
        tabbed = form.replace("title: ", "title:\t")
        for label, loader, payload in (
            ("auto (C fast path)", "auto", form),
            ("pure (referee)", "pure", form),
            ("auto, tab after 'title:'", "auto", tabbed),
        ):
            os.environ["REPLYKIT_YAML_LOADER"] = loader
            value = read_fenced_form(payload).value
            us = per_call(read_fenced_form, payload, args.repeats)
            ok = "valid" if value is not None else "invalid"
            print(f"{name:<22} {label:<34} {us:9.1f}  {ok}")


if __name__ == "__main__":
    main()
