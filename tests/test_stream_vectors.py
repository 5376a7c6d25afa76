"""The streaming vectors of ``replykit vectors export`` (``stream.json``, §10): their
shape, that replykit's own ``StreamSegmenter`` obeys them, and that they catch a client
that commits what a reading of the prefix shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replykit import StreamSegmenter, segment
from replykit.fuzz.stream_vectors import WITHDRAWN, stream_suite, withdrawn
from replykit.fuzz.vectors import export
from replykit.questionnaire.profiles import profile_from_string

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "vectors" / "segment.json").read_text("utf-8")
)["cases"]
SUITE = stream_suite(CASES)


def _overlaps(end: int, ranges: list[dict[str, Any]]) -> bool:
    return any(r["start"] < end for r in ranges)


def test_export_writes_the_suite(tmp_path: Path) -> None:
    export(str(tmp_path))
    assert json.loads((tmp_path / "stream.json").read_text("utf-8")) == json.loads(
        json.dumps(SUITE)
    )
    ids = [c["id"] for c in SUITE["cases"]]
    assert len(ids) == len(set(ids)) == 9 + len(WITHDRAWN)
    assert {f"vector-{i}" for i in WITHDRAWN} <= set(ids)


@pytest.mark.parametrize("case", SUITE["cases"], ids=lambda c: c["id"])
def test_replykit_obeys_each_case(case: dict[str, Any]) -> None:
    profile = profile_from_string(case["profile"])
    seg = StreamSegmenter(message_id=case["message_id"], profile=profile)
    whole = "".join(case["chunks"])
    for chunk, step in zip(case["chunks"], case["steps"], strict=True):
        update = seg.push(chunk)
        assert update.received == step["received"]
        assert update.committed_end == step["replykit_committed_end"]
        assert not _overlaps(update.committed_end, step["not_committed"]), step
    assert seg.finish().to_json() == case["expected"]
    assert case["expected"] == json.loads(
        json.dumps(segment(whole, message_id=case["message_id"]).to_json())
    )


def test_a_client_committing_each_prefix_reading_is_caught() -> None:
    """A naive client commits segment(prefix) whole after each chunk: some step of
    every hand-written fault case forbids it."""
    faults = [
        "reply-in-16s",
        "tag-split",
        "fence-split",
        "crlf-split",
        "later-backtick",
        "later-comment-closer",
        "outer-tag",
        "astral",
    ]
    for case in SUITE["cases"]:
        caught = any(_overlaps(s["received"], s["not_committed"]) for s in case["steps"])
        assert caught == (case["id"] in faults or case["id"].startswith("vector-")), case["id"]


@pytest.mark.parametrize("case_id", sorted(WITHDRAWN))
def test_withdrawn_vectors_are_what_they_say(case_id: str) -> None:
    case = next(c for c in CASES if c["id"] == case_id)
    assert len(case["input"]) <= 600 and withdrawn(case) > 0


def test_a_vector_without_a_withdrawn_block_is_not_listed() -> None:
    case = next(c for c in CASES if c["id"] == "fence-unclosed")
    assert withdrawn(case) == 0 and case["id"] not in WITHDRAWN
