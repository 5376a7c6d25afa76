"""replykit's own RFC 8259 syntax check: where JSON text stops being JSON, and why (§1).

``json.loads`` decides validity on the fast path; when it fails, :func:`syntax_error`
finds the first error's position (code points) and kind and words the message, so no
diagnostic depends on the Python version's ``JSONDecodeError`` text or position.

The scan is linear and never recurses (an explicit stack of open brackets). It accepts
``NaN``, ``Infinity`` and ``-Infinity`` as values: the strict reader reports them as
``json.constant`` with their place, not as syntax errors.
"""

from __future__ import annotations

import re

import attrs

from replykit.text import is_blank

SMART_QUOTES = {"“": "U+201C", "”": "U+201D", "‘": "U+2018", "’": "U+2019"}
_WS = re.compile(r"[ \t\n\r]*")
_PLAIN = re.compile(r'[^"\\\x00-\x1f]*')  # string content up to a quote, escape or control
_DIGITS = re.compile(r"[0-9]*")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,19}")
_LITERALS = ("true", "false", "null", "NaN", "Infinity", "-Infinity")
_ESCAPES = '"\\/bfnrt'
_NAMED_CONTROLS = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_EXCERPT = 40


@attrs.frozen
class SyntaxProblem:
    """The first place where a text stops being JSON.

    ``start``/``end``: code-point offsets of the offending character (``start == end ==
    len(text)`` when the text ends too early; an unterminated string is placed on its
    opening quote). ``message``: English, replykit's own words, no prefix.
    """

    start: int
    end: int
    message: str


class _Stop(Exception):
    """Raised inside the scan to end it at the first error."""

    def __init__(self, problem: SyntaxProblem) -> None:
        self.problem = problem


def describe_char(c: str) -> str:
    """A character for a message, never raw when invisible: ``'x'``, ``'，' (U+FF0C)``,
    ``U+00A0``; a typographic quote is named as one."""
    code = f"U+{ord(c):04X}"
    if c in SMART_QUOTES:
        return f"the typographic quote {c} ({code})"
    if "\x21" <= c <= "\x7e":
        return f"'{c}'"
    return f"'{c}' ({code})" if _visible(c) else code


def _visible(c: str) -> bool:
    code = ord(c)
    if code < 0xA0:
        return 0x20 <= code <= 0x7E
    return not 0xD800 <= code <= 0xDFFF and not is_blank(c)


def _excerpt(token: str, at: int) -> str:
    """``token`` cut to about 40 code points around ``at``, invisible characters escaped."""
    lo = max(0, min(at - _EXCERPT // 2, len(token) - _EXCERPT))
    part = token[lo : lo + _EXCERPT]
    shown = "".join(c if _visible(c) else f"\\u{ord(c):04x}" for c in part)
    return ("…" if lo > 0 else "") + shown + ("…" if lo + _EXCERPT < len(token) else "")


def _skip_digits(text: str, i: int) -> int:
    m = _DIGITS.match(text, i)
    return i if m is None else m.end()


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.last_string: tuple[int, int] | None = None  # span of the string read last

    def found(self, pos: int) -> str:
        """What stands at ``pos``, for a message."""
        if pos >= self.n:
            return "found the end of the text"
        word = _WORD.match(self.text, pos)
        if word is not None and len(word.group()) > 1:
            hint = ""
            if word.group().lower() in ("true", "false", "null"):
                hint = " (JSON writes true, false and null in lower case)"
            return f"found '{word.group()}'{hint}"
        c = self.text[pos]
        if c == "'":
            return "found ''' (JSON strings take double quotes)"
        return f"found {describe_char(c)}"

    def stop(self, pos: int, message: str) -> _Stop:
        """End the scan at ``pos``; a typographic quote there, or in the string just
        before it, is named (it looks like the end of that string but is not one, so the
        error shows up after it)."""
        end = min(pos + 1, self.n)
        if pos < self.n and self.text[pos] in SMART_QUOTES:
            message += ': JSON strings and keys take straight double quotes (")'
        elif self.last_string is not None:
            start, string_end = self.last_string
            if not self.text[string_end:pos].strip(" \t\n\r"):
                message += self._smart_quote_note(start, string_end, "the string before it")
        return _Stop(SyntaxProblem(pos, end, message))

    def unterminated(self, pos: int) -> _Stop:
        message = "unterminated string: no closing '\"' before the end of the text"
        message += self._smart_quote_note(pos, self.n, "the string")
        return _Stop(SyntaxProblem(pos, pos + 1, message))

    def _smart_quote_note(self, start: int, end: int, which: str) -> str:
        token = self.text[start:end]
        for i, c in enumerate(token):
            if c in SMART_QUOTES:
                return (
                    f"; {which}, {_excerpt(token, i)}, holds the typographic quote {c} "
                    f"({SMART_QUOTES[c]}), which does not end a string: JSON strings end "
                    'only at a straight double quote (")'
                )
        return ""

    def ws(self, pos: int) -> int:
        m = _WS.match(self.text, pos)
        assert m is not None
        return m.end()

    def string(self, pos: int) -> int:
        """Skip the string opening at ``pos``; return the offset after its closing quote."""
        text, n = self.text, self.n
        i = pos + 1
        while True:
            m = _PLAIN.match(text, i)
            assert m is not None
            i = m.end()
            if i >= n:
                raise self.unterminated(pos)
            c = text[i]
            if c == '"':
                self.last_string = (pos, i + 1)
                return i + 1
            if c == "\\":
                if i + 1 >= n:
                    raise self.unterminated(pos)
                e = text[i + 1]
                if e in _ESCAPES:
                    i += 2
                elif e == "u" and _HEX4.match(text, i + 2):
                    i += 6
                elif e == "u":
                    raise _Stop(
                        SyntaxProblem(
                            i,
                            min(i + 6, n),
                            "invalid escape: \\u must be followed by four hex digits",
                        )
                    )
                else:
                    raise _Stop(
                        SyntaxProblem(
                            i,
                            i + 2,
                            f"invalid escape: backslash followed by {describe_char(e)}; a "
                            'string allows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX',
                        )
                    )
            else:
                named = _NAMED_CONTROLS.get(c, f"\\u{ord(c):04x}")
                raise _Stop(
                    SyntaxProblem(
                        i,
                        i + 1,
                        f"control character U+{ord(c):04X} in a string: write it as {named}",
                    )
                )

    def number(self, pos: int) -> int:
        """Skip the number at ``pos`` (a ``-`` or a digit); return the offset after it."""
        text, n = self.text, self.n
        i = pos + 1 if text[pos] == "-" else pos
        if i >= n or not "0" <= text[i] <= "9":
            raise self.stop(i, f"invalid number: a digit must follow '-', {self.found(i)}")
        if text[i] == "0":
            i += 1
            if i < n and "0" <= text[i] <= "9":
                raise self.stop(pos, "invalid number: a leading zero cannot be followed by digits")
        else:
            i = _skip_digits(text, i)
        if i < n and text[i] == ".":
            i += 1
            if i >= n or not "0" <= text[i] <= "9":
                raise self.stop(i, f"invalid number: a digit must follow '.', {self.found(i)}")
            i = _skip_digits(text, i)
        if i < n and text[i] in "eE":
            i += 1
            if i < n and text[i] in "+-":
                i += 1
            if i >= n or not "0" <= text[i] <= "9":
                raise self.stop(
                    i, f"invalid number: a digit must follow the exponent, {self.found(i)}"
                )
            i = _skip_digits(text, i)
        return i

    def value(self, pos: int, after: str) -> tuple[int, str | None]:
        """Read a scalar or open a container at ``pos``; ``after`` names what came before
        (for the message). Returns the offset after the scalar (or after the bracket) and
        the bracket opened, if any."""
        text = self.text
        if pos >= self.n:
            raise self.stop(pos, f"expected a value{after}, found the end of the text")
        c = text[pos]
        if c in "[{":
            return pos + 1, c
        if c == '"':
            return self.string(pos), None
        for literal in _LITERALS:
            if text.startswith(literal, pos):
                return pos + len(literal), None
        if c == "-" or "0" <= c <= "9":
            return self.number(pos), None
        if pos == 0 and c == "\ufeff":
            raise self.stop(
                pos, "the text starts with a byte order mark (U+FEFF), which is not JSON"
            )
        hint = ""
        if after == " after ','" and c in "]}":
            hint = " (a trailing comma is not allowed)"
        elif c in ".+":
            hint = " (a number starts with a digit or '-')"
        raise self.stop(pos, f"expected a value{after}, {self.found(pos)}{hint}")

    def key(self, pos: int, after: str) -> int:
        if pos < self.n and self.text[pos] == '"':
            return self.string(pos)
        hint = ""
        if after == " after ','" and pos < self.n and self.text[pos] == "}":
            hint = " (a trailing comma is not allowed)"
        what = "a string key or '}'" if after == "" else "a string key"
        raise self.stop(pos, f"expected {what}{after}, {self.found(pos)}{hint}")

    def run(self) -> None:
        text, n = self.text, self.n
        stack: list[str] = []
        pos, opened = self.value(self.ws(0), "")
        while True:
            if opened == "{":
                pos = self.ws(pos)
                if pos < n and text[pos] == "}":
                    pos += 1
                else:
                    pos = self.member(pos, "")
                    stack.append("{")
                    pos, opened = self.value(self.ws(pos), " after ':'")
                    continue
            elif opened == "[":
                pos = self.ws(pos)
                if pos < n and text[pos] == "]":
                    pos += 1
                else:
                    stack.append("[")
                    pos, opened = self.value(pos, "")
                    continue
            # A value just ended at pos: close brackets or go on after a comma.
            while True:
                pos = self.ws(pos)
                if not stack:
                    if pos < n:
                        raise self.stop(pos, f"extra text after the JSON value, {self.found(pos)}")
                    return
                top = stack[-1]
                closer = "}" if top == "{" else "]"
                if pos < n and text[pos] == closer:
                    stack.pop()
                    pos += 1
                    continue
                if pos < n and text[pos] == ",":
                    pos = self.ws(pos + 1)
                    if top == "{":
                        pos = self.member(pos, " after ','")
                        pos, opened = self.value(self.ws(pos), " after ':'")
                    else:
                        pos, opened = self.value(pos, " after ','")
                    break
                what = "an object member" if top == "{" else "an array element"
                raise self.stop(pos, f"expected ',' or '{closer}' after {what}, {self.found(pos)}")

    def member(self, pos: int, after: str) -> int:
        """Read ``"key" :`` at ``pos``; return the offset after the colon."""
        pos = self.ws(self.key(pos, after))
        if pos >= self.n or self.text[pos] != ":":
            raise self.stop(pos, f"expected ':' after an object key, {self.found(pos)}")
        return pos + 1


def syntax_error(text: str) -> SyntaxProblem | None:
    """The first RFC 8259 syntax error of ``text``, or ``None`` when it is one JSON value
    (``NaN``/``Infinity``/``-Infinity`` allowed as values, see the module docstring).

    Input: the whole JSON text (JSON white space around the value allowed). Output:
    :class:`SyntaxProblem` with code-point offsets and replykit's message: expected a
    value; expected a string key; expected ':' after an object key; expected ',' or '}'
    after an object member; expected ',' or ']' after an array element; unterminated
    string; invalid escape; control character in a string; invalid number; extra text
    after the JSON value; a leading byte order mark. A typographic quote at the error, or
    in the string just before it, is named. Linear time, no recursion, never raises.
    """
    scanner = _Scanner(text)
    try:
        scanner.run()
    except _Stop as stop:
        return stop.problem
    return None
