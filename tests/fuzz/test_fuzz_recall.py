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
import sys

import pytest

from replykit.fuzz import fuzz

from .helpers import ADAPTERS, PYTHON

if str(ADAPTERS) not in sys.path:
    sys.path.insert(0, str(ADAPTERS))
mutants = importlib.import_module("mutants")

#: Generated examples per mutant, after the explicit ones; and the seed.
EXAMPLES = 50
SEED = 0
#: Mutants the fuzzer does not find within EXAMPLES generated inputs at SEED: no
#: explicit example and no generator reaches their family yet.
KNOWN_GAPS = frozenset(
    {
        "json_string_message",
        "entities_decoded",
        "escaped_closer",
        "tab_before_fence",
        "fence_not_dedented",
        "escaped_backtick",
        "span_across_blank_lines",
        "indented_always_code",
        "curly_quotes",
        "string_payload",
        "invalid_question_dropped",
    }
)


def test_known_gaps_are_mutants() -> None:
    assert set(mutants.BY_NAME) >= KNOWN_GAPS


def _case(name: str) -> object:
    gap = pytest.mark.xfail(reason="no generator or explicit example reaches it yet")
    return pytest.param(name, marks=gap) if name in KNOWN_GAPS else name


@pytest.mark.parametrize("name", [_case(f.name) for f in mutants.FAULTS])
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
