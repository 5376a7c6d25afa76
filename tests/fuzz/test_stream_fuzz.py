"""``replykit fuzz --op stream``: invariants of §10, not replykit's commit points
(docs/fuzzing.md, "Streaming"). replykit itself gives no class; each usual streaming
fault of ``stream_fault_adapter.py`` is found, by a fixed seed and a bounded number
of examples."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit.fuzz import fuzz
from replykit.fuzz.adapter import Adapter
from replykit.fuzz.report import report_text
from replykit.fuzz.stream_check import commit_fault, shape_fault
from replykit.fuzz.stream_examples import stream_examples
from replykit.fuzz.stream_generate import chunked, hard_cuts
from replykit.fuzz.verdict import check

from .helpers import python_adapter, run_cli

# Examples under the ``ci`` profile; the ``long`` profile (HYPOTHESIS_PROFILE=long)
# multiplies them by 25.
SCALE = max(1, settings.default.max_examples // 200)


def test_replykit_streaming_gives_no_class() -> None:
    report = fuzz(python_adapter("replykit_adapter.py"), ops=("stream",), examples=60, seed=2)
    assert report.classes == ()
    assert report.examples_run == len(stream_examples()) + 60
    assert report.unsupported_ops == () and report.stopped == ""


@pytest.mark.parametrize(
    ("fault", "key"),
    [
        ("early_block", "stream|§10|premature|questionnaire>"),
        ("split_tag", "stream|§10|final|"),
        ("withdraw", "stream|§10|withdrawn|markdown>questionnaire"),
    ],
)
def test_each_streaming_fault_is_found_from_generated_streams(fault: str, key: str) -> None:
    report = fuzz(
        python_adapter("stream_fault_adapter.py", fault), ops=("stream",), examples=40,
        seed=1, explicit=False, profiles=("client",),
    )  # fmt: skip
    assert report.examples_run == 40
    assert any(c.key_text.startswith(key) for c in report.classes), [
        c.key_text for c in report.classes
    ]


@pytest.mark.parametrize(
    ("fault", "name", "role"),
    [
        ("early_block", "later-backtick", "premature"),
        ("early_block", "later-comment-closer", "premature"),
        ("early_block", "outer-tag", "premature"),
        ("split_tag", "tag-split", "final"),
        ("withdraw", "reply-in-16s", "withdrawn"),
    ],
)
def test_the_hand_written_streams_catch_each_fault(fault: str, name: str, role: str) -> None:
    example = next(e for e in stream_examples() if e.name == name)
    with Adapter(python_adapter("stream_fault_adapter.py", fault)) as adapter:
        verdict = check(adapter, "stream", example.request)
        assert verdict.key is not None and verdict.key.role == role
        good = check(adapter, "stream", {**example.request, "chunks": ["".join(
            example.request["chunks"])]}) if fault == "split_tag" else None  # fmt: skip
    assert good is None or good.rule is None  # one chunk: no tag is split


def test_committed_text_is_checked_against_the_message() -> None:
    # Right ranges, wrong text: a client slicing by UTF-16 units after an emoji.
    chunks = ["Intro 😀 then\n\n", "more text\n\n```questionnaire\n", "title: T\n```\n"]
    request = {"op": "stream", "chunks": chunks, "message_id": "m", "profile": "client"}
    with Adapter(python_adapter("stream_fault_adapter.py", "utf16_text")) as adapter:
        verdict = check(adapter, "stream", request)
        assert verdict.key is not None and verdict.key.role == "premature", verdict
    with Adapter(python_adapter("replykit_adapter.py")) as adapter:
        assert check(adapter, "stream", request).key is None


def test_commit_checks() -> None:
    body = {"chunks": ["ab", "cd"]}
    final = [{"kind": "markdown", "start": 0, "end": 4}]
    ok = {"updates": [{"committed": [{"kind": "markdown", "start": 0, "end": 1}]},
                      {"committed": [{"kind": "markdown", "start": 1, "end": 4}]}],
          "segments": final}  # fmt: skip
    assert shape_fault(body, ok) == "" and commit_fault(body, ok, final) is None
    ahead = {**ok, "updates": [{"committed": [{"kind": "markdown", "start": 0, "end": 3}]},
                               {"committed": []}]}  # fmt: skip
    found = commit_fault(body, ahead, final)
    assert found is not None and found[0] == "withdrawn" and found[2].actual == 3
    assert found[2].path == ("updates", 0, "committed", 0, "end") and found[2].expected == 2
    # The field that breaks 0 <= start < end <= received is the one named.
    for (start, end), (field, expected) in {
        (-1, 1): ("start", 0),
        (2, 3): ("start", 1),
        (1, 1): ("end", 2),
        (1, 0): ("end", 2),
    }.items():
        bad = {**ok, "updates": [{"committed": [{"kind": "markdown", "start": start,
                                                 "end": end}]}, {"committed": []}]}  # fmt: skip
        found = commit_fault(body, bad, final)
        assert found is not None and found[0] == "withdrawn"
        assert found[2].path[-1] == field and found[2].expected == expected, (start, end)
        assert found[2].actual == (start if field == "start" else end)
    assert shape_fault(body, {**ok, "updates": ok["updates"][:1]}) == "1 updates for 2 chunks"


def test_chunkings_cut_inside_tags_fences_and_crlf() -> None:
    text = "a\r\n<questionnaire>{}</questionnaire>\n```questionnaire\n"
    cuts = hard_cuts(text)
    assert 2 in cuts and 4 in cuts and text.index("</q") + 1 in cuts
    assert text.index("```") + 2 in cuts and 0 not in cuts
    assert "".join(chunked(text, cuts)) == text and all(chunked(text, cuts))


def test_cli_op_stream(tmp_path: Path) -> None:
    out = tmp_path / "r"
    impl = " ".join(python_adapter("stream_fault_adapter.py", "withdraw"))
    status = run_cli(["fuzz", "--impl", impl, "--op", "stream", "--examples", "3",
                      "--seed", "1", "--out", str(out)])  # fmt: skip
    assert status == 1
    data = json.loads((out / "report.json").read_text("utf-8"))
    assert data["ops"] == ["stream"] and data["classes"][0]["op"] == "stream"


def test_an_overlap_is_reported_as_the_earlier_commit_against_the_later_one() -> None:
    body = {"chunks": ["Intro\n\n<questionnaire>{}</questionnaire>\n"]}
    final = [
        {"kind": "markdown", "start": 0, "end": 7},
        {"kind": "questionnaire", "start": 7, "end": 39, "id": "m_q1"},
    ]
    answer = {"updates": [{"committed": [{"kind": "markdown", "start": 0, "end": 20},
                                         {"kind": "questionnaire", "start": 7, "end": 39}]}],
              "segments": final}  # fmt: skip
    found = commit_fault(body, answer, final)
    assert found is not None
    role, kinds, diff, why = found
    assert (role, kinds) == ("withdrawn", "markdown>questionnaire")
    assert (diff.expected, diff.actual) == ("markdown", "questionnaire")
    assert why.startswith(
        "updates[0].committed[1] (questionnaire 7-39) overlaps updates[0].committed[0] "
        "(markdown 0-20), committed earlier"
    )


def test_nothing_received_allows_no_range() -> None:
    body = {"chunks": [""]}
    answer = {"updates": [{"committed": [{"kind": "markdown", "start": 0, "end": 0}]}],
              "segments": []}  # fmt: skip
    found = commit_fault(body, answer, [])
    assert found is not None and found[0] == "withdrawn"
    assert (found[2].path[-1], found[2].expected, found[2].actual) == ("start", None, 0)
    assert "0 code points received" in found[3]


def test_offsets_may_be_integral_numbers_and_nothing_else() -> None:
    body = {"chunks": ["ab", "cd"]}
    final = [{"kind": "markdown", "start": 0, "end": 4}]

    def answer(start: object, end: object) -> dict[str, object]:
        item = {"kind": "markdown", "start": start, "end": end}
        return {"updates": [{"committed": []}, {"committed": [item]}], "segments": final}

    assert shape_fault(body, answer(0.0, 4.0)) == ""
    assert commit_fault(body, answer(0.0, 4.0), final) is None
    found = commit_fault(body, answer(0.0, 5.0), final)
    assert found is not None and found[2].path[-1] == "end" and found[2].actual == 5
    for bad, shown in ((2.5, "2.5"), ("0", "'0'"), (True, "True"), (None, "None")):
        assert shape_fault(body, answer(bad, 4)) == (
            f"updates[1].committed[0] start is not a code-point offset (an integer): {shown}"
        )
    assert shape_fault(body, answer(0, 4) | {"updates": [{"committed": []}, {"committed": [
        {"start": 0, "end": 4}]}]}) == "updates[1].committed[0] has no kind string"  # fmt: skip


def test_an_answer_of_the_wrong_shape_restarts_the_adapter() -> None:
    request = {"op": "stream", "chunks": ["a", "b"], "message_id": "m", "profile": "client"}
    with Adapter(python_adapter("stream_fault_adapter.py", "short")) as adapter:
        for n in (1, 2):
            verdict = check(adapter, "stream", request)
            assert verdict.rule == "adapter.bad_response"
            assert verdict.detail == "1 updates for 2 chunks"
            assert adapter.starts == n


def test_a_stream_class_says_which_commit_broke_which_invariant() -> None:
    report = fuzz(
        python_adapter("stream_fault_adapter.py", "withdraw"), ops=("stream",), examples=20,
        seed=1, explicit=False, profiles=("client",),
    )  # fmt: skip
    withdrawn = [c for c in report.classes if "|withdrawn|" in c.key_text]
    assert withdrawn and all("committed earlier" in c.detail for c in withdrawn)
    text = report_text(report)
    assert all(c.detail in text for c in withdrawn)


def _pairwise_first_overlap(items: list[dict[str, Any]]) -> int | None:
    """The definition, pair by pair: the index of the first item that overlaps an
    earlier one it does not continue (both Markdown, or the same block)."""

    def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
        if a["kind"] == b["kind"] == "markdown":
            return True
        return all(a.get(k) == b.get(k) for k in ("kind", "start", "end", "id"))

    for k, item in enumerate(items):
        for old in items[:k]:
            overlaps = old["start"] < item["end"] and item["start"] < old["end"]
            if overlaps and not same(old, item):
                return k
    return None


_ITEMS = st.lists(
    st.tuples(st.sampled_from(["markdown", "markdown", "questionnaire"]),
              st.integers(0, 30), st.integers(1, 8), st.sampled_from(["m_q1", "m_q2"])),
    max_size=25,
)  # fmt: skip


@settings(max_examples=400 * SCALE)
@given(_ITEMS)
def test_overlaps_are_found_as_the_pairwise_definition_finds_them(
    raw: list[tuple[str, int, int, str]],
) -> None:
    items: list[dict[str, Any]] = [
        {"kind": kind, "start": start, "end": start + width}
        | ({} if kind == "markdown" else {"id": block})
        for kind, start, width, block in raw
    ]
    body = {"chunks": ["x" * 40]}
    answer = {"updates": [{"committed": items}], "segments": []}
    found = commit_fault(body, answer, [{"kind": "markdown", "start": 0, "end": 40}])
    first = _pairwise_first_overlap(items)
    if first is None:
        # No overlap: only a block against the final (all Markdown) can be a finding.
        blocks = [k for k, it in enumerate(items) if it["kind"] != "markdown"]
        assert (found is None) == (not blocks)
        assert found is None or found[3].startswith(f"updates[0].committed[{blocks[0]}] ")
    else:
        assert found is not None and found[0] == "withdrawn"
        assert found[3].startswith(f"updates[0].committed[{first}] ")


def test_a_huge_answer_is_checked_in_n_log_squared_n() -> None:
    # 60 000 commits of Markdown, each overlapping every earlier one, then a block over
    # them: pair by pair that is 1.8 billion comparisons (minutes). Then 200 000
    # one-character commits from the end of the message backwards (inserting each in
    # order at the front was quadratic: 27 s). Run in a child process so that a
    # quadratic check fails, not hangs.
    proc = subprocess.run(
        [sys.executable, "-c", _HUGE], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    words = ["withdrawn", "updates[0].committed[60000]", "updates[0].committed[5]"]
    assert proc.stdout.split() == [*words, "None", "updates[0].committed[200000]"]


_HUGE = """
from replykit.fuzz.stream_check import commit_fault
n = 60_000
items = [{"kind": "markdown", "start": 0, "end": k + 1} for k in range(n)]
items.append({"kind": "questionnaire", "start": 5, "end": 9, "id": "m_q1"})
body = {"chunks": ["x" * n]}
found = commit_fault(body, {"updates": [{"committed": items}], "segments": []}, [])
words = found[3].split()
print(found[0], words[0], words[4])
n = 200_000
items = [{"kind": "markdown", "start": k, "end": k + 1} for k in range(n - 1, -1, -1)]
final = [{"kind": "markdown", "start": 0, "end": n}]
body = {"chunks": ["x" * n]}
print(commit_fault(body, {"updates": [{"committed": items}], "segments": final}, final))
items.append({"kind": "questionnaire", "start": 7, "end": 9, "id": "m_q1"})
found = commit_fault(body, {"updates": [{"committed": items}], "segments": final}, final)
print(found[3].split()[0])
"""
