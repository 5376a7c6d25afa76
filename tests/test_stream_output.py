"""The size of a stream's updates is linear in the message (§10; docs/streaming.md,
"Output"): a block the diagnostics cap (§2.1) may still trim is deferred with all that
follows it until ``finish()``, and each deferred segment is described once, not again
in every later update. Counted in items, never timed."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from replykit import PendingBlock, PendingMarkdown, StreamSegmenter, StreamUpdate, segment
from replykit.testing.streaming import check_stream, tails

# An invalid form with several errors: the cap may still trim all but its first.
BAD = (
    "Intro.\n\n```questionnaire\ntitle: T\nquestions:\n"
    "  - type: nope\n    text: 1\n  - type: nope2\n    text: 2\n```\n\n"
)
GOOD = (
    "Next.\n\n```questionnaire\ntitle: T\nquestions:\n"
    '  - type: free_text\n    text: Why?\n    default: ""\n```\n\n'
)
# One long paragraph of XML+JSON blocks: nothing in it is final before its blank line.
PARA = (
    'See <questionnaire>{"title":"T","questions":[{"id":"a","type":"free_text",'
    '"text":"Q","default":""}]}</questionnaire> and '
)


def _updates(text: str, size: int) -> list[StreamUpdate]:
    seg = StreamSegmenter(message_id="m")
    return [seg.push(text[i : i + size]) for i in range(0, len(text), size)]


def _size(updates: list[StreamUpdate]) -> int:
    """Items sent over all updates: committed and pending."""
    return sum(len(u.committed) + len(u.pending) for u in updates)


def test_the_early_block_is_deferred_with_several_diagnostics() -> None:
    bad = segment(BAD, message_id="m").segments[1]
    assert not bad.valid and len([d for d in bad.diagnostics if d.severity == "error"]) > 1


@pytest.mark.parametrize("size", [1, 16, 256])
@pytest.mark.parametrize(("head", "unit"), [(BAD, GOOD), ("Intro.\n\n", PARA)])
def test_update_size_grows_linearly(size: int, head: str, unit: str) -> None:
    forms = (10, 20, 40, 80, 160)
    counts = [_size(_updates(head + unit * n + "\n\nEnd.\n", size)) for n in forms]
    # Doubling the forms at most about doubles the items: linear growth (quadratic would
    # quadruple them). Where the readings fall moves each count a little: in one long
    # paragraph the readings are spaced by a factor of three (docs/streaming.md, "Work").
    assert all(b <= 2.5 * a for a, b in itertools.pairwise(counts)), counts
    for n, count in zip(forms, counts, strict=True):
        assert count <= 4 * n + 2 * (len(head + unit * n) // size + 1), counts


def test_deferred_segments_are_each_sent_once_and_the_tail_is_whole() -> None:
    text = BAD + GOOD * 3
    updates = _updates(text, 1)
    assert check_stream([text[i] for i in range(len(text))], message_id="m") == []
    final = segment(text, message_id="m").segments
    ids = [p.id for u in updates for p in u.pending if isinstance(p, PendingBlock) and p.closed]
    # Each closed block is described once: its id and start never change again.
    assert ids == ["m_q1", "m_q2", "m_q3", "m_q4"]
    whole = tails(updates)[-1]
    expected: list[Any] = []
    for s in final[1:]:
        if s.kind == "markdown":
            expected.append(PendingMarkdown(s.start))
        else:
            assert s.id is not None and s.encoding is not None and s.name is not None
            expected.append(
                PendingBlock("questionnaire", s.encoding, s.name, s.id, s.start, True, False)
            )
    assert list(whole) == expected
    # The same tail as one push of the whole text gives, which has nothing to keep.
    once = StreamSegmenter(message_id="m").push(text)
    assert once.pending_kept == 0 and once.pending == whole
    assert all(u.committed_end == 8 for u in updates[8:])


def test_an_unchanged_tail_is_sent_as_kept() -> None:
    seg = StreamSegmenter(message_id="m")
    seg.push(BAD + GOOD)
    update = seg.push("More")
    assert update.pending == () and update.pending_kept == 4
    update = seg.push(" text.\n")
    assert update.pending_kept == 4


def _cli(text: str, size: int, tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "reply.md"
    path.write_text(text, "utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "replykit.cli", "stream", "--message-id", "m", "--chunk-size",
         str(size), str(path)],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    return [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]


def test_cli_prints_each_pending_item_once(tmp_path: Path) -> None:
    counts = []
    for n in (10, 40):
        text = BAD + GOOD * n
        events = _cli(text, 16, tmp_path)
        counts.append(sum(len(e.get("pending", [])) for e in events))
        tail: list[Any] = []
        for event in events:
            if event["event"] == "pending":
                tail = tail[: event["pending_kept"]] + event["pending"]
        want = [p.to_json() for p in tails(_updates(text, 16))[-1]]
        assert tail == want
    assert counts[1] <= 4 * counts[0] + 8, counts  # 4x the forms: about 4x, never 16x
