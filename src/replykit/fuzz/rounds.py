"""Rounds of Hypothesis-generated requests for the fuzz loop (:mod:`.runner`).

Each round is one Hypothesis run with its own seed, drawing requests of the fuzzed ops
(:func:`replykit.fuzz.generate.requests`) and handing each to the run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final, Protocol

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from replykit.fuzz.generate import requests
from replykit.fuzz.ops import Op
from replykit.testing.reproducible import without_local_constants

#: Generated examples per Hypothesis run; each run gets its own seed.
ROUND: Final = 100


class Generating(Protocol):
    """What :func:`generate` reads and drives of a fuzz run."""

    generated: int
    stopped: str
    unsupported: list[Op]

    def handle(self, op: Op, body: dict[str, Any]) -> None:
        """Run one example."""


def draw_each(
    strategy: st.SearchStrategy[Any], seed: int, count: int, handle: Callable[[Any], None]
) -> None:
    """Give ``handle`` up to ``count`` values of ``strategy`` as the fuzzer draws them:
    generated only (no shrinking, no database), from ``seed``, without Hypothesis's
    constants of local modules (:func:`without_local_constants`)."""

    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @hypothesis_seed(seed)
    @given(strategy)
    def run(value: Any) -> None:
        handle(value)

    with without_local_constants():
        run()


def hypothesis_round(
    ops: tuple[Op, ...], seed: int, count: int, handle: Callable[[Op, dict[str, Any]], None]
) -> None:
    """One round of ``count`` generated requests of ``ops``, each given to ``handle``."""
    draw_each(requests(ops), seed, count, lambda pair: handle(pair[0], pair[1]))


def generate(
    state: Generating, ops: tuple[Op, ...], seed: int, budget: int | None, deadline: float | None
) -> None:
    """Run Hypothesis rounds of generated requests until the budget or the deadline is
    spent, the run stopped, or a round draws nothing new."""

    def exhausted() -> bool:
        if state.stopped:
            return True
        if deadline is not None and time.monotonic() >= deadline:
            return True
        return budget is not None and state.generated >= budget

    def generated(op: Op, body: dict[str, Any]) -> None:
        if op not in state.unsupported and not exhausted():
            state.generated += 1
            state.handle(op, body)

    round_no = 0
    while not exhausted():
        before = state.generated
        size = ROUND if budget is None else min(ROUND, budget - state.generated)
        hypothesis_round(ops, seed * 1_000_003 + round_no, size, generated)
        round_no += 1
        if state.generated == before:
            break


__all__ = ["ROUND", "Generating", "generate", "hypothesis_round"]
