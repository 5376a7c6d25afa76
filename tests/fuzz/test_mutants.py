"""The mutant adapters of ``examples/adapters/mutants``: each is replykit with exactly
one client fault, and differs from replykit where its fault acts (docs/fuzzing.md,
"A benchmark for the fuzzer").

For each mutant, a hand-picked input (its ``witness``) where it disagrees with
replykit, where the shipped ``replykit_adapter.py`` agrees, and where no other single
mutant disagrees (but the one overlap named below), so that a class found against the
combined mutant can be traced back to one fault.
"""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from replykit.fuzz import Adapter, check, first_difference, reference, requests
from replykit.fuzz.examples import explicit_examples
from replykit.fuzz.ops import OPS

from .helpers import ADAPTERS, PYTHON


def _load(name: str) -> ModuleType:
    if str(ADAPTERS) not in sys.path:
        sys.path.insert(0, str(ADAPTERS))
    return importlib.import_module(name)


mutants = _load("mutants")
base = _load("mutants.base")
triggers = _load("mutants.triggers")


def _replykit_adapter() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "replykit_adapter", ADAPTERS / "replykit_adapter.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REPLYKIT_ADAPTER = _replykit_adapter()
NAMES = [f.name for f in mutants.FAULTS]
#: Single mutants that also disagree on another fault's witness, and why: a client that
#: ignores the preface rule shows every form without a preface, also one whose only
#: "preface" is a zero-width space.
OVERLAPS = {("invisible_preface", "preface_ignored")}


def _differs(answer: Any, op: str, body: dict[str, Any]) -> Any:
    return first_difference(reference(op, body), answer({"op": op, **body}))


def test_at_least_24_faults_each_named_once_with_a_family() -> None:
    assert len(NAMES) >= 24
    assert len(set(NAMES)) == len(NAMES)
    assert mutants.COMBINED not in NAMES
    assert all(f.family and f.op in OPS for f in mutants.FAULTS)
    assert {f.op for f in mutants.FAULTS} == set(OPS)


@pytest.mark.parametrize("name", NAMES)
def test_mutant_differs_on_its_witness_where_replykit_adapter_agrees(name: str) -> None:
    fault = mutants.BY_NAME[name]
    body = fault.witness
    diff = _differs(mutants.mutant(name), fault.op, body)
    assert diff is not None, name
    assert diff.expected != diff.actual
    agrees = REPLYKIT_ADAPTER.answer({"id": "r1", "op": fault.op, **body})
    assert first_difference(reference(fault.op, body), agrees) is None
    assert _differs(mutants.mutant(mutants.COMBINED), fault.op, body) is not None


@pytest.mark.parametrize("name", NAMES)
def test_each_mutant_has_one_fault_only(name: str) -> None:
    answer = mutants.mutant(name)
    for other in mutants.FAULTS:
        if other.name == name or (other.name, name) in OVERLAPS:
            continue
        assert _differs(answer, other.op, other.witness) is None, other.name


def test_every_fault_has_a_trigger_that_holds_on_its_witness() -> None:
    assert set(triggers.TRIGGERS) == set(NAMES)
    for fault in mutants.FAULTS:
        assert triggers.TRIGGERS[fault.name](fault.witness), fault.name


SINGLES = {name: mutants.mutant(name) for name in NAMES}


def _departures(op: str, body: dict[str, Any]) -> list[str]:
    """The single mutants that answer ``body`` differently from replykit and whose
    trigger does not hold on it: each is a fault acting where it cannot (empty when
    every mutant has one fault only)."""
    expected = reference(op, body)
    out = []
    for fault in mutants.FAULTS:
        if fault.op != op or triggers.TRIGGERS[fault.name](body):
            continue
        if first_difference(expected, SINGLES[fault.name]({"op": op, **body})) is not None:
            out.append(fault.name)
    return out


def test_mutants_agree_with_replykit_where_their_trigger_does_not_hold_explicit() -> None:
    for example in explicit_examples(OPS):
        assert _departures(example.op, example.request) == [], example.name


@settings(
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(requests(OPS))
def test_mutants_agree_with_replykit_where_their_trigger_does_not_hold(
    request: tuple[str, dict[str, Any]],
) -> None:
    op, body = request
    assert _departures(op, body) == []


def test_stack_without_faults_is_replykit_on_every_explicit_example() -> None:
    answer = mutants.build([])
    for example in explicit_examples(OPS):
        assert _differs(answer, example.op, example.request) is None, example.name


def test_witness_values_show_the_fault() -> None:
    def at(name: str) -> tuple[str, Any, Any]:
        fault = mutants.BY_NAME[name]
        diff = _differs(mutants.mutant(name), fault.op, fault.witness)
        return diff.pointer, diff.expected, diff.actual

    # "😀 <questionnaire>": the tag starts at code point 2, UTF-16 unit 3
    assert at("utf16_offsets") == ("/segments/0/end", 2, 3)
    # lone CR: replykit opens the fence on line 3, the client sees one line of prose
    assert at("lone_cr")[:2] == ("/segments/0/end", 7)
    # YAML 1.1 reads `yes` as a boolean: the form is invalid for the client
    assert at("yaml11_scalars") == ("/segments/1/valid", True, False)
    # the alias is resolved: the client shows the form
    assert at("yaml_aliases") == ("/segments/1/valid", False, True)
    # ````questionnaire closed by ``` (shorter): the block ends 13 characters early
    assert at("short_closer") == ("/segments/1/end", 110, 97)
    assert at("tool_duplicate_ids") == ("/result/success", False, True)


def test_sanitizer_faults_keep_what_replykit_drops() -> None:
    def result(name: str) -> dict[str, Any]:
        fault = mutants.BY_NAME[name]
        out: dict[str, Any] = mutants.mutant(name)({"op": fault.op, **fault.witness})["result"]
        return out

    url = result("sanitizer_keeps_url")
    assert url == {
        "actions": [{"id": "a", "type": "answer.refresh", "label": "L", "url": "u"}],
        "diagnostics": [],
    }
    twice = result("sanitizer_keeps_duplicate_id")
    assert [a["id"] for a in twice["actions"]] == ["a", "a"]
    assert twice["diagnostics"] == []
    labels = result("sanitizer_utf16_labels")
    assert labels["actions"] == []
    assert [d["code"] for d in labels["diagnostics"]] == ["action.label_invalid"]


def test_edit_map_moves_offsets_back() -> None:
    text = "abcdef"
    new, to_old = base.edit_map(text, [(0, 0, "x\n\n"), (2, 4, ""), (5, 6, "Z")])
    assert new == "x\n\nabeZ"
    assert [to_old(i) for i in range(len(new) + 1)] == [0, 0, 0, 0, 1, 2, 5, 6]


def test_tidy_merges_markdown_and_numbers_blocks() -> None:
    response = {
        "segments": [
            {"kind": "markdown", "start": 0, "end": 0},
            {"kind": "markdown", "start": 0, "end": 2},
            {"kind": "markdown", "start": 2, "end": 3},
            {"kind": "questionnaire", "start": 3, "end": 4, "id": "m_q7"},
        ]
    }
    out = base.tidy(response, "abcd", "m")
    assert out["segments"] == [
        {"kind": "markdown", "start": 0, "end": 3, "text": "abc"},
        {"kind": "questionnaire", "start": 3, "end": 4, "id": "m_q1", "text": "d"},
    ]


def test_adapter_script_answers_every_witness_as_the_combined_mutant() -> None:
    command = (PYTHON, str(ADAPTERS / "mutant_adapter.py"), mutants.COMBINED)
    with Adapter(command, timeout=30) as adapter:
        for fault in mutants.FAULTS:
            verdict = check(adapter, fault.op, fault.witness)  # type: ignore[arg-type]
            assert verdict.rule is not None and not verdict.rule.startswith("adapter."), fault.name
        assert adapter.starts == 1


def test_adapter_script_lists_and_refuses() -> None:
    script = str(ADAPTERS / "mutant_adapter.py")
    listed = subprocess.run([PYTHON, script, "--list"], capture_output=True, text=True, check=True)
    rows = [line.split("\t") for line in listed.stdout.splitlines()]
    assert [r[0] for r in rows] == [*NAMES, mutants.COMBINED]
    bad = subprocess.run([PYTHON, script, "nope"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "unknown mutant 'nope'" in bad.stderr


@pytest.mark.parametrize("name", [*NAMES, mutants.COMBINED])
def test_a_mutant_answers_stream_and_unknown_ops_as_unsupported(name: str) -> None:
    # The mutants are splitters, not streaming readers: `replykit fuzz --op stream`
    # then says nothing was tested instead of blaming a crash on the adapter.
    answer = mutants.mutant(name)
    stream = {"op": "stream", "chunks": ["a", "b"], "message_id": "m", "profile": "client"}
    assert answer(stream) == {"unsupported": True}
    assert answer({"op": "no_such_op"}) == {"unsupported": True}
