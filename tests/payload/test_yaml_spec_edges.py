"""YAML 1.2.2 edge cases found by rule-by-rule testing of §4 (docs/protocol.md §4.1), run
under each loader (``tests/payload/conftest.py``): empty keys, directives, a lone
document end marker, escapes beyond Unicode, integers of every spelling, and the
ranges of anchors and tags on collections."""

from __future__ import annotations

import pytest

from replykit.diagnostics import Finding, format_path
from replykit.questionnaire.payload.yaml12 import read_yaml

FORM = "title: T\nquestions:\n  - type: free_text\n    text: Why\n    default: ''\n"


Found = tuple[str, str, int | None, int | None, str]


def _listed(findings: tuple[Finding, ...]) -> list[Found]:
    return [(f.code, format_path(f.path) or "", f.start, f.end, f.message) for f in findings]


def _found(payload: str) -> list[Found]:
    return _listed(read_yaml(payload).findings)


NULL_KEY = "mapping key null is null, not a string; keys are field names"


@pytest.mark.parametrize(
    ("payload", "path", "at", "value"),
    [
        # YAML 1.2.2 example 8.18: an empty key in a block mapping.
        (FORM + ": x\n", "", len(FORM), None),
        # Example 7.21: a single-pair mapping with an empty key in a flow sequence.
        ("a: [b, : x]\n", "a[2]", 7, {"a": ["b", {}]}),
        # Example 7.3: an empty key after an explicit one in a flow mapping.
        ("a: [ b, { ? foo :, : bar } ]\n", "a[2]", 19, {"a": ["b", {"foo": None}]}),
        ("a: {: x}\n", "a", 4, {"a": {}}),
        ("- : x\n", "[1]", 2, None),
    ],
)
def test_an_empty_key_is_a_null_key(payload: str, path: str, at: int, value: object) -> None:
    read = read_yaml(payload)
    assert _listed(read.findings)[:1] == [("yaml.key_not_string", path, at, at, NULL_KEY)]
    assert payload[at] == ":"
    if value is not None:
        assert read.value == value


def test_the_explicit_empty_key_reads_alike() -> None:
    assert _found(FORM + "?\n: x\n")[0][0] == "yaml.key_not_string"


@pytest.mark.parametrize(
    ("escape", "offset"),
    [("\\U00110000", 0), ("\\U0011FFFF", 0), ("\\UFFFFFFFF", 0), ("\\U7FFFFFFF", 0)],
)
def test_an_escape_beyond_unicode_is_named_at_the_escape(escape: str, offset: int) -> None:
    payload = f'title: T\ntext: "ab{escape} c"\n'
    ((code, path, start, end, message),) = _found(payload)
    assert (code, path, start, end) == ("yaml.syntax", "", 18, 19)
    assert payload[start : start + 10] == escape
    assert message == (
        f"YAML syntax error: the escape {escape} names no character: Unicode ends at U+10FFFF"
    )


def test_the_last_code_point_is_read() -> None:
    assert read_yaml('a: "\\U0010FFFF"\n').value == {"a": "\U0010ffff"}


@pytest.mark.parametrize(
    ("payload", "at"),
    [("%YAML 1.2\n", 0), ("%YAML 1.2\n# c\n", 0), ("# c\n%TAG ! tag:x,2000:\n", 4)],
)
def test_a_directive_needs_a_document_marker(payload: str, at: int) -> None:
    assert _found(payload) == [
        ("yaml.syntax", "", at, at + 1, "YAML syntax error: a directive must be followed by '---'")
    ]


@pytest.mark.parametrize("payload", ["...\n", "... # end\n", "...\n...\n", "# c\n...\n"])
def test_a_lone_document_end_marker_is_an_empty_stream(payload: str) -> None:
    assert _found(payload) == [
        ("yaml.empty", "", 0, len(payload), "the payload holds no YAML content")
    ]


def test_a_document_end_marker_before_a_document_is_read() -> None:
    assert read_yaml("...\n" + FORM).value == read_yaml(FORM).value
    assert read_yaml("...\n---\n" + FORM).findings == ()


@pytest.mark.parametrize(
    ("version", "shown"),
    [("2.0", "2.0"), ("0.9", "0.9"), ("10.1", "10.1"), ("9" * 5000 + ".1", "9" * 16 + "....1")],
)
def test_another_major_yaml_version_is_refused(version: str, shown: str) -> None:
    assert _found(f"%YAML {version}\n---\n" + FORM) == [
        ("yaml.syntax", "", 0, 1, f"YAML syntax error: unsupported YAML version {shown}")
    ]


MINOR = "%YAML {}: a later YAML 1.x than 1.2; the payload is read as YAML 1.2"
RESERVED = "the reserved directive %{} has no meaning and is ignored; only %YAML and %TAG have one"


@pytest.mark.parametrize(
    ("directives", "expected"),
    [
        ("%YAML 1.3\n", [("yaml.directive_ignored", "", 0, 9, MINOR.format("1.3"))]),
        ("%YAML 1.10\n", [("yaml.directive_ignored", "", 0, 10, MINOR.format("1.10"))]),
        (
            "%YAML 1." + "7" * 5000 + "\n",
            [("yaml.directive_ignored", "", 0, 5008, MINOR.format("1." + "7" * 16 + "..."))],
        ),
        ("%FOO bar baz\n", [("yaml.directive_ignored", "", 0, 4, RESERVED.format("FOO"))]),
        (
            "%YAML 1.3\n%BAR\n",
            [
                ("yaml.directive_ignored", "", 0, 9, MINOR.format("1.3")),
                ("yaml.directive_ignored", "", 10, 14, RESERVED.format("BAR")),
            ],
        ),
        ("%YAML 1.2\n", []),
        ("%YAML 1.1\n", []),
    ],
)
def test_a_later_minor_version_and_a_reserved_directive_are_warnings(
    directives: str, expected: list[tuple[str, str, int, int, str]]
) -> None:
    read = read_yaml(directives + "---\n" + FORM)
    assert _listed(read.findings) == expected
    assert all(f.severity == "warning" for f in read.findings)
    assert read.value == read_yaml(FORM).value


@pytest.mark.parametrize(
    "number",
    [
        "1" * 4301,
        "-" + "1" * 4301,
        "+" + "1" * 4301,
        "0x" + "f" * 4301,
        "0o" + "7" * 4301,
        "0x" + "0" * 4301,
    ],
)
def test_every_integer_spelling_has_the_digit_limit(number: str) -> None:
    ((code, path, start, end, _),) = _found(f"title: {number}\n")
    assert (code, path, start, end) == ("yaml.number_too_large", "title", 7, 7 + len(number))


@pytest.mark.parametrize(("digits", "base"), [("f" * 4300, 16), ("7" * 4300, 8)])
def test_an_integer_at_the_limit_is_read(digits: str, base: int) -> None:
    read = read_yaml(f"title: 0{'x' if base == 16 else 'o'}{digits}\n")
    assert read.findings == ()
    assert read.value == {"title": int(digits, base)}


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ("&r\n" + FORM, [("yaml.alias", 0, 2)]),
        ("!!map\n" + FORM, [("yaml.tag", 0, 5)]),
        ("&r !!map\n" + FORM, [("yaml.alias", 0, 8), ("yaml.tag", 0, 8)]),
        ("a: !t\n  - 1\n", [("yaml.tag", 3, 5)]),
        ("a: &anchor\n  - 1\n", [("yaml.alias", 3, 10)]),
        ("a: [!t [1], &x {b: c}]\n", [("yaml.tag", 4, 6), ("yaml.alias", 12, 14)]),
        ("a:\n- !!map {a: 1}\n", [("yaml.tag", 5, 10)]),
        # On a scalar the range covers the property and the value, as before.
        ("a: &x\n  b\n", [("yaml.alias", 3, 9)]),
    ],
)
def test_alias_and_tag_ranges_cover_the_property(
    payload: str, expected: list[tuple[str, int, int]]
) -> None:
    assert [(code, start, end) for code, _, start, end, _ in _found(payload)] == expected


@pytest.mark.parametrize("sep", ["\n", "\r", "\u2028", "\x85", "\u2029"])
def test_a_long_key_is_explained_on_every_yaml_line_break(sep: str) -> None:
    # U+0085, U+2028 and U+2029 start a YAML line as "\n" does (§4.1).
    payload = "title: T" + sep + "k" * 1100 + ": v\nquestions: 5\n"
    (found,) = read_yaml(payload, loader="pure").findings
    assert found.message.startswith(
        "YAML syntax error: a mapping key without '?' is at most 1024 characters"
    )
    assert found.start == len("title: T" + sep)
