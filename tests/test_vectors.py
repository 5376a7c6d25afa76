"""Runs the language-neutral conformance vectors of ``tests/vectors/segment.json``.

The file format is described in ``tests/vectors/README.md``. Each vector gives a
message, a profile and a message id, and the segments and diagnostics that
``segment()`` must return (docs/protocol.md §1-§6, §8).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from replykit.questionnaire.profiles import profile_from_string
from replykit.questionnaire.segmentation.segmenter import segment

# Every test here runs under each YAML loader (docs/protocol.md §4.1).
pytestmark = pytest.mark.usefixtures("yaml_loader")

VECTORS = Path(__file__).parent / "vectors" / "segment.json"
MIN_CASES = 150
BLOCK_FIELDS = ("encoding", "name", "registered", "valid", "id")


def _load() -> dict[str, Any]:
    with VECTORS.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


DATA = _load()
CASES: list[dict[str, Any]] = DATA["cases"]


def test_file_shape() -> None:
    assert DATA["format"] == 1
    assert len(CASES) >= MIN_CASES
    ids = [c["id"] for c in CASES]
    duplicates = [i for i, n in Counter(ids).items() if n > 1]
    assert not duplicates, duplicates
    for c in CASES:
        assert isinstance(c.get("rule"), str) and c["rule"].strip(), c["id"]
        assert isinstance(c.get("description"), str) and c["description"].strip(), c["id"]
        assert {"input", "profile", "message_id", "expected"} <= c.keys(), c["id"]


def test_expected_segments_cover_inputs() -> None:
    """The vectors obey the invariants they test (guards against authoring slips)."""
    for c in CASES:
        segs = c["expected"]["segments"]
        pos = 0
        for prev, seg in zip([None, *segs], segs, strict=False):
            assert seg["start"] == pos < seg["end"], c["id"]
            assert not (prev and prev["kind"] == seg["kind"] == "markdown"), c["id"]
            pos = seg["end"]
        assert pos == len(c["input"]), c["id"]
        for seg in segs:
            if seg["kind"] != "markdown" and seg["valid"]:
                assert ("questionnaire" in seg) != ("response" in seg), c["id"]


def _segment_view(seg: Any, expected: dict[str, Any]) -> dict[str, Any]:
    """The actual segment in the shape of the expected one (only the keys it names)."""
    full = seg.to_json()
    view = {k: full[k] for k in ("kind", "start", "end")}
    if seg.kind != "markdown":
        view.update({k: full[k] for k in BLOCK_FIELDS})
        for key in ("questionnaire", "response"):
            if key in expected or key in full:
                view[key] = full.get(key)
    return view


def _diag_key(d: dict[str, Any]) -> tuple[str, str, str]:
    return (d["code"], d["severity"], json.dumps(d["path"]))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(case: dict[str, Any]) -> None:
    text: str = case["input"]
    result = segment(
        text, message_id=case["message_id"], profile=profile_from_string(case["profile"])
    )
    segments = list(result.segments)

    # §2 invariants: exact cover, in order, no empty and no adjacent Markdown segments.
    assert "".join(s.text for s in segments) == text
    pos = 0
    for prev, seg in zip([None, *segments], segments, strict=False):
        assert seg.start == pos and seg.end > seg.start, (seg.start, seg.end)
        assert seg.text == text[seg.start : seg.end]
        assert not (prev is not None and prev.kind == seg.kind == "markdown")
        pos = seg.end

    expected = case["expected"]
    want_segments = expected["segments"]
    got_segments = [
        _segment_view(s, want_segments[i] if i < len(want_segments) else {})
        for i, s in enumerate(segments)
    ]
    assert got_segments == want_segments

    # A block that is not valid carries no parsed form or response.
    for seg in segments:
        if seg.kind != "markdown" and not seg.valid:
            assert seg.questionnaire is None and seg.response is None

    # Diagnostics: the same multiset of (code, severity, path); ordered by offset; every
    # expected "start" found; every block diagnostic also in the message's list.
    got = [d.to_json() for d in result.diagnostics]
    want = expected["diagnostics"]
    assert sorted(_diag_key(d) for d in got) == sorted(_diag_key(d) for d in want), [
        (d["code"], d["severity"], d["path"], d["start"]) for d in got
    ]
    starts = [d["start"] for d in got]
    assert starts == sorted(starts)
    for d in want:
        if "start" in d:
            assert any(_diag_key(g) == _diag_key(d) and g["start"] == d["start"] for g in got), (
                d,
                got,
            )
    message_diags = Counter(_diag_key(d) for d in got)
    block_diags = Counter(_diag_key(d.to_json()) for s in segments for d in s.diagnostics)
    assert not block_diags - message_diags
