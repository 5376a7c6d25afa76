"""Comparison, shrinking, rule tags, strategies and vector export, piece by piece."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings

from replykit.codes import CODES, RULES
from replykit.fuzz import (
    first_difference,
    lines_of,
    reference,
    rule_for_code,
    shipped_segment_vectors,
    shrink_json,
    shrink_text,
)
from replykit.fuzz.examples import explicit_examples
from replykit.fuzz.generate import requests
from replykit.fuzz.ops import OPS
from replykit.fuzz.rules import DEFAULT_RULE, PREFACE_RULE

from .helpers import ROOT, run_cli

# ---------------------------------------------------------------- compare


def test_compare_only_produced_fields_never_message() -> None:
    expected = {
        "segments": [
            {"kind": "markdown", "start": 0, "end": 3, "text": "Hi "},
            {"kind": "questionnaire", "start": 3, "end": 9, "valid": False, "name": "q",
             "diagnostics": [{"code": "a", "severity": "error", "message": "x", "path": None},
                             {"code": "b", "severity": "warning", "message": "y", "path": "p"}]},
        ],
        "diagnostics": [],
    }  # fmt: skip
    actual = {
        "id": "r1",
        "segments": [
            {"kind": "markdown", "start": 0, "end": 3, "valid": True, "flavour": 1},
            {"kind": "questionnaire", "start": 3, "end": 9, "message": "other words",
             "diagnostics": [{"code": "b", "message": "?"}, {"code": "a"}]},
        ],
    }  # fmt: skip
    assert first_difference(expected, actual) is None
    actual["segments"][1]["valid"] = 0  # 0 is not false
    diff = first_difference(expected, actual)
    assert diff is not None and diff.pointer == "/segments/1/valid"
    assert (diff.expected, diff.actual) == (False, 0)
    actual["segments"][1]["valid"] = False
    actual["segments"][1]["questionnaire"] = {"title": "T"}  # known field, absent in replykit
    diff = first_difference(expected, actual)
    assert diff is not None and diff.path == ("segments", 1, "questionnaire")
    del actual["segments"][1]["questionnaire"]
    actual["segments"].append({"kind": "markdown", "start": 9, "end": 9})
    diff = first_difference(expected, actual)
    assert diff is not None and diff.path == ("segments", 2) and diff.expected is None


def test_compare_multiset_and_numbers() -> None:
    expected = {"result": {"errors": [{"code": "x", "path": "a"}, {"code": "y", "path": "b"}],
                           "timeout": 30}}  # fmt: skip
    same = {"result": {"errors": [{"code": "y", "path": "b"}, {"code": "x", "path": "a"}]}}
    assert first_difference(expected, same) is None
    other = {"result": {"errors": [{"code": "y", "path": "b"}]}}
    diff = first_difference(expected, other)
    assert diff is not None and diff.pointer == "/result/errors"
    assert diff.expected == [{"code": "x", "path": "a"}, {"code": "y", "path": "b"}]
    assert (
        first_difference({"a": {"timeout_seconds": 30}}, {"a": {"timeout_seconds": 30.0}}) is None
    )


# ---------------------------------------------------------------- shrink


def test_lines_of_uses_protocol_line_endings() -> None:
    assert lines_of("a\r\nb\rc\u2028d\ne") == ["a\r\n", "b\r", "c\u2028d\n", "e"]
    assert lines_of("") == []


def test_shrink_text_is_1_minimal() -> None:
    def holds(s: str) -> bool:
        return "ab" in s and s.count("\n") >= 1

    text = "xx\nyyab zz\n\nqq\r\nab\n"
    small = shrink_text(text, holds)
    assert holds(small)
    assert small in ("ab\n", "\nab")
    lines = lines_of(small)
    for i in range(len(lines)):
        assert not holds("".join(lines[:i] + lines[i + 1 :]))
    for i in range(len(small)):
        assert not holds(small[:i] + small[i + 1 :])


def test_shrink_json_structural_then_strings() -> None:
    value = {"answer": {"actions": [1, {"id": "a" * 40, "k": [2, 3]}, "zz"], "other": 5}}

    def holds(v: object) -> bool:
        text = json.dumps(v)
        return '"aaa' in text and "actions" in text

    small = shrink_json(value, holds)
    assert small == {"answer": {"actions": [{"id": "aaa"}]}}


# ---------------------------------------------------------------- rules


def test_every_replykit_code_has_a_rule() -> None:
    # Tags come from the registry: every code's rule is one of the registered rules,
    # each resolving to a numbered section of its docs file.
    assert {"fence.no_preface", "yaml.alias", "near_miss.tilde", "action.over_limit"} <= set(CODES)
    for code in CODES.values():
        assert rule_for_code(code.name) == code.rule.tag
        assert RULES[code.rule.tag] is code.rule
    assert rule_for_code("fence.no_preface") == PREFACE_RULE == "§4 preface"
    assert rule_for_code("fence.unclosed") == "§3a"
    assert rule_for_code("yaml.duplicate_key") == "§4"
    assert rule_for_code("json.constant") == "§5"
    assert rule_for_code("near_miss.in_container") == "§3c"
    assert rule_for_code("questionnaire.start.questions_empty") == "§7"
    assert rule_for_code("name.unregistered") == "§6"
    assert rule_for_code("action.id_duplicate") == "§12"
    # An adapter's own code takes its family's rule, an unknown family the default.
    assert rule_for_code("yaml.made_up") == "§4"
    assert rule_for_code("nothing.known") == DEFAULT_RULE


# ---------------------------------------------------------------- strategies


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(requests(OPS))
def test_requests_are_json_and_answerable(pair: tuple[str, dict[str, object]]) -> None:
    op, body = pair
    assert op in OPS
    assert json.loads(json.dumps(body)) == body
    response = reference(op, body)
    if op == "segment":
        text = body["text"]
        assert isinstance(text, str)
        assert "".join(s["text"] for s in response["segments"]) == text
    else:
        assert isinstance(response["result"], dict)


def test_explicit_examples_are_unique_and_tagged() -> None:
    examples = explicit_examples(OPS)
    names = [(e.op, e.name) for e in examples]
    assert len(names) == len(set(names))
    assert all(e.rule in RULES for e in examples)
    assert {e.op for e in examples} == set(OPS)


# ---------------------------------------------------------------- vectors


def test_packaged_segment_vectors_equal_the_test_suite_file() -> None:
    shipped = (ROOT / "src" / "replykit" / "data" / "vectors" / "segment.json").read_bytes()
    assert shipped == (ROOT / "tests" / "vectors" / "segment.json").read_bytes()
    assert shipped_segment_vectors().encode("utf-8") == shipped


def test_vectors_export(tmp_path: Path) -> None:
    out = tmp_path / "vectors"
    assert run_cli(["vectors", "export", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        "README.md",
        "questionnaire_async.json",
        "sanitize_actions.json",
        "segment.json",
        "segment_generated.json",
        "stream.json",
    ]
    assert (out / "segment.json").read_bytes() == (ROOT / "tests/vectors/segment.json").read_bytes()
    for name, op in (
        ("segment_generated.json", "segment"),
        ("questionnaire_async.json", "questionnaire_async"),
        ("sanitize_actions.json", "sanitize_actions"),
    ):
        suite = json.loads((out / name).read_text(encoding="utf-8"))
        assert suite["format"] == 1 and suite["op"] == op
        assert len(suite["cases"]) == len(explicit_examples((op,)))
        for case in suite["cases"]:
            assert case["rule"] and case["op"] == op
            assert case["expected"] == json.loads(json.dumps(reference(op, case["input"])))
    qa = json.loads((out / "questionnaire_async.json").read_text(encoding="utf-8"))
    seed = next(c for c in qa["cases"] if c["id"] == "seed-example")
    assert seed["expected"]["result"]["success"] is True
    assert seed["expected"]["result"]["questions"][0]["id"] == "action"
    assert "code points" in (out / "README.md").read_text(encoding="utf-8")


def test_utf16_offsets_are_tagged_section_1() -> None:
    from replykit.fuzz.rules import segment_rule

    text = "😀 Intro <questionnaire>{}</questionnaire>"
    mine = {"segments": [{"kind": "markdown", "start": 0, "end": 8}], "diagnostics": []}
    theirs = {"segments": [{"kind": "markdown", "start": 0, "end": 9}]}
    assert segment_rule(text, mine, theirs, ("segments", 0, "end")) == "§1"
    other = {"segments": [{"kind": "markdown", "start": 0, "end": 7}]}
    assert segment_rule(text, mine, other, ("segments", 0, "end")) != "§1"


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    names = {float: "number", str: "string", list: "array", dict: "object"}
    return names[type(value)]


def _fields(value: Any, path: str, documented: set[str], out: dict[str, set[str]]) -> None:
    """Every field path of ``value`` with its JSON types; a documented path with no
    documented field below it (an ``object`` or ``any`` described in words) is a leaf."""
    if path:
        out.setdefault(path, set()).add(_json_type(value))
        if not any(d.startswith((path + ".", path + "[]")) for d in documented):
            return
    if isinstance(value, dict):
        for key, item in value.items():
            _fields(item, f"{path}.{key}" if path else key, documented, out)
    elif isinstance(value, list):
        for item in value:
            _fields(item, path + "[]", documented, out)


def test_vectors_readme_describes_every_field_of_every_file(tmp_path: Path) -> None:
    out = tmp_path / "vectors"
    assert run_cli(["vectors", "export", str(out)]) == 0
    readme = (out / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `([^`]+)` \|.*\|$", readme.split("\n## ")[0], re.M)
    assert sorted(listed) == sorted(p.name for p in out.iterdir())
    sections = dict(re.findall(r"^## `([^`]+)`\n(.*?)(?=^## |\Z)", readme, re.M | re.S))
    assert sorted(sections) == sorted(n for n in listed if n.endswith(".json"))
    for name, section in sections.items():
        rows = re.findall(r"^\| `([^`]+)` \| ([a-z ]+) \| .+ \|$", section, re.M)
        table = {path: set(types.split(" or ")) for path, types in rows}
        assert len(table) == len(rows), f"{name}: a field is listed twice"
        found: dict[str, set[str]] = {}
        _fields(json.loads((out / name).read_text(encoding="utf-8")), "", set(table), found)
        assert sorted(found) == sorted(table), name
        for path, types in found.items():
            assert "any" in table[path] or types <= table[path], (name, path, types)
