"""Strict JSON reader for XML+JSON payloads (PROTOCOL-DECISIONS §5).

``json.loads`` decides validity and builds values; a linear bracket pre-scan enforces
the nesting limit first (so deep input never reaches the recursive decoder), and a
linear token walk over valid JSON locates values, keys, duplicates and constants.
Nothing is ever repaired.
"""

from __future__ import annotations

import json
import re
from typing import Any

from replykit.diagnostics import Finding, Path
from replykit.payload.describe import article, json_type
from replykit.payload.results import Read, Span, freeze_spans, lazy_spans

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
_SMART_QUOTES = {"“": "U+201C", "”": "U+201D", "‘": "U+2018", "’": "U+2019"}
_CONSTANTS = frozenset({"NaN", "Infinity", "-Infinity"})
_MAX_INT_DIGITS = 4300


def too_deep_at(text: str, max_depth: int) -> int | None:
    """Offset of the first ``[``/``{`` that opens level ``max_depth + 1``, or None.

    Linear; string contents (with escapes) are skipped; the text need not be valid.
    """
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


def _syntax_finding(payload: str, error: json.JSONDecodeError) -> Finding:
    pos = min(error.pos, len(payload))
    message = f"JSON syntax error: {error.msg}"
    if error.msg.startswith("Unexpected UTF-8 BOM"):  # Python's wording names a decoder
        message = "JSON syntax error: the payload starts with a byte order mark (U+FEFF)"
    ch = payload[pos : pos + 1]
    if ch in _SMART_QUOTES:
        message += (
            f"; found the typographic quote {ch} ({_SMART_QUOTES[ch]}): JSON strings and "
            'keys take straight double quotes (")'
        )
    return Finding(code="json.syntax", message=message, start=pos, end=min(pos + 1, len(payload)))


def _decode(text: str) -> tuple[Any, list[str]]:
    """``json.loads`` with placeholders instead of constants and huge ints; first key wins.

    Returns the value and the kinds of refused tokens seen (``constant``, ``int``,
    ``duplicate``).
    Raises ``json.JSONDecodeError`` on invalid JSON.
    """
    refused: list[str] = []

    def constant(_name: str) -> None:
        refused.append("constant")

    def integer(digits: str) -> int:
        if len(digits) - digits.startswith("-") > _MAX_INT_DIGITS:
            refused.append("int")
            return 0
        return int(digits)

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                refused.append("duplicate")  # reported, with its place, by the walk
            else:
                out[key] = value
        return out

    value = json.loads(text, parse_constant=constant, parse_int=integer, object_pairs_hook=pairs)
    return value, refused


def read_json(payload: str, *, max_depth: int = 64) -> Read:
    """Read an XML+JSON payload as strict JSON whose root is an object (§5).

    Input: the text between the tags (JSON whitespace around the value is allowed).
    Output: :class:`Read` with ``value`` the root ``dict`` (``None`` when the text is not
    valid JSON or too deep; for a non-object root, the value read), ``spans`` of every
    value and ``key_spans`` of every key by path (code points into ``payload``).

    Findings (all errors): ``json.too_deep`` (more than ``max_depth`` nested arrays/
    objects; decided before decoding), ``json.syntax`` (with the offset; a typographic
    quote there is named), ``json.constant`` (``NaN``, ``Infinity``, ``-Infinity``),
    ``json.number_too_large`` (an integer over 4300 digits), ``json.duplicate_key``
    (on the later key), ``json.string_payload`` (the root is a string holding JSON),
    ``json.not_object``. Never raises; linear time.
    """
    deep = too_deep_at(payload, max_depth)
    if deep is not None:
        return Read(value=None, findings=(_too_deep(max_depth, deep),))
    try:
        value, refused = _decode(payload)
    except json.JSONDecodeError as error:
        return Read(value=None, findings=(_syntax_finding(payload, error),))
    except RecursionError:  # json recurses per level: a max_depth near the stack's size
        return Read(value=None, findings=(_too_deep(max_depth, 0),))
    if not refused:
        # Valid JSON with nothing to report: spans are only walked if someone asks.
        spans, key_spans = lazy_spans(lambda: _walk_spans(payload))
        findings = [] if isinstance(value, dict) else [_root_finding(payload, value, max_depth)]
        return Read(value=value, spans=spans, key_spans=key_spans, findings=tuple(findings))
    walk = _Walk(payload)
    walk.run()
    findings = list(walk.findings)
    if "int" in refused and not any(f.code == "json.number_too_large" for f in findings):
        findings.append(_number_too_large(None))
    if not isinstance(value, dict):
        findings.append(_root_finding(payload, value, max_depth))
    return Read(
        value=value,
        spans=freeze_spans(walk.spans),
        key_spans=freeze_spans(walk.key_spans),
        findings=tuple(findings),
    )


def _walk_spans(text: str) -> tuple[dict[Path, Span], dict[Path, Span]]:
    walk = _Walk(text)
    walk.run()
    return walk.spans, walk.key_spans


def _too_deep(max_depth: int, at: int) -> Finding:
    return Finding(
        code="json.too_deep",
        message=f"JSON nesting deeper than {max_depth} levels",
        start=at,
        end=at + 1,
    )


def _number_too_large(span: Span | None, path: Path = ()) -> Finding:
    return Finding(
        code="json.number_too_large",
        message=f"integer with more than {_MAX_INT_DIGITS} digits",
        path=path,
        start=None if span is None else span[0],
        end=None if span is None else span[1],
    )


def _root_finding(payload: str, value: Any, max_depth: int) -> Finding:
    span = (0, len(payload))
    if isinstance(value, str) and too_deep_at(value, max_depth) is None:
        try:
            _decode(value)
        except json.JSONDecodeError:
            pass
        else:
            return Finding(
                code="json.string_payload",
                message=(
                    "the payload is a JSON string that holds JSON; write the object "
                    "itself, not a quoted copy of it"
                ),
                start=span[0],
                end=span[1],
            )
    return Finding(
        code="json.not_object",
        message=f"the payload must be a JSON object, not {article(json_type(value))}",
        start=span[0],
        end=span[1],
    )


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
    """Linear token walk over JSON already known valid: spans, duplicates, constants."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans: dict[Path, Span] = {}
        self.key_spans: dict[Path, Span] = {}
        self.findings: list[Finding] = []
        self.stack: list[_Container] = []

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
                self.stack.append(_Container(m.group() == "{", self._value_path(), span[0]))
                expect_key = m.group() == "{"
            elif kind == "close":
                top = self.stack.pop()
                self._value(top.path, (top.start, span[1]), None)
                expect_key = False
            else:
                self._value(self._value_path(), span, m.group() if kind != "str" else None)

    def _key(self, raw: str, span: Span) -> None:
        top = self.stack[-1]
        key: str = json.loads(raw)
        where: Path = top.path if top.path is not None else ()
        if key in top.seen:
            self.findings.append(
                Finding(
                    code="json.duplicate_key",
                    message=(
                        f"duplicate key {json.dumps(key, ensure_ascii=False)}; "
                        "each key may appear once"
                    ),
                    path=(*where, key) if top.path is not None else (),
                    start=span[0],
                    end=span[1],
                )
            )
            top.key = None
            return
        top.seen.add(key)
        top.key = key
        if top.path is not None:
            self.key_spans[(*top.path, key)] = span

    def _value(self, path: Path | None, span: Span, token: str | None) -> None:
        if path is not None:
            self.spans[path] = span
        if token in _CONSTANTS:
            self.findings.append(
                Finding(
                    code="json.constant",
                    message=f"{token} is not JSON; use a number or a string",
                    path=path or (),
                    start=span[0],
                    end=span[1],
                )
            )
        elif token is not None and _is_big_int(token):
            self.findings.append(_number_too_large(span, path or ()))
        if self.stack:
            top = self.stack[-1]
            top.count += 1
            top.key = None


def _is_big_int(token: str) -> bool:
    digits = token[1:] if token.startswith("-") else token
    return len(digits) > _MAX_INT_DIGITS and digits.isdigit()
