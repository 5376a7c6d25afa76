"""read_yaml: YAML 1.2 core schema, rejected constructs, offsets (§4)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from replykit.diagnostics import format_path
from replykit.questionnaire.payload import read_fenced_form
from replykit.questionnaire.payload.yaml12 import read_yaml, resolve_plain


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # YAML 1.1 traps are strings in 1.2.
        ("yes", "yes"),
        ("Yes", "Yes"),
        ("no", "no"),
        ("No", "No"),
        ("on", "on"),
        ("off", "off"),
        ("y", "y"),
        ("n", "n"),
        ("9:16", "9:16"),
        ("2026-11-30", "2026-11-30"),
        ("1_000", "1_000"),
        ("0b101", "0b101"),
        ("+0x1F", "+0x1F"),
        ("=", "="),
        # Core schema values.
        ("02142", 2142),
        ("-17", -17),
        ("+3", 3),
        ("0o17", 15),
        ("0x1F", 31),
        ("0xff", 255),
        ("1.5", 1.5),
        ("-.5e3", -500.0),
        ("1.", 1.0),
        ("1e3", 1000.0),
        (".inf", math.inf),
        ("-.Inf", -math.inf),
        ("+.INF", math.inf),
        ("~", None),
        ("null", None),
        ("Null", None),
        ("NULL", None),
        ("", None),
        ("true", True),
        ("True", True),
        ("TRUE", True),
        ("false", False),
        ("False", False),
        ("FALSE", False),
        ("tRUE", "tRUE"),
        ("nULL", "nULL"),
        ("١٢", "١٢"),  # Arabic-Indic digits are not [0-9]
    ],
)
def test_core_schema_plain_scalars(text: str, expected: Any) -> None:
    value, ok = resolve_plain(text)
    assert ok
    assert value == expected
    assert type(value) is type(expected)


def test_nan() -> None:
    for text in (".nan", ".NaN", ".NAN"):
        value, _ = resolve_plain(text)
        assert isinstance(value, float) and math.isnan(value)
    assert resolve_plain(".Nan")[0] == ".Nan"


def test_traps_in_a_document() -> None:
    src = (
        "a: [yes, no, on, off, y]\nb: 9:16\nc: 02142\nd: 0o17\ne: 2026-11-30\n"
        "f: 1_000\ng: ~\nh: null\ni: True\nj: TRUE\nk: '02142'\nl: \"true\"\nm: |\n  yes\n"
    )
    read = read_yaml(src)
    assert read.findings == ()
    assert read.value == {
        "a": ["yes", "no", "on", "off", "y"],
        "b": "9:16",
        "c": 2142,
        "d": 15,
        "e": "2026-11-30",
        "f": "1_000",
        "g": None,
        "h": None,
        "i": True,
        "j": True,
        "k": "02142",
        "l": "true",
        "m": "yes\n",
    }


# (payload, code, formatted path, start, end)
CASES = [
    ("a: 1\na: 2\n", "yaml.duplicate_key", "a", 5, 6),
    ("a: 1\n'a': 2\n", "yaml.duplicate_key", "a", 5, 8),
    ("x:\n  1: a\n  0x1: b\n", "yaml.duplicate_key", "x", 12, 15),
    ("a: &x 1\n", "yaml.alias", "a", 3, 7),
    ("a: 1\nb: *x\n", "yaml.alias", "b", 8, 10),  # undefined: still just an alias
    ("a: !!str 1\n", "yaml.tag", "a", 3, 10),
    ("a: !foo x\n", "yaml.tag", "a", 3, 9),
    ("a: ! x\n", "yaml.tag", "a", 3, 6),
    ("a: 1\n---\nb: 2\n", "yaml.multiple_documents", None, 5, 8),
    ("a: b: c\n", "yaml.syntax", None, 4, 5),
    ("a:\n\t- b\n", "yaml.syntax", None, 3, 4),
    ("a: \x01\n", "yaml.syntax", None, 3, 4),
    ("a: \ud800\n", "yaml.syntax", None, 3, 4),
    ("{title: x}", "yaml.json_payload", None, 0, 10),
    ('# note\n---\n{"title": "x"}\n', "yaml.json_payload", None, 11, 25),
    ("[1, 2]\n", "yaml.json_payload", None, 0, 6),
    ("- a\n- b\n", "yaml.root_not_mapping", None, 0, 7),
    ("just text\n", "yaml.root_not_mapping", None, 0, 9),
    ("1: a\n", "yaml.key_not_string", None, 0, 1),
    ("? [a]\n: b\n", "yaml.key_not_string", None, 2, 5),
    ("# only a comment\n", "yaml.empty", None, 0, 17),
    ("a: 1" + "0" * 4400 + "\n", "yaml.number_too_large", "a", 3, 4404),
    # A \u escape denotes a code point: a surrogate is none, and two escapes are two.
    ('a: "\\ud800"\n', "yaml.lone_surrogate", "a", 3, 11),
    ('a: "x\\ud800\\udc00"\n', "yaml.lone_surrogate", "a", 3, 18),
    ('a: [b, "\\U0000DFFF"]\n', "yaml.lone_surrogate", "a[2]", 7, 19),
    ('a:\n  "\\udc00": b\n', "yaml.lone_surrogate", "a", 5, 13),
]


@pytest.mark.parametrize(("payload", "code", "path", "start", "end"), CASES)
def test_yaml_codes(payload: str, code: str, path: str | None, start: int, end: int) -> None:
    read = read_yaml(payload)
    hits = [f for f in read.findings if f.code == code]
    assert len(hits) == 1, read.findings
    f = hits[0]
    assert f.severity == "error"
    assert format_path(f.path) == path
    assert (f.start, f.end) == (start, end)


def test_surrogate_escapes_are_errors_and_characters_are_not() -> None:
    ok = read_yaml("a: \"\\U0001F600 \\u00e9 \\\\ud800\"\nb: '\\ud800'\n")
    assert (ok.findings, ok.value) == ((), {"a": "😀 é \\ud800", "b": "\\ud800"})
    bad = read_fenced_form(
        'title: T\nquestions:\n  - type: free_text\n    text: "Q\\ud800"\n    default: ""\n'
    )
    assert bad.value is None
    assert [(f.code, format_path(f.path)) for f in bad.findings] == [
        ("yaml.lone_surrogate", "questions[1].text")
    ]


_FREE = '  - type: free_text\n    text: Q\n    default: ""\n'


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ('"\\ud800title": T\nquestions:\n' + _FREE, None),
        ('title: T\nquestions:\n  - "\\ud800": 5\n    ' + _FREE[4:], "questions[1]"),
    ],
)
def test_a_key_with_a_lone_surrogate_escape_is_reported_once(
    payload: str, path: str | None
) -> None:
    # It stands for no known key (§4.1, as an alias key does): its entry is dropped, and
    # neither an unknown field nor a missing title follows from it.
    for loader in ("c", "pure"):
        form = read_fenced_form(payload, loader=loader)
        assert [(f.code, format_path(f.path)) for f in form.findings] == [
            ("yaml.lone_surrogate", path)
        ]


def test_alias_use_is_reported_and_not_expanded() -> None:
    read = read_yaml("a: &x [1, 2]\nb: *x\n")
    assert [f.code for f in read.findings] == ["yaml.alias", "yaml.alias"]
    assert read.value == {"a": [1, 2], "b": None}


def test_every_problem_is_reported() -> None:
    read = read_yaml("a: !!str 1\nb: &z 2\na: 3\n7: x\n")
    assert [f.code for f in read.findings] == [
        "yaml.tag",
        "yaml.alias",
        "yaml.duplicate_key",
        "yaml.key_not_string",
    ]


def test_spans() -> None:
    src = "title: 😀 x\nquestions:\n  - type: free_text\n    options: [a, 'b']\n"
    read = read_yaml(src)
    spans = dict(read.spans)
    assert src[slice(*spans[("title",)])] == "😀 x"
    assert src[slice(*spans[("questions", 0, "type")])] == "free_text"
    assert src[slice(*spans[("questions", 0, "options", 1)])] == "'b'"
    assert src[slice(*spans[("questions", 0, "options")])] == "[a, 'b']"
    assert src[slice(*spans[("questions", 0)])] == "type: free_text\n    options: [a, 'b']"
    assert src[slice(*read.key_spans[("questions", 0, "options")])] == "options"
    assert spans[()] == (0, len(src) - 1)


@pytest.mark.parametrize(
    "payload",
    ["[" * 100_000, "{" * 100_000, "a: " + "[" * 100_000, "- " * 100_000, "{a: " * 50_000],
)
def test_deep_nesting_is_a_finding(payload: str) -> None:
    read = read_yaml(payload)
    assert [f.code for f in read.findings] == ["yaml.too_deep"]
    assert read.value is None


def test_depth_limit_is_exact() -> None:
    ok = "a:\n" + "".join("  " * i + "b:\n" for i in range(1, 63)) + "  " * 63 + "c: 1\n"
    assert read_yaml(ok).findings == ()  # 64 mappings
    assert [f.code for f in read_yaml(ok, max_depth=63).findings] == ["yaml.too_deep"]


@pytest.mark.parametrize(
    ("payload", "value", "findings"),
    [
        # YAML 1.2.2 decides, not the parser at hand: a tab separates here ...
        ("foo:\n \tbar", {"foo": "bar"}, []),
        ("a: [?x, y?, x?y]", {"a": ["?x", "y?", "x?y"]}, []),
        # ... but never indents, and '#' right after a block scalar header is no comment.
        ("a:\n\t- b\n", None, [(3, "a tab cannot indent YAML; indent with spaces")]),
        (
            "a: >+#c\n  x",
            None,
            [
                (
                    5,
                    "a block scalar header (| or >) holds only an indentation digit 1-9, "
                    "a chomping sign + or -, and a comment",
                )
            ],
        ),
    ],
)
def test_yaml_12_decides_in_replykits_words(
    payload: str, value: Any, findings: list[tuple[int, str]]
) -> None:
    read = read_yaml(payload)
    assert read.value == value
    assert [(f.start, f.message) for f in read.findings] == [
        (start, "YAML syntax error: " + message) for start, message in findings
    ]
