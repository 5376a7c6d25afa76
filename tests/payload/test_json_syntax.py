"""replykit's own JSON syntax verdict, position and message (§1).

The position and the message of a JSON syntax error are replykit's: they never come from
``JSONDecodeError`` (whose text and positions changed in CPython 3.13), so they are the
same on every Python version.
"""

from __future__ import annotations

import json
import re
from functools import partial
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_hostile import LINEAR, calls

from replykit import build_response_json, questionnaire_async_json, segment
from replykit.actions import sanitize_json
from replykit.cli.io import InputError, parse_json
from replykit.questionnaire.model import Question, Questionnaire
from replykit.questionnaire.payload import json_strict
from replykit.questionnaire.payload.json_strict import read_json, read_json_value
from replykit.questionnaire.payload.json_syntax import syntax_error

# (text, start, end, message)
CASES = [
    ("", 0, 0, "expected a value, found the end of the text"),
    ("  \n", 3, 3, "expected a value, found the end of the text"),
    ("{", 1, 1, "expected a string key or '}', found the end of the text"),
    ("[", 1, 1, "expected a value, found the end of the text"),
    ('{"a"', 4, 4, "expected ':' after an object key, found the end of the text"),
    ('{"a" 1}', 5, 6, "expected ':' after an object key, found '1'"),
    ('{"a":', 5, 5, "expected a value after ':', found the end of the text"),
    ('{"a": }', 6, 7, "expected a value after ':', found '}'"),
    ('{"a":1', 6, 6, "expected ',' or '}' after an object member, found the end of the text"),
    ('{"a": 1 "b": 2}', 8, 9, "expected ',' or '}' after an object member, found '\"'"),
    ("[1 2]", 3, 4, "expected ',' or ']' after an array element, found '2'"),
    ('{"a":[1,2}', 9, 10, "expected ',' or ']' after an array element, found '}'"),
    ('{"a":1,}', 7, 8, "expected a string key after ',', found '}' "
     "(a trailing comma is not allowed)"),
    ("[1,]", 3, 4, "expected a value after ',', found ']' (a trailing comma is not allowed)"),
    ("[1,,2]", 3, 4, "expected a value after ',', found ','"),
    ("{,}", 1, 2, "expected a string key or '}', found ','"),
    ("{'a': 1}", 1, 2, "expected a string key or '}', found ''' (JSON strings take double quotes)"),
    ('{"a": True}', 6, 7, "expected a value after ':', found 'True' "
     "(JSON writes true, false and null in lower case)"),
    ('{"a": None}', 6, 7, "expected a value after ':', found 'None'"),
    ("nul", 0, 1, "expected a value, found 'nul'"),
    (".5", 0, 1, "expected a value, found '.' (a number starts with a digit or '-')"),
    ("+1", 0, 1, "expected a value, found '+' (a number starts with a digit or '-')"),
    ("01", 0, 1, "invalid number: a leading zero cannot be followed by digits"),
    ("-", 1, 1, "invalid number: a digit must follow '-', found the end of the text"),
    ("[-a]", 2, 3, "invalid number: a digit must follow '-', found 'a'"),
    ("1.", 2, 2, "invalid number: a digit must follow '.', found the end of the text"),
    ("1e+", 3, 3, "invalid number: a digit must follow the exponent, found the end of the text"),
    ('"abc', 0, 1, "unterminated string: no closing '\"' before the end of the text"),
    ('{"a": "b\\', 6, 7, "unterminated string: no closing '\"' before the end of the text"),
    ('"a\\x"', 2, 4, "invalid escape: backslash followed by 'x'; "
     'a string allows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX'),
    ('"\\u12"', 1, 6, "invalid escape: \\u must be followed by four hex digits"),
    ('"\\u12G4"', 1, 7, "invalid escape: \\u must be followed by four hex digits"),
    ('{"a": "x\ny"}', 8, 9, "control character U+000A in a string: write it as \\n"),
    ('"\x01"', 1, 2, "control character U+0001 in a string: write it as \\u0001"),
    ("{} x", 3, 4, "extra text after the JSON value, found 'x'"),
    ("{}}", 2, 3, "extra text after the JSON value, found '}'"),
    ('{"a":1}\x00', 7, 8, "extra text after the JSON value, found U+0000"),
    ("\ufeff{}", 0, 1, "the text starts with a byte order mark (U+FEFF), which is not JSON"),
    ("\u3000{}", 0, 1, "expected a value, found U+3000"),
    ('{"a"：1}', 4, 5, "expected ':' after an object key, found '：' (U+FF1A)"),
    ('["a"，"b"]', 4, 5, "expected ',' or ']' after an array element, found '，' (U+FF0C)"),
]  # fmt: skip

VALID = [
    "{}",
    " [ ] ",
    '{"a": [1, -0.5e-3, true, false, null, "\\u00e9\\"\\\\\\/\\b\\f\\n\\r\\t"]}',
    "NaN",
    "[Infinity, -Infinity]",
    '"\u2028\x7f"',
    "0",
    "-0",
    "1E+2",
]

# Every message CPython's json module writes (3.11 and 3.13), in part.
CPYTHON_WORDS = (
    "Expecting",
    "delimiter",
    "enclosed in double quotes",
    "Invalid control character",
    "Invalid \\escape",
    "Invalid \\uXXXX",
    "Unterminated string starting at",
    "Extra data",
    "Illegal trailing comma",
    "Unexpected UTF-8 BOM",
    "char ",
)
DOUBLED_WORD = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)


@pytest.mark.parametrize(("text", "start", "end", "message"), CASES)
def test_position_and_message_are_replykits(text: str, start: int, end: int, message: str) -> None:
    problem = syntax_error(text)
    assert problem is not None
    assert (problem.start, problem.end, problem.message) == (start, end, message)
    with pytest.raises(ValueError):
        json.loads(text)  # the verdict agrees with Python's


@pytest.mark.parametrize("text", VALID)
def test_valid_text_has_no_error(text: str) -> None:
    assert syntax_error(text) is None


def _messages(text: str) -> list[str]:
    """Every message replykit gives for ``text`` through its JSON entry points."""
    out = [f.message for f in read_json(text).findings]
    out += [f.message for f in read_json_value(text).findings]
    try:
        parse_json(text, "input x.json")
    except InputError as exc:
        out.append(str(exc))
    result = questionnaire_async_json(text, locale="en")
    out += [e["message"] for e in result.get("errors", [])]
    out += [d.message for d in sanitize_json(text).diagnostics]
    seg = segment(f"Hi <questionnaire>{text}</questionnaire>")
    out += [d.message for d in seg.diagnostics]
    return out


@pytest.mark.parametrize("text", [c[0] for c in CASES])
def test_no_message_carries_pythons_words(text: str) -> None:
    for message in _messages(text):
        assert not any(word in message for word in CPYTHON_WORDS), message
        assert DOUBLED_WORD.search(message) is None, message


@pytest.mark.parametrize("text", [c[0] for c in CASES])
def test_decoder_error_text_and_position_never_reach_the_output(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same output whatever JSONDecodeError says: its msg and pos are never used.
    expected = _messages(text)
    real_loads = json.loads

    def lying_loads(s: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return real_loads(s, *args, **kwargs)
        except json.JSONDecodeError:
            raise json.JSONDecodeError("Sentinel words", "x" * 99, 42) from None

    monkeypatch.setattr(json, "loads", lying_loads)
    got = _messages(text)
    assert got == expected
    assert not any("Sentinel" in m or "42" in m for m in got)


def test_unterminated_string_message_has_no_doubled_words() -> None:
    # CPython: "Unterminated string starting at" + " at line 1" -> "at at".
    with pytest.raises(InputError) as info:
        parse_json('{"a": "x', "answers a.json")
    assert str(info.value) == (
        "answers a.json is not strict JSON at line 1, column 7: unterminated string: "
        "no closing '\"' before the end of the text"
    )


SMART = '{"title": "T”, "questions": [{"type": "text", "text": "x"}]}'


def test_a_typographic_quote_inside_a_string_is_named_where_it_is() -> None:
    problem = syntax_error(SMART)
    assert problem is not None
    assert (problem.start, problem.end) == (16, 17)  # where the text stops being JSON
    assert problem.message == (
        "expected ',' or '}' after an object member, found 'questions'; the string before "
        'it, "T”, ", holds the typographic quote ” (U+201D), which does not end a string: '
        'JSON strings end only at a straight double quote (")'
    )
    seg = segment(f"Intro\n<questionnaire>{SMART}</questionnaire>")
    (d,) = seg.diagnostics
    assert (d.code, d.line, d.column) == ("json.syntax", 2, 32)
    assert "typographic quote ” (U+201D)" in d.message and '"T”, "' in d.message


@pytest.mark.parametrize(
    ("text", "at", "named"),
    [
        ('{“title”: "x"}', 1, "the typographic quote “ (U+201C): JSON strings and keys"),
        ('{"title": ”x”}', 10, "the typographic quote ” (U+201D): JSON strings and keys"),
        ("{‘title’: 1}", 1, "the typographic quote ‘ (U+2018): JSON strings and keys"),
        ('{"title": "x’}', 10, 'the string, "x’}, holds the typographic quote ’ (U+2019)'),
        ('{"title”: "x"}', 11, 'the string before it, "title”: ", holds the typographic quote'),
    ],
)
def test_typographic_quotes_are_named(text: str, at: int, named: str) -> None:
    problem = syntax_error(text)
    assert problem is not None and problem.start == at
    assert named in problem.message


def test_smart_quote_excerpt_is_short_and_inert() -> None:
    text = '{"t": "' + "a" * 100 + "\u202e”" + "b" * 100 + '" 1}'
    problem = syntax_error(text)
    assert problem is not None
    assert "\u202e" not in problem.message and "\\u202e" in problem.message
    excerpt = problem.message.split("the string before it, ", 1)[1].split(", holds", 1)[0]
    assert excerpt.startswith("…") and excerpt.endswith("…") and len(excerpt) <= 48


# Texts near JSON: pieces of JSON put together at random, so most are invalid.
_PIECES = st.sampled_from(
    ['{', '}', '[', ']', ':', ',', ' ', '"', '"a"', '"k":', '1', '-', '0', '.', 'e', '+',
     '1.5', 'true', 'nul', 'NaN', '\\', '\\u', '\\u00', 'd800', '\n', '\x01', '”', "'", 'x',
     '\ufeff', '"\\n"', '"\\x"', '-Infinity', '01', '1e5']
)  # fmt: skip
near_json = st.lists(_PIECES, max_size=14).map("".join)


@given(near_json)
def test_verdict_agrees_with_the_decoder(text: str) -> None:
    try:
        json.loads(text)
        valid = True
    except ValueError:
        valid = False
    problem = syntax_error(text)
    assert (problem is None) == valid, (text, problem)
    if problem is not None:
        assert 0 <= problem.start <= problem.end <= len(text)
        assert problem.end - problem.start <= 6
        assert not any(word in problem.message for word in CPYTHON_WORDS), problem
        assert DOUBLED_WORD.search(problem.message) is None, problem


@pytest.mark.parametrize(
    "build",
    [
        lambda n: "[" + "1," * n + "]",  # error at the end
        lambda n: '{"a": "' + "\\n\\u00e9" * n + '", "b" 1}',
        lambda n: "[" + '"x”", ' * n + "1 2]",
        lambda n: "[" * n + "1" + "]" * (n - 1),
        lambda n: '"' + "”" * n,
    ],
)
def test_scan_is_linear(build: Any) -> None:
    small, large = (calls(partial(syntax_error, build(n))) for n in (200, 2000))
    assert large / small <= LINEAR, (small, large)
    assert syntax_error(build(200_000)) is not None  # no recursion, whatever the depth


def test_answers_text_errors_are_placed() -> None:
    form = Questionnaire(title="T", questions=(Question(id="q1", type="free_text", text="Q"),))
    with pytest.raises(ValueError) as info:
        build_response_json(form, '{"q1": "a",\n "q1" "b"}', questionnaire_id="m_q1")
    (f,) = info.value.findings  # type: ignore[attr-defined]
    assert (f.code, f.start, f.end) == ("json.syntax", 18, 19)
    assert f.details == {"path": None, "line": 2, "column": 7}


def test_a_refusal_the_scanner_cannot_place_is_still_ours() -> None:
    # Should the decoder ever refuse RFC 8259 JSON, the message stays replykit's own:
    # the finding made for a refusal of text the syntax scanner accepts.
    f = json_strict._syntax_finding('{"a": 1}')
    assert (f.code, f.message, f.start, f.end) == (
        "json.syntax",
        "JSON syntax error: cannot be decoded",
        None,
        None,
    )
