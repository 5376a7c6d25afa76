"""What a fuzz run is given and how long it lasts (docs/fuzzing.md, "Running" and
"Triage"): ``--seconds`` bounds the whole run, shrinking included; ``--accept`` files
may start with a byte order mark and refuse a key that can match nothing;
``--explicit`` replays every file ``replykit vectors export`` writes; an adapter that
supports none of the requested ops is an error, not a pass."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from replykit.fuzz import InProcessAdapter, fuzz
from replykit.fuzz.accept import AcceptError, parse_accept
from replykit.fuzz.example import load_examples, parse_examples
from replykit.fuzz.reference import reference
from replykit.fuzz.vectors import export
from replykit.fuzz.verdict import check, class_key_for

from .fault_adapter import responder
from .helpers import python_adapter, run_cli

# ----------------------------------------------------------------- --seconds


def test_seconds_bound_explicit_examples_and_shrinking() -> None:
    """Each answer takes at least 0.1 s and every multi-segment answer is wrong, so
    without a bound the 97 hand-written segment examples and their shrinks send
    hundreds of requests; within 1 s at most 11 can start (sleeps never end early)."""
    sent: list[str] = []

    def slow_wrong(request: dict[str, Any]) -> Any:
        sent.append(request["id"])
        time.sleep(0.1)
        body = {k: v for k, v in request.items() if k not in ("id", "op")}
        answer = reference("segment", body)
        text = body["text"]
        if len(answer["segments"]) > 1:
            whole = {"kind": "markdown", "start": 0, "end": len(text), "text": text}
            return {**answer, "segments": [whole]}
        return answer

    report = fuzz(slow_wrong, ops=("segment",), seconds=1.0, explicit=True, seed=0)
    assert 1 <= len(sent) <= 11
    assert report.examples_run <= len(sent)
    for found in report.classes:  # what shrinking had when the time was spent
        assert found.input["text"] and found.count >= 1


def test_a_class_is_what_a_fresh_check_of_its_minimal_input_gives() -> None:
    """Shrinking keeps the verdict of the last input that held instead of asking the
    adapter again: every class's key, expected and actual answers are what a fresh
    request with its minimal input gives."""
    faults = "entity,lone_cr,escaped_backtick,nodiag"
    report = fuzz(responder(faults), ops=("segment",), examples=60, seed=0)
    assert len(report.classes) >= 4
    adapter = InProcessAdapter(responder(faults))
    for found in report.classes:
        fresh = check(adapter, "segment", found.input)
        assert fresh.key is not None and fresh.rule == found.rule
        assert class_key_for(fresh.key, "segment", found.input).text() == found.key_text
        assert fresh.expected == found.expected_response
        assert {**fresh.actual, "id": ""} == {**found.actual_response, "id": ""}  # ids differ


# ----------------------------------------------------------------- --accept


def test_an_accept_file_may_start_with_a_byte_order_mark() -> None:
    text = "\ufeffsegment|§3b|*\r\nsegment|§3a|*\r\n"
    assert parse_accept(text).patterns == ("segment|§3b|*", "segment|§3a|*")
    assert parse_accept('\ufeff["segment|§3b|*"]').patterns == ("segment|§3b|*",)
    assert parse_accept("\ufeff").patterns == ()


def test_an_accept_file_on_disk_with_a_bom_accepts_its_first_line(tmp_path: Path) -> None:
    path = tmp_path / "accept.txt"
    path.write_bytes(b"\xef\xbb\xbfsanitize_actions|adapter.crash\n")
    impl = " ".join(python_adapter("broken_adapter.py", "crash"))
    argv = ["fuzz", "--impl", impl, "--op", "sanitize_actions", "--examples", "3"]
    argv += ["--no-explicit", "--accept", str(path), "--out", str(tmp_path / "r")]
    assert run_cli(argv) == 0
    data = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert data["classes"] == []
    assert [a["key"] for a in data["accepted"]] == ["sanitize_actions|adapter.crash"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("foo", "line 2: 'foo' has 1 part(s); a class key is OP|adapter.KIND or has 5 or 6"),
        ("segment|§3b", "line 2: 'segment|§3b': a two-part key is OP|adapter.KIND"),
        ("segment|3b|*", "line 2: 'segment|3b|*': the rule '3b' is neither a § section"),
        ("segmnt|§3b|*", "line 2: 'segmnt|§3b|*' names no op (segment, questionnaire_async"),
        ("segment|§3b|block|-", "line 2: 'segment|§3b|block|-' has 4 part(s)"),
    ],
)
def test_an_accept_line_that_can_match_nothing_is_refused(line: str, message: str) -> None:
    with pytest.raises(AcceptError) as exc:
        parse_accept(f"# triaged\n{line}\nsegment|§3a|*\n")
    assert str(exc.value).startswith(message)
    with pytest.raises(AcceptError, match=r"^entry 2: "):
        parse_accept(json.dumps({"accept": ["segment|§3a|*", {"key": line}]}))


@pytest.mark.parametrize(
    "pattern",
    [
        "*",
        "segment|adapter.crash",
        "*|adapter.oversized",
        "stream|adapter.*",
        "segment|§3b|*",
        "segment|§3b|block|markdown>questionnaire|-",
        "segment|§3a|block|questionnaire>markdown|-|entity+indented_code",
        "sanitize_actions|?12|*",
        "questionnaire_async|[§]7|result|-|-|-",
    ],
)
def test_accept_patterns_that_can_match_are_kept(pattern: str) -> None:
    assert parse_accept(f"{pattern}\n").patterns == (pattern,)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        # A duplicate key: the last one winning would drop an entry unseen.
        ('{"accept": ["nonsense"], "accept": ["segment|§3b|*"]}', "line 1, column 26"),
        ('[{"key": "nonsense", "key": "segment|§3b|*"}]', "line 1, column 22"),
        ('{"accept": [NaN]}', "line 1, column 13"),
        # A syntax error is named as such, not read as a plain-text key on line 1.
        ('{"accept": [\n  "segment|§3b|*",\n]}\n', "line 3, column 1"),
        ('{"classes": [{"key": "segment|§3b', "line 1, column 22"),
        ('[\n  "segment|§3b|*"\n  "segment|§3a|*"\n]', "line 3, column 3"),
    ],
)
def test_a_json_accept_file_is_read_strictly(text: str, where: str) -> None:
    with pytest.raises(AcceptError) as exc:
        parse_accept(text)
    assert str(exc.value).startswith(f"not strict JSON at {where}: ")


def test_an_accept_line_starting_with_a_bracket_pattern_is_a_key() -> None:
    assert parse_accept("[s]egment|§3b|*\n").patterns == ("[s]egment|§3b|*",)
    assert parse_accept(' ["segment|§3b|*"] ').patterns == ("segment|§3b|*",)


def test_a_refused_accept_line_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "accept.txt"
    path.write_text("segment|§3a|*\nsegment|3b|*\n", encoding="utf-8")
    argv = ["fuzz", "--impl", "never-started", "--accept", str(path), "--out", str(tmp_path)]
    assert run_cli(argv) == 2
    err = capsys.readouterr().err
    assert f"--accept {path}: line 2: 'segment|3b|*': the rule '3b'" in err


# ----------------------------------------------------------------- --explicit


EXPORTED = {
    "segment.json": "segment",
    "segment_generated.json": "segment",
    "questionnaire_async.json": "questionnaire_async",
    "sanitize_actions.json": "sanitize_actions",
    "stream.json": "stream",
}


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("vectors")
    export(str(directory))
    return directory


@pytest.mark.parametrize("name", sorted(EXPORTED))
def test_every_exported_vectors_file_is_read_as_explicit_examples(
    exported: Path, name: str
) -> None:
    cases = json.loads((exported / name).read_text(encoding="utf-8"))["cases"]
    examples = load_examples(str(exported / name))
    assert len(examples) == len(cases) > 0
    for example, case in zip(examples, cases, strict=True):
        assert (example.op, example.name, example.rule) == (
            EXPORTED[name],
            case["id"],
            case["rule"],
        )
        if "op" in case:
            assert example.request == case["input"]
        elif name == "segment.json":
            want = {"text": case["input"], "message_id": case["message_id"]}
            assert example.request == {**want, "profile": case["profile"]}
        else:
            want = {"chunks": case["chunks"], "message_id": case["message_id"]}
            assert example.request == {**want, "profile": case["profile"]}


@pytest.mark.parametrize("name", sorted(EXPORTED))
def test_replaying_an_exported_file_against_replykit_finds_nothing(
    exported: Path, name: str, tmp_path: Path
) -> None:
    impl = " ".join(python_adapter("replykit_adapter.py"))
    argv = ["fuzz", "--impl", impl, "--op", EXPORTED[name], "--examples", "0"]
    argv += ["--explicit", str(exported / name), "--out", str(tmp_path)]
    assert run_cli(argv) == 0
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    cases = json.loads((exported / name).read_text(encoding="utf-8"))["cases"]
    assert (data["classes"], data["examples_run"]) == ([], len(cases))


def test_a_case_of_another_shape_in_a_vectors_file_is_refused() -> None:
    text = json.dumps({"format": 1, "cases": [{"id": "x", "input": 3}]})
    with pytest.raises(ValueError, match=r"^entry 1: expected \{\"op\""):
        parse_examples(text)


def test_an_explicit_file_may_start_with_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "given.json"
    body = {"text": "hi", "message_id": "m", "profile": "client"}
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps([{"op": "segment", "input": body}]).encode())
    (example,) = load_examples(str(path))
    assert (example.op, example.request, example.name) == ("segment", body, "entry-1")


# ----------------------------------------------------------------- unsupported


def test_an_adapter_supporting_none_of_the_ops_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    impl = " ".join(python_adapter("broken_adapter.py", "unsupported"))
    for op in ("stream", "all"):
        argv = ["fuzz", "--impl", impl, "--op", op, "--examples", "5", "--out", str(tmp_path)]
        assert run_cli(argv) == 2
        err = capsys.readouterr().err
        assert "the adapter supports none of the requested ops" in err
        assert "nothing was tested" in err
        data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
        want = (
            ["stream"] if op == "stream" else ["segment", "questionnaire_async", "sanitize_actions"]
        )
        assert sorted(data["unsupported_ops"]) == sorted(want)
        assert data["classes"] == []
