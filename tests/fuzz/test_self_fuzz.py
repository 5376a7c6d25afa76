"""Fuzzing replykit against itself finds nothing (docs/fuzzing.md)."""

from __future__ import annotations

import json
from pathlib import Path

from replykit.fuzz import fuzz
from replykit.fuzz.examples import explicit_examples
from replykit.fuzz.ops import OPS

from .helpers import python_adapter, run_cli


def test_self_fuzz_all_ops_has_no_disagreement() -> None:
    report = fuzz(python_adapter("replykit_adapter.py"), examples=150, seed=0)
    assert report.classes == ()
    assert report.examples_run == len(explicit_examples(OPS)) + 150
    assert report.unsupported_ops == ()
    assert report.adapter_starts == 1
    assert report.stopped == ""


def test_self_fuzz_cli_exit_0_and_report(tmp_path: Path) -> None:
    out = tmp_path / "report"
    status = run_cli(
        [
            "fuzz",
            "--impl",
            " ".join(python_adapter("replykit_adapter.py")),
            "--op",
            "segment",
            "--examples",
            "40",
            "--seed",
            "7",
            "--out",
            str(out),
        ]
    )
    assert status == 0
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["classes"] == []
    assert data["examples_run"] == len(explicit_examples(("segment",))) + 40
    assert data["ops"] == ["segment"]
    assert data["seconds"] > 0
    text = (out / "report.txt").read_text(encoding="utf-8")
    assert "no disagreement and no adapter failure found" in text


def test_seconds_budget_stops(tmp_path: Path) -> None:
    report = fuzz(
        python_adapter("replykit_adapter.py"),
        ops=("questionnaire_async",),
        seconds=0.5,
        explicit=False,
        seed=1,
    )
    assert report.classes == ()
    assert report.examples_run > 0
    assert report.seconds < 10
