"""The strict JSON reader: XML+JSON payloads and every JSON file or text replykit reads (§1, §5).

``json.loads`` decides validity and builds values; a linear bracket pre-scan enforces
the nesting limit first (so deep input never reaches the recursive decoder); on a
syntax error replykit's own scanner (:mod:`replykit.questionnaire.payload.json_syntax`) gives the
position and the message; and a linear token walk over valid JSON locates values,
keys, duplicates, constants, numbers out of range and lone surrogates. Nothing is ever
repaired.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

import attrs

from replykit.cap import Overflow
from replykit.codes.payload import (
    JSON_CONSTANT,
    JSON_DUPLICATE_KEY,
    JSON_LONE_SURROGATE,
    JSON_NOT_OBJECT,
    JSON_NUMBER_TOO_LARGE,
    JSON_STRING_PAYLOAD,
    JSON_SYNTAX,
    JSON_TOO_DEEP,
)
from replykit.diagnostics import Finding, LeftOut, Path
from replykit.questionnaire.payload.describe import json_type
from replykit.questionnaire.payload.json_syntax import syntax_error
from replykit.questionnaire.payload.results import Read, Span, freeze_spans, lazy_spans

# A string (closed or running to the end) or a bracket; used to skip string contents.
_BRACKETS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[{]|[\]}]', re.S)
_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\n\r]+)
    |(?P<str>"[^"\\]*(?:\\.[^"\\]*)*")
    |(?P<lit>true|false|null|NaN|Infinity|-Infinity)
    |(?P<num>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)
    |(?P<open>[\[{])
    |(?P<close>[\]}])
    |(?P<colon>:)
    |(?P<comma>,)
    """,
    re.X | re.S,
)
_CONSTANTS = frozenset({"NaN", "Infinity", "-Infinity"})
#: A number written with more digits is refused (Python's own limit for ``int``).
MAX_NUMBER_DIGITS = 4300
# An integer of fewer digits is below the largest float (about 1.8e308).
_INT_FLOAT_SAFE = 308
# A lone-surrogate escape may be present (a cheap test before the walk).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# In a string token: a \u escape of a surrogate, another escape, or a raw surrogate.
_STRING_UNIT = re.compile(r"\\u([dD][89a-fA-F][0-9a-fA-F]{2})|\\.|[\ud800-\udfff]", re.S)
_LONE = re.compile(r"[\ud800-\udfff]")  # raw: mypyc refuses surrogate literals


def surrogate_hint(text: str) -> bool:
    """Whether ``text`` may hold a lone surrogate (§1): a ``\\uD800``-``\\uDFFF``-style
    escape or a surrogate code point. Each search runs only where it can match (an
    alternation of the two scans every character, several times slower)."""
    if "\\u" in text and _SURROGATE_ESCAPE.search(text) is not None:
        return True
    return not text.isascii() and _LONE.search(text) is not None


# Findings after which the payload has no value to check further.
_UNREAD = frozenset({JSON_SYNTAX.name, JSON_TOO_DEEP.name})


def too_deep_at(text: str, max_depth: int) -> int | None:
    """Offset of the first ``[``/``{`` that opens level ``max_depth + 1``, or None.

    Linear; string contents (with escapes) are skipped; the text need not be valid.
    """
    if text.count("[") + text.count("{") <= max_depth:
        return None  # no more openers than levels allowed, strings' included: none passes
    depth = 0
    for m in _BRACKETS.finditer(text):
        c = m.group()[0]
        if c in "[{":
            depth += 1
            if depth > max_depth:
                return m.start()
        elif c in "]}":
            depth = max(depth - 1, 0)
    return None


def _syntax_finding(text: str) -> Finding:
    problem = syntax_error(text)
    if problem is None:  # json.loads refused what RFC 8259 allows: never seen, kept safe
        return JSON_SYNTAX.finding(variant="undecodable")
    return JSON_SYNTAX.finding(start=problem.start, end=problem.end, reason=problem.message)


_ASCII_DIGITS = frozenset("0123456789")


def _digit_count(token: str) -> int:
    return sum(c in _ASCII_DIGITS for c in token)  # str.isdigit also takes '２'


def number_problem(token: str) -> tuple[str | None, dict[str, Any]] | None:
    """Why a JSON number token cannot be read exactly (``None`` when it can): the
    ``json.number_too_large`` variant and parameters: written with more than 4300
    digits (the default, ``limit``), or beyond a 64-bit float's range (``range``,
    ``number``: it would read as infinity)."""
    if len(token) > MAX_NUMBER_DIGITS and _digit_count(token) > MAX_NUMBER_DIGITS:
        return None, {"limit": MAX_NUMBER_DIGITS}
    is_int = token.lstrip("-").isascii() and token.lstrip("-").isdigit()
    if is_int and len(token) - token.startswith("-") <= _INT_FLOAT_SAFE:
        return None
    if math.isinf(float(token)):
        shown = token if len(token) <= 24 else token[:20] + "…"
        return "range", {"number": shown}
    return None


def _decode(text: str) -> tuple[Any, set[str]]:
    """``json.loads`` with placeholders for refused tokens; first key wins.

    Returns the value and the kinds of refused tokens seen (``constant``, ``number``,
    ``duplicate``). Raises ``json.JSONDecodeError`` on invalid JSON.
    """
    refused: set[str] = set()

    def constant(_name: str) -> None:
        refused.add("constant")

    def integer(digits: str) -> int:
        if len(digits) > _INT_FLOAT_SAFE and number_problem(digits) is not None:
            refused.add("number")
            return 0
        return int(digits)

    def real(token: str) -> float:
        value = float(token)
        too_long = len(token) > MAX_NUMBER_DIGITS
        if (too_long or math.isinf(value)) and number_problem(token) is not None:
            refused.add("number")
            return 0.0
        return value

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                refused.add("duplicate")  # reported, with its place, by the walk
            else:
                out[key] = value
        return out

    value = json.loads(
        text,
        parse_constant=constant,
        parse_int=integer,
        parse_float=real,
        object_pairs_hook=pairs,
    )
    return value, refused


class _Refused(Exception):
    """A token :data:`_PLAIN` does not read: the reading with every hook decides."""


def _refuse_constant(_name: str) -> None:
    raise _Refused


def _plain_int(digits: str) -> int:
    if len(digits) > _INT_FLOAT_SAFE:
        raise _Refused  # may be out of range: the full decoding decides
    return int(digits)


def _plain_float(token: str) -> float:
    value = float(token)
    if len(token) > MAX_NUMBER_DIGITS or math.isinf(value):
        raise _Refused
    return value


def _plain_pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(items)
    if len(out) != len(items):
        raise _Refused  # a duplicate key
    return out


# One decoder for every call (json.loads with hooks builds a new one per call): it
# reads JSON with nothing to refuse and raises _Refused at the first refused token.
# Immutable once built, like json's own module-level decoder.
_PLAIN = json.JSONDecoder(
    parse_constant=_refuse_constant,
    parse_int=_plain_int,
    parse_float=_plain_float,
    object_pairs_hook=_plain_pairs,
)


def _decode_fast(text: str) -> tuple[Any, set[str]]:
    """:func:`_decode`, read first by :data:`_PLAIN`: the same value and refused kinds
    (none) when no token is refused, else :func:`_decode`'s own answer. Raises what
    :func:`_decode` raises."""
    try:
        return _PLAIN.decode(text), set()
    except _Refused:
        return _decode(text)


def read_json_value(text: str, *, max_depth: int = 64, max_findings: int | None = None) -> Read:
    """Read any JSON text strictly (§1): the reading every JSON input of replykit gets.

    Input: the whole text (JSON white space around the value allowed; a byte order mark
    is a syntax error). Output: :class:`Read` with ``value`` the value read (``None``
    when the text is not JSON or too deep), ``spans`` of every value and ``key_spans``
    of every key by path (code points into ``text``).

    Findings (all errors, in text order per kind): ``json.too_deep`` (more than
    ``max_depth`` nested arrays/objects; decided before decoding), ``json.syntax``
    (replykit's own position and message; a typographic quote is named),
    ``json.constant`` (``NaN``, ``Infinity``, ``-Infinity``), ``json.number_too_large``
    (a number written with more than 4300 digits, or beyond a 64-bit float's range such
    as ``1e400``), ``json.duplicate_key`` (on the later key), ``json.lone_surrogate`` (a
    string holding half of a surrogate pair, as a ``\\udXXX`` escape or a character).
    A refused token reads as a placeholder (the first of duplicate keys wins), so
    ``value`` is only usable when there is no finding; ``refused`` holds the placeholders'
    paths. ``max_findings`` (``None``: no cap): at most that many findings are built,
    the first in text order; past it each is only counted by code in ``overflow`` (its
    first left out built once), so 10^5 repeated keys cost a count each, not a finding
    (§2.1). Never raises; linear time.
    """
    deep = too_deep_at(text, max_depth)
    if deep is not None:
        return Read(value=None, findings=(_too_deep(max_depth, deep),))
    try:
        value, refused = _decode_fast(text)
    except json.JSONDecodeError:
        return Read(value=None, findings=(_syntax_finding(text),))
    except RecursionError:  # json recurses per level: a max_depth near the stack's size
        return Read(value=None, findings=(_too_deep(max_depth, 0),))
    strings = surrogate_hint(text)
    if not refused and not strings:
        # Valid JSON with nothing to report: spans are only walked if someone asks.
        spans, key_spans = lazy_spans(lambda: _walk_spans(text))
        return Read(value=value, spans=spans, key_spans=key_spans)
    walk = _Walk(text, check_strings=strings, limit=max_findings)
    walk.run()
    return Read(
        value=value,
        spans=freeze_spans(walk.spans),
        key_spans=freeze_spans(walk.key_spans),
        findings=tuple(walk.findings),
        overflow=walk.overflow(),
        refused=frozenset(walk.refused),
    )


def read_json(payload: str, *, max_depth: int = 64, max_findings: int | None = None) -> Read:
    """Read an XML+JSON payload as strict JSON whose root is an object (§5).

    Input: the text between the tags. Output and findings: as :func:`read_json_value`,
    plus ``json.string_payload`` (the root is a string holding JSON) or
    ``json.not_object`` (any other root that is not an object; ``value`` is then the
    value read; after the capped ones). ``max_findings`` as :func:`read_json_value`.
    Never raises; linear time.
    """
    read = read_json_value(payload, max_depth=max_depth, max_findings=max_findings)
    if isinstance(read.value, dict) or any(f.code in _UNREAD for f in read.findings):
        return read
    findings = (*read.findings, _root_finding(payload, read.value, max_depth))
    return attrs.evolve(read, findings=findings)


def json_node_start(text: str, path: Path) -> int | None:
    """The code-point offset where the value at ``path`` starts in the valid JSON
    ``text`` (the start of its span in the reading's ``spans``; the first of repeated
    keys), or ``None``. Linear; keeps no span (§1: a finding on a whole list)."""
    walk = _Walk(text, stop_at=path)
    walk.run()
    return walk.found


def _walk_spans(text: str) -> tuple[dict[Path, Span], dict[Path, Span]]:
    walk = _Walk(text)
    walk.run()
    return walk.spans, walk.key_spans


def _too_deep(max_depth: int, at: int) -> Finding:
    return JSON_TOO_DEEP.finding(start=at, end=at + 1, limit=max_depth)


def _number_too_large(
    problem: tuple[str | None, dict[str, Any]], span: Span, path: Path
) -> Finding:
    variant, params = problem
    return JSON_NUMBER_TOO_LARGE.finding(
        path, start=span[0], end=span[1], variant=variant, params=params
    )


def _lone_surrogate(raw: str, span: Span, path: Path) -> Finding | None:
    """``json.lone_surrogate`` for the first unpaired surrogate in the string token
    ``raw`` at ``span``, or ``None``. Only a high-surrogate escape directly followed by a
    low-surrogate escape makes a pair (as JSON decodes them)."""
    if _LONE.search(json.loads(raw)) is None:
        return None
    units = list(_STRING_UNIT.finditer(raw))
    i = 0
    while i < len(units):
        m = units[i]
        hex4 = m.group(1)
        if hex4 is not None and int(hex4, 16) < 0xDC00 and i + 1 < len(units):
            low = units[i + 1]
            if low.start() == m.end() and low.group(1) and int(low.group(1), 16) >= 0xDC00:
                i += 2
                continue
        if hex4 is not None or _LONE.fullmatch(m.group()):
            shown = m.group() if hex4 is not None else f"U+{ord(m.group()):04X}"
            return JSON_LONE_SURROGATE.finding(
                path,
                shown=shown,
                start=span[0] + m.start(),
                end=span[0] + m.end(),
            )
        i += 1
    return None  # pragma: no cover - the decoded string held one


def _root_finding(payload: str, value: Any, max_depth: int) -> Finding:
    span = (0, len(payload))
    if isinstance(value, str) and too_deep_at(value, max_depth) is None:
        try:
            _decode(value)
        except json.JSONDecodeError:
            pass
        else:
            return JSON_STRING_PAYLOAD.finding(start=span[0], end=span[1])
    return JSON_NOT_OBJECT.finding(start=span[0], end=span[1], actual=json_type(value))


class _Container:
    __slots__ = ("count", "is_object", "key", "path", "seen", "start")

    def __init__(self, is_object: bool, path: Path | None, start: int) -> None:
        self.is_object = is_object
        self.path = path  # None inside the value of a duplicate key: not addressable
        self.start = start
        self.count = 0
        self.key: str | None = None
        self.seen: set[str] = set()


class _Walk:
    """Linear token walk over JSON already known valid: spans, duplicates, constants,
    numbers out of range and (with ``check_strings``) lone surrogates."""

    def __init__(
        self, text: str, *, check_strings: bool = False, stop_at: Path | None = None,
        limit: int | None = None,
    ) -> None:  # fmt: skip
        self.text = text
        self.limit = limit  # findings built at most; the rest only counted (§2.1)
        self.left_out: dict[str, int] = {}
        self.first_left_out: Finding | None = None
        self.refused: set[Path] = set()
        self.check_strings = check_strings
        self.stop_at = stop_at  # stop at the start of this path's value (``found``)
        self.found: int | None = None
        self.spans: dict[Path, Span] = {}
        self.key_spans: dict[Path, Span] = {}
        self.findings: list[Finding] = []
        self.stack: list[_Container] = []

    def _add(self, code: str, build: Callable[[], Finding | None]) -> None:
        """Keep the finding ``build`` makes, or past ``limit`` only count ``code`` (the
        first left out is built, for the summary's place)."""
        if self.limit is None or len(self.findings) < self.limit:
            found = build()
            if found is not None:
                self.findings.append(found)
            return
        if self.first_left_out is None:
            found = build()
            if found is None:
                return
            self.first_left_out = found
        self.left_out[code] = self.left_out.get(code, 0) + 1

    def _refuse(self, path: Path) -> None:
        if path:
            self.refused.add(path)

    def overflow(self) -> Overflow[Finding] | None:
        """What ``limit`` left out (every one an error), after every kept finding."""
        if self.first_left_out is None:
            return None
        counts = tuple(LeftOut(code, "error", n) for code, n in self.left_out.items())
        return Overflow(counts, self.first_left_out, len(self.findings))

    def _value_path(self) -> Path | None:
        """Path of the value about to be read; None where it is not addressable."""
        if not self.stack:
            return ()
        top = self.stack[-1]
        if top.path is None:
            return None
        if not top.is_object:
            return (*top.path, top.count)
        if top.key is None:
            return None
        return (*top.path, top.key)

    def run(self) -> None:
        text = self.text
        pos = 0
        expect_key = False
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                return  # cannot happen for valid JSON; spans stay partial
            kind, span = m.lastgroup, (m.start(), m.end())
            pos = m.end()
            if kind in ("ws", "colon"):
                continue
            if kind == "comma":
                expect_key = bool(self.stack and self.stack[-1].is_object)
            elif kind == "str" and expect_key:
                self._key(m.group(), span)
                expect_key = False
            elif kind == "open":
                path = self._value_path()
                if path == self.stop_at and path is not None:
                    self.found = span[0]
                    return
                self.stack.append(_Container(m.group() == "{", path, span[0]))
                expect_key = m.group() == "{"
            elif kind == "close":
                top = self.stack.pop()
                self._value(top.path, (top.start, span[1]), None, None)
                expect_key = False
            else:
                self._value(self._value_path(), span, kind, m.group())

    def _key(self, raw: str, span: Span) -> None:
        top = self.stack[-1]
        key: str = json.loads(raw)
        where: Path = top.path if top.path is not None else ()
        at: Path = (*where, key) if top.path is not None else ()
        if self.check_strings and _LONE.search(key) is not None:
            self._add(JSON_LONE_SURROGATE.name, lambda: _lone_surrogate(raw, span, at))
        if key in top.seen:
            self._add(
                JSON_DUPLICATE_KEY.name,
                lambda: JSON_DUPLICATE_KEY.finding(
                    at, key=json.dumps(key, ensure_ascii=False), start=span[0], end=span[1]
                ),
            )
            top.key = None
            return
        top.seen.add(key)
        top.key = key
        if top.path is not None:
            self.key_spans[(*top.path, key)] = span

    def _value(self, path: Path | None, span: Span, kind: str | None, token: str | None) -> None:
        if path is not None:
            self.spans[path] = span
        at: Path = path or ()
        if kind == "lit" and token in _CONSTANTS:
            self._refuse(at)
            self._add(
                JSON_CONSTANT.name,
                lambda: JSON_CONSTANT.finding(at, token=token, start=span[0], end=span[1]),
            )
        elif kind == "num" and token is not None:
            problem = number_problem(token)
            if problem is not None:
                self._refuse(at)
                self._add(JSON_NUMBER_TOO_LARGE.name, lambda: _number_too_large(problem, span, at))
        elif (
            kind == "str"
            and token is not None
            and self.check_strings
            and _LONE.search(json.loads(token)) is not None
        ):
            self._add(JSON_LONE_SURROGATE.name, lambda: _lone_surrogate(token, span, at))
        if self.stack:
            top = self.stack[-1]
            top.count += 1
            top.key = None
