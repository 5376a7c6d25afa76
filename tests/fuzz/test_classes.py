"""Classes keep faults apart, tags point at the cause, profiles and triage.

Each test runs fault_adapter.py (replykit with named client faults) or a mutant of
examples/adapters/mutants on hand-written messages given as the explicit examples, so
the inputs are fixed whatever Hypothesis draws. The tests about classes run the
client in this process (no adapter process whose start or answer a loaded machine
could delay: the transport has its own tests); the command-line tests run it as a
process, with a generous timeout.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from replykit.fuzz import fuzz
from replykit.fuzz.examples import Example
from replykit.fuzz.runner import FuzzClass, FuzzReport
from replykit.fuzz.segdiff import code_point_offsets

from .fault_adapter import responder
from .helpers import ADAPTERS, python_adapter, run_cli

if str(ADAPTERS) not in sys.path:
    sys.path.insert(0, str(ADAPTERS))
mutants = importlib.import_module("mutants")

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


def _run(faults: str, given: tuple[Example, ...], **options: Any) -> FuzzReport:
    """Fuzz fault_adapter.py's client with ``faults`` in this process, the examples
    ``given`` run first."""
    options.setdefault("examples", 0)
    return fuzz(responder(faults), ops=("segment",), explicit=given, **options)


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


def test_a_representation_difference_does_not_absorb_a_real_fault() -> None:
    """An unclosed fence both sides show as text must not take in a different fault of
    the same rule: the entity fault is its own class, and a message with both faults
    counts in the class of what the user sees (the card the entity makes)."""
    given = _examples(UNCLOSED, ENTITY, BOTH)
    report = _run("unclosed_as_text,entity", given)
    assert len(report.classes) == 2, _keys(report)
    shown = _one(report, kinds="questionnaire>markdown")
    assert shown.key_text == "segment|§3a|block|questionnaire>markdown|-|-"
    assert shown.input["text"] == "```questionnaire"
    assert shown.count == 1
    entity = _one(report, kinds="markdown>questionnaire")
    assert entity.rule == "§3a" and "entity" in entity.key_features
    assert entity.key is not None and entity.key.kinds == "markdown>questionnaire"
    assert entity.count == 2  # ENTITY and BOTH
    assert "&lt;" in entity.input["text"] and "```" not in entity.input["text"]


def test_a_block_one_side_does_not_count_is_keyed_by_where_not_by_its_errors() -> None:
    """A client that does not count an invalid block (any error) makes one fault,
    whatever the error: a YAML error or an unclosed fence says why the block is
    invalid, not why the client does not count it, so neither is the key's code. The
    minimal input loses the deep payload it came with (which the code would have kept
    through shrinking), and both inputs are one class (role ``block``)."""
    deep = "".join(" " * i + "k:\n" for i in range(70))
    given = _examples(f"Intro\n\n```questionnaire\n{deep}```\n", UNCLOSED)
    report = _run("invalid_as_text", given)
    assert _keys(report) == ["segment|§3a|block|questionnaire>markdown|-|-"]
    assert report.classes[0].count == 2
    assert report.classes[0].input["text"] == "```questionnaire"


def test_an_id_shifted_by_an_uncounted_block_is_keyed_by_that_block() -> None:
    """A block one side does not count moves the ids of the cards after it. The moved
    id is a consequence: its class is the block's (role ``block``, never
    ``representation``), whether a card follows or not, and the minimal input is the
    block alone."""
    alone = "Hi <foo-questionnaire>{}</foo-questionnaire> x\n"
    before = f"{alone}<questionnaire>{JSON_FORM}</questionnaire>"
    given = _examples(before, alone)
    report = _run("unregistered_as_text", given)
    assert _keys(report) == ["segment|§6|block|questionnaire>markdown|-|-"]
    found = report.classes[0]
    assert found.rule == "§6"  # an unregistered name is §6, never §3a
    assert found.count == 2
    assert found.input["text"] == "<foo-questionnaire></foo-questionnaire>"
    assert found.field == "/segments/0/kind"


def test_a_name_the_client_does_not_register_is_section_6() -> None:
    """A client with one profile shows a Self-check name as text: §6, not §3a."""
    given = _examples(
        f"Intro <yiii-questionnaire>{JSON_FORM}</yiii-questionnaire>\n", profile="self_check"
    )
    report = _run("client_only,unregistered_as_text", given)
    found = _one(report, role="block")
    assert found.rule == "§6"
    assert found.input["profile"] == "self_check"


def test_a_preface_hidden_by_a_code_span_is_the_preface_rule() -> None:
    """The client reads the escaped backtick as a code span that hides the only prose,
    says the form is invalid and gives no code: the cause is the preface rule."""
    given = _examples(f"\\`a`\n```questionnaire\n{FREE}```\n")
    report = _run("escaped_backtick,nodiag", given)
    found = _one(report, role="validity")
    assert found.rule == "§4 preface"
    assert "escaped_backtick" in found.key_features
    assert (found.expected, found.actual) == (True, False)


def test_new_features_in_a_known_class_are_shrunk_and_split() -> None:
    """Two faults with the same coarse key (rule, role, kinds, code): a backtick the
    client makes of an entity, and one it makes of an escaped backtick, each hide a
    form in a code span. The second input is shrunk because no class of that key
    explains its features, and its class is split off; an input with both counts in
    the class of the features it holds."""
    tag = f"<questionnaire>{JSON_FORM}</questionnaire>"
    entity, escaped = f"Intro &#96;{tag}` x\n", f"Intro \\`{tag}` x\n"
    given = _examples(entity, escaped, f"{entity}\n{escaped}")
    report = _run("entity,escaped_backtick", given)
    assert len(report.classes) == 2, _keys(report)
    coarse = {c.key.coarse_text() for c in report.classes if c.key is not None}
    assert coarse == {"segment|§3a|block|questionnaire>markdown|-"}
    first, second = report.classes
    assert "entity" in first.key_features and "escaped_backtick" not in first.key_features
    assert "escaped_backtick" in second.key_features and "entity" not in second.key_features
    assert first.input["text"].startswith("&#")  # an entity the client decodes
    assert second.input["text"].startswith("\\`<questionnaire>")
    assert first.count + second.count == 3


def test_a_class_keeps_up_to_3_distinct_minimal_inputs() -> None:
    """Inputs that fit a class with features not tried for it yet are shrunk too, for
    other minimal inputs (at most 3 kept): here four unregistered names, each with its
    own incidental constructs (which shrinking removes)."""
    extras = ("", "\t", " &amp;", "\r\n", " “")
    texts = [
        f"Hi{extra} <{name}-questionnaire>{{}}</{name}-questionnaire> x\n"
        for name, extra in zip(("foo", "bar", "baz", "qux", "quux"), extras, strict=True)
    ]
    given = _examples(*texts)
    report = _run("unregistered_as_text", given)
    found = _one(report, role="block")
    assert found.count == 5
    assert [i["text"] for i in found.inputs] == [
        "<foo-questionnaire></foo-questionnaire>",
        "<bar-questionnaire></bar-questionnaire>",
        "<baz-questionnaire></baz-questionnaire>",
    ]


# ---------------------------------------------------------------- profiles


def test_profiles_the_client_lacks_are_not_drawn() -> None:
    yiii = f"Intro <yiii-questionnaire>{JSON_FORM}</yiii-questionnaire>\n"
    given = _examples(yiii, profile="self_check")
    assert [c.rule for c in _run("client_only", given).classes] == ["§6"]
    report = _run("client_only", given, profiles=("client",), examples=60, seed=3)
    assert report.classes == ()
    assert report.profiles == ("client",)


def test_an_adapter_may_refuse_a_profile() -> None:
    yiii = f"Intro <yiii-questionnaire>{JSON_FORM}</yiii-questionnaire>\n"
    acme = f"Intro <acme-questionnaire>{JSON_FORM}</acme-questionnaire>\n"
    given = (*_examples(yiii, profile="self_check"), *_examples(acme, profile="product:acme"))
    report = _run("profile_unsupported", given, examples=60, seed=3)
    assert report.classes == ()
    assert report.unsupported_profiles == ("self_check", "product:*")
    assert report.unsupported_ops == ()


def test_profile_option_on_the_command_line(tmp_path: Path) -> None:
    impl = " ".join(python_adapter("fault_adapter.py", "profile_unsupported"))
    argv = ["fuzz", "--impl", impl, "--op", "segment", "--examples", "40", "--seed", "1"]
    argv += ["--timeout", "60"]
    assert run_cli([*argv, "--profile", "client", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert data["profiles"] == ["client"] and data["unsupported_profiles"] == []
    with pytest.raises(SystemExit) as exc:
        run_cli([*argv, "--profile", "nonsense"])
    assert exc.value.code == 2


# ---------------------------------------------------------------- triage


def _explicit_file(path: Path, *texts: str) -> str:
    """An ``--explicit`` file of segment requests of ``texts``."""
    entries = [{"op": e.op, "input": e.request} for e in _examples(*texts)]
    path.write_text(json.dumps(entries), encoding="utf-8")
    return str(path)


def test_accepted_classes_are_counted_not_reported(tmp_path: Path) -> None:
    given = _explicit_file(tmp_path / "given.json", UNCLOSED, ENTITY)
    impl = " ".join(python_adapter("fault_adapter.py", "unclosed_as_text,entity"))
    argv = ["fuzz", "--impl", impl, "--op", "segment", "--examples", "0", "--timeout", "60"]
    argv += ["--explicit", given]
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
    listed.write_text(json.dumps({"accept": [entry, "segment|§3a|block|*"]}), encoding="utf-8")
    assert run_cli([*argv, "--accept", str(listed), "--out", str(tmp_path / "ex")]) == 0


def test_an_earlier_report_runs_again_as_the_explicit_inputs(tmp_path: Path) -> None:
    """``--explicit report.json`` runs the minimal inputs of its classes first (the
    hand-written examples do not run): the same classes, each counted once per input."""
    given = _explicit_file(tmp_path / "given.json", UNCLOSED, ENTITY, BOTH)
    impl = " ".join(python_adapter("fault_adapter.py", "unclosed_as_text,entity"))
    argv = ["fuzz", "--impl", impl, "--op", "segment", "--examples", "0", "--timeout", "60"]
    assert run_cli([*argv, "--explicit", given, "--out", str(tmp_path / "a")]) == 1
    first = json.loads((tmp_path / "a" / "report.json").read_text(encoding="utf-8"))
    assert first["examples_run"] == 3
    again = str(tmp_path / "a" / "report.json")
    assert run_cli([*argv, "--explicit", again, "--out", str(tmp_path / "b")]) == 1
    second = json.loads((tmp_path / "b" / "report.json").read_text(encoding="utf-8"))
    assert [c["key"] for c in second["classes"]] == [c["key"] for c in first["classes"]]
    assert second["examples_run"] == sum(len(c["inputs"]) for c in first["classes"]) == 2
    assert [c["count"] for c in second["classes"]] == [1, 1]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[3]", 'entry 1: expected {"op": one of segment'),
        ('[{"op": "render", "input": {}}]', "entry 1: expected"),
        ('{"a": 1}', "expected a list of"),
        ("nope", "not strict JSON at line 1, column 1: expected a value, found 'nope'"),
        ('[{"op": "segment", "op": "stream"}]', 'column 20: duplicate key "op"'),
        # Every op's required fields, checked when the file is read (never a traceback
        # in the middle of the run): the entry, its op and the field.
        ('[{"op": "stream", "input": {"text": "abc"}}]', "entry 1 (stream): input.chunks: "),
        ('[{"op": "stream", "input": {"chunks": "abc"}}]', "input.chunks: expected a list"),
        ('[{"op": "stream", "input": {"chunks": ["a", 5]}}]', "input.chunks: expected a list"),
        ('[{"op": "segment", "input": {"chunks": ["a"]}}]', "entry 1 (segment): input.text: "),
        (
            '[{"op": "segment", "input": {"text": "a"}}, {"op": "segment", "input": {"text": '
            '"a", "message_id": 5}}]',
            "entry 2 (segment): input.message_id: expected a string",
        ),
        ('[{"op": "stream", "input": {"chunks": [], "message_id": " "}}]', "input.message_id: "),
        ('[{"op": "segment", "input": {"text": "a", "profile": "x"}}]', "input.profile: unknown"),
        ('[{"op": "segment", "input": {"text": "a", "profile": 1}}]', "input.profile: expected"),
        ('[{"op": "questionnaire_async", "input": {}}]', "input.arguments: required"),
        ('[{"op": "sanitize_actions", "input": {}}]', "input.answer: required"),
    ],
)
def test_an_unreadable_explicit_file_is_a_usage_error(
    content: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "given.json"
    bad.write_text(content, encoding="utf-8")
    impl = " ".join(python_adapter("fault_adapter.py", "nodiag"))
    argv = ["fuzz", "--impl", impl, "--out", str(tmp_path)]
    assert run_cli([*argv, "--explicit", str(bad)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and err.startswith("replykit fuzz: error: --explicit ")
    assert run_cli([*argv, "--explicit", str(tmp_path / "none")]) == 2
    with pytest.raises(SystemExit) as exc:
        run_cli([*argv, "--explicit", str(bad), "--no-explicit"])
    assert exc.value.code == 2
    with pytest.raises(TypeError, match=r"explicit\[0\] is dict, not an Example"):
        fuzz(python_adapter("fault_adapter.py"), explicit=[{"op": "segment"}])  # type: ignore[list-item]


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


def test_utf16_offsets_on_different_constructs_are_one_class() -> None:
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
    report = _mutant("utf16_offsets", _examples(*texts))
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


# ---------------------------------------------------------------- spread: one fault, one class


def _mutant(name: str, given: tuple[Example, ...], op: str = "segment") -> FuzzReport:
    """Fuzz the mutant ``name`` in this process, the examples ``given`` run first."""
    answer = mutants.mutant(name)
    return fuzz(answer, ops=(op,), examples=0, explicit=given)  # type: ignore[arg-type]


def _json_examples(op: str, field: str, *values: Any) -> tuple[Example, ...]:
    return tuple(Example(op, "§12", f"case-{n}", {field: v}) for n, v in enumerate(values))  # type: ignore[arg-type]


GOOD_Q = '{"type":"free_text","text":"Q"}'


def _tagged(*questions: str) -> str:
    return f'Intro <questionnaire>{{"questions":[{",".join(questions)}]}}</questionnaire>\n'


def test_an_invalid_question_is_one_class_whatever_check_it_fails() -> None:
    """A client that drops an invalid question is one fault, whichever check the
    question fails first (its type, its text, allow_other): the code is the minimal
    input's, so the shrinker reaches the simplest invalid question from each."""
    given = _examples(
        _tagged(GOOD_Q, '{"type":"multi_choice","text":"a","options":["a"],"allow_other":""}'),
        _tagged(GOOD_Q, '{"type":"single_choice","options":["a"]}'),
        _tagged(GOOD_Q, '{"text":"b"}'),
    )
    report = _mutant("invalid_question_dropped", given)
    assert len(report.classes) == 1, _keys(report)
    found = report.classes[0]
    assert found.key is not None and found.key.role == "validity" and found.rule == "§7"
    assert found.count == 3


def test_an_invalid_question_and_a_yaml_11_scalar_stay_two_classes() -> None:
    """Two faults that both make replykit's invalid form a card stay apart (the
    combined mutant: every fault at once)."""
    yes = "title: T\nquestions:\n  - type: free_text\n    text: Q\n    default: yes\n"
    given = _examples(
        _tagged(GOOD_Q, '{"type":"single_choice","options":["a"]}'),
        f"Intro\n\n```questionnaire\n{yes}```\n",
        _tagged(GOOD_Q, '{"text":"b"}'),
    )
    report = _mutant("combined", given)
    assert sorted(c.rule for c in report.classes) == ["§4", "§7"], _keys(report)
    yaml11 = _one(report, rule="§4")
    assert "yaml11" in yaml11.key_features


def test_a_name_read_case_insensitively_is_one_class_card_text_or_moved_id() -> None:
    """The near-miss warning names the cause: a card the client shows, a block it
    shows as text, and a later card whose id the uncounted block moved are one class."""
    given = _examples(
        f"Intro <Questionnaire>{JSON_FORM}</Questionnaire>\n",
        "<SAGE-QUESTIONNAIRE></SAGE-QUESTIONNAIRE>\n",
        f"<FOO-QUESTIONNAIRE></FOO-QUESTIONNAIRE>\n<questionnaire>{JSON_FORM}</questionnaire>",
    )
    report = _mutant("case_insensitive_names", given)
    assert _keys(report) == ["segment|§8|near_miss|-|near_miss.case|-"]
    assert report.classes[0].count == 3


def test_a_lone_cr_is_one_class_for_a_card_and_a_block_shown_as_text() -> None:
    """A client that does not end a line at a lone CR misses a card in one message and
    a block shown as text in another: one class (role ``block``), features ``cr``."""
    given = _examples(f"o\n```questionnaire\r{FREE}```\n", "o\n```questionnaire\rt")
    report = _mutant("lone_cr", given)
    assert _keys(report) == ["segment|§3a|block|questionnaire>markdown|-|cr"]
    assert report.classes[0].count == 2


def test_a_short_closer_is_one_class_whatever_ends_the_block_for_replykit() -> None:
    """A shorter closing fence accepted: the block ends elsewhere whether the client
    shows a card there or text (an unclosed block, an unregistered name): role ``end``.
    (Where replykit's block ends with the message, only its validity differs: that is
    the fault's second class, ``validity``.)"""
    given = _examples(
        f"Intro\n\n````questionnaire\n{FREE}```\nAfter\n",
        "````questionnaire\n```\nH",
        "````o-questionnaire\n```\n\n",
    )
    report = _mutant("short_closer", given)
    assert _keys(report) == [
        "segment|§3a closer|end|questionnaire>questionnaire|-|long_fence+short_closer"
    ]
    assert report.classes[0].count == 3


def test_a_prefaced_input_keeps_its_preface_while_it_shrinks() -> None:
    """A tab before the closer hides an unclosed fence from a client that also
    ignores the preface rule: the shrinker may not remove the preface (replykit would
    gain fence.no_preface, a second reason), so the class is the tab's alone, apart
    from the preface fault's."""
    tabbed = f"Intro\n\n```questionnaire\n{FREE}\t```"
    given = _examples(tabbed, f"```questionnaire\n{FREE}```\n")
    report = _mutant("combined", given)
    assert sorted(c.rule for c in report.classes) == ["§3a", "§4 preface"], _keys(report)
    tab = _one(report, rule="§3a")
    assert "tab" in tab.key_features
    assert not tab.input["text"].startswith("`")  # prose before the fence stays


def test_sanitizer_duplicate_ids_are_one_class_whichever_check_replykit_names() -> None:
    """A sanitizer that keeps a duplicate id: replykit drops the second action for a
    reserved, invisible or duplicate id; the client (which renames it) for a missing
    label. One class, keyed by the field the first differing check is about (``id``);
    the two ids shrink together."""
    dup = [
        [{"id": "constructor"}, {"id": "constructor", "type": "render.change"}],
        [{"id": "\u200b"}, {"id": "\u200b", "type": "business.cancel"}],
        [{"id": "a1", "type": "view.detail", "label": "s"}, {"id": "a1", "type": "view.detail"}],
    ]
    given = _json_examples("sanitize_actions", "answer", *({"actions": a} for a in dup))
    report = _mutant("sanitizer_keeps_duplicate_id", given, "sanitize_actions")
    assert _keys(report) == ["sanitize_actions|§12|action|-|id|duplicate_id"]
    assert report.classes[0].count == 3
    assert "\u200b" not in json.dumps(report.classes[0].inputs, ensure_ascii=False)


def test_sanitizer_utf16_labels_and_duplicate_ids_stay_two_classes() -> None:
    """Labels counted in UTF-16 units: replykit drops the action later (a missing
    prompt or chart type) or not at all; one class (``label``), apart from the
    duplicate id's, in the combined mutant."""
    label = "a" + "\U0001f600" * 16
    answers = [
        {"actions": [{"id": "1", "type": "view.detail", "label": label}]},
        {"actions": [{"id": "1", "type": "business.execute", "label": label}]},
        {"actions": [{"id": "1", "type": "render.change", "label": label}]},
        {
            "actions": [
                {"id": "a", "type": "view.detail", "label": "s"},
                {"id": "a", "type": "view.detail"},
            ]
        },
    ]
    given = _json_examples("sanitize_actions", "answer", *answers)
    report = _mutant("combined", given, "sanitize_actions")
    assert sorted(_keys(report)) == [
        "sanitize_actions|§12|action|-|id|duplicate_id",
        "sanitize_actions|§12|action|-|label|astral",
    ]
    assert _one(report, code="label").count == 3
