"""YAML 1.2 core-schema reader on an event stream (docs/protocol.md §4.1).

PyYAML only tokenizes and parses here; resolving scalars and building values is ours,
so the YAML 1.1 habits of PyYAML's own constructors (``yes`` -> True, ``9:16`` -> 556,
dates) never apply. The events come from the YAML 1.2 referee
(:mod:`replykit.questionnaire.payload.yaml_referee`), or, as a fast path, from PyYAML's C parser
when
the payload holds nothing on which the two are known to differ and the C parser reads
it without error; the result is the same either way (§1).
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterator, Sequence
from types import MappingProxyType
from typing import Any, Protocol

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from replykit.codes.payload import (
    YAML_ALIAS,
    YAML_DUPLICATE_KEY,
    YAML_EMPTY,
    YAML_JSON_PAYLOAD,
    YAML_KEY_NOT_STRING,
    YAML_LONE_SURROGATE,
    YAML_MULTIPLE_DOCUMENTS,
    YAML_NUMBER_TOO_LARGE,
    YAML_ROOT_NOT_MAPPING,
    YAML_SYNTAX,
    YAML_TAG,
    YAML_TOO_DEEP,
)
from replykit.diagnostics import Finding, Path, format_path
from replykit.questionnaire.payload.describe import yaml_kind
from replykit.questionnaire.payload.results import Read, Span, finding_sink, lazy_spans
from replykit.questionnaire.payload.yaml_errors import kind_finding, syntax_finding
from replykit.questionnaire.payload.yaml_loader import choose_loader
from replykit.questionnaire.payload.yaml_referee import RefereeParser

# Where libyaml and YAML 1.2.2 (or the referee, where YAML leaves a position open) are
# known to read a payload differently without libyaml reporting an error, found by the
# differential test (docs/protocol.md §4.1). Such payloads go to the referee directly;
# so does every payload libyaml reports an error in.
_COLON_FIRST = re.compile(r"(?<![^ \r\n\[{,]):[^ \t\r\n\x85\u2028\u2029,\[\]{}]")
_COLON_AFTER = (" :", "\n:", "\r:", "[:", "{:", ",:")
_ODD_ANCHOR = re.compile(
    r"(?<![^ \r\n\[{,])[&*][0-9A-Za-z_\-]*[^0-9A-Za-z_\- \t\r\n\x85\u2028\u2029,\[\]{}]"
)
_HASH_IN_HEADER = re.compile(r"[|>][0-9+\-]{0,2}#")
_BLANK_OR_FLOW = " \t\r\n\x85\u2028\u2029,[]{}"
# An indicator '-', '?' or ':' standing alone at the start of a token, followed by a
# flow indicator, white space or the end: in flow context YAML 1.2.2 reads it as an
# indicator or refuses it, never as a plain scalar, where libyaml reads '-]' as the
# scalar '-'. ('-' before white space is a block entry to libyaml too: an error in flow
# context, so the referee decides it anyway.)
_LONE_INDICATOR = re.compile(
    "(?<![^ \t\r\n\x85\u2028\u2029\\[{,:?])"
    "(?:-[,\\[\\]{}]|[?:](?:[ \t\r\n\x85\u2028\u2029,\\[\\]{}]|\\Z))"
)
# '#' right after a quoted scalar, a flow indicator or ':': libyaml reads a comment
# there, YAML 1.2.2 asks for white space before one.
_HASH_UNSPACED = re.compile("[\"'\\[\\]{},:]#")


def _c_may_differ(payload: str) -> bool:
    """Whether ``payload`` holds something libyaml may read otherwise than the referee
    without an error: a tab (libyaml takes some as indentation and refuses some
    separation); a byte order mark (libyaml leaves a leading one out of its offsets);
    '?' or ':' starting a plain scalar in flow context (libyaml reads an indicator); an
    explicit key with no key in flow context (libyaml places the empty key elsewhere);
    an anchor or alias whose name holds a character other than a letter, digit, '-' or
    '_' (libyaml ends the name there); '#' right after a block scalar header, a quoted
    scalar, a flow indicator or ':' (libyaml reads a comment); a lone '-', '?' or ':'
    before a flow indicator, white space or the end (libyaml reads '-' as a scalar in
    flow context). Cheap substring tests first: typical forms hold none of these."""
    if "\t" in payload or "\ufeff" in payload:
        return True
    if ("&" in payload or "*" in payload) and _ODD_ANCHOR.search(payload):
        return True
    if (
        payload.startswith(":") or any(pair in payload for pair in _COLON_AFTER)
    ) and _COLON_FIRST.search(payload):
        return True
    if "#" in payload and (_HASH_IN_HEADER.search(payload) or _HASH_UNSPACED.search(payload)):
        return True
    if ("[" in payload or "{" in payload) and _LONE_INDICATOR.search(payload):
        return True  # only flow context reads these otherwise
    at = payload.find("?")
    while at >= 0:
        before = payload[at - 1] if at else "\n"
        after = payload[at + 1 : at + 2] or "\n"
        if before in " \r\n[{," and after not in _BLANK_OR_FLOW:
            return True  # '?x' at the start of a scalar
        if after in _BLANK_OR_FLOW:
            back = at - 1
            while back >= 0 and payload[back] in " \r\n":
                back -= 1
            if back >= 0 and payload[back] in "[{,:":
                return True  # '?' as an explicit key indicator after a flow indicator
        at = payload.find("?", at + 1)
    return False


# YAML 1.2.2 spec 10.3.2 (core schema), plain scalars only.
_NULL = frozenset({"", "~", "null", "Null", "NULL"})
_TRUE = frozenset({"true", "True", "TRUE"})
_FALSE = frozenset({"false", "False", "FALSE"})
_INT10 = re.compile(r"[-+]?[0-9]+")
_INT8 = re.compile(r"0o[0-7]+")
_INT16 = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?(?:\.inf|\.Inf|\.INF)")
_NAN = frozenset({".nan", ".NaN", ".NAN"})

# YAML 1.2 c-printable: anything else is refused by both PyYAML readers; checked here
# first so the offset is ours (libyaml reports bytes) and lone surrogates never reach
# the C parser's UTF-8 encoder.
_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

# A surrogate code point in a value can only come from a "\ud800"-style escape: raw ones
# are not printable. YAML 1.2 escapes denote characters, and surrogates are none.
_SURROGATE = re.compile("[\ud800-\udfff]")

# Python's default int(str) digit limit (a guard against quadratic conversion).
_MAX_INT_DIGITS = 4300


class _Sink(Protocol):
    """Where findings go: a list, or a collector that keeps only the first ones."""

    def append(self, finding: Finding, /) -> None: ...


class _Unset:
    """Marker: a mapping frame is waiting for its next key."""


_NO_KEY = _Unset()
# Every non-string plain scalar of the core schema starts with one of these.
_SPECIAL_FIRST = frozenset("0123456789+-.~nNtTfF")


def resolve_plain(text: str) -> tuple[Any, bool]:
    """Resolve a plain (unquoted, untagged) scalar with the YAML 1.2 core schema.

    Returns ``(value, ok)``: ``value`` is ``None``, ``bool``, ``int``, ``float`` or the
    text itself; ``ok`` is False only for a decimal integer too long for Python to
    convert (more than 4300 digits), then ``value`` is the float reading.
    """
    if not text or text[0] not in _SPECIAL_FIRST:
        return (None, True) if not text else (text, True)  # fast path: plainly a string
    if text in _NULL:
        return None, True
    if text in _TRUE:
        return True, True
    if text in _FALSE:
        return False, True
    if _INT10.fullmatch(text):
        if len(text) - (text[0] in "+-") > _MAX_INT_DIGITS:
            return float(text), False
        try:
            return int(text, 10), True
        except ValueError:  # a lower limit set with sys.set_int_max_str_digits
            return float(text), False
    if _INT8.fullmatch(text):
        return int(text[2:], 8), True
    if _INT16.fullmatch(text):
        return int(text[2:], 16), True
    if _FLOAT.fullmatch(text):
        return float(text), True
    if _INF.fullmatch(text):
        return (-math.inf if text.startswith("-") else math.inf), True
    if text in _NAN:
        return math.nan, True
    return text, True


def _freeze_scalar(value: Any) -> Any:
    # Equality of resolved keys: the kind matters (true is not 1), NaN equals NaN.
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (yaml_kind(value), value)


class _Frame:
    """One open collection while building (mutable, local to one read)."""

    __slots__ = (
        "end",
        "flow",
        "frozen",
        "items",
        "key",
        "key_frozen",
        "key_span",
        "path",
        "seen",
        "start",
    )

    def __init__(self, items: Any, path: Path | None, start: int, flow: bool) -> None:
        self.items = items
        self.path = path  # None inside a complex key: not addressable
        self.start = start
        self.end = start
        self.flow = flow
        self.key: Any = _NO_KEY
        self.key_span: Span = (start, start)
        self.key_frozen: Any = None
        self.seen: set[Any] = set()
        self.frozen: list[Any] | None = [] if path is None else None


def _index(mark: Any) -> int:
    return int(mark.index) if mark is not None else 0


def _span(event: Event) -> Span:
    return _index(event.start_mark), _index(event.end_mark)


class _Stream:
    """First pass, as an iterator over the events of the first document (so that no
    caller need hold them all), enforcing the depth and single-document rules.

    Once iterated: ``finding`` is what stopped the reading (``yaml.syntax``,
    ``yaml.too_deep``, ``yaml.multiple_documents``) or ``None``; ``complete`` tells
    whether the first document was read whole."""

    def __init__(self, payload: str, max_depth: int, parser: type[Any]) -> None:
        self.payload = payload
        self.max_depth = max_depth
        self.parser = parser  # RefereeParser or yaml.CBaseLoader
        self.finding: Finding | None = None
        self.complete = False

    def __iter__(self) -> Iterator[Event]:
        payload = self.payload
        depth = 0
        documents = 0
        loader = self.parser(payload)
        check_event, get_event = loader.check_event, loader.get_event
        try:
            while check_event():
                event = get_event()
                kind = type(event)  # PyYAML's event classes are used as they are
                if kind is DocumentStartEvent:
                    documents += 1
                    if documents > 1:
                        start, _ = _span(event)
                        self.finding = YAML_MULTIPLE_DOCUMENTS.finding(
                            start=start, end=min(start + 3, len(payload))
                        )
                        break
                elif kind is MappingStartEvent or kind is SequenceStartEvent:
                    depth += 1
                    if depth > self.max_depth:
                        start, end = _span(event)
                        self.finding = YAML_TOO_DEEP.finding(
                            start=start,
                            end=max(end, min(start + 1, len(payload))),
                            limit=self.max_depth,
                        )
                        return
                elif kind is MappingEndEvent or kind is SequenceEndEvent:
                    depth -= 1
                yield event
        except (yaml.YAMLError, ValueError) as error:
            self.finding = syntax_finding(payload, error)
            return
        finally:
            loader.dispose()
        self.complete = True


def _node_event_findings(event: NodeEvent, path: Path) -> list[Finding]:
    """``yaml.alias``/``yaml.tag`` for one node; ``details["kind"]`` says which of
    ``alias``, ``anchor``, ``tag`` (an alias node has no value of its own)."""
    start, end = _span(event)
    out: list[Finding] = []
    if isinstance(event, AliasEvent):
        out.append(
            YAML_ALIAS.finding(
                path,
                start=start,
                end=end,
                details={"kind": "alias"},
                anchor=event.anchor,
            )
        )
        return out
    if event.anchor is not None:
        out.append(
            YAML_ALIAS.finding(
                path,
                start=start,
                end=end if isinstance(event, ScalarEvent) else start + 1,
                variant="anchor",
                details={"kind": "anchor"},
                anchor=event.anchor,
            )
        )
    tag = getattr(event, "tag", None)
    if tag is not None:
        out.append(
            YAML_TAG.finding(
                path,
                start=start,
                end=end if isinstance(event, ScalarEvent) else start + 1,
                details={"kind": "tag"},
                tag=tag,
            )
        )
    return out


def _lone_surrogate(event: ScalarEvent, path: Path) -> Finding | None:
    """``yaml.lone_surrogate`` at ``path`` for a double-quoted scalar whose escapes
    denote a surrogate code point (``"\\ud800"``, also ``"\\ud800\\udc00"``: two
    escapes are two code points in YAML, not a pair), else ``None``."""
    if event.style != '"':
        return None
    found = _SURROGATE.search(event.value)
    if found is None:
        return None
    start, end = _span(event)
    shown = f"U+{ord(found.group()):04X}"
    return YAML_LONE_SURROGATE.finding(path, start=start, end=end, shown=shown)


def _scalar_value(event: ScalarEvent, findings: _Sink) -> Any:
    plain = event.style in (None, "")
    if not plain:
        return event.value  # quoted and block scalars are strings
    value, ok = resolve_plain(event.value)
    if not ok:
        start, end = _span(event)
        findings.append(YAML_NUMBER_TOO_LARGE.finding(start=start, end=end, limit=_MAX_INT_DIGITS))
    return value


def read_yaml(
    payload: str,
    *,
    max_depth: int = 64,
    loader: str | None = None,
    max_findings: int | None = None,
    quiet: Sequence[Span] = (),
) -> Read:
    """Read one YAML payload with the YAML 1.2 core schema (§4).

    Input: the payload text. Output: :class:`Read` whose ``value`` is the root mapping as
    ``dict[str, Any]`` (lists, str, int, float, bool, None inside; entries whose key is
    not a string are left out), or ``None`` when nothing could be built; ``spans`` and
    ``key_spans`` map paths (str keys, 0-based int indices) to code-point offsets into
    ``payload``; ``aliases`` holds the path of every alias node (a ``None`` in
    ``value``). Only plain scalars are resolved (null, bool, int incl. ``0o``/``0x``,
    float, ``.inf``, ``.nan``); quoted and block scalars are strings.

    Findings (all errors): ``yaml.empty`` (no document), ``yaml.syntax``,
    ``yaml.multiple_documents``, ``yaml.too_deep`` (more than ``max_depth`` nested
    collections, checked on the event stream before building), ``yaml.alias`` (anchor or
    alias), ``yaml.tag`` (any explicit tag, ``!!str`` too), ``yaml.duplicate_key``
    (equal resolved keys), ``yaml.key_not_string``, ``yaml.number_too_large``,
    ``yaml.lone_surrogate`` (a double-quoted scalar with a ``\\ud800``-style escape),
    ``yaml.json_payload`` (root is a flow collection), ``yaml.root_not_mapping``.
    ``yaml.syntax`` has replykit's own message and position (YAML 1.2.2 decides); one
    that starts inside a ``(start, end)`` span of ``quiet`` is left out (a caller that
    reports those lines itself, §8).

    ``max_findings`` (§1): keep only the first that many findings in ``findings`` and
    count the rest, all of which come after them, in ``overflow``, so a payload of 10^5
    aliases never holds 10^5 findings; ``None`` keeps every one.

    ``loader`` (``"auto"``, ``"c"``, ``"pure"``; ``None`` reads the environment variable
    ``REPLYKIT_YAML_LOADER`` at call time) picks the event source; it changes no result.
    Raises ``ValueError`` only for a bad loader name, or ``"c"`` without PyYAML's C
    extension. Otherwise never raises; time and memory linear in ``len(payload)``.
    """
    chosen = choose_loader(loader)
    limit = sys.maxsize if max_findings is None else max_findings
    bad = _NOT_PRINTABLE.search(payload)
    if bad is not None:
        found = kind_finding(payload, "not_printable", bad.start())
        return Read(value=None, findings=() if _is_quiet(found, quiet) else (found,))
    if chosen == "c" and not _c_may_differ(payload):
        read = _read(payload, max_depth, yaml.CBaseLoader, limit, quiet)
        if read is not None:
            return read
    # The referee decides every payload the C parser cannot read, or must not (libyaml
    # also scans ahead and caps flow nesting at 1000 itself, so its errors can pre-empt
    # the depth limit).
    read = _read(payload, max_depth, RefereeParser, limit, quiet)
    assert read is not None  # the referee's reading is final
    return read


def _is_quiet(finding: Finding, quiet: Sequence[Span]) -> bool:
    at = finding.start
    return (
        finding.code == YAML_SYNTAX.name
        and at is not None
        and any(start <= at <= end for start, end in quiet)
    )


def _read(
    payload: str, max_depth: int, parser: type[Any], limit: int, quiet: Sequence[Span]
) -> Read | None:
    """One reading with ``parser``; ``None`` when the parser is the C one and it did not
    read the first document whole (the referee then reads the payload)."""
    stream = _Stream(payload, max_depth, parser)
    events = iter(stream)
    seen: list[Event] = []
    plain = _plain_build(events, seen)
    if plain is not None and stream.complete and stream.finding is None:
        # Nothing to report: the spans are built only if a caller asks for them.
        spans, key_spans = lazy_spans(lambda: _built_spans(seen))
        return Read(value=plain, spans=spans, key_spans=key_spans)
    # Events before an error are still built, bounded by the depth check, so that
    # aliases, tags and duplicate keys there are reported too. The rest of the stream is
    # built as it is read, not held.
    sink = finding_sink(limit)
    builder = _Builder(sink)
    for event in seen:
        builder.feed(event)
    seen.clear()
    for event in events:
        builder.feed(event)
    if parser is not RefereeParser and not stream.complete:
        return None
    if stream.finding is not None and not _is_quiet(stream.finding, quiet):
        sink.append(stream.finding)
    aliases = frozenset(builder.aliases)
    if not stream.complete:
        return Read(value=None, findings=tuple(sink), overflow=sink.overflow, aliases=aliases)
    if not builder.has_root:
        # No node was read, so the builder found nothing: no cap to apply here.
        empty = YAML_EMPTY.finding(start=0, end=len(payload), variant="no_content")
        return Read(value=None, findings=(empty, *sink))
    root = builder.root
    root_span = builder.spans.get((), (0, len(payload)))
    if builder.root_flow:
        sink.append(YAML_JSON_PAYLOAD.finding(start=root_span[0], end=root_span[1]))
    elif not isinstance(root, dict):
        sink.append(
            YAML_ROOT_NOT_MAPPING.finding(
                start=root_span[0], end=root_span[1], actual=yaml_kind(root)
            )
        )
    return Read(
        value=root,
        # The builder is this call's own: its maps are wrapped, not copied.
        spans=MappingProxyType(builder.spans),
        key_spans=MappingProxyType(builder.key_spans),
        findings=tuple(sink),
        overflow=sink.overflow,
        aliases=aliases,
    )


_NO_VALUE = _Unset()


def _plain_build(events: Iterator[Any], seen: list[Any]) -> dict[str, Any] | None:
    """Fast path of the build: the value of a document whose root is a block mapping and
    that holds nothing :class:`_Builder` would report (no anchor, alias, tag, duplicate
    or non-string key, oversized integer); ``None`` otherwise, and the full build runs.
    The same values as :class:`_Builder` builds, without spans. Reads ``events`` up to
    the first event that needs the full build, appending each to ``seen``."""
    stack: list[Any] = []
    keys: list[Any] = []
    root: Any = None
    for event in events:
        seen.append(event)
        kind = type(event)
        if kind is ScalarEvent:
            if event.anchor is not None or event.tag is not None:
                return None
            if event.style in (None, ""):
                value, ok = resolve_plain(event.value)
                if not ok:
                    return None
            elif event.style == '"' and _SURROGATE.search(event.value):
                return None  # yaml.lone_surrogate: the full build reports it
            else:
                value = event.value
        elif kind is MappingStartEvent or kind is SequenceStartEvent:
            if event.anchor is not None or event.tag is not None:
                return None
            if not stack and (kind is SequenceStartEvent or event.flow_style):
                return None  # root findings need spans: the full build reports them
            stack.append({} if kind is MappingStartEvent else [])
            keys.append(_NO_VALUE)
            continue
        elif kind is MappingEndEvent or kind is SequenceEndEvent:
            value = stack.pop()
            keys.pop()
        elif kind is AliasEvent:
            return None
        else:
            continue  # stream and document events
        if not stack:
            root = value
            continue
        top = stack[-1]
        if type(top) is list:
            top.append(value)
        elif keys[-1] is _NO_VALUE:
            if type(value) is not str or value in top:
                return None
            keys[-1] = value
        else:
            top[keys[-1]] = value
            keys[-1] = _NO_VALUE
    return root if type(root) is dict else None


def _built_spans(events: list[Event]) -> tuple[dict[Path, Span], dict[Path, Span]]:
    builder = _Builder([])
    for event in events:
        builder.feed(event)
    return builder.spans, builder.key_spans


class _Builder:
    """Second pass: builds values from depth-checked events, iteratively; findings go to
    ``findings`` (a list, or a collector that keeps only the first ones)."""

    def __init__(self, findings: _Sink) -> None:
        self.findings = findings
        self.stack: list[_Frame] = []
        self.spans: dict[Path, Span] = {}
        self.key_spans: dict[Path, Span] = {}
        self.aliases: set[Path] = set()
        self.root: Any = None
        self.has_root = False
        self.root_flow = False  # the root is a flow collection

    def _child_path(self) -> Path | None:
        if not self.stack:
            return ()
        top = self.stack[-1]
        if top.path is None:
            return None
        if isinstance(top.items, list):
            return (*top.path, len(top.items))
        if top.key is _NO_KEY or not isinstance(top.key, str):
            return None  # a key, or the value of a non-string key
        return (*top.path, top.key)

    def _place(self) -> Path:
        """The path of the innermost addressable collection (for a key's findings)."""
        return next((f.path for f in reversed(self.stack) if f.path is not None), ())

    def _needs_frozen(self) -> bool:
        # Frozen values compare keys for duplicates: only keys and what nests in them.
        if not self.stack:
            return False
        top = self.stack[-1]
        return top.frozen is not None or (isinstance(top.items, dict) and top.key is _NO_KEY)

    def feed(self, event: Event) -> None:
        if isinstance(event, NodeEvent) and (
            isinstance(event, AliasEvent)
            or event.anchor is not None
            or getattr(event, "tag", None) is not None
        ):
            path = self._child_path()
            if path is None:  # a key, or under a non-string key: the mapping's place
                path = self._place()
            if isinstance(event, AliasEvent):
                self.aliases.add(path)
            for finding in _node_event_findings(event, path):
                self.findings.append(finding)
        if isinstance(event, ScalarEvent):
            lone = _lone_surrogate(event, self._child_path() or self._place())
            if lone is not None:
                self.findings.append(lone)
            value = _scalar_value(event, self.findings)
            scalar_frozen = _freeze_scalar(value) if self._needs_frozen() else None
            self._deliver(value, _span(event), scalar_frozen)
        elif isinstance(event, AliasEvent):
            # Aliases are already errors; a placeholder keeps the build linear.
            self._deliver(None, _span(event), ("alias", event.anchor))
        elif isinstance(event, MappingStartEvent | SequenceStartEvent):
            items: Any = {} if isinstance(event, MappingStartEvent) else []
            start, _ = _span(event)
            if not self.stack and not self.has_root:
                self.root_flow = bool(event.flow_style)
            self.stack.append(_Frame(items, self._child_path(), start, bool(event.flow_style)))
        elif isinstance(event, MappingEndEvent | SequenceEndEvent):
            frame = self.stack.pop()
            # Block collections end at their last child (PyYAML's end mark is the next
            # token); flow ones at their closing bracket.
            end = _index(event.end_mark) if frame.flow else frame.end
            frozen: Any = None
            if frame.frozen is not None:
                kind = "seq" if isinstance(frame.items, list) else "map"
                frozen = (kind, tuple(frame.frozen) if kind == "seq" else frozenset(frame.frozen))
            self._deliver(frame.items, (frame.start, end), frozen)

    def _deliver(self, value: Any, span: Span, frozen: Any) -> None:
        path = self._child_path()
        if not self.stack:
            self.root = value
            self.has_root = True
            self.spans[()] = span
            return
        top = self.stack[-1]
        top.end = max(top.end, span[1])
        if isinstance(top.items, list):
            if path is not None:
                self.spans[path] = span
            top.items.append(value)
            if top.frozen is not None:
                top.frozen.append(frozen)
            return
        if top.key is _NO_KEY:
            top.key = value
            top.key_span = span
            top.key_frozen = frozen
            return
        self._entry(top, value, span, frozen, path)

    def _entry(self, top: _Frame, value: Any, span: Span, frozen: Any, path: Path | None) -> None:
        key, key_span = top.key, top.key_span
        key_frozen = top.key_frozen
        top.key = _NO_KEY
        if top.frozen is not None:
            top.frozen.append((key_frozen, frozen))
        if key_frozen in top.seen:
            self.findings.append(
                YAML_DUPLICATE_KEY.finding(
                    path if path is not None else (top.path or ()),
                    start=key_span[0],
                    end=key_span[1],
                    variant=None if top.path is None else "at",
                    key=_key_text(key),
                    where=None if top.path is None else _describe(top.path),
                )
            )
            return
        top.seen.add(key_frozen)
        if not isinstance(key, str):
            if isinstance(key_frozen, tuple) and key_frozen[:1] == ("alias",):
                return  # an alias key is already reported
            self.findings.append(
                YAML_KEY_NOT_STRING.finding(
                    top.path or (),
                    key=_key_text(key),
                    actual=yaml_kind(key),
                    start=key_span[0],
                    end=key_span[1],
                )
            )
            return
        top.items[key] = value
        if path is not None:
            self.spans[path] = span
            self.key_spans[path] = key_span


def _key_text(key: Any) -> str:
    if isinstance(key, str):
        return repr(key)
    if isinstance(key, dict | list):
        return f"(a {yaml_kind(key)})"
    return str(key).lower() if isinstance(key, bool) else repr(key)


def _describe(path: Path) -> str:
    return format_path(path) or "the top level"
