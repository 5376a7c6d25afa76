"""Citations that resolve: every ``§N`` in the code, the grammar, the docs, the tests and
``--help`` names a heading of docs/protocol.md; every numbered section of another docs
file names one of its headings; nothing cites a file outside the repository or an
issue of the tracker. The headings are read from the documents (tests/citations.py)."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from replykit.cli import build_parser
from replykit.codes import CODES, RULES

from citations import (
    BARE_SECTION,
    FILE_SECTION,
    PROTOCOL,
    ROOT,
    SECTION,
    SECTION_OF_FILE,
    files,
    headings,
    line_of,
    numbered_sections,
    protocol_sections,
    split_numbers,
)

#: Where citations stand: the code, the grammar, the docs, the tests, the benchmarks
#: and examples (the corpus of real Markdown is data, not citations).
CITING = (
    "src",
    "grammar",
    "docs",
    "README.md",
    "tests",
    "benchmarks",
    "examples",
    "pyproject.toml",
)
SECTIONS = protocol_sections(PROTOCOL.read_text(encoding="utf-8"))

# Examples of bad citations are spelled in parts so that this file itself passes.
_S = "\u00a7"
_DECISIONS_FILE = "PROTOCOL" + "-DECISIONS"
_OUTSIDE = re.compile(re.escape(_DECISIONS_FILE) + r"|\bissue [0-9]+|\(issue [0-9]|seeds/0\d\d")
#: A seed's section is cited by its heading (seed 004 "4.2 render.change"), never by a
#: § that would read as a section of docs/protocol.md.
_SEED_SECTION = re.compile(r"seed(?: 00\d)? " + _S + r"\d")


def _texts() -> list[tuple[Path, str]]:
    return [(p, p.read_text(encoding="utf-8")) for p in files(*CITING) if "corpus" not in p.parts]


def _unresolved(text: str, sections: set[str] = SECTIONS) -> list[str]:
    return [m.group(0) for m in SECTION.finditer(text) if m.group(1) not in sections]


# ---------------------------------------------------------------- the headings


def test_protocol_sections_are_the_rules_one_to_twelve() -> None:
    """docs/protocol.md has one section per rule §1-§12, in order, with the parts the
    code cites (§3a-§3c, §4.1-§4.3, §8.1) and the two appendices."""
    text = PROTOCOL.read_text(encoding="utf-8")
    tops = [h for h in headings(text) if re.match(r"§\d+ ", h)]
    assert [h.split()[0] for h in tops] == [f"§{n}" for n in range(1, 13)]
    assert {"3a", "3b", "3c", "1.5", "2.1", "4.1", "4.2", "4.3", "8.1", "8.2"} <= SECTIONS
    assert [h for h in headings(text) if h.startswith("Appendix")] == [
        "Appendix A. Diagnostic codes",
        "Appendix B. Where replykit departs from its oracle",
    ]
    # No heading carries a second number in brackets: section N is §N.
    assert [h for h in headings(text) if re.search(r"\(§\d", h)] == []


def test_heading_parser_skips_code_and_reads_numbers() -> None:
    sample = "# T\n\n## §2 Segments\n\n```\n## §9 not a heading\n```\n\n### §2.1 Cap\n"
    assert headings(sample) == ["T", "§2 Segments", "§2.1 Cap"]
    assert protocol_sections(sample) == {"2", "2.1"}
    assert numbered_sections("## 1. The response\n### 1.2 Answers\n## Other\n") == {"1", "1.2"}
    assert _unresolved(f"see {_S}99 and {_S}3a, {_S}4.9", {"3a", "4"}) == [f"{_S}99", f"{_S}4.9"]
    assert split_numbers("3 and 4.1") == ["3", "4.1"]


# ---------------------------------------------------------------- every citation


def test_every_rule_citation_resolves_to_a_heading() -> None:
    bad = []
    for path, text in _texts():
        for m in SECTION.finditer(text):
            if m.group(1) not in SECTIONS:
                bad.append(f"{path.relative_to(ROOT)}:{line_of(text, m.start())}: {m.group(0)}")
    assert bad == []


def test_every_cited_section_of_another_doc_exists() -> None:
    """``docs/X.md section N`` names a numbered heading of X; docs/protocol.md is cited
    by §, never by "section N"."""
    own = {
        p.name: numbered_sections(p.read_text(encoding="utf-8"))
        for p in sorted((ROOT / "docs").glob("*.md"))
    }
    bad = []
    for path, text in _texts():
        cited = [(m.group(1), m.group(2), m.start()) for m in FILE_SECTION.finditer(text)]
        cited += [(m.group(2), m.group(1), m.start()) for m in SECTION_OF_FILE.finditer(text)]
        for name, numbers, at in cited:
            where = f"{path.relative_to(ROOT)}:{line_of(text, at)}"
            if name == "protocol.md" or name not in own:
                bad.append(f"{where}: {name} section {numbers}")
                continue
            bad += [
                f"{where}: {name} section {n}" for n in split_numbers(numbers) if n not in own[name]
            ]
    assert bad == []


def test_a_bare_section_number_is_the_docs_file_own() -> None:
    """In a docs file other than docs/protocol.md, "section N" with no file named is
    that file's own numbered heading; in the code, the tests and docs/protocol.md a
    section is always named with its file (or written §N)."""
    bad = []
    for path, text in _texts():
        named = {m.start() for m in FILE_SECTION.finditer(text)}
        named |= {m.start() for m in SECTION_OF_FILE.finditer(text)}
        # A bare match that is part of a file citation was already checked.
        spans = [m.span() for m in FILE_SECTION.finditer(text)]
        spans += [m.span() for m in SECTION_OF_FILE.finditer(text)]
        in_docs = path.parent == ROOT / "docs" and path != PROTOCOL
        own = numbered_sections(text) if in_docs else set()
        for m in BARE_SECTION.finditer(text):
            if any(a <= m.start() < b for a, b in spans) or m.start() in named:
                continue
            numbers = split_numbers(m.group(1))
            if not in_docs or any(n not in own for n in numbers):
                bad.append(f"{path.relative_to(ROOT)}:{line_of(text, m.start())}: {m.group(0)}")
    assert bad == []


def test_nothing_cites_outside_the_repository_or_an_issue() -> None:
    bad = []
    for path, text in _texts():
        for m in _OUTSIDE.finditer(text):
            bad.append(f"{path.relative_to(ROOT)}:{line_of(text, m.start())}: {m.group(0)}")
    assert bad == []
    assert _OUTSIDE.search("see " + _DECISIONS_FILE + " " + _S + "3")
    assert _OUTSIDE.search("(iss" + "ue 7, item 2)")


def test_seed_sections_are_cited_by_heading() -> None:
    bad = []
    for path, text in _texts():
        for m in _SEED_SECTION.finditer(text):
            bad.append(f"{path.relative_to(ROOT)}:{line_of(text, m.start())}: {m.group(0)}")
    assert bad == []
    assert _SEED_SECTION.search("seed 004 " + _S + "4.2")


def _helps(parser: argparse.ArgumentParser) -> list[str]:
    texts = [parser.format_help()]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                texts += _helps(sub)
    return texts


def test_every_help_text_cites_resolving_rules() -> None:
    helps = _helps(build_parser())
    assert len(helps) > 8
    cited = [m for text in helps for m in SECTION.findall(text)]
    assert cited  # the commands do name their rules
    assert [t for text in helps for t in _unresolved(text)] == []
    assert [text for text in helps if _OUTSIDE.search(text)] == []


def test_registry_rules_and_vector_rules_resolve() -> None:
    """Every rule tag of the registry and every ``rule`` of the shipped vectors that
    is a § names a heading of docs/protocol.md; a rule stated elsewhere names a
    numbered heading of that file."""
    for rule in RULES.values():
        assert rule.number[1:] in SECTIONS, rule.tag
        if rule.doc == "protocol":
            assert rule.section[1:] in SECTIONS, rule.tag
        else:
            text = (ROOT / rule.where.split()[0]).read_text(encoding="utf-8")
            assert rule.section in numbered_sections(text), rule.tag
    assert {c.rule.tag for c in CODES.values()} <= set(RULES)
    vectors = sorted((ROOT / "src" / "replykit" / "data" / "vectors").glob("*.json"))
    vectors += [ROOT / "tests" / "vectors" / "segment.json"]
    tags = set()
    for path in vectors:
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            tags.add(case["rule"])
    assert any(t.startswith("§") for t in tags)
    assert [t for t in sorted(tags) if t.startswith("§") and _unresolved(t)] == []


@pytest.mark.parametrize(
    ("tag", "doc", "section"),
    [
        ("§4 preface", "protocol", _S + "5.3"),  # a section of another rule
        ("§4 preface", "protocol", "4.3"),  # the numbering of another file
        ("§8", "actions", "2"),  # docs/actions.md states §12 only
        ("§7", "responses", "§2"),
    ],
)
def test_a_rule_stated_outside_its_section_is_refused(tag: str, doc: str, section: str) -> None:
    from replykit.codes import Rule

    with pytest.raises(ValueError):
        Rule(tag, doc, section, "t")  # type: ignore[arg-type]
    assert Rule("§4 preface", "protocol", "§4.3", "t").where == "docs/protocol.md §4.3"
    assert Rule("§7", "responses", "2.1", "t").where == "docs/protocol-responses.md section 2.1"
