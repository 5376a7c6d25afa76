"""The registry of diagnostic codes (§2): one home per code, messages rendered from
recorded parameters, docs tables that are the registry, and the family pattern spelled
once (the grammar's)."""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import replykit
from replykit.actions import lint, sanitize
from replykit.actions.model import ActionDiagnostic
from replykit.codes import CODES, RULES, Code, lookup
from replykit.codes import tables as code_tables
from replykit.codes.segment import ALWAYS_SHOWN, NEAR_MISSES
from replykit.diagnostics import Diagnostic, Finding
from replykit.fuzz.examples import explicit_examples
from replykit.questionnaire.conversation.tool import call_questionnaire_async
from replykit.questionnaire.payload import normalize_form
from replykit.questionnaire.profiles import profile_from_string
from replykit.testing.strategies import action_lists, messages, tool_arguments

ROOT = Path(__file__).resolve().parents[1]
DOCS = {
    "protocol": ROOT / "docs" / "protocol.md",
    "responses": ROOT / "docs" / "protocol-responses.md",
    "actions": ROOT / "docs" / "actions.md",
}


# ---------------------------------------------------------------- the registry itself


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_code_is_complete() -> None:
    assert len(CODES) >= 116
    for code in CODES.values():
        assert code.meaning, code.name
        assert code.rule.tag in RULES, code.name
        assert (code.severity is None) == (code.doc == "actions"), code.name
        assert set(code.zh) <= set(code.en), code.name
        for variant in code.en:
            # Every template renders from parameters alone, whatever they hold.
            names = _fields(code.en[variant])
            params = {name: "x" for name in names}
            english = code.render(params, variant or None)
            assert not any("{" + name + "}" in english for name in names), (code.name, variant)
            assert code.render(params, variant or None, "zh")


def test_unknown_variant_and_bad_names_are_refused() -> None:
    with pytest.raises(KeyError):
        CODES["yaml.alias"].render({}, "nonexistent")
    with pytest.raises(ValueError):
        Code("Yaml.Alias", "error", RULES["§4"], en={"": "x"}, meaning="m")
    with pytest.raises(ValueError):
        Code("yaml.alias", "error", RULES["§4"], en={"v": "x"}, meaning="m")


def test_every_rule_resolves_to_a_numbered_section() -> None:
    for rule in RULES.values():
        text = DOCS[rule.doc].read_text(encoding="utf-8")
        heading = re.compile(rf"^#+ {re.escape(rule.section)}\.? ", re.MULTILINE)
        assert heading.search(text), (rule.tag, rule.doc, rule.section)


def test_near_misses_and_always_shown() -> None:
    assert "near_miss.fence_indent" in NEAR_MISSES
    assert NEAR_MISSES | {"name.unregistered"} == ALWAYS_SHOWN


# ---------------------------------------------------------------- docs tables


def test_protocol_code_table_is_generated_from_the_registry() -> None:
    text = DOCS["protocol"].read_text(encoding="utf-8")
    assert code_tables.rendered(text) == text, "run: python -m replykit.codes.tables"
    assert code_tables.main([str(ROOT), "--check"]) == 0


def test_fuzzing_rule_table_is_generated_from_the_registry() -> None:
    text = (ROOT / "docs" / "fuzzing.md").read_text(encoding="utf-8")
    assert code_tables.rules_rendered(text) == text
    for rule in RULES.values():
        assert f"| `{rule.tag}` | {rule.title} |" in text


def test_table_generator_rewrites_a_stale_table(tmp_path: Path) -> None:
    doc = tmp_path / "docs" / "protocol.md"
    doc.parent.mkdir()
    doc.write_text(f"# T\n\n{code_tables.BEGIN}\n| old |\n{code_tables.END}\n", encoding="utf-8")
    rules = tmp_path / "docs" / "fuzzing.md"
    rules.write_text(f"{code_tables.RULES_BEGIN}\n{code_tables.RULES_END}\n", encoding="utf-8")
    assert code_tables.main([str(tmp_path), "--check"]) == 1
    assert code_tables.main([str(tmp_path)]) == 0
    assert "| `yaml.alias` | E | §4 |" in doc.read_text(encoding="utf-8")
    assert code_tables.main([str(tmp_path), "--check"]) == 0
    doc.write_text("no markers", encoding="utf-8")
    assert code_tables.main([str(tmp_path)]) == 2


_ROW = re.compile(r"\| `([a-z_]+(?:\.[a-z_*]+)+)`( \(warning\))? \|(.*)\|\s*")


def _rows(doc: str) -> Iterator[tuple[str, bool, list[str]]]:
    """The rows of every table whose first column is ``Code``: the code, whether it is
    marked ``(warning)``, the other cells."""
    in_table = False
    for line in DOCS[doc].read_text(encoding="utf-8").splitlines():
        if line.startswith("| Code |"):
            in_table = True
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        m = _ROW.fullmatch(line)
        if in_table and not line.startswith("|--") and not line.startswith("| ---"):
            assert m is not None, (doc, line)
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", m.group(3))]
            yield m.group(1), bool(m.group(2)), cells


def test_every_table_row_is_a_registered_code() -> None:
    for doc in DOCS:
        for name, warning, cells in _rows(doc):
            code = lookup(name)
            assert code is not None, (doc, name)
            if warning:
                assert code.severity == "warning", (doc, name)
            if doc == "responses" and code.severity == "warning":
                assert warning, (doc, name)
            if doc == "protocol" and cells[0] in ("E", "W"):
                assert cells[0] == {"error": "E", "warning": "W"}[code.severity or ""], name


def test_every_code_has_a_row_with_its_meaning() -> None:
    for code in CODES.values():
        meanings = [cells for name, _, cells in _rows(code.doc) if name == code.name]
        assert any(code.meaning in cells for cells in meanings), (code.doc, code.name)


# ---------------------------------------------------------------- emitted codes


def _check(found: Iterable[Finding | Diagnostic | ActionDiagnostic]) -> set[str]:
    """Every record is of a registered code and its message is the English rendering of
    its recorded parameters and variant; returns the codes seen."""
    seen = set()
    for f in found:
        code = lookup(f.code)
        assert code is not None, f.code
        assert f.message.rstrip(".") == code.render(f.params, f.variant).rstrip("."), f
        assert code.render(f.params, f.variant, "zh")
        seen.add(f.code)
    return seen


def _segment(text: str, profile: str = "client", compat: Any = None) -> set[str]:
    seg = replykit.segment(text, profile=profile_from_string(profile), compat=compat)
    return _check(seg.diagnostics)


def _vectors() -> list[Mapping[str, Any]]:
    cases: list[Mapping[str, Any]] = json.loads(
        (ROOT / "tests" / "vectors" / "segment.json").read_text(encoding="utf-8")
    )["cases"]
    return cases


def test_every_code_emitted_by_vectors_and_examples_is_registered() -> None:
    seen: set[str] = set()
    for case in _vectors():
        seen |= _segment(case["input"], case["profile"])
        seen |= _segment(case["input"], case["profile"], "sage")
    for example in explicit_examples():
        body = example.request
        if example.op == "segment":
            seen |= _segment(body["text"], body["profile"])
        elif example.op == "questionnaire_async":
            seen |= _check(normalize_form(body["arguments"], allow_extras=False).findings)
        else:
            seen |= _check(sanitize(body["answer"]).diagnostics)
            seen |= _check(lint(body["answer"]))
    # The corpus reaches most families; each of these is emitted at least once.
    for family in ("fence", "name", "near_miss", "yaml", "json", "form", "question"):
        assert any(c.startswith(family + ".") for c in seen), family


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(messages(), st.sampled_from(["client", "self_check"]), st.sampled_from([None, "sage"]))
def test_generated_messages_report_registered_codes(
    text: str, profile: str, compat: str | None
) -> None:
    _segment(text, profile, compat)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(tool_arguments(), action_lists())
def test_generated_tool_arguments_and_actions_report_registered_codes(
    arguments: Any, actions: Any
) -> None:
    _check(normalize_form(arguments, allow_extras=True).findings)
    _check(sanitize({"actions": actions}).diagnostics)
    _check(lint({"actions": actions, "datasets": {}}))


def test_a_finding_records_its_variant_and_zh_renders_from_it() -> None:
    args = {"questions": [{"type": "single_choice", "text": "Q", "options": ["a", "a"]}]}
    (f,) = normalize_form(args, allow_extras=False).findings
    assert (f.code, f.variant) == ("questionnaire.start.question_option_invalid", "duplicate")
    assert f.params["value"] == "a"
    code = CODES[f.code]
    assert code.render(f.params, f.variant, "zh") == (
        'questions[1].options[2] 重复了选项值 "a"；选项值必须互不相同。'
    )
    seg = replykit.segment("Intro\n\n```questionnaire\ntitle: T\nquestions:\n- &a x\n```\n")
    alias = next(d for d in seg.diagnostics if d.code == "yaml.alias")
    assert (alias.variant, alias.params["anchor"]) == ("anchor", "a")


def test_newer_codes_and_variants_record_their_parameters() -> None:
    """The codes and variants added for lone surrogates, repeated defaults, the value of
    the "other" choice and unspaced comments: each finding records its variant and
    parameters, and every locale's message renders from them."""
    args = {
        "questions": [
            {
                "type": "multi_choice",
                "text": "Q",
                "options": ["a", "__questionnaire_other__"],
                "default": ["a", " a "],
            }
        ]
    }
    reserved, repeat = normalize_form(args, allow_extras=True).findings
    assert (reserved.variant, reserved.params["value"]) == ("reserved", "__questionnaire_other__")
    assert CODES[reserved.code].render(reserved.params, reserved.variant, "zh") == (
        'questions[1].options[2] 的值 "__questionnaire_other__" 是“其他”选项的保留值；'
        "请换一个选项值。"
    )
    assert (repeat.code, repeat.severity) == (
        "questionnaire.start.default_duplicate_item",
        "warning",
    )
    assert CODES[repeat.code].render(repeat.params, None, "zh") == (
        'questions[1].default[2] 重复了默认项 "a"；只选中一次。'
    )
    # The tool reports no warning: the repeat is kept once silently.
    assert normalize_form(args, allow_extras=False).findings == (reserved,)

    root = call_questionnaire_async("\udc00", locale="zh")["errors"][0]
    assert root["message"] == (
        "字符串含有 U+DC00，这是不成对的代理项（不是字符），严格 JSON 无法如实表示。"
    )
    root_en = call_questionnaire_async("\udc00", locale="en")["errors"][0]
    assert root_en["message"] == (
        "a string holds U+DC00, half of a surrogate pair and no character; JSON cannot "
        "carry it faithfully"
    )

    seg = replykit.segment(
        'Intro\n\n```questionnaire\ntitle: "T\\ud800"\nquestions:\n  - type: multi_choice\n'
        "    text: Q\n    options: [a, __questionnaire_other__]\n    default: [a, a]\n```\n"
    )
    by_code = {d.code: d for d in seg.diagnostics}
    lone = by_code["yaml.lone_surrogate"]
    assert lone.params["shown"] == "U+D800"
    assert lone.message == CODES[lone.code].render(lone.params, lone.variant)
    assert by_code["question.option_invalid"].variant == "reserved"
    assert by_code["question.duplicate_default"].message == (
        'questions[1].default[2] repeats the default "a"; it is selected once'
    )
    seg = replykit.segment('Intro\n\n```questionnaire\ntitle: "T"#c\n```\n')
    (syntax,) = (d for d in seg.diagnostics if d.code == "yaml.syntax")
    assert syntax.variant == "comment_space"
