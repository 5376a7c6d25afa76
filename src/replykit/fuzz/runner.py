"""The fuzz loop: generate, ask both implementations, compare, shrink, class.

:func:`fuzz` runs the explicit examples of :mod:`replykit.fuzz.examples`, then
Hypothesis-generated requests, each through :func:`~replykit.fuzz.verdict.check`, and
returns a :class:`~replykit.fuzz.results.FuzzReport` whose classes are keyed by
:class:`~replykit.fuzz.classify.ClassKey` (op, rule, role, kinds, code, features).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Final, TextIO

import attrs

from replykit.fuzz.accept import NO_ACCEPT, Acceptance
from replykit.fuzz.adapter import Adapter, Respond, open_adapter
from replykit.fuzz.classify import ClassKey
from replykit.fuzz.examples import Example, examples_first
from replykit.fuzz.features import key_features
from replykit.fuzz.ops import ALL_OPS, OPS, Op
from replykit.fuzz.results import FuzzClass, FuzzReport
from replykit.fuzz.rounds import generate
from replykit.fuzz.verdict import (
    DEFAULT_MESSAGE_ID,
    DEFAULT_PROFILE,
    PREFACE_PROBE,
    Verdict,
    check,
    class_key_for,
    shrink_finding,
    shrink_request,
)
from replykit.questionnaire.profiles import profile_from_string

#: Consecutive adapter failures (without one good answer) after which the run stops.
MAX_CONSECUTIVE_FAILURES: Final = 8
#: Seconds between two progress lines on stderr.
PROGRESS_EVERY: Final = 1.0
#: Distinct minimal inputs kept per class.
MAX_INPUTS: Final = 3
#: Inputs of a known coarse key shrunk again (because no class of the key explains
#: them), at most, per coarse key; and after how many shrinks of that key in a row
#: that found no new class it is shrunk no more for that reason.
MAX_RESHRINKS: Final = 16
MAX_FRUITLESS: Final = 4
#: Inputs that fit a class shrunk for another minimal input of it, at most, per class.
MAX_SAMPLES: Final = 4
#: Overall, at most this many such shrinks, and one more per RESHRINK_EVERY examples run.
RESHRINK_BASE: Final = 16
RESHRINK_EVERY: Final = 200
#: How the run notes that the adapter answered ``unsupported`` for a product profile:
#: no ``product:`` profile is drawn any more, but those named by ``--profile``.
PRODUCT_PROFILES: Final = "product:*"


class _Run:
    """The mutable state of one :func:`fuzz` call (never shared, never global)."""

    def __init__(
        self,
        adapter: Adapter,
        ops: tuple[Op, ...],
        progress: TextIO | None,
        profiles: tuple[str, ...],
        accept: Acceptance,
    ) -> None:
        self.adapter = adapter
        self.ops = ops
        self.progress = progress
        self.profiles = profiles
        self.accept = accept
        self.started = time.monotonic()
        #: ``time.monotonic()`` at which ``--seconds`` ends (``None``: no time budget).
        self.deadline: float | None = None
        self.last_progress = self.started
        self.run = 0
        self.generated = 0
        self.failures = 0
        #: Every class by its key text, accepted ones included, in the order found.
        self.classes: dict[str, FuzzClass] = {}
        #: Full key texts by coarse key text.
        self.groups: dict[str, list[str]] = {}
        #: Shrinks of inputs that fell in a known coarse key, and how many in a row
        #: found no new class, by coarse key text.
        self.reshrinks: dict[str, int] = {}
        self.fruitless: dict[str, int] = {}
        self.reshrinks_total = 0
        #: Feature sets of inputs shrunk for another minimal input, by class key text.
        self.tried: dict[str, set[frozenset[str]]] = {}
        #: The codes of unshrunk inputs that shrank into a class, by class key text:
        #: an input of a fine-code role fits a class only with one of these.
        self.codes: dict[str, set[str]] = {}
        self.unsupported: list[Op] = []
        self.unsupported_profiles: list[str] = []
        self.stopped = ""

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def out_of_time(self) -> bool:
        """Whether the ``seconds`` budget is spent: no request is started after it."""
        return self.deadline is not None and time.monotonic() >= self.deadline

    # ------------------------------------------------------------ profiles

    def _supported(self, profile: str) -> bool:
        if profile in self.unsupported_profiles:
            return False
        if profile.startswith("product:") and PRODUCT_PROFILES in self.unsupported_profiles:
            return profile in self.profiles
        return not self.profiles or profile in self.profiles

    def first_profile(self) -> str | None:
        """The profile tried first when shrinking, and drawn instead of one left out."""
        for profile in (*self.profiles, DEFAULT_PROFILE):
            if self._supported(profile):
                return profile
        return None

    def with_profile(self, body: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """``body`` with a profile the run may draw (its own, else the first allowed),
        or ``None`` when no profile is left."""
        profile = str(body.get("profile", DEFAULT_PROFILE))
        if self._supported(profile):
            return body
        other = self.first_profile()
        return None if other is None else {**body, "profile": other}

    def profile_unsupported(self, body: Mapping[str, Any]) -> None:
        """The adapter answered ``unsupported: "profile"``: stop drawing that profile
        (every ``product:`` profile not named by ``--profile``, for a product)."""
        profile = str(body.get("profile", DEFAULT_PROFILE))
        entry = PRODUCT_PROFILES if profile.startswith("product:") else profile
        if profile in self.profiles:
            entry = profile
        if entry not in self.unsupported_profiles:
            self.unsupported_profiles.append(entry)
        if self.first_profile() is None and "segment" not in self.unsupported:
            self.unsupported.append("segment")
            self.stop_if_nothing_left()

    def stop_if_nothing_left(self) -> None:
        if all(o in self.unsupported for o in self.ops):
            self.stopped = "the adapter supports none of the requested ops"

    # ------------------------------------------------------------ classes

    def _new_class(
        self, op: Op, key: ClassKey, verdict: Verdict, shrunk: Mapping[str, Any], count: int
    ) -> FuzzClass:
        diff = verdict.difference
        return FuzzClass(
            rule=key.rule,
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
            key=key,
            inputs=(dict(shrunk),),
            accepted=self.accept.accepts(key.text()),
        )

    def record(
        self,
        op: Op,
        key: ClassKey,
        verdict: Verdict,
        shrunk: Mapping[str, Any],
        count: int,
        coarse: str | None = None,
    ) -> None:
        """Add ``count`` to the class of the full ``key``, creating it from the (shrunk)
        input and its verdict when new; a new distinct minimal input is kept (up to
        :data:`MAX_INPUTS`). The class joins the group of ``coarse`` (the coarse key
        text of the input's verdict; ``key``'s own by default)."""
        text = key.text()
        group = self.groups.setdefault(coarse or key.coarse_text(), [])
        if text not in group:
            group.append(text)
        old = self.classes.get(text)
        if old is None:
            self.classes[text] = self._new_class(op, key, verdict, shrunk, count)
            return
        inputs = old.inputs
        if len(inputs) < MAX_INPUTS and dict(shrunk) not in inputs and not key.is_failure:
            inputs = (*inputs, dict(shrunk))
        self.classes[text] = attrs.evolve(old, count=old.count + count, inputs=inputs)

    def on_failure(self, op: Op, body: Mapping[str, Any], verdict: Verdict) -> None:
        """An adapter failure met while shrinking: a class of its own, count 0."""
        assert verdict.key is not None
        self.record(op, verdict.key, verdict, body, 0)

    def _explains(self, text: str, held: frozenset[str], code: str) -> bool:
        """Whether the class ``text`` explains an input with features ``held`` whose
        (unshrunk) code is ``code``: it has no feature the input lacks, and an input
        with that code shrank into it (its own code, for a class never shrunk)."""
        found = self.classes[text]
        codes = self.codes.get(text) or {found.key.code if found.key is not None else code}
        return set(found.key_features) <= held and code in codes

    def _budget(self) -> bool:
        """Overall, at most :data:`RESHRINK_BASE` extra shrinks and one more per
        :data:`RESHRINK_EVERY` examples run."""
        return self.reshrinks_total < RESHRINK_BASE + self.run // RESHRINK_EVERY

    def _may_reshrink(self, coarse: str) -> bool:
        """Whether an input that no class of ``coarse`` explains may be shrunk: a
        bounded number per coarse key (none once shrinks stop finding new classes)."""
        return (
            self.reshrinks.get(coarse, 0) < MAX_RESHRINKS
            and self.fruitless.get(coarse, 0) < MAX_FRUITLESS
            and self._budget()
        )

    def _may_sample(self, target: FuzzClass, held: frozenset[str]) -> bool:
        """Whether an input that fits ``target`` may be shrunk for another minimal
        input of the class (or to find that it is another fault after all): while the
        class has fewer than :data:`MAX_INPUTS`, for inputs with features not tried
        for it yet, at most :data:`MAX_SAMPLES` times per class."""
        tried = self.tried.setdefault(target.key_text, set())
        return (
            len(target.inputs) < MAX_INPUTS
            and held not in tried
            and len(tried) < MAX_SAMPLES
            and self._budget()
        )

    def _minimize(
        self, op: Op, body: Mapping[str, Any], verdict: Verdict
    ) -> tuple[Mapping[str, Any], Verdict]:
        """``body`` shrunk while its coarse key holds, and the verdict on it; shrinking
        stops at the deadline with the input shrunk so far."""
        assert verdict.key is not None
        profile = self.first_profile() or DEFAULT_PROFILE
        held: list[tuple[Mapping[str, Any], Verdict]] = []

        def on_hold(candidate: Mapping[str, Any], found: Verdict) -> None:
            held.append((candidate, found))

        shrunk = shrink_finding(
            self.adapter,
            op,
            verdict,
            body,
            self.on_failure,
            profile,
            deadline=self.deadline,
            on_hold=on_hold,
        )
        if shrunk != body:
            for candidate, found in reversed(held):
                if candidate == shrunk:
                    return shrunk, found
        return body, verdict

    def disagreement(self, op: Op, body: Mapping[str, Any], verdict: Verdict) -> None:
        """File one disagreement (docs/fuzzing.md, "Classes"): shrink it when its coarse
        key is new; when no class of that key has features the input holds (it may be
        another fault); or, within a budget, when it fits a class that has fewer than
        :data:`MAX_INPUTS` minimal inputs. Else count it in the class of that key whose
        features it holds (most features first). For a role whose code is the minimal
        input's (:data:`~replykit.fuzz.classify.FINE_CODE_ROLES`), a class explains an
        input only when an input with the same code shrank into it."""
        assert verdict.key is not None
        coarse = verdict.key.coarse_text()
        raw = verdict.key.code
        group = self.groups.get(coarse)
        novel = False
        if group is None and self.accept.accepts_coarse(coarse):
            self.record(op, verdict.key.class_key, verdict, body, 1, coarse)  # no shrinking
            return
        if group is not None:
            held = key_features(op, body)
            fits = [self.classes[t] for t in group if self._explains(t, held, raw)]
            if fits:
                target = max(fits, key=lambda c: len(c.key_features))
                if not self._may_sample(target, held):
                    self.classes[target.key_text] = attrs.evolve(target, count=target.count + 1)
                    return
                self.tried[target.key_text].add(held)
            elif self._may_reshrink(coarse):
                self.reshrinks[coarse] = self.reshrinks.get(coarse, 0) + 1
                novel = True
            else:
                target = self.classes[group[0]]
                self.classes[target.key_text] = attrs.evolve(target, count=target.count + 1)
                return
            self.reshrinks_total += 1
        size = len(group) if group is not None else 0
        shrunk, final = self._minimize(op, body, verdict)
        assert final.key is not None
        full = class_key_for(final.key, op, shrunk)
        self.record(op, full, final, shrunk, 1, final.key.coarse_text())
        self.codes.setdefault(full.text(), {full.code}).add(raw)
        if novel:
            grew = len(self.groups.get(coarse, [])) > size
            self.fruitless[coarse] = 0 if grew else self.fruitless.get(coarse, 0) + 1

    def show(self, final: bool = False) -> None:
        """Write a progress line (at most one per :data:`PROGRESS_EVERY` seconds)."""
        now = time.monotonic()
        if self.progress is None or (not final and now - self.last_progress < PROGRESS_EVERY):
            return
        self.last_progress = now
        spent = max(now - self.started, 1e-9)
        shown = sum(1 for c in self.classes.values() if not c.accepted)
        self.progress.write(
            f"replykit fuzz: {self.run} examples, {self.run / spent:.1f}/s, "
            f"{shown} classes{' (done)' if final else ''}\n"
        )
        self.progress.flush()

    def handle(self, op: Op, body: Mapping[str, Any]) -> None:
        """Run one example: compare, shrink when its class may be new, record. Nothing
        once the run stopped or its time is spent."""
        if op in self.unsupported or self.stopped or self.out_of_time():
            return
        if op in ("segment", "stream"):
            allowed = self.with_profile(body)
            if allowed is None:
                return
            body = allowed
        verdict = check(self.adapter, op, body)
        self.run += 1
        if verdict.unsupported == "profile" and op in ("segment", "stream"):
            self.profile_unsupported(body)
        elif verdict.unsupported:
            self.unsupported.append(op)
            self.stop_if_nothing_left()
        elif verdict.rule is None:
            self.failures = 0
        elif verdict.rule.startswith("adapter."):
            self.failures += 1
            assert verdict.key is not None
            self.record(op, verdict.key, verdict, body, 1)
            if self.failures >= MAX_CONSECUTIVE_FAILURES:
                self.stopped = f"the adapter failed {MAX_CONSECUTIVE_FAILURES} times in a row"
        else:
            self.failures = 0
            self.disagreement(op, body, verdict)
        self.show()

    def accept_examples(self) -> None:
        """Turn each accepted example of the accept file into the key of its class
        (shrunk like any finding), so that its class is accepted."""
        for op, body in self.accept.examples:
            if op not in self.ops or op in self.unsupported or self.out_of_time():
                continue
            if op == "segment":
                allowed = self.with_profile(body)
                if allowed is None:
                    continue
                body = allowed
            verdict = check(self.adapter, op, body)
            if verdict.key is None or verdict.rule is None:
                continue
            if verdict.key.is_failure:
                self.accept = self.accept.with_key(verdict.key.text())
                continue
            shrunk, final = self._minimize(op, body, verdict)
            if final.key is not None:
                self.accept = self.accept.with_key(class_key_for(final.key, op, shrunk).text())


def fuzz(
    command: tuple[str, ...] | Respond,
    *,
    ops: tuple[Op, ...] = OPS,
    examples: int | None = 500,
    seconds: float | None = None,
    seed: int = 0,
    timeout: float = 10.0,
    explicit: bool | Sequence[Example] = True,
    progress: TextIO | None = None,
    cwd: str | None = None,
    profiles: tuple[str, ...] = (),
    accept: Acceptance | None = None,
) -> FuzzReport:
    """Fuzz the adapter ``command`` against replykit.

    Input: ``command`` (argument vector of the adapter; or a Python function answering
    each request in this process: :class:`~replykit.fuzz.adapter.InProcessAdapter`,
    where ``timeout`` and ``cwd`` do not apply), ``ops`` (subset of
    :data:`~replykit.fuzz.ops.ALL_OPS`; ``stream`` only when asked for), a budget of
    generated ``examples`` (``None``: 500) or ``seconds`` (``seconds`` wins when both
    are given), ``explicit`` (run first: ``True`` the hand-written examples, ``False``
    none, or a sequence of :class:`~replykit.fuzz.example.Example`, those of ``ops``:
    :func:`~replykit.fuzz.examples.examples_first`), ``seed``
    (Hypothesis seed: same seed, same inputs with the same Hypothesis version),
    ``timeout`` (seconds per request),
    ``progress`` (a stream for progress lines, ``None`` for none), ``cwd`` for the
    adapter, ``profiles`` (profile strings, ``client``, ``self_check``,
    ``product:NAME``: the only ones drawn; ``()``: all), ``accept`` (classes a team
    accepted: :func:`~replykit.fuzz.accept.load_accept`).

    Output: a :class:`FuzzReport`. Every disagreement whose class may be new is shrunk
    to a 1-minimal input before its class is recorded; classes are keyed by
    :class:`~replykit.fuzz.classify.ClassKey`. Raises
    :class:`~replykit.fuzz.adapter.AdapterStartError` when the command cannot be started
    and ``ValueError`` for bad arguments (an unknown op or profile, a negative budget),
    ``TypeError`` for an ``explicit`` item that is not an ``Example``.
    """
    _check_arguments(ops, examples, seconds, profiles)
    first = examples_first(ops, explicit)
    budget = None if seconds is not None else (500 if examples is None else examples)
    with open_adapter(command, timeout=timeout, cwd=cwd) as adapter:
        state = _Run(adapter, ops, progress, tuple(dict.fromkeys(profiles)), accept or NO_ACCEPT)
        deadline = state.started + seconds if seconds is not None else None
        state.deadline = deadline
        state.accept_examples()
        for example in first:
            state.handle(example.op, example.request)
        generate(state, ops, seed, budget, deadline)
    state.show(final=True)
    return _report(state, seed)


def _report(state: _Run, seed: int) -> FuzzReport:
    """The report of a finished run."""
    found = tuple(state.classes.values())
    return FuzzReport(
        classes=tuple(c for c in found if not c.accepted),
        examples_run=state.run,
        seconds=round(state.elapsed(), 3),
        ops=state.ops,
        seed=seed,
        command=state.adapter.command,
        unsupported_ops=tuple(state.unsupported),
        adapter_starts=state.adapter.starts,
        stopped=state.stopped,
        accepted=tuple(c for c in found if c.accepted),
        unsupported_profiles=tuple(state.unsupported_profiles),
        profiles=state.profiles,
    )


def _check_arguments(
    ops: tuple[Op, ...], examples: int | None, seconds: float | None, profiles: tuple[str, ...]
) -> None:
    """Raise ``ValueError`` for an unknown op or profile or a negative budget."""
    if not ops or any(op not in ALL_OPS for op in ops):
        raise ValueError(f"ops must be a non-empty subset of {ALL_OPS}")
    if examples is not None and examples < 0:
        raise ValueError("examples must be >= 0")
    if seconds is not None and seconds < 0:
        raise ValueError("seconds must be >= 0")
    for profile in profiles:
        profile_from_string(profile)  # raises ValueError naming the bad profile


__all__ = [
    "DEFAULT_MESSAGE_ID",
    "DEFAULT_PROFILE",
    "PREFACE_PROBE",
    "FuzzClass",
    "FuzzReport",
    "Verdict",
    "check",
    "fuzz",
    "shrink_request",
]
