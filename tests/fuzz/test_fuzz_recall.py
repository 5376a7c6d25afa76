"""The bounded benchmark of the fuzzer (docs/fuzzing.md, "A benchmark for the fuzzer"):
``fuzz`` run against each single mutant of ``examples/adapters/mutants`` finds it.

Deterministic: a fixed seed and a budget of generated examples (not seconds), the
explicit examples first, the mutant's own op only. The mutants today's generators and
explicit examples do not reach are :data:`KNOWN_GAPS`, expected failures: pytest shows
each one it finds now as XPASS, and then it leaves the list (the aim is an empty list).
``benchmarks/fuzz_recall.py`` is the full, timed version.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Any

import pytest

from replykit.fuzz import first_difference, fuzz, reference

from .helpers import ADAPTERS, PYTHON

if str(ADAPTERS) not in sys.path:
    sys.path.insert(0, str(ADAPTERS))
mutants = importlib.import_module("mutants")

#: Generated examples per mutant, after the explicit ones; and the seed.
EXAMPLES = 50
SEED = 0


@pytest.mark.parametrize("name", [f.name for f in mutants.FAULTS])
def test_fuzz_finds_the_mutant(name: str) -> None:
    fault = mutants.BY_NAME[name]
    report = fuzz(
        (PYTHON, str(ADAPTERS / "mutant_adapter.py"), name),
        ops=(fault.op,),
        examples=EXAMPLES,
        seed=SEED,
    )
    assert report.stopped == ""
    assert not [c for c in report.classes if c.is_failure]
    found = [c for c in report.classes if c.op == fault.op]
    assert found, f"{name} not found in {report.examples_run} examples"
    assert all(c.count >= 1 for c in found)


def _benchmark() -> Any:
    path = ADAPTERS.parents[1] / "benchmarks" / "fuzz_recall.py"
    spec = importlib.util.spec_from_file_location("fuzz_recall", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCHMARK = _benchmark()
SINGLES = {f.name: mutants.mutant(f.name) for f in mutants.FAULTS}
WITHOUT = {f.name: mutants.build([g for g in mutants.FAULTS if g is not f]) for f in mutants.FAULTS}


def _class_of(op: str, *inputs: dict[str, Any]) -> dict[str, Any]:
    """A class of the combined run as report.json has it, for ``inputs``."""
    body = inputs[0]
    diff = first_difference(
        reference(op, body), mutants.mutant(mutants.COMBINED)({"op": op, **body})
    )
    assert diff is not None
    return {"op": op, "rule": "§1", "input": body, "inputs": list(inputs), "field": diff.pointer}


@pytest.mark.parametrize("name", [f.name for f in mutants.FAULTS if f.name != "invisible_preface"])
def test_benchmark_maps_each_witness_class_to_its_family(name: str) -> None:
    fault = mutants.BY_NAME[name]
    found = _class_of(fault.op, fault.witness)
    assert BENCHMARK.attribute(found, SINGLES, WITHOUT) == {name}


def test_benchmark_maps_a_class_that_needs_two_faults_to_both() -> None:
    # no preface and a tab before the closing fence: only a client with both faults
    # shows the form (valid), each alone reads it as replykit does (invalid)
    text = (
        "```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: Q\n"
        '    default: ""\n'
        "\t```"
    )
    found = _class_of("segment", {"text": text, "message_id": "m", "profile": "client"})
    assert found["field"] == "/segments/0/valid"
    assert BENCHMARK.attribute(found, SINGLES, WITHOUT) == {"preface_ignored", "tab_before_fence"}


def test_benchmark_maps_a_class_with_inputs_of_two_faults_to_both() -> None:
    lone_cr = mutants.BY_NAME["lone_cr"].witness
    comment = mutants.BY_NAME["html_comments_not_inert"].witness
    found = {**_class_of("segment", lone_cr, comment), "field": "/segments/0/end"}
    assert BENCHMARK.attribute(found, SINGLES, WITHOUT) == {"lone_cr", "html_comments_not_inert"}
    assert BENCHMARK.class_inputs({"input": lone_cr}) == [lone_cr]


def test_benchmark_at_pointer_and_differs_at() -> None:
    value = {"segments": [{"kind": "markdown"}, {"a/b": 1}], "diagnostics": []}
    assert BENCHMARK.at_pointer(value, "/segments/1/a~1b") == 1
    assert BENCHMARK.at_pointer(value, "/segments/2/kind") is BENCHMARK.at_pointer(value, "/x")
    left = {"result": {"diagnostics": [{"code": "a", "message": "x"}, {"code": "b"}]}}
    right = {"result": {"diagnostics": [{"code": "b"}, {"code": "a", "message": "y"}]}}
    assert not BENCHMARK.differs_at(left, right, "/result/diagnostics")
    assert BENCHMARK.differs_at(left, {"result": {}}, "/result/diagnostics")
