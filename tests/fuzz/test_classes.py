"""Classes keep faults apart, tags point at the cause, profiles and triage.

Each test runs fault_adapter.py (replykit with named client faults) on hand-written
messages put in place of the explicit examples, so the inputs are fixed whatever
Hypothesis draws.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from replykit.fuzz import fuzz
from replykit.fuzz.examples import Example
from replykit.fuzz.runner import FuzzClass, FuzzReport
from replykit.fuzz.segdiff import code_point_offsets

from .helpers import ADAPTERS, PYTHON, python_adapter, run_cli

FREE = 'title: T\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n'
JSON_FORM = '{"title":"T","questions":[{"type":"free_text","text":"Q","default":""}]}'
UNCLOSED = f"Intro\n\n```questionnaire\n{FREE}"
ENTITY = f"Intro &lt;questionnaire>{JSON_FORM}&lt;/questionnaire> end\n"
BOTH = f"Intro &lt;questionnaire>{JSON_FORM}&lt;/questionnaire>\n\n```questionnaire\n{FREE}"


def _examples(*texts: str, profile: str = "client") -> tuple[Example, ...]:
    return tuple(
        Example("segment", "§3a", f"case-{n}", {"text": t, "message_id": "m", "profile": profile})
        for n, t in enumerate(texts)
    )


@pytest.fixture
def only(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Replace the explicit examples with the given ones for one run."""

    def install(*examples: Example) -> None:
        monkeypatch.setattr(
            "replykit.fuzz.runner.explicit_examples",
            lambda ops: tuple(e for e in examples if e.op in ops),
        )

    yield install


def _run(faults: str, **options: Any) -> FuzzReport:
    options.setdefault("examples", 0)
    return fuzz(python_adapter("fault_adapter.py", faults), ops=("segment",), **options)


def _keys(report: FuzzReport) -> list[str]:
    return [c.key_text for c in report.classes]


def _one(report: FuzzReport, **parts: str) -> FuzzClass:
    found = [
        c
        for c in report.classes
        if c.key is not None and all(getattr(c.key, k) == v for k, v in parts.items())
    ]
    assert len(found) == 1, (parts, _keys(report))
    return found[0]


# ---------------------------------------------------------------- absorption


def test_a_representation_difference_does_not_absorb_a_real_fault(only: Any) -> None:
    """An unclosed fence both sides show as text must not take in a different fault of
    the same rule: the entity fault is its own class, and a message with both faults
    counts in the class of what the user sees (the card the entity makes)."""
    only(*_examples(UNCLOSED, ENTITY, BOTH))
    report = _run("unclosed_as_text,entity")
    assert len(report.classes) == 2, _keys(report)
    shown = _one(report, role="representation")
    assert shown.key_text == ("segment|§3a|representation|questionnaire>markdown|fence.unclosed|-")
    assert shown.input["text"] == "```questionnaire"
    assert shown.count == 1
    entity = _one(report, role="boundary")
    assert entity.rule == "§3a" and "entity" in entity.key_features
    assert entity.key is not None and entity.key.kinds == "markdown>questionnaire"
    assert entity.count == 2  # ENTITY and BOTH
    assert "&lt;" in entity.input["text"] and "```" not in entity.input["text"]


def test_a_representation_is_keyed_by_where_the_block_is_not_by_its_errors(
    only: Any,
) -> None:
    """A client that shows every invalid block as Markdown differs only in
    representation. A YAML error of the block says nothing about that, so it is not
    the key's code: the minimal input loses the deep payload it came with (which the
    code would have kept through shrinking) and the unclosed fence, whose code names
    the cause, stays a class of its own."""
    deep = "".join(" " * i + "k:\n" for i in range(70))
    only(*_examples(f"Intro\n\n```questionnaire\n{deep}```\n", UNCLOSED))
    report = _run("invalid_as_text")
    assert _keys(report) == [
        "segment|§3a|representation|questionnaire>markdown|-|-",
        "segment|§3a|representation|questionnaire>markdown|fence.unclosed|-",
    ]
    assert report.classes[0].input["text"] == "```questionnaire\n```"
    assert report.classes[1].input["text"] == "```questionnaire"


def test_an_id_shifted_by_an_uncounted_block_is_not_representation(only: Any) -> None:
    """A block one side does not count moves the ids of the cards after it: a user sees
    that, so it is a class of its own (role ``id``), apart from the block alone."""
    alone = "Hi <foo-questionnaire>{}</foo-questionnaire> x\n"
    before = f"{alone}<questionnaire>{JSON_FORM}</questionnaire>"
    only(*_examples(alone, before))
    report = _run("unregistered_as_text")
    text = _one(report, role="representation")
    moved = _one(report, role="id")
    assert text.rule == moved.rule == "§6"  # an unregistered name is §6, never §3a
    assert text.key is not None and text.key.code == "name.unregistered"
    assert moved.key is not None and moved.key.code == "name.unregistered"
    assert moved.field == "/segments/1/id"
    assert (moved.expected, moved.actual) == ("m_q2", "m_q1")


def test_a_name_the_client_does_not_register_is_section_6(only: Any) -> None:
    """A client with one profile shows a Self-check name as text: §6, not §3a."""
    only(
        *_examples(
            f"Intro <yiii-questionnaire>{JSON_FORM}</yiii-questionnaire>\n", profile="self_check"
        )
    )
    report = _run("client_only,unregistered_as_text")
    found = _one(report, role="boundary")
    assert found.rule == "§6"
    assert found.input["profile"] == "self_check"


def test_a_preface_hidden_by_a_code_span_is_the_preface_rule(only: Any) -> None:
    """The client reads the escaped backtick as a code span that hides the only prose,
    says the form is invalid and gives no code: the cause is the preface rule."""
    only(*_examples(f"\\`a`\n```questionnaire\n{FREE}```\n"))
    report = _run("escaped_backtick,nodiag")
    found = _one(report, role="validity")
    assert found.rule == "§4 preface"
    assert "escaped_backtick" in found.key_features
    assert (found.expected, found.actual) == (True, False)


def test_new_features_in_a_known_class_are_shrunk_and_split(only: Any) -> None:
    """Two faults with the same coarse key (rule, role, kinds, code): a backtick the
    client makes of an entity, and one it makes of an escaped backtick, each hide a
    form in a code span. The second input is shrunk because no class of that key
    explains its features, and its class is split off; an input with both counts in
    the class of the features it holds."""
    tag = f"<questionnaire>{JSON_FORM}</questionnaire>"
    entity, escaped = f"Intro &#96;{tag}` x\n", f"Intro \\`{tag}` x\n"
    only(*_examples(entity, escaped, f"{entity}\n{escaped}"))
    report = _run("entity,escaped_backtick")
    assert len(report.classes) == 2, _keys(report)
    coarse = {c.key.coarse_text() for c in report.classes if c.key is not None}
    assert coarse == {"segment|§3a|boundary|questionnaire>markdown|-"}
    first, second = report.classes
    assert "entity" in first.key_features and "escaped_backtick" not in first.key_features
    assert "escaped_backtick" in second.key_features and "entity" not in second.key_features
    assert first.input["text"].startswith("&#")  # an entity the client decodes
    assert second.input["text"].startswith("\\`<questionnaire>")
    assert first.count + second.count == 3


def test_a_class_keeps_up_to_3_distinct_minimal_inputs(only: Any) -> None:
    """Inputs that fit a class with features not tried for it yet are shrunk too, for
    other minimal inputs (at most 3 kept): here four unregistered names, each with its
    own incidental constructs (which shrinking removes)."""
    extras = ("", "\t", " &amp;", "\r\n", " “")
    texts = [
        f"Hi{extra} <{name}-questionnaire>{{}}</{name}-questionnaire> x\n"
        for name, extra in zip(("foo", "bar", "baz", "qux", "quux"), extras, strict=True)
    ]
    only(*_examples(*texts))
    report = _run("unregistered_as_text")
    found = _one(report, role="representation")
    assert found.count == 5
    assert [i["text"] for i in found.inputs] == [
        "<foo-questionnaire></foo-questionnaire>",
        "<bar-questionnaire></bar-questionnaire>",
        "<baz-questionnaire></baz-questionnaire>",
    ]


# ---------------------------------------------------------------- profiles


def test_profiles_the_client_lacks_are_not_drawn(only: Any) -> None:
    yiii = f"Intro <yiii-questionnaire>{JSON_FORM}</yiii-questionnaire>\n"
    only(*_examples(yiii, profile="self_check"))
    assert [c.rule for c in _run("client_only").classes] == ["§6"]
    report = _run("client_only", profiles=("client",), examples=60, seed=3)
    assert report.classes == ()
    assert report.profiles == ("client",)


def test_an_adapter_may_refuse_a_profile(only: Any) -> None:
    yiii = f"Intro <yiii-questionnaire>{JSON_FORM}</yiii-questionnaire>\n"
    acme = f"Intro <acme-questionnaire>{JSON_FORM}</acme-questionnaire>\n"
    only(*_examples(yiii, profile="self_check"), *_examples(acme, profile="product:acme"))
    report = _run("profile_unsupported", examples=60, seed=3)
    assert report.classes == ()
    assert report.unsupported_profiles == ("self_check", "product:*")
    assert report.unsupported_ops == ()


def test_profile_option_on_the_command_line(tmp_path: Path) -> None:
    impl = " ".join(python_adapter("fault_adapter.py", "profile_unsupported"))
    argv = ["fuzz", "--impl", impl, "--op", "segment", "--examples", "40", "--seed", "1"]
    assert run_cli([*argv, "--profile", "client", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert data["profiles"] == ["client"] and data["unsupported_profiles"] == []
    with pytest.raises(SystemExit) as exc:
        run_cli([*argv, "--profile", "nonsense"])
    assert exc.value.code == 2


# ---------------------------------------------------------------- triage


def test_accepted_classes_are_counted_not_reported(tmp_path: Path, only: Any) -> None:
    only(*_examples(UNCLOSED, ENTITY))
    impl = " ".join(python_adapter("fault_adapter.py", "unclosed_as_text,entity"))
    argv = ["fuzz", "--impl", impl, "--op", "segment", "--examples", "0"]
    first = tmp_path / "first"
    assert run_cli([*argv, "--out", str(first)]) == 1
    report = json.loads((first / "report.json").read_text(encoding="utf-8"))
    keys = [c["key"] for c in report["classes"]]
    assert len(keys) == 2
    # a whole earlier report
    again = tmp_path / "again"
    assert run_cli([*argv, "--accept", str(first / "report.json"), "--out", str(again)]) == 0
    data = json.loads((again / "report.json").read_text(encoding="utf-8"))
    assert data["classes"] == []
    assert sorted(a["key"] for a in data["accepted"]) == sorted(keys)
    assert "accepted (--accept), not shown: 2 class(es)" in (again / "report.txt").read_text(
        encoding="utf-8"
    )
    # one key per line: the other class is still reported
    lines = tmp_path / "accept.txt"
    lines.write_text(f"# looked at it\n{keys[0]}\n", encoding="utf-8")
    part = tmp_path / "part"
    assert run_cli([*argv, "--accept", str(lines), "--out", str(part)]) == 1
    data = json.loads((part / "report.json").read_text(encoding="utf-8"))
    assert [c["key"] for c in data["classes"]] == [keys[1]]
    # an example whose class is accepted, and a pattern
    listed = tmp_path / "accept.json"
    entry = {"op": "segment", "input": {"text": UNCLOSED, "message_id": "m", "profile": "client"}}
    listed.write_text(json.dumps({"accept": [entry, "segment|§3a|boundary|*"]}), encoding="utf-8")
    assert run_cli([*argv, "--accept", str(listed), "--out", str(tmp_path / "ex")]) == 0


def test_an_unreadable_accept_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "accept.json"
    bad.write_text('{"accept": [3]}', encoding="utf-8")
    impl = " ".join(python_adapter("fault_adapter.py", "nodiag"))
    argv = ["fuzz", "--impl", impl, "--accept", str(bad), "--out", str(tmp_path)]
    assert run_cli(argv) == 2
    assert "entry 1: expected a key string" in capsys.readouterr().err
    assert run_cli(["fuzz", "--impl", impl, "--accept", str(tmp_path / "none")]) == 2


# ---------------------------------------------------------------- docs


def test_the_docs_list_every_feature() -> None:
    """docs/fuzzing.md's features table is FEATURES, in order, with the markers."""
    from replykit.fuzz.features import FEATURES, MARKERS

    docs = (Path(__file__).resolve().parents[2] / "docs" / "fuzzing.md").read_text(encoding="utf-8")
    table = docs.split("<!-- features:begin")[1].split("<!-- features:end")[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert rows == [
        f"| `{name}` | {meaning} | {'marker' if name in MARKERS else 'key'} |"
        for name, meaning in FEATURES.items()
    ]


# ---------------------------------------------------------------- spread


def test_utf16_offsets_on_different_constructs_are_one_class(only: Any) -> None:
    """A client that counts UTF-16 code units is one fault wherever the astral
    character stands (before a form, in an unclosed fence, in an unregistered block):
    one class (role ``offset``), not one per construct or code."""
    texts = (
        "\U0001f600",
        "\U0001f600\n```questionnaire",
        "<foo-questionnaire>\U0001f600</foo-questionnaire>",
        f"\U0001f600<questionnaire>{JSON_FORM}</questionnaire>",
        f"<!-- \U0001f600 -->\n\n```questionnaire\n{FREE}```\n",
    )
    only(*_examples(*texts))
    report = fuzz(
        (PYTHON, str(ADAPTERS / "mutant_adapter.py"), "utf16_offsets"),
        ops=("segment",),
        examples=0,
    )
    assert _keys(report) == ["segment|§1|offset|-|-|-"]
    assert report.classes[0].count == len(texts)
    assert report.classes[0].input["text"] == "\U0001f600"


def test_code_point_offsets_reads_utf16_units_back() -> None:
    text = "a\U0001f600b"
    actual = {"segments": [{"kind": "markdown", "start": 0, "end": 4}]}
    assert code_point_offsets(text, actual) == {
        "segments": [{"kind": "markdown", "start": 0, "end": 3}]
    }
    # code points already, or an offset inside a surrogate pair: not UTF-16 counting
    assert code_point_offsets(text, {"segments": [{"start": 0, "end": 3}]}) is None
    halves = {"segments": [{"start": 0, "end": 2}, {"start": 2, "end": 4}]}
    assert code_point_offsets(text, halves) is None
    assert code_point_offsets("ab", {"segments": [{"start": 0, "end": 2}]}) is None
