"""read_json: strict JSON, offsets, depth (§5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import segment
from replykit.cli import main
from replykit.diagnostics import format_path
from replykit.questionnaire.payload.json_strict import read_json, too_deep_at

# (payload, code, formatted path, start, end)
CASES = [
    ('{"a": 1, "a": 2}', "json.duplicate_key", "a", 9, 12),
    ('{"k": 1, "\\u006b": 2}', "json.duplicate_key", "k", 9, 17),
    ('{"q": [{"x": 1, "x": 1}]}', "json.duplicate_key", "q[1].x", 16, 19),
    ('{"a": NaN}', "json.constant", "a", 6, 9),
    ('{"a": [Infinity]}', "json.constant", "a[1]", 7, 15),
    ('{"a": -Infinity}', "json.constant", "a", 6, 15),
    ('{"a": 1,}', "json.syntax", None, 8, 9),
    ('{"a": 1} x', "json.syntax", None, 9, 10),
    ("{'a': 1}", "json.syntax", None, 1, 2),
    ("\ufeff{}", "json.syntax", None, 0, 1),
    ("", "json.syntax", None, 0, 0),
    ('{"a": "x\ny"}', "json.syntax", None, 8, 9),  # raw control character in a string
    ("[1, 2]", "json.not_object", None, 0, 6),
    ('"hello"', "json.not_object", None, 0, 7),
    ("null", "json.not_object", None, 0, 4),
    ('"{\\"title\\": \\"x\\"}"', "json.string_payload", None, 0, 20),
    ('"[1]"', "json.string_payload", None, 0, 5),
    ('{"a": ' + "1" * 4400 + "}", "json.number_too_large", "a", 6, 4406),
    ("[" * 65 + "]" * 65, "json.too_deep", None, 64, 65),
]


@pytest.mark.parametrize(("payload", "code", "path", "start", "end"), CASES)
def test_json_codes(payload: str, code: str, path: str | None, start: int, end: int) -> None:
    read = read_json(payload)
    hits = [f for f in read.findings if f.code == code]
    assert len(hits) == 1, read.findings
    f = hits[0]
    assert f.severity == "error"
    assert format_path(f.path) == path
    assert (f.start, f.end) == (start, end)


@pytest.mark.parametrize(
    ("payload", "quote"),
    [('{“title”: "x"}', "“"), ('{"title": ”x”}', "”"), ("{‘title’: 1}", "‘")],
)
def test_smart_quotes_are_named(payload: str, quote: str) -> None:
    (f,) = read_json(payload).findings
    assert f.code == "json.syntax"
    assert payload[f.start : f.end] == quote  # type: ignore[misc]
    assert "typographic quote" in f.message and quote in f.message


def test_valid_object_and_spans() -> None:
    src = ' {"title": "😀", "questions": [{"id": "a", "n": -1.5e2}, true] }\n'
    read = read_json(src)
    assert read.findings == ()
    assert read.value == {"title": "😀", "questions": [{"id": "a", "n": -150.0}, True]}
    spans = dict(read.spans)
    assert src[slice(*spans[("title",)])] == '"😀"'
    assert src[slice(*spans[("questions", 0, "n")])] == "-1.5e2"
    assert src[slice(*spans[("questions", 1)])] == "true"
    assert src[slice(*spans[("questions", 0)])] == '{"id": "a", "n": -1.5e2}'
    assert src[slice(*spans[()])] == src.strip()
    assert src[slice(*read.key_spans[("questions",)])] == '"questions"'


def test_everything_is_reported() -> None:
    read = read_json('{"a": NaN, "b": [1, {"c": 1, "c": Infinity}], "a": 2}')
    assert [(f.code, format_path(f.path)) for f in read.findings] == [
        ("json.constant", "a"),
        ("json.duplicate_key", "b[2].c"),
        ("json.constant", None),  # the value of a duplicate key has no path
        ("json.duplicate_key", "a"),
    ]


@pytest.mark.parametrize(
    "payload",
    ["[" * 100_000, '{"a":' * 100_000, '"x' + "[" * 100_000, '{"a": "[[[", "b": ' + "[" * 70],
)
def test_deep_nesting_never_recurses(payload: str) -> None:
    read = read_json(payload)
    codes = [f.code for f in read.findings]
    if payload.startswith('"x'):
        assert codes == ["json.syntax"]  # an unterminated string, not nesting
    else:
        assert codes == ["json.too_deep"]


def test_depth_scan_skips_strings() -> None:
    assert too_deep_at('["[[[[", "\\"[[["]', 1) is None
    assert too_deep_at("[[", 1) == 1
    assert read_json("[" * 64 + "]" * 64).findings[0].code == "json.not_object"


def _deepest_opener(text: str, limit: int) -> int | None:
    """The depth scan written out character by character: strings (closed or not, with
    backslash escapes) skipped, the offset of the first opener past ``limit``."""
    depth = at = 0
    while at < len(text):
        ch = text[at]
        if ch == '"':
            at += 1
            while at < len(text) and text[at] != '"':
                at += 2 if text[at] == "\\" else 1
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return at
        elif ch in "]}":
            depth = max(depth - 1, 0)
        at += 1
    return None


@settings(max_examples=500)
@given(st.text(alphabet='[]{}"\\ a', max_size=30), st.integers(0, 6))
def test_depth_scan_equals_the_walk(text: str, limit: int) -> None:
    # Its shortcut (no more openers than the limit) answers as the walk does.
    assert too_deep_at(text, limit) == _deepest_opener(text, limit)


@pytest.mark.parametrize(
    ("payload", "message", "column"),
    [
        # Replykit's own words and place, whatever the interpreter's json module says.
        ('{"a": 1 "b": 2}', "expected ',' or '}' after an object member, found '\"'", 24),
        ('{"a": "x', "unterminated string: no closing '\"' before the end of the text", 22),
        # A typographic quote inside a string: named, and where it is.
        (
            '{"title": "T”, "questions": [{"type": "text", "text": "x"}]}',
            "expected ',' or '}' after an object member, found 'questions'; the string "
            'before it, "T”, ", holds the typographic quote ” (U+201D), which does not end '
            'a string: JSON strings end only at a straight double quote (")',
            32,
        ),
    ],
)
def test_a_block_gets_replykits_json_syntax_message(
    payload: str, message: str, column: int
) -> None:
    (d,) = segment(f"Intro\n<questionnaire>{payload}</questionnaire>").diagnostics
    assert (d.code, d.message, d.line, d.column) == (
        "json.syntax",
        "JSON syntax error: " + message,
        2,
        column,
    )


def test_an_unreadable_argument_file_names_the_place_without_doubled_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "args.json"
    path.write_text('{"a": "x', encoding="utf-8")
    assert main(["tool", "questionnaire_async", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"replykit tool: error: arguments {path} is not strict JSON at line 1, column 7: "
        "unterminated string: no closing '\"' before the end of the text\n"
    )
