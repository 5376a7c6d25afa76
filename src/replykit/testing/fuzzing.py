"""The invariant fuzz target: ``python -m replykit.testing.fuzzing`` (or ``replykit.fuzzing``).

Needs Hypothesis (the ``replykit[fuzz]`` extra). Feeds structured inputs
(:func:`replykit.testing.strategies.messages`, hostile fragments) and
raw text to :func:`replykit.segment` under every profile and with ``compat="sage"``,
and payload strings to every payload reader, and fails only on an undocumented
exception or a broken invariant:

- the segments concatenate to the text, in order, contiguous, none empty, no two
  Markdown segments in a row;
- every diagnostic lies inside the text, a block's own inside its segment, and the
  message's diagnostics are in offset order;
- every payload finding's offsets lie inside its payload.

A failure prints the (Hypothesis-shrunk) input and exits 1; usage errors exit 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import attrs

from replykit.argcheck import typed
from replykit.testing import FUZZ_EXTRA, is_missing_hypothesis

try:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st
except ImportError as _missing:  # run as a command: one line, not a traceback
    if __name__ != "__main__" or not is_missing_hypothesis(_missing):
        raise
    print(
        "python -m replykit.testing.fuzzing: error: needs Hypothesis, which is not installed: "
        f"{FUZZ_EXTRA}",
        file=sys.stderr,
    )
    raise SystemExit(2) from None

from replykit.cli.numbers import integer, positive_number
from replykit.questionnaire.model import Segmentation
from replykit.questionnaire.payload import (
    read_fenced_form,
    read_json,
    read_xml_request,
    read_xml_response,
    read_yaml,
)
from replykit.questionnaire.profiles import CLIENT, SELF_CHECK, product
from replykit.questionnaire.segmentation.segmenter import segment
from replykit.testing.reproducible import without_local_constants
from replykit.testing.strategies import hostile_payloads, messages
from replykit.textout import escape

#: How the command names itself in its output and errors.
PROG = "python -m replykit.testing.fuzzing"


class InvariantError(AssertionError):
    """A broken invariant; the message says which, on what input."""


def check_segmentation(text: str, result: Segmentation) -> None:
    """Raise :class:`InvariantError` unless ``result`` is a well-formed segmentation of
    ``text`` (the decoded text when §9 decoding changed it)."""
    text = result.decoded if result.decoded is not None else text
    pos = 0
    previous = None
    for seg in result.segments:
        if seg.start != pos or seg.end <= seg.start or text[seg.start : seg.end] != seg.text:
            raise InvariantError(f"segment {seg.kind} [{seg.start}, {seg.end}) breaks coverage")
        if seg.kind == "markdown" and previous == "markdown":
            raise InvariantError(f"two Markdown segments in a row at {seg.start}")
        for d in seg.diagnostics:
            if not seg.start <= d.start <= d.end <= seg.end:
                raise InvariantError(f"{d.code} [{d.start}, {d.end}) outside its segment")
        previous = seg.kind
        pos = seg.end
    if pos != len(text):
        raise InvariantError(f"segments end at {pos}, the text at {len(text)}")
    starts = [d.start for d in result.diagnostics]
    if starts != sorted(starts):
        raise InvariantError("message diagnostics are not in offset order")
    for d in result.diagnostics:
        if not 0 <= d.start <= d.end <= len(text) or d.line < 1 or d.column < 1:
            raise InvariantError(f"{d.code} has offsets or position outside the text")


def check_payload(payload: str) -> None:
    """Run every payload reader on ``payload``; raise :class:`InvariantError` when a
    finding's offsets fall outside it."""
    reads = (
        read_yaml(payload),
        read_json(payload),
        read_fenced_form(payload),
        read_xml_request(payload),
        read_xml_response(payload, "questionnaire-response"),
    )
    for read in reads:
        for f in read.findings:
            start = f.start if f.start is not None else 0
            end = f.end if f.end is not None else start
            if not 0 <= start <= end <= len(payload):
                raise InvariantError(f"{f.code} [{start}, {end}) outside the payload")


_PROFILES = (CLIENT, SELF_CHECK, product("acme"))


def check_message(text: str) -> None:
    """Segment ``text`` under every profile, strictly and with ``compat="sage"``, and
    check each result."""
    for profile in _PROFILES:
        check_segmentation(text, segment(text, message_id="m", profile=profile))
    check_segmentation(text, segment(text, compat="sage"))


_INPUTS = st.one_of(
    messages(),
    st.text(),
    st.text(alphabet="`~<>/!-\n \tq?[]{}:\"'&#*_\\", max_size=200),
    hostile_payloads(),
)


@attrs.frozen
class FuzzRun:
    """What one run did: inputs tried, seconds taken."""

    inputs: int
    seconds: float


def run(*, examples: int = 500, seconds: float | None = None, seed: int = 0) -> FuzzRun:
    """Fuzz ``segment()`` and the payload readers: ``examples`` inputs per round, rounds
    repeated until ``seconds`` have passed (one round when ``None``). Raises
    :class:`InvariantError` (or the unexpected exception) on the first failure, after
    Hypothesis has shrunk the input."""
    tried = 0
    started = time.monotonic()
    round_seed = seed
    while True:

        @hypothesis_seed(round_seed)
        @settings(
            max_examples=examples,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(_INPUTS)
        def one(text: str) -> None:
            nonlocal tried
            tried += 1
            check_message(text)
            check_payload(text)

        with without_local_constants():  # the same inputs on every install
            one()
        round_seed += 1
        if seconds is None or time.monotonic() - started >= seconds:
            return FuzzRun(tried, time.monotonic() - started)


@typed
def main(argv: Sequence[str] | None = None) -> int:
    """``python -m replykit.testing.fuzzing [--examples N] [--seconds S] [--seed N]``: exit 0
    when every input kept the invariants, 1 on a failure, 2 on a usage error."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Fuzz segment() and the payload readers for crashes and broken invariants.",
    )
    # The one rule of every number option (docs/cli.md): no "inf", "1_0" or " +1".
    parser.add_argument(
        "--examples", type=integer(1), default=500, help="inputs per round (default 500)"
    )
    parser.add_argument(
        "--seconds",
        type=positive_number,
        default=None,
        help="run rounds of --examples inputs until this many seconds have passed "
        "(default: one round)",
    )
    parser.add_argument("--seed", type=integer(), default=0, help="Hypothesis seed (default 0)")
    args = parser.parse_args(argv)
    try:
        report = run(examples=args.examples, seconds=args.seconds, seed=args.seed)
    except Exception as error:  # report any failure, shrunk, as the fuzzer's finding
        # The error quotes the input that broke an invariant: escaped, one line (§1).
        print(
            f"{PROG}: FAILED: {type(error).__name__}: {escape(str(error))}",
            file=sys.stderr,
        )
        return 1
    rate = report.inputs / report.seconds if report.seconds else 0.0
    print(f"{PROG}: {report.inputs} inputs in {report.seconds:.1f} s ({rate:.0f}/s), no failure")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
