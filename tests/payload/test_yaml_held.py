"""The YAML reader holds no more findings than the diagnostics cap, and no more of the
event stream than it needs, on a payload full of errors (§1, §4).

Counted, not timed or measured in bytes: every finding and every event the reader
creates is tracked by a weak reference, and the most alive at once is the figure. Both
loaders (the payload conftest runs each test under each).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from payload.yaml_text import yaml_texts
from replykit.cap import Collector
from replykit.diagnostics import Finding, LeftOut
from replykit.questionnaire.limits import Limits
from replykit.questionnaire.payload import read_fenced_form, yaml12, yaml_build
from replykit.questionnaire.payload.yaml12 import read_yaml
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


@pytest.fixture
def findings_made(monkeypatch: pytest.MonkeyPatch) -> _Alive:
    """Tracks every ``yaml.alias``/``yaml.tag`` finding the YAML reader makes."""
    alive = _Alive()
    make = yaml_build.node_event_findings

    def tracked(*args: Any) -> list[Finding]:
        out = make(*args)
        for finding in out:
            alive.add(finding)
        return out

    monkeypatch.setattr(yaml_build, "node_event_findings", tracked)
    return alive


@pytest.fixture
def events_made(monkeypatch: pytest.MonkeyPatch) -> _Alive:
    """Tracks every event either parser hands out."""
    alive = _Alive()

    def tracking(parser: type[Any]) -> type[Any]:
        class Tracking(parser):  # type: ignore[misc, valid-type]
            def get_event(self) -> Any:
                event = super().get_event()
                alive.add(event)
                return event

        return Tracking

    monkeypatch.setattr(yaml, "CBaseLoader", tracking(yaml.CBaseLoader))
    monkeypatch.setattr(yaml12, "RefereeParser", tracking(yaml12.RefereeParser))
    return alive


def test_an_alias_bomb_holds_at_most_the_cap_of_findings(findings_made: _Alive) -> None:
    payload = _bomb_payload(100)  # 990 aliases and 100 anchors
    limits = Limits(max_diagnostics=50)
    form = read_fenced_form(payload, limits=limits)
    assert findings_made.made == 1090
    # The kept ones, the first one left out (where the summary goes), and the one just
    # made before it is counted.
    assert findings_made.most <= limits.max_diagnostics + 2
    assert form.value is None
    assert len(form.findings) == 50
    assert form.overflow is not None
    assert form.overflow.counts[0] == LeftOut("yaml.alias", "error", 1040)
    # The form's own findings come after the YAML ones, and are counted in order too.
    assert [c.code for c in form.overflow.counts] == [
        "yaml.alias",
        "form.unknown_field",
        "form.title_required",
        "form.questions_required",
    ]


def test_an_alias_bomb_is_built_as_it_is_read(events_made: _Alive) -> None:
    payload = _bomb_payload(100)
    form = read_fenced_form(payload, limits=Limits(max_diagnostics=10))
    assert events_made.made > 1100  # 990 aliases, 100 sequences, 100 keys, ...
    # The events before the first anchor, and the one being built.
    assert events_made.most <= 8
    assert len(form.findings) == 10
    assert form.overflow is not None and form.overflow.total == 1080 + 100 + 2
    read = read_yaml(payload, max_findings=10)
    assert isinstance(read.value, dict) and len(read.value) == 100
    assert read.overflow is not None and read.overflow.total == 1080


def test_a_syntax_error_is_read_as_it_is_streamed(events_made: _Alive) -> None:
    payload = _bomb_payload(50) + "x: [\n"
    read = read_yaml(payload, max_findings=10)
    assert events_made.most <= 8
    assert read.value is None
    assert [f.code for f in read.findings] == ["yaml.alias"] * 10
    assert read.overflow is not None
    assert read.overflow.counts == (
        LeftOut("yaml.alias", "error", 540 - 10),
        LeftOut("yaml.syntax", "error", 1),
    )


def _collected(findings: tuple[Finding, ...], limit: int) -> tuple[list[Finding], Any]:
    sink: Collector[Finding] = Collector(limit, lambda f: f.code, lambda f: f.severity)
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
    assert capped.aliases == whole.aliases == frozenset((f"b{i}",) for i in range(20))
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
    assert [f.code for f in form.findings] == ["yaml.nested_fence", "yaml.alias", "yaml.alias"]
    assert form.overflow is not None
    assert form.overflow.counts == (LeftOut("yaml.alias", "error", 8),)


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
