"""The YAML 1.2.2 referee: PyYAML's pure-Python scanner taught the YAML 1.2 rules it
lacks (docs/protocol.md §4.1, §1 "one answer on every install").

PyYAML's scanner follows YAML 1.1 in a few places where YAML 1.2.2 changed the rules or
where it is stricter than both. This subclass changes exactly those:

* Tabs are separation inside a line (YAML 1.2.2 s-separate-in-line): after ``key:``,
  between flow items, before a comment, at a line end, inside a plain scalar
  (``a b\tc`` is one scalar), in a block scalar header, and on blank or comment lines.
* Tabs never indent: a tab in a line's leading white space before content needs more
  spaces before it than the enclosing block's indentation (it is then separation before
  a flow node), and a tab may not come before a block collection's indicator or key
  (``-``, ``?``, ``:`` starting a line, an implicit key), YAML 1.2.2 spec 6.1.
* An anchor or alias name is any run of characters but white space and flow
  indicators (ns-anchor-char: ``&a:b`` names ``a:b``).
* A tag shorthand ends before ``,``, ``[`` and ``]`` (ns-tag-char); a tag ends at white
  space (a tab too) or, in flow context, at a flow indicator.
* In flow context a plain scalar may hold ``?`` and may start with ``?``, ``:`` or
  ``-`` followed by a "safe" character (ns-plain-first, ns-plain-char); ``:`` is a value
  indicator only before white space, a flow indicator, or right after a quoted scalar or
  flow collection (a JSON-like key).
* A flow collection's continuation lines are indented more than the block collection
  holding it (s-flow-line-prefix); its closing ``]`` or ``}`` may stand at that column.
* A comment is separated from the token before it by white space (s-b-comment):
  ``"b"#c``, ``[b]#c`` and ``[a,#c`` are errors.
* An implicit key of a flow mapping's entry may span lines and exceed 1024 characters
  (ns-flow-map-yaml-key-entry); a block or flow-sequence key may not.
* A block scalar header that starts its line is indented more than its key or list
  item (s-l+block-scalar: s-separate(n+1,c)).
* An implicit key may be empty (a null key): block ``: x``, flow ``[a, : x]`` and
  ``{: x}`` (YAML 1.2.2 examples 7.3, 7.21, 8.18).
* Directives (:mod:`~replykit.questionnaire.payload.yaml_directives`); the version's
  digits are never converted to an ``int`` (a 5000-digit version is no ``ValueError``).
* A ``\\U`` escape above U+10FFFF is :class:`SyntaxProblem` ``escape_range`` at the
  escape (PyYAML's ``chr()`` raises an unmarked ``ValueError`` there).
* Quoted scalars may hold DEL, the C1 controls, U+FFFE and U+FFFF (YAML 1.2.2 5.1,
  nb-json), which PyYAML's reader refuses everywhere; that they stand nowhere else is
  checked before the referee reads (``yaml12._stray``).

Errors of these rules are :class:`SyntaxProblem`; the others stay PyYAML's own error
objects, which :mod:`replykit.questionnaire.payload.yaml_errors` turns into replykit's wording.
Time and memory stay linear: every rule looks at the current token and its line only.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import yaml
from yaml.events import MappingStartEvent
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.scanner import Scanner
from yaml.tokens import (
    DocumentEndToken,
    FlowEntryToken,
    FlowMappingEndToken,
    FlowMappingStartToken,
    FlowSequenceEndToken,
    ScalarToken,
    TagToken,
    ValueToken,
)

from replykit.questionnaire.payload.yaml_directives import read_directives
from replykit.questionnaire.payload.yaml_problem import Note, SyntaxProblem

_BREAKS = "\r\n\x85\u2028\u2029"
#: What no YAML 1.2.2 production takes anywhere: C0 controls but tab and line breaks,
#: surrogates. read_yaml refuses them first (its offset); the referee's reader too.
NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x7f-\ud7ff\ue000-\U0010ffff]")
_FLOW_INDICATORS = ",[]{}"
_BLANK = "\0 \t\r\n\x85\u2028\u2029"
_PLAIN_FIRST_BLOCKED = "\0 \t\r\n\x85\u2028\u2029-?:,[]{}#&*!|>'\"%@`"

# Plain-scalar character runs (ns-plain-char) in block and flow context: ':' belongs to
# the scalar only when a safe character follows it.
_PLAIN_RUN_BLOCK = re.compile(
    "(?:[^\0 \t\r\n\x85\u2028\u2029:]|:(?=[^\0 \t\r\n\x85\u2028\u2029]))+"
)
_PLAIN_RUN_FLOW = re.compile(
    "(?:[^\0 \t\r\n\x85\u2028\u2029:,\\[\\]{}]|:(?=[^\0 \t\r\n\x85\u2028\u2029,\\[\\]{}]))+"
)
# URI characters of a tag (ns-uri-char, '%' escapes apart); a tag shorthand stops at
# the flow indicators ',', '[' and ']' (ns-tag-char), a verbatim tag does not.
_URI_RUN = re.compile(r"[0-9A-Za-z\-;/?:@&=+$,_.!~*'()\[\]]+")
_TAG_RUN = re.compile(r"[0-9A-Za-z\-;/?:@&=+$_.!~*'()]+")
_TAG_HANDLE = re.compile(r"![0-9A-Za-z_\-]*!")
# An anchor or alias name: ns-anchor-char, any non-space character but flow indicators.
_ANCHOR_NAME = re.compile("[^\0 \t\r\n\x85\u2028\u2029,\\[\\]{}]+")
_COMMENT = re.compile("#[^\0\r\n\x85\u2028\u2029]*")
_SPACES = re.compile("[ ]*")
_DIGITS = re.compile("[0-9]+")
_WHITE = re.compile("[ \t]*")
# After a block scalar: blank lines up to the next content line, then a tab in that
# line's leading white space (YAML 1.2.2 l-chomped-empty and l-trail-comments indent
# with spaces only). Atomic breaks: were "\r\n" also two, k of them split 2**k ways.
_TAB_AFTER_BLOCK_SCALAR = re.compile("(?:[ ]*+(?>\r\n|[\r\n\x85\u2028\u2029]))*+[ ]*\t")


class RefereeParser(Reader, Scanner, Parser):
    """Events of a ``str`` payload read by the YAML 1.2 referee (the same interface as
    libyaml's ``CParser``'s event methods: ``check_event``, ``get_event``, ``dispose``):
    PyYAML's scanner with the YAML 1.2.2 rules listed in the module docstring.

    YAML gives an empty node no position; in flow context the referee places it where
    the next token starts (as libyaml does), in block context where the indicator
    before it ends."""

    def __init__(self, stream: str) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        self.flow_states = (
            self.parse_flow_sequence_entry_mapping_value,
            self.parse_flow_sequence_entry_mapping_end,
            self.parse_flow_mapping_value,
            self.parse_flow_mapping_key,
        )
        self.tab_before_token = -1  # offset of a tab in the white space before this token
        self.tab_keys: dict[int, int] = {}  # token number of a possible key -> its tab
        self.after_json_node = False  # the last token was a quoted scalar or ] or }
        self.notes: list[Note] = []  # warnings of the directives (YAML 1.2.2 spec 6.8.1)
        self.max_flow = sys.maxsize  # no simple key saved deeper (a reader's depth limit)
        self.flow_kinds: list[bool] = []  # each open flow collection: a mapping?

    def check_printable(self, data: str) -> None:
        """PyYAML's check, with DEL, the C1 controls, U+FFFE and U+FFFF let through:
        quoted scalars may hold them (YAML 1.2.2 5.1 nb-json), and read_yaml refuses
        any that stands outside one before the referee reads (``yaml12._stray``)."""
        found = NOT_PRINTABLE.search(data)
        if found is not None:
            raise yaml.reader.ReaderError(
                self.name, found.start(), ord(found.group()), "unicode",
                "special characters are not allowed",
            )  # fmt: skip

    # Reader and scanner state, typed here for mypy (PyYAML's classes are untyped).
    buffer: str
    pointer: int
    index: int
    column: int
    flow_level: int
    indent: int
    allow_simple_key: bool
    possible_simple_keys: dict[int, Any]
    tokens: list[Any]
    state: Any

    def _skip(self, pattern: re.Pattern[str]) -> str:
        """Moves past the run of ``pattern`` here (it may be empty) and returns it."""
        match = pattern.match(self.buffer, self.pointer)
        run = "" if match is None else match.group()
        self.forward(len(run))
        return run

    def _line_break(self) -> str:
        return str(self.scan_line_break())  # type: ignore[no-untyped-call]

    def fetch_more_tokens(self) -> None:
        super().fetch_more_tokens()
        last = self.tokens[-1] if self.tokens else None
        self.after_json_node = isinstance(last, FlowSequenceEndToken | FlowMappingEndToken) or (
            isinstance(last, ScalarToken) and last.style in ("'", '"')
        )

    def scan_to_next_token(self) -> None:
        if self.index == 0 and self.peek() == "\ufeff":
            self.forward()
        tab_at, crossed = -1, False
        while True:
            before = self.index
            white = self._skip(_WHITE)
            tab_at = before + white.index("\t") if "\t" in white else -1
            if self.peek() == "#":
                if self.column > 0 and self.buffer[self.pointer - 1] not in " \t":
                    # s-b-comment: white space separates a comment from a token before it.
                    raise SyntaxProblem("comment_space", self.index)
                self._skip(_COMMENT)
            if not self._line_break():
                break
            crossed = True
            if not self.flow_level:
                self.allow_simple_key = True
        if crossed:
            self._flow_line_indented("]}\0")
        self.tab_before_token = tab_at
        if tab_at >= 0 and not self.flow_level and self.peek() != "\0":
            line = self.buffer[self.pointer - self.column : self.pointer]
            if not line.strip(" \t"):
                # The tab is in the line's leading white space: only spaces indent.
                spaces = len(line) - len(line.lstrip(" "))
                if spaces <= self.indent:
                    raise SyntaxProblem("tab_indent", tab_at)

    def _flow_line_indented(self, exempt: str) -> None:
        """s-flow-line-prefix: at the start of a flow collection's line, its content goes
        past the indentation of the block collection holding it (``exempt``: what may
        stand at that column, a closing bracket among them)."""
        if self.flow_level and self.column <= self.indent and self.peek() not in exempt:
            raise SyntaxProblem("flow_indent", self.index)

    def _no_tab_before_block_indicator(self) -> None:
        if not self.flow_level and self.tab_before_token >= 0:
            raise SyntaxProblem("tab_before_block", self.tab_before_token)

    def fetch_block_entry(self) -> None:
        self._no_tab_before_block_indicator()
        super().fetch_block_entry()

    def fetch_key(self) -> None:
        self._no_tab_before_block_indicator()
        super().fetch_key()

    def fetch_value(self) -> None:
        if not self.flow_level:
            key = self.possible_simple_keys.get(self.flow_level)
            if key is None:
                self._no_tab_before_block_indicator()
            elif key.token_number in self.tab_keys:
                raise SyntaxProblem("tab_before_block", self.tab_keys[key.token_number])
        super().fetch_value()

    # One possible simple key per open flow level, saved before every deeper level
    # opened: positions and token numbers grow with the level, so the lowest level's
    # key is the first and the stale ones come first. These two look at that key
    # alone where PyYAML loops over all (the same answers).
    def next_possible_simple_key(self) -> int | None:
        keys = self.possible_simple_keys
        return keys[min(keys)].token_number if keys else None

    def stale_possible_simple_keys(self) -> None:
        keys = self.possible_simple_keys
        if keys:
            first = keys[min(keys)]
            if first.line == self.line and self.index - first.index <= 1024:
                return  # the first key is not stale: no later one is
            # An implicit key of a flow mapping's entry may span lines and be longer
            # (ns-flow-map-yaml-key-entry): only block and flow-sequence keys go stale.
            kinds = self.flow_kinds  # shorter than the level after a stray ']' or '}'
            kept = {n: k for n, k in keys.items() if 0 < n <= len(kinds) and kinds[n - 1]}
            for level in kept:
                del keys[level]
            super().stale_possible_simple_keys()
            keys.update(kept)

    def fetch_flow_collection_start(self, token_class: Any) -> None:
        super().fetch_flow_collection_start(token_class)
        self.flow_kinds.append(token_class is FlowMappingStartToken)

    def fetch_flow_collection_end(self, token_class: Any) -> None:
        super().fetch_flow_collection_end(token_class)
        if self.flow_kinds:
            self.flow_kinds.pop()

    def save_possible_simple_key(self) -> None:
        # A thousand "[" made a line cost the square of its depth (a key per level
        # looked at per token) before the depth limit stopped it. Past ``max_flow``
        # levels no key is saved: one could only make a mapping deeper than the
        # limit, after the event the limit refuses, so no result changes.
        if self.flow_level > self.max_flow:
            return
        super().save_possible_simple_key()
        if self.tab_before_token >= 0 and not self.flow_level:
            key = self.possible_simple_keys.get(self.flow_level)
            if key is not None and key.index == self.index:
                self.tab_keys[key.token_number] = self.tab_before_token

    def check_key(self) -> bool:
        following = self.peek(1)
        return following in _BLANK or (bool(self.flow_level) and following in _FLOW_INDICATORS)

    def check_value(self) -> bool:
        following = self.peek(1)
        if not self.flow_level:
            return following in _BLANK
        return following in _BLANK or following in _FLOW_INDICATORS or self.after_json_node

    def check_plain(self) -> bool:
        first = self.peek()
        if first not in _PLAIN_FIRST_BLOCKED:
            return True
        following = self.peek(1)
        return (
            first in "-?:"
            and following not in _BLANK
            and not (self.flow_level and following in _FLOW_INDICATORS)
        )

    def scan_plain(self) -> ScalarToken:
        run = _PLAIN_RUN_FLOW if self.flow_level else _PLAIN_RUN_BLOCK
        start_mark = self.get_mark()
        end_mark = start_mark
        min_column = self.indent + 1
        parts: list[str] = []
        gap: list[str] = []
        while self.peek() != "#":
            match = run.match(self.buffer, self.pointer)
            if match is None:
                break
            self.allow_simple_key = False
            parts.extend(gap)
            parts.append(match.group())
            self.forward(match.end() - match.start())
            end_mark = self.get_mark()
            gap = self.scan_plain_spaces(min_column, start_mark)
            if not gap or (not self.flow_level and self.column < min_column):
                break
        return ScalarToken("".join(parts), True, start_mark, end_mark)

    def scan_plain_spaces(self, indent: int, start_mark: Any) -> list[str]:
        """The white space after a run of a plain scalar, as the text it folds to; empty
        when the scalar ends here (a document marker, or nothing but white space)."""
        white = self._skip(_WHITE)
        if self.peek() not in _BREAKS:
            return [white] if white else []
        first_break = self._line_break()
        self.allow_simple_key = True
        breaks: list[str] = []
        while True:
            if self._at_document_marker():
                return []
            self._skip(_SPACES)
            rest = _WHITE.match(self.buffer, self.pointer)
            if rest is not None and "\t" in rest.group():
                blank_line = self.buffer[rest.end()] in "\0" + _BREAKS
                # Tabs after the indentation separate; a line of white space is empty.
                if self.flow_level or self.column >= indent or blank_line:
                    self._skip(_WHITE)
            if self.peek() not in _BREAKS:
                break
            breaks.append(self._line_break())
        self._flow_line_indented("]}#\0")  # a comment line: scan_to_next_token asks after it
        if first_break != "\n":
            return [first_break, *breaks]
        return [*breaks] if breaks else [" "]

    def _at_document_marker(self) -> bool:
        return self.prefix(3) in ("---", "...") and self.peek(3) in _BLANK

    def scan_anchor(self, token_class: Any) -> Any:
        start_mark = self.get_mark()
        self.forward()  # '&' or '*'
        name = _ANCHOR_NAME.match(self.buffer, self.pointer)
        if name is None:
            raise SyntaxProblem("anchor_name", self.index)
        self.forward(name.end() - name.start())
        return token_class(name.group(), start_mark, self.get_mark())

    def scan_tag(self) -> TagToken:
        start_mark = self.get_mark()
        # A tag ends at white space, or in flow context also at a flow indicator.
        ends = _BLANK + (_FLOW_INDICATORS if self.flow_level else "")
        following = self.peek(1)
        handle: str | None
        if following == "<":
            self.forward(2)
            handle, suffix = None, self.scan_tag_uri("tag", start_mark)
            if self.peek() != ">":
                raise SyntaxProblem("tag", self.index)
            self.forward()
        elif following in ends:
            handle, suffix = None, "!"
            self.forward()
        else:
            named = _TAG_HANDLE.match(self.buffer, self.pointer)
            handle = named.group() if named is not None else "!"
            self.forward(len(handle))
            suffix = self.scan_tag_uri("tag", start_mark)
        if self.peek() not in ends:
            raise SyntaxProblem("tag", self.index)
        return TagToken((handle, suffix), start_mark, self.get_mark())

    def scan_tag_uri(self, name: str, start_mark: Any) -> str:
        verbatim = name != "tag" or self.buffer[self.pointer - 1] == "<"
        run = _URI_RUN if verbatim else _TAG_RUN
        parts: list[str] = []
        while True:
            match = run.match(self.buffer, self.pointer)
            if match is not None:
                parts.append(match.group())
                self.forward(match.end() - match.start())
            elif self.peek() == "%":
                parts.append(self.scan_uri_escapes(name, start_mark))
            else:
                break
        if not parts:
            raise SyntaxProblem("tag", self.index)
        return "".join(parts)

    def scan_block_scalar(self, style: str) -> ScalarToken:
        if not self.flow_level and self.column <= self.indent:  # s-separate(n+1, c)
            raise SyntaxProblem("block_scalar_column", self.index)
        token: ScalarToken = super().scan_block_scalar(style)
        tab = _TAB_AFTER_BLOCK_SCALAR.match(self.buffer, self.pointer)
        if tab is not None:
            raise SyntaxProblem("tab_indent", self.index + tab.end() - 1 - tab.start())
        return token

    def scan_block_scalar_indicators(self, start_mark: Any) -> tuple[bool | None, int | None]:
        chomping: bool | None = None
        increment: int | None = None
        for _ in range(2):
            ch = self.peek()
            if ch in "+-" and chomping is None:
                chomping = ch == "+"
            elif ch in "0123456789" and increment is None:
                if ch == "0":
                    raise SyntaxProblem("block_header", self.index)
                increment = int(ch)
            else:
                break
            self.forward()
        if self.peek() not in _BLANK:
            raise SyntaxProblem("block_header", self.index)
        return chomping, increment

    def scan_block_scalar_ignored_line(self, start_mark: Any) -> None:
        self._skip(_WHITE)
        if self.peek() == "#":
            self._skip(_COMMENT)
        if self.peek() not in "\0" + _BREAKS:
            raise SyntaxProblem("block_header", self.index)
        self._line_break()

    def process_empty_scalar(self, mark: Any) -> Any:
        if self.state in self.flow_states:
            mark = self.peek_token().start_mark  # type: ignore[no-untyped-call]
        return Parser.process_empty_scalar(self, mark)

    def scan_flow_scalar_non_spaces(self, double: bool, start_mark: Any) -> list[str]:
        try:
            chunks: list[str] = super().scan_flow_scalar_non_spaces(double, start_mark)
        except (ValueError, OverflowError):
            # chr() of a \U escape above U+10FFFF (OverflowError above 0x7FFFFFFF): the
            # reader stands on the escape's first digit.
            at = self.index - 2
            escape = self.buffer[self.pointer - 2 : self.pointer + 8]
            raise SyntaxProblem("escape_range", at, escape) from None
        return chunks

    def scan_yaml_directive_number(self, start_mark: Any) -> Any:
        # Digits as text: int() of more than 4300 digits raises an unmarked ValueError.
        run = _DIGITS.match(self.buffer, self.pointer)
        if run is None:
            raise SyntaxProblem("directive", self.index)
        digits = run.group()
        self.forward(len(digits))
        return digits

    def process_directives(self) -> tuple[Any, Any]:
        return read_directives(self)

    def parse_implicit_document_start(self) -> Any:
        # l-document-suffix may come before any document: a lone '...' is an empty stream.
        while self.check_token(DocumentEndToken):
            self._take()
        return super().parse_implicit_document_start()  # type: ignore[no-untyped-call]

    # YAML 1.2.2 allows an empty implicit key (a null key) wherever a key may stand.

    def parse_block_mapping_key(self) -> Any:
        if self.check_token(ValueToken):
            self.state = self.parse_block_mapping_value
            return self.process_empty_scalar(self._peek().start_mark)
        return super().parse_block_mapping_key()  # type: ignore[no-untyped-call]

    def parse_flow_mapping_key(self, first: bool = False) -> Any:
        if not first and self.check_token(FlowEntryToken):
            self._take()
            first = True
        if first and self.check_token(ValueToken):
            self.state = self.parse_flow_mapping_value
            return self.process_empty_scalar(self._peek().start_mark)
        return super().parse_flow_mapping_key(first=first)

    def parse_flow_sequence_entry(self, first: bool = False) -> Any:
        if not first and self.check_token(FlowEntryToken):
            self._take()
            first = True
        if first and self.check_token(ValueToken):
            token = self._peek()
            self.state = self._flow_pair_empty_key
            return MappingStartEvent(
                None, None, True, token.start_mark, token.end_mark, flow_style=True
            )
        return super().parse_flow_sequence_entry(first=first)

    def _flow_pair_empty_key(self) -> Any:
        """The empty key of a single-pair mapping ``[: x]`` in a flow sequence."""
        self.state = self.parse_flow_sequence_entry_mapping_value
        return self.process_empty_scalar(self._peek().start_mark)

    def _take(self) -> Any:
        return self.get_token()  # type: ignore[no-untyped-call]

    def _peek(self) -> Any:
        return self.peek_token()  # type: ignore[no-untyped-call]
