"""The YAML reader holds no more findings than the diagnostics cap, and no more of the
event stream than it needs, on a payload full of errors (§1, §4).

Counted, not timed or measured in bytes: every finding and every event the reader
creates is tracked by a weak reference, and the most alive at once is the figure. The
tracking sink and parsers are passed in, never patched in (the compiled build binds its
calls). Both loaders (the payload conftest runs each test under each).
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Iterator
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from payload.yaml_text import yaml_texts
from replykit.cap import Collector
from replykit.diagnostics import Finding, LeftOut
from replykit.questionnaire.limits import Limits
from replykit.questionnaire.payload import read_fenced_form, yaml12, yaml_build
from replykit.questionnaire.payload.results import Read, finding_sink
from replykit.questionnaire.payload.yaml12 import read_yaml
from replykit.questionnaire.payload.yaml_differ import c_may_differ
from replykit.questionnaire.payload.yaml_referee import RefereeParser
from replykit.testing.hostile import yaml_alias_bomb


def _bomb_payload(levels: int) -> str:
    message = yaml_alias_bomb(levels)
    start = message.index("```questionnaire\n") + len("```questionnaire\n")
    return message[start : message.index("\n```", start) + 1]


class _Alive:
    """Weak references to objects as they are made; ``most`` is the largest number
    alive at once."""

    def __init__(self) -> None:
        self.alive = 0
        self.made = 0
        self.most = 0

    def add(self, item: Any) -> None:
        weakref.finalize(item, self._gone)
        self.made += 1
        self.alive += 1
        self.most = max(self.most, self.alive)

    def _gone(self) -> None:
        self.alive -= 1


class _TrackedSink:
    """The capped sink the reader uses (``finding_sink``), tracking every finding handed
    to it: the builder's only way to hand a finding out. It holds none itself."""

    def __init__(self, limit: int, alive: _Alive) -> None:
        self.inner = finding_sink(limit)
        self.alive = alive

    def append(self, finding: Finding, /) -> None:
        self.alive.add(finding)
        self.inner.append(finding)


def _parser(loader: str) -> type[Any]:
    return yaml.CBaseLoader if loader == "c" else RefereeParser


def _tracking(parser: type[Any], alive: _Alive) -> type[Any]:
    """A parser class that reads with ``parser`` and tracks every event it hands out.
    Passed in, never patched in (the compiled build binds its module's names), and a
    wrapper, not a subclass (a compiled class takes no interpreted subclass)."""

    class Tracked:
        def __init__(self, payload: str) -> None:
            self.inner = parser(payload)

        def check_event(self) -> bool:
            return bool(self.inner.check_event())

        def get_event(self) -> Any:
            event = self.inner.get_event()
            alive.add(event)
            return event

        def dispose(self) -> None:
            self.inner.dispose()

    return Tracked


def _read_tracked(payload: str, loader: str, limit: int, alive: _Alive) -> Read:
    """``read_yaml(payload, max_findings=limit)``, read again as the reader reads it
    (the C parser first where it may decide, then the referee) with each parser's
    events tracked. A tracked referee is not the referee, so a reading it does not
    finish gives ``None`` where the reader's own is final: the public one is returned."""
    public = read_yaml(payload, max_findings=limit)
    read = None
    if loader == "c" and not c_may_differ(payload):
        read = yaml12._read(payload, 64, _tracking(yaml.CBaseLoader, alive), limit, ())
    if read is None:
        read = yaml12._read(payload, 64, _tracking(RefereeParser, alive), limit, ())
    if read is not None:
        assert (read.value, read.findings, read.overflow) == (
            public.value,
            public.findings,
            public.overflow,
        )
    return public


def test_an_alias_bomb_holds_at_most_the_cap_of_findings(yaml_loader: str) -> None:
    payload = _bomb_payload(100)  # 990 aliases and 100 anchors
    limits = Limits(max_diagnostics=50)
    made = _Alive()
    sink = _TrackedSink(limits.max_diagnostics, made)
    builder = yaml_build.Builder(sink)
    for event in yaml12.EventStream(payload, 64, _parser(yaml_loader)):
        builder.feed(event)
    assert made.made == 1090
    # The kept ones, the first one left out (where the summary goes), and the one just
    # made before it is counted.
    assert made.most <= limits.max_diagnostics + 2
    assert len(list(sink.inner)) == 50
    form = read_fenced_form(payload, limits=limits)
    assert form.value is None
    assert len(form.findings) == 50
    assert form.overflow is not None
    # Kept: the first 50 in offset order (ties in reading order, §2.1), whichever part
    # of the reader found them: the form's own findings on keys at the start of the
    # payload come before later aliases.
    every = read_fenced_form(payload, limits=Limits(max_diagnostics=10_000)).findings
    ranked = sorted(range(len(every)), key=lambda i: (every[i].start, i))
    first = sorted(ranked[:50])
    assert form.findings == tuple(every[i] for i in first)
    rest = Counter((every[i].code, every[i].severity) for i in ranked[50:])
    assert {(c.code, c.severity): c.count for c in form.overflow.counts} == dict(rest)
    assert rest[("yaml.alias", "error")] == 1047
    assert form.overflow.first == every[ranked[50]]


def test_an_alias_bomb_is_built_as_it_is_read(yaml_loader: str) -> None:
    payload = _bomb_payload(100)
    events_made = _Alive()
    read = _read_tracked(payload, yaml_loader, 10, events_made)
    assert events_made.made > 1100  # 990 aliases, 100 sequences, 100 keys, ...
    # The events before the first anchor, and the one being built.
    assert events_made.most <= 8
    assert isinstance(read.value, dict) and len(read.value) == 100
    assert read.overflow is not None and read.overflow.total == 1080
    form = read_fenced_form(payload, limits=Limits(max_diagnostics=10))
    assert len(form.findings) == 10
    assert form.overflow is not None and form.overflow.total == 1080 + 100 + 2


def test_a_syntax_error_is_read_as_it_is_streamed(yaml_loader: str) -> None:
    payload = _bomb_payload(50) + "x: [\n"
    events_made = _Alive()
    read = _read_tracked(payload, yaml_loader, 10, events_made)
    assert events_made.made > 500
    assert events_made.most <= 8
    assert read.value is None
    assert [f.code for f in read.findings] == ["yaml.alias"] * 10
    assert read.overflow is not None
    assert read.overflow.counts == (
        LeftOut("yaml.alias", "error", 540 - 10),
        LeftOut("yaml.syntax", "error", 1),
    )


def _collected(findings: tuple[Finding, ...], limit: int) -> tuple[list[Finding], Any]:
    sink: Collector[Finding] = finding_sink(limit)  # the first in offset order (§2.1)
    sink.extend(findings)
    return list(sink), sink.overflow


def test_capped_reading_keeps_the_first_and_counts_the_rest() -> None:
    payload = (
        "a: &x 1\n"
        + "".join(f"b{i}: *x\n" for i in range(20))
        + "".join(f"t{i}: !t 1\n" for i in range(10))
        + "a: 2\n"
    )
    whole = read_yaml(payload)
    assert len(whole.findings) == 1 + 20 + 10 + 1  # anchor, aliases, tags, duplicate key
    capped = read_yaml(payload, max_findings=7)
    assert capped.findings == whole.findings[:7]
    assert capped.overflow is not None
    assert capped.overflow.first == whole.findings[7]
    assert capped.overflow.counts == (
        LeftOut("yaml.alias", "error", 14),
        LeftOut("yaml.tag", "error", 10),
        LeftOut("yaml.duplicate_key", "error", 1),
    )
    assert capped.value == whole.value
    # The alias nodes, and the scalars with properties (the anchored "a", the tagged t0-t9).
    placeholders = {(f"b{i}",) for i in range(20)} | {(f"t{i}",) for i in range(10)} | {("a",)}
    assert capped.aliases == whole.aliases == frozenset(placeholders)
    assert dict(capped.spans) == dict(whole.spans)


def test_a_quiet_syntax_error_is_neither_kept_nor_counted() -> None:
    # The fence line is the fenced reader's error; YAML's own on that line is left out
    # even when it falls past the cap (§2.1; the nested-fence rule of §8.1).
    body = "a: &x 1\n" + "".join(f"b{i}: *x\n" for i in range(9))
    payload = body + "```\nc: 1\n"
    fence = (len(body), len(body) + 3)
    whole = read_yaml(payload)
    assert [f.code for f in whole.findings][-1] == "yaml.syntax"
    assert whole.findings[-1].start == fence[0]
    quiet = read_yaml(payload, max_findings=3, quiet=[fence])
    assert quiet.overflow is not None
    assert quiet.overflow.counts == (LeftOut("yaml.alias", "error", 7),)
    form = read_fenced_form(payload, limits=Limits(max_diagnostics=3))
    # The 3 first in offset order (aliases), and the first error beside them (§2.1).
    codes = [f.code for f in form.findings]
    assert codes == ["yaml.nested_fence", "yaml.alias", "yaml.alias", "yaml.alias"]
    anchors = [i for i in range(len(payload)) if payload[i : i + 2] in ("&x", "*x")]
    assert [f.start for f in form.findings[1:]] == anchors[:3] == [3, 12, 19]
    assert form.overflow is not None
    assert form.overflow.counts == (LeftOut("yaml.alias", "error", 7),)


def _payloads() -> Iterator[str]:
    yield _bomb_payload(12)
    yield _bomb_payload(12) + "```\nx: [\n"
    yield "title: &t T\nquestions:\n  - type: *t\n    text: *t\n    default: *t\n  - *t\n"
    yield "[&x 1, " + ", ".join(["*x"] * 9) + "]\n"
    yield "x: &x 1\n" + "".join(f"a{i}: *x\n" for i in range(6)) + "--- \nb: 1\n"


@settings(max_examples=150)
@given(
    st.one_of(yaml_texts(), st.sampled_from(list(_payloads()))),
    st.integers(min_value=1, max_value=6),
)
def test_a_capped_fenced_form_equals_the_cap_applied_to_every_finding(
    payload: str, limit: int
) -> None:
    """The YAML reader's own cap changes nothing: the fenced reader keeps and counts
    exactly what the cap applied to the whole list of findings keeps and counts."""
    whole = read_fenced_form(payload, limits=Limits(max_diagnostics=10**9))
    assert whole.overflow is None
    capped = read_fenced_form(payload, limits=Limits(max_diagnostics=limit))
    kept, overflow = _collected(whole.findings, limit)
    assert list(capped.findings) == kept
    assert capped.overflow == overflow
    assert capped.value == whole.value
