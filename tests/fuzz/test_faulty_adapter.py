"""``replykit fuzz`` finds each planted fault of faulty_adapter.py as its own class,
with a 1-minimal input (docs/fuzzing.md; class keys in its "Classes" section).

Stable across Hypothesis versions: every fault family has explicit examples in
``replykit.fuzz.examples.explicit_examples``, which run before any generated input.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from replykit.fuzz import Adapter, check, lines_of
from replykit.fuzz.classify import block_errors
from replykit.fuzz.rules import CLOSER_RULE, PREFACE_RULE

from .helpers import python_adapter, run_cli

FAULTY = python_adapter("faulty_adapter.py")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("faulty")
    status = run_cli(
        [
            "fuzz",
            "--impl",
            " ".join(FAULTY),
            "--op",
            "all",
            "--examples",
            "80",
            "--seed",
            "3",
            "--out",
            str(out),
        ]
    )
    assert status == 1
    data: dict[str, Any] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    data["_text"] = (out / "report.txt").read_text(encoding="utf-8")
    return data


def _by_rule(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The first class of each rule that a user sees (not a representation class)."""
    out: dict[str, dict[str, Any]] = {}
    for c in report["classes"]:
        if c["op"] == "segment" and c["role"] != "representation":
            out.setdefault(c["rule"], c)
    return out


def test_each_planted_fault_is_its_own_class(report: dict[str, Any]) -> None:
    classes = _by_rule(report)
    # 1. indented code ignored: a 4-space opener is code for replykit (§3b); the client
    # counts a block there (a card or not: one class, role block)
    indented = classes["§3b"]["input"]["text"]
    assert indented in ("    <questionnaire></questionnaire>", "    ```questionnaire")
    assert classes["§3b"]["features"] == ["indented_code"]  # "tag" is a marker, not a key part
    assert classes["§3b"]["role"] == "block"
    # 2. tilde fences accepted: replykit warns near_miss.tilde and reads Markdown (§8);
    # the warning names the cause, so a card or a block shown as text is one class
    tilde = classes["§8"]
    assert tilde["input"]["text"].startswith("~~~questionnaire")
    assert tilde["field"] == "/segments/0/kind"
    assert (tilde["expected"], tilde["actual"]) == ("markdown", "questionnaire")
    assert tilde["key"] == "segment|§8|near_miss|-|near_miss.tilde|-"  # the code names it
    # 3. a shorter closing fence closes: the closing-fence rule (§3a closer)
    closer = classes[CLOSER_RULE]
    assert "short_closer" in closer["features"] and closer["role"] == "end"
    assert closer["field"].endswith("/end")
    # 4. YAML 1.1 booleans: replykit reads `yes` as a string (§4)
    yaml11 = next(c for c in report["classes"] if "yaml11" in c["features"])
    assert yaml11["rule"] == "§4" and "yes" in yaml11["input"]["text"]
    assert (yaml11["expected"], yaml11["actual"]) == (True, False)
    # 5. preface rule ignored: fence.no_preface (§4 preface)
    preface = classes[PREFACE_RULE]
    assert preface["input"]["text"].startswith("```questionnaire\n")
    assert (preface["expected"], preface["actual"]) == (False, True)
    assert preface["code"] == "fence.no_preface"
    keys = [c["key"] for c in report["classes"]]
    assert len(keys) == len(set(keys))
    # the other ops are unsupported by the faulty adapter, not failures
    assert report["unsupported_ops"] == ["questionnaire_async", "sanitize_actions"]
    assert not [c for c in report["classes"] if c["rule"].startswith("adapter.")]
    for rule in ("§3b", "§8", CLOSER_RULE, "§4", PREFACE_RULE):
        assert classes[rule]["count"] >= 1
        assert f"segment · {rule} · disagreement" in report["_text"]


def _deletions(text: str) -> set[str]:
    lines = lines_of(text)
    out = {"".join(lines[:i] + lines[i + 1 :]) for i in range(len(lines))}
    out |= {text[:i] + text[i + 1 :] for i in range(len(text))}
    return out


def test_every_minimal_input_is_1_minimal(report: dict[str, Any]) -> None:
    """Each minimal input is its class's (the key without its features), and no
    deletion keeps what the shrinker keeps: the coarse key, and no error about a block
    as a whole that the input does not have."""
    segment_classes = [c for c in report["classes"] if c["op"] == "segment"]
    assert len(segment_classes) >= 5
    with Adapter(FAULTY, timeout=10) as adapter:
        for found in segment_classes:
            body = found["input"]
            first = check(adapter, "segment", body)
            assert first.key is not None
            assert first.key.class_key.text().rsplit("|", 1)[0] == found["key"].rsplit("|", 1)[0]
            allowed = block_errors(first.expected)
            for smaller in _deletions(body["text"]):
                verdict = check(adapter, "segment", {**body, "text": smaller})
                assert (
                    verdict.key is None
                    or verdict.key.coarse != first.key.coarse
                    or not block_errors(verdict.expected) <= allowed
                ), smaller
