"""The fuzz loop: generate, ask both implementations, compare, shrink, class.

:func:`check` answers one request with replykit and the adapter and returns a
:class:`Verdict`; :func:`fuzz` runs the explicit examples of
:mod:`replykit.fuzz.examples`, then Hypothesis-generated requests, and returns a
:class:`FuzzReport` whose classes are keyed by (op, rule).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, Final, TextIO

import attrs
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from replykit.fuzz.adapter import FAILURES, Adapter
from replykit.fuzz.compare import Difference, first_difference
from replykit.fuzz.examples import explicit_examples
from replykit.fuzz.generate import requests
from replykit.fuzz.ops import OPS, Op
from replykit.fuzz.reference import reference
from replykit.fuzz.rules import actions_rule, questionnaire_rule, segment_rule
from replykit.fuzz.shrink import shrink_json, shrink_text

#: Generated examples per Hypothesis run; each run gets its own seed.
ROUND: Final = 100
#: Consecutive adapter failures (without one good answer) after which the run stops.
MAX_CONSECUTIVE_FAILURES: Final = 8
#: Seconds between two progress lines on stderr.
PROGRESS_EVERY: Final = 1.0


@attrs.frozen
class Verdict:
    """The outcome of one request.

    ``rule``: ``None`` when the adapter agrees with replykit on every compared field
    (or does not support the op: ``unsupported`` true); a rule tag (§ or seed heading)
    for a disagreement; ``adapter.crash``, ``adapter.timeout``,
    ``adapter.invalid_json`` or ``adapter.bad_response`` for an adapter failure.
    ``expected``: replykit's response; ``actual``: the adapter's (``None`` on failure);
    ``difference``: the first differing field; ``detail``: the failure's description.
    """

    rule: str | None
    expected: Mapping[str, Any]
    actual: Mapping[str, Any] | None = None
    difference: Difference | None = None
    detail: str = ""
    unsupported: bool = False


@attrs.frozen
class FuzzClass:
    """One class of findings: the first input of (``op``, ``rule``), shrunk.

    ``input``: the request body (``{"text", "message_id", "profile"}``,
    ``{"arguments"}`` or ``{"answer"}``), 1-minimal for disagreements, as found for
    adapter failures; ``field``: JSON Pointer of the first differing field (``""``
    for failures); ``expected``/``actual``: the values there (for failures, replykit's
    whole response and ``None``); ``expected_response``/``actual_response``: both
    whole responses for ``input``; ``count``: examples that fell in this class
    (shrinking steps not counted); ``found_after_examples``/``found_after_seconds``:
    when the class was first seen; ``detail``: the adapter failure, if any.
    """

    rule: str
    op: Op
    input: Mapping[str, Any]
    field: str
    expected: Any
    actual: Any
    expected_response: Mapping[str, Any]
    actual_response: Mapping[str, Any] | None
    count: int
    found_after_examples: int
    found_after_seconds: float
    detail: str = ""

    @property
    def is_failure(self) -> bool:
        """True for adapter failures (``adapter.*`` rules)."""
        return self.rule.startswith("adapter.")


@attrs.frozen
class FuzzReport:
    """The result of :func:`fuzz`: ``classes`` in the order found; ``examples_run``
    (explicit plus generated requests answered, shrinking steps not counted);
    ``seconds`` (wall time); ``unsupported_ops``; ``adapter_starts``; ``stopped``
    (why the run ended early, ``""`` when it ran its budget)."""

    classes: tuple[FuzzClass, ...]
    examples_run: int
    seconds: float
    ops: tuple[Op, ...]
    seed: int
    command: tuple[str, ...]
    unsupported_ops: tuple[Op, ...] = ()
    adapter_starts: int = 0
    stopped: str = ""

    @property
    def rate(self) -> float:
        """Examples per second."""
        return self.examples_run / self.seconds if self.seconds > 0 else 0.0


def _rule_of(op: Op, body: Mapping[str, Any], expected: Any, actual: Any, diff: Difference) -> str:
    if op == "segment":
        return segment_rule(str(body.get("text", "")), expected, actual, diff.path)
    if op == "questionnaire_async":
        return questionnaire_rule(expected, actual)
    return actions_rule(expected, actual)


def check(adapter: Adapter, op: Op, body: Mapping[str, Any]) -> Verdict:
    """Ask replykit and ``adapter`` the same request and compare (docs/fuzzing.md).

    Input: an :class:`~replykit.fuzz.adapter.Adapter`, the op and the request body.
    Output: a :class:`Verdict`. Raises
    :class:`~replykit.fuzz.reference.RequestError` for a malformed body and
    :class:`~replykit.fuzz.adapter.AdapterStartError` when the adapter cannot start.
    """
    expected = reference(op, body)
    outcome = adapter.request(op, body)
    if outcome.kind == "unsupported":
        return Verdict(None, expected, unsupported=True)
    if outcome.kind in FAILURES or outcome.response is None:
        return Verdict(f"adapter.{outcome.kind}", expected, detail=outcome.detail)
    actual = outcome.response
    diff = first_difference(expected, actual)
    if diff is None:
        return Verdict(None, expected, actual)
    return Verdict(_rule_of(op, body, expected, actual, diff), expected, actual, diff)


def _shrink(
    adapter: Adapter,
    op: Op,
    body: Mapping[str, Any],
    rule: str,
    on_failure: Callable[[Op, Mapping[str, Any], Verdict], None],
) -> Mapping[str, Any]:
    def holds(candidate: Mapping[str, Any]) -> bool:
        verdict = check(adapter, op, candidate)
        if verdict.rule is not None and verdict.rule.startswith("adapter."):
            on_failure(op, candidate, verdict)
            return False
        return verdict.rule == rule

    if op == "segment":
        text = shrink_text(str(body["text"]), lambda t: holds({**body, "text": t}))
        return {**body, "text": text}
    key = "arguments" if op == "questionnaire_async" else "answer"
    return {**body, key: shrink_json(body[key], lambda v: holds({**body, key: v}))}


def _hypothesis_round(
    ops: tuple[Op, ...], seed: int, count: int, handle: Callable[[Op, dict[str, Any]], None]
) -> None:
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @hypothesis_seed(seed)
    @given(requests(ops))
    def run(pair: tuple[Op, dict[str, Any]]) -> None:
        handle(pair[0], pair[1])

    run()


class _Run:
    """The mutable state of one :func:`fuzz` call (never shared, never global)."""

    def __init__(self, adapter: Adapter, ops: tuple[Op, ...], progress: TextIO | None) -> None:
        self.adapter = adapter
        self.ops = ops
        self.progress = progress
        self.started = time.monotonic()
        self.last_progress = self.started
        self.run = 0
        self.generated = 0
        self.failures = 0
        self.classes: dict[tuple[Op, str], FuzzClass] = {}
        self.unsupported: list[Op] = []
        self.stopped = ""

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def record(self, op: Op, verdict: Verdict, shrunk: Mapping[str, Any], count: int) -> None:
        """Add ``count`` to the class of ``verdict`` (op, rule), creating it from the
        (shrunk) input and its verdict when new."""
        assert verdict.rule is not None
        key = (op, verdict.rule)
        if key in self.classes:
            old = self.classes[key]
            self.classes[key] = attrs.evolve(old, count=old.count + count)
            return
        diff = verdict.difference
        self.classes[key] = FuzzClass(
            rule=verdict.rule,
            op=op,
            input=dict(shrunk),
            field=diff.pointer if diff is not None else "",
            expected=diff.expected if diff is not None else verdict.expected,
            actual=diff.actual if diff is not None else None,
            expected_response=verdict.expected,
            actual_response=verdict.actual,
            count=count,
            found_after_examples=self.run,
            found_after_seconds=round(self.elapsed(), 3),
            detail=verdict.detail,
        )

    def on_failure(self, op: Op, body: Mapping[str, Any], verdict: Verdict) -> None:
        """An adapter failure met while shrinking: a class of its own, count 0."""
        self.record(op, verdict, body, 0)

    def show(self, final: bool = False) -> None:
        """Write a progress line (at most one per :data:`PROGRESS_EVERY` seconds)."""
        now = time.monotonic()
        if self.progress is None or (not final and now - self.last_progress < PROGRESS_EVERY):
            return
        self.last_progress = now
        spent = max(now - self.started, 1e-9)
        self.progress.write(
            f"replykit fuzz: {self.run} examples, {self.run / spent:.1f}/s, "
            f"{len(self.classes)} classes{' (done)' if final else ''}\n"
        )
        self.progress.flush()

    def handle(self, op: Op, body: Mapping[str, Any]) -> None:
        """Run one example: compare, shrink when its class is new, record."""
        if op in self.unsupported or self.stopped:
            return
        verdict = check(self.adapter, op, body)
        self.run += 1
        if verdict.unsupported:
            self.unsupported.append(op)
            if all(o in self.unsupported for o in self.ops):
                self.stopped = "the adapter supports none of the requested ops"
        elif verdict.rule is None:
            self.failures = 0
        elif verdict.rule.startswith("adapter."):
            self.failures += 1
            self.record(op, verdict, body, 1)
            if self.failures >= MAX_CONSECUTIVE_FAILURES:
                self.stopped = f"the adapter failed {MAX_CONSECUTIVE_FAILURES} times in a row"
        else:
            self.failures = 0
            if (op, verdict.rule) in self.classes:
                self.record(op, verdict, body, 1)
            else:
                shrunk = _shrink(self.adapter, op, body, verdict.rule, self.on_failure)
                final = check(self.adapter, op, shrunk)
                if final.rule != verdict.rule:  # pragma: no cover - a non-deterministic adapter
                    shrunk, final = body, verdict
                self.record(op, final, shrunk, 1)
        self.show()


def fuzz(
    command: tuple[str, ...],
    *,
    ops: tuple[Op, ...] = OPS,
    examples: int | None = 500,
    seconds: float | None = None,
    seed: int = 0,
    timeout: float = 10.0,
    explicit: bool = True,
    progress: TextIO | None = None,
    cwd: str | None = None,
) -> FuzzReport:
    """Fuzz the adapter ``command`` against replykit.

    Input: ``command`` (argument vector of the adapter), ``ops`` (subset of
    :data:`~replykit.fuzz.ops.OPS`), a budget of generated ``examples`` (``None``:
    500) or ``seconds`` (``seconds`` wins when both are given; explicit examples
    always run first when ``explicit``), ``seed`` (Hypothesis seed: same seed, same
    inputs with the same Hypothesis version), ``timeout`` (seconds per request),
    ``progress`` (a stream for progress lines, ``None`` for none), ``cwd`` for the
    adapter.

    Output: a :class:`FuzzReport`. Every disagreement is shrunk to a 1-minimal input
    before its class is recorded; later examples of the same class only add to its
    count. Raises :class:`~replykit.fuzz.adapter.AdapterStartError` when the command
    cannot be started and ``ValueError`` for bad arguments.
    """
    if not ops or any(op not in OPS for op in ops):
        raise ValueError(f"ops must be a non-empty subset of {OPS}")
    if examples is not None and examples < 0:
        raise ValueError("examples must be >= 0")
    if seconds is not None and seconds < 0:
        raise ValueError("seconds must be >= 0")
    budget = None if seconds is not None else (500 if examples is None else examples)
    with Adapter(command, timeout=timeout, cwd=cwd) as adapter:
        state = _Run(adapter, ops, progress)
        deadline = state.started + seconds if seconds is not None else None

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

        if explicit:
            for example in explicit_examples(ops):
                state.handle(example.op, example.request)
        round_no = 0
        while not exhausted():
            before = state.generated
            size = ROUND if budget is None else min(ROUND, budget - state.generated)
            _hypothesis_round(ops, seed * 1_000_003 + round_no, size, generated)
            round_no += 1
            if state.generated == before:
                break
    state.show(final=True)
    return FuzzReport(
        classes=tuple(state.classes.values()),
        examples_run=state.run,
        seconds=round(state.elapsed(), 3),
        ops=ops,
        seed=seed,
        command=command,
        unsupported_ops=tuple(state.unsupported),
        adapter_starts=adapter.starts,
        stopped=state.stopped,
    )
