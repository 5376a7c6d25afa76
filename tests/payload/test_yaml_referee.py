"""YAML 1.2.2 decides, whichever loader reads (docs/protocol.md §4.1, §1).

Every test here runs under each loader (``tests/payload/conftest.py``). The tables are
the places where PyYAML's pure scanner, libyaml and YAML 1.2.2 do not all agree, each
with the YAML 1.2.2 reading; and one payload for each kind of ``yaml.syntax`` message.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from replykit.diagnostics import format_path
from replykit.questionnaire.payload.yaml12 import read_yaml
from replykit.questionnaire.payload.yaml_errors import KINDS as MESSAGE_KINDS

# (payload, the value YAML 1.2.2 gives): the pure scanner refused all of these; libyaml
# refused the block scalar and the tab-indented cases, and read [?x] as a mapping.
VALID_12 = [
    ("title:\tPlan", {"title": "Plan"}),  # tab as separation after ':'
    ("a: b\t# c", {"a": "b"}),  # tab before a comment
    ("a: b\t", {"a": "b"}),  # trailing tab
    ("x: [a,\tb]", {"x": ["a", "b"]}),  # tab between flow items
    ("x: {text: Why?, a: b}", {"x": {"text": "Why?", "a": "b"}}),  # '?' inside a flow plain
    ("a: |\n \tb", {"a": "\tb"}),  # a tab after the detected indentation is content
    ("a: b\tc", {"a": "b\tc"}),  # a tab inside a plain scalar
    ("a: b\n \tc", {"a": "b c"}),  # continuation line: spaces indent, then a tab separates
    ("foo:\n \tbar", {"foo": "bar"}),
    ("foo: 1\n\t\nbar: 2", {"foo": 1, "bar": 2}),  # a line of white space is empty
    (" \t\nfoo: 1", {"foo": 1}),
    ("a: 1\n\t# c\nb: 2", {"a": 1, "b": 2}),  # a comment line after a tab
    ("a:\n  -\t-1", {"a": [-1]}),  # '-1' is a plain scalar, not a nested list
    ("a: [?x, y?, x?y]", {"a": ["?x", "y?", "x?y"]}),  # ns-plain-first / ns-plain-char
    ("a: [:x, -x]", {"a": [":x", "-x"]}),
    ("a: {b:,c}", {"a": {"b": None, "c": None}}),  # libyaml: "found unexpected ':'"
    ("a: [x:[]]", {"a": [{"x": []}]}),
    ('a: {"b":c}', {"a": {"b": "c"}}),  # adjacent value after a JSON-like key
    ("a: |\t# c\n  x", {"a": "x"}),  # tab in a block scalar header
    ("a: |2\t\n   x", {"a": " x"}),
    ("a: [b\tc]", {"a": ["b\tc"]}),
    ('a: "b\n  \tc"', {"a": "b c"}),
    # '-' before a safe character starts a plain scalar; '#' after white space (a tab
    # too) or inside a plain scalar is no error.
    ("x: [-a, -#, a-]", {"x": ["-a", "-#", "a-"]}),
    ("x: {-: a}", {"x": {"-": "a"}}),  # ':' is safe after '-', then a value indicator
    ('a: "b" #c\nd: [e]\t#c\nf: g#h', {"a": "b", "d": ["e"], "f": "g#h"}),
    ("#c\na: b\n#c", {"a": "b"}),
    ("\ufeff#c\na: 1", {"a": 1}),
]

# (payload, kind of yaml.syntax, its offset): YAML 1.2.2 refuses all of these.
INVALID_12 = [
    ("a:\n\t- b\n", "tab_indent", 3),  # tabs never indent
    ("foo:\n  a: 1\n  \tb: 2", "tab_indent", 14),
    ("a: b\n\tc", "tab_indent", 5),
    ("foo: |\n\t\nbar: 1", "tab_indent", 7),  # after a block scalar
    ("a:\n  -\t- b", "tab_before_block", 6),  # a tab before a nested list's '-'
    ("a:\n  - \t- b", "tab_before_block", 7),
    ("a:\n  ?\tkey: x", "tab_before_block", 6),  # ... before an implicit key
    ("a:\n  -\tkey: x", "tab_before_block", 6),
    ("\tb: c", "tab_before_block", 0),
    ("a: >+#c\n  x", "block_header", 5),  # libyaml reads '#c' as a comment
    ("a: |0\n  x", "block_header", 4),
    # A lone '-' in flow context is no plain scalar (ns-plain-first): libyaml read '-'.
    ("options: [+, -]", "bad_character", 13),
    ("x: [-]", "bad_character", 4),
    ("x: [a, -]", "bad_character", 7),
    ("x: {a: -}", "bad_character", 7),
    ("x: [-,]", "bad_character", 4),
    ('x: ["b",-]', "bad_character", 8),
    ("x: [[-]]", "bad_character", 5),
    # White space separates a comment from the token before it (s-b-comment): both
    # PyYAML parsers read these as comments.
    ('a: "b"#c', "comment_space", 6),
    ("a: 'b'#c", "comment_space", 6),
    ("a: [b]#c", "comment_space", 6),
    ("a: {b: c}#c", "comment_space", 9),
    ("x: [a,#c\n b]", "comment_space", 6),
    ("x: [#c\n b]", "comment_space", 4),
    ('x: {"a":#c\n b}', "comment_space", 8),
    ('- "a"#c', "comment_space", 5),
]


@pytest.mark.parametrize(("payload", "value"), VALID_12)
def test_yaml_12_reading(payload: str, value: Any) -> None:
    read = read_yaml(payload)
    assert read.findings == ()
    assert read.value == value


@pytest.mark.parametrize(("payload", "kind", "offset"), INVALID_12)
def test_yaml_12_refusal(payload: str, kind: str, offset: int) -> None:
    read = read_yaml(payload)
    assert read.value is None
    assert [(f.code, f.details["kind"], f.start, f.end) for f in read.findings] == [
        ("yaml.syntax", kind, offset, offset + 1)
    ]


def test_anchor_names_and_tags_as_yaml_12_reads_them() -> None:
    # ns-anchor-char allows ':'; a tag shorthand ends at a flow indicator.
    read = read_yaml("a: &x:y b\nc: [!t, d]\n")
    assert [(f.code, f.message, f.start, f.end, format_path(f.path)) for f in read.findings] == [
        ("yaml.alias", "YAML anchors are not allowed (&x:y)", 3, 9, "a"),
        ("yaml.tag", "explicit YAML tags are not allowed (!t); write the value untagged",
         14, 16, "c[1]"),
    ]  # fmt: skip
    # A scalar with properties reads as a placeholder (None), as an alias does (§4).
    assert read.value == {"a": None, "c": [None, "d"]}
    assert read.aliases == {("a",), ("c", 0)}


def test_byte_order_mark_counts_in_offsets() -> None:
    read = read_yaml("\ufeffa: b\n")
    assert read.value == {"a": "b"}
    assert dict(read.spans)[("a",)] == (4, 5)
    assert dict(read.key_spans)[("a",)] == (1, 2)


@pytest.mark.parametrize(
    ("payload", "start"),
    [("x: {a: # c\n }", 12), ("x: [a: ]", 7), ("x: {? }", 6), ("x: {a:\n  , b}", 9)],
)
def test_an_empty_flow_value_is_placed_at_the_next_token(payload: str, start: int) -> None:
    # YAML gives an empty node no position; libyaml's choice, so both loaders agree.
    read = read_yaml(payload)
    spans = dict(read.spans)
    for path in (("x", "a"), ("x", 0, "a")):
        if path in spans:
            assert spans[path] == (start, start)
            return
    # The empty key of "{? }" has no path of its own: its finding is placed there.
    (f,) = read.findings
    assert (f.code, f.start) == ("yaml.key_not_string", start)


# One payload for each kind of yaml.syntax message, and the offset it is placed at.
KINDS = {
    "bad_character": ("a: `x`\n", 3),
    "mapping_value": ("a: b: c\n", 4),
    "mapping_key": ('a: "b" ? c\n', 7),
    "list_item": ('a: "b" - c\n', 7),
    "key_without_colon": ("a: 1\nb c\n", 5),
    "unclosed_quote": ('a: "b\n', 3),
    "quote_document_marker": ("a: 'b\n---\n'", 6),
    "escape": ('a: "\\q"\n', 5),
    "anchor_name": ("a: & b\n", 4),
    "tag": ("a: !<x b\n", 6),
    "directive": ("%YAML 1.2\n%YAML 1.2\n---\na: b\n", 10),
    "block_header": ("a: |x\n", 4),
    "flow_sequence": ('a: [b, "c" d]\n', 11),
    "flow_mapping": ("a: {b c, d: e f: g}\n", 15),
    "missing_value": ("a: ]\n", 3),
    "block_mapping_end": ("a: 'b' c\n", 7),
    "block_list_end": ("- a\n- 'b' c\n", 10),
    "after_document": ("'a' b\n", 4),
    "comment_space": ("a: [b]#c\n", 6),
    "tab_indent": ("a:\n\tb: c\n", 3),
    "tab_before_block": ("a:\n  -\t- b\n", 6),
    "block_scalar_column": ("a:\n|\n x\n", 3),
    "flow_indent": ("k: [a,\nb]\n", 7),
    "key_too_long": ("a: b\n" + "k" * 1025 + ": c\n", 5),
    "not_printable": ("a: \x01\n", 3),
    "byte_order_mark": ("a: b\n\ufeffc: d\n", 5),
    "directive_without_document": ("# c\n%YAML 1.2\n# d\n", 4),
    "yaml_version": ("%YAML 2.0\n---\na: b\n", 0),
    "escape_range": ('a: "b\\U00110000"\n', 5),
}


def test_every_message_kind_has_a_case() -> None:
    assert set(KINDS) == set(MESSAGE_KINDS) - {"other"}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_syntax_message_of_each_kind(kind: str) -> None:
    payload, offset = KINDS[kind]
    (f,) = read_yaml(payload).findings
    assert (f.code, f.details["kind"], f.start) == ("yaml.syntax", kind, offset)
    assert f.message.startswith("YAML syntax error: ")


def test_messages_name_what_they_found() -> None:
    assert read_yaml("a: ]\n").findings[0].message == (
        "YAML syntax error: a value is missing before ']'"
    )
    assert read_yaml("a: \x01\n").findings[0].message == (
        "YAML syntax error: character U+0001 is not allowed in YAML"
    )
    assert read_yaml('a: "b\n').findings[0].message == (
        "YAML syntax error: this quoted string is never closed"
    )
    assert read_yaml("a: [b\n").findings[0].message == (
        "YAML syntax error: a flow list [...] needs ',' between its items and ']' at its "
        "end, found the end of the payload"
    )


def _calls(payload: str) -> int:
    """Function calls (Python and C) made while reading ``payload``."""
    count = 0

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        nonlocal count
        count += event in ("call", "c_call")

    sys.setprofile(profile)
    try:
        read_yaml(payload)
    finally:
        sys.setprofile(None)
    return count


# Payloads the referee reads (tabs, '?x' in flow), each built from n repeats.
_HOSTILE = {
    "tabs_in_a_plain_scalar": lambda n: "a: " + "b\t" * n + "\n",
    "tabs_between_flow_items": lambda n: "a: [" + "b,\t" * n + "c]\n",
    "tab_continuation_lines": lambda n: "a: b\n" + " \tc\n" * n,
    "tab_blank_lines": lambda n: "a: b\n" + "\t\n" * n + "c: d\n",
    "tab_comment_lines": lambda n: "a: b\n" + "\t# c\n" * n + "c: d\n",
    "keys_after_tabs": lambda n: "a:\n" + "  - x\t: y\n" * n,
    "question_marks_in_flow": lambda n: "a: [" + "?x, " * n + "y?]\n",
    "block_scalars_then_tabs": lambda n: "a:\n" + "  - |\n    x\n" * n + "\t\n",
    "tags_and_anchors_in_flow": lambda n: "a: [" + "!t,&x:y b," * n + "c]\n",
}


@pytest.mark.parametrize("name", sorted(_HOSTILE))
def test_referee_work_is_linear(name: str) -> None:
    build = _HOSTILE[name]
    small, large = _calls(build(200)), _calls(build(2000))
    assert large / small <= 12, (name, small, large)
