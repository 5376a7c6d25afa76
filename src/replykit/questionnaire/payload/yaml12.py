"""YAML 1.2 core-schema reader on an event stream (docs/protocol.md §4.1).

PyYAML only tokenizes and parses here; resolving scalars and building values is ours,
so the YAML 1.1 habits of PyYAML's own constructors (``yes`` -> True, ``9:16`` -> 556,
dates) never apply. The events come from the YAML 1.2 referee
(:mod:`~replykit.questionnaire.payload.yaml_referee`), or, as a fast path, from PyYAML's
C parser when the payload holds nothing on which the two are known to differ
(:mod:`~replykit.questionnaire.payload.yaml_differ`) and the C parser reads it without
error; the result is the same either way (§1). A payload with nothing to report is read
in one loop that builds only the value
(:func:`~replykit.questionnaire.payload.yaml_build.plain_read`); any other is read again
in full: this module reads the events (first pass: depth and document count) and
decides the root; :mod:`~replykit.questionnaire.payload.yaml_build` builds the values,
spans and findings (second pass) with the core schema of
:mod:`~replykit.questionnaire.payload.yaml_core`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Sequence
from types import MappingProxyType
from typing import Any

import yaml
from yaml.events import (
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from replykit.codes.payload import (
    YAML_DIRECTIVE_IGNORED,
    YAML_EMPTY,
    YAML_JSON_PAYLOAD,
    YAML_MULTIPLE_DOCUMENTS,
    YAML_ROOT_NOT_MAPPING,
    YAML_SYNTAX,
    YAML_TOO_DEEP,
)
from replykit.diagnostics import Finding
from replykit.questionnaire.payload.describe import yaml_kind
from replykit.questionnaire.payload.results import Read, Span, finding_sink, lazy_spans
from replykit.questionnaire.payload.yaml_build import Builder, built_spans, event_span, plain_read
from replykit.questionnaire.payload.yaml_core import resolve_plain as resolve_plain
from replykit.questionnaire.payload.yaml_differ import c_may_differ
from replykit.questionnaire.payload.yaml_errors import kind_finding, syntax_finding
from replykit.questionnaire.payload.yaml_loader import C_PARSER, choose_loader, open_parser
from replykit.questionnaire.payload.yaml_referee import NOT_PRINTABLE, RefereeParser

# The referee's NOT_PRINTABLE is checked here first, so the offset is ours (libyaml
# reports bytes) and lone surrogates never reach the C parser's encoder.
# Not c-printable, yet allowed inside quoted scalars (nb-json, "to ensure JSON
# compatibility", YAML 1.2.2 5.1): DEL, the C1 controls but NEL, U+FFFE and U+FFFF.
# PyYAML refuses them everywhere; a payload holding one is read by the referee, which
# lets them through (RefereeParser.NON_PRINTABLE), after _stray() has refused any
# that stands outside a quoted scalar.
_QUOTED_ONLY = re.compile("[\x7f-\x84\x86-\x9f\ufffe\uffff]")
# The same and a byte order mark (YAML 1.2.2 5.2: "byte order marks are also allowed
# inside quoted scalars"; one may open the payload too).
_STRAY = re.compile("[\x7f-\x84\x86-\x9f\ufffe\uffff\ufeff]")


class EventStream:
    """First pass, as an iterator over the events of the first document (so that no
    caller need hold them all), enforcing the depth and single-document rules.

    Once iterated: ``finding`` is what stopped the reading (``yaml.syntax``,
    ``yaml.too_deep``, ``yaml.multiple_documents``) or ``None``; ``complete`` tells
    whether the first document was read whole."""

    def __init__(self, payload: str, max_depth: int, parser: type[Any]) -> None:
        self.payload = payload
        self.max_depth = max_depth
        self.parser = parser  # RefereeParser or C_PARSER
        self.finding: Finding | None = None
        self.complete = False
        self.notes: list[Finding] = []  # yaml.directive_ignored warnings (referee only)

    def __iter__(self) -> Iterator[Event]:
        payload = self.payload
        depth = 0
        documents = 0
        loader = open_parser(self.parser, payload, self.max_depth)
        check_event, get_event = loader.check_event, loader.get_event
        try:
            while check_event():
                event = get_event()
                kind = type(event)  # PyYAML's event classes are used as they are
                if kind is DocumentStartEvent:
                    documents += 1
                    if documents > 1:
                        start, _ = event_span(event)
                        self.finding = YAML_MULTIPLE_DOCUMENTS.finding(
                            start=start, end=min(start + 3, len(payload))
                        )
                        break
                elif kind is MappingStartEvent or kind is SequenceStartEvent:
                    depth += 1
                    if depth > self.max_depth:
                        start, end = event_span(event)
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
            self.notes = [
                YAML_DIRECTIVE_IGNORED.finding(
                    start=start, end=end, variant=kind or None, shown=text
                )
                for kind, start, end, text in getattr(loader, "notes", ())
            ]
            loader.dispose()
        self.complete = True


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
    ``payload``; ``aliases`` holds the path of every alias node and of every scalar
    with an anchor or a tag below the root (each a ``None`` in ``value``; a key's,
    its mapping's path). Only plain scalars are resolved (null, bool, int incl. ``0o``/``0x``,
    float, ``.inf``, ``.nan``); quoted and block scalars are strings.

    Findings (errors): ``yaml.empty`` (no document, or only ``...``), ``yaml.syntax``,
    ``yaml.multiple_documents``, ``yaml.too_deep`` (more than ``max_depth`` nested
    collections, checked on the event stream before building), ``yaml.alias`` (anchor or
    alias), ``yaml.tag`` (any explicit tag, ``!!str`` too), ``yaml.duplicate_key``
    (equal resolved keys), ``yaml.key_not_string``, ``yaml.number_too_large``,
    ``yaml.lone_surrogate`` (a double-quoted scalar with a ``\\ud800``-style escape),
    ``yaml.json_payload`` (root is a flow collection), ``yaml.root_not_mapping``; and
    the one warning ``yaml.directive_ignored`` (``%YAML 1.3``, a reserved directive).
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
    at, quoted_only = _screen(payload, max_depth)
    if at is not None:
        kind = "byte_order_mark" if payload.startswith("\ufeff", at) else "not_printable"
        found = kind_finding(payload, kind, at)
        return Read(value=None, findings=() if _is_quiet(found, quiet) else (found,))
    return read_with(payload, _parser(payload, chosen, quoted_only), max_depth, limit, quiet)


def _screen(payload: str, max_depth: int) -> tuple[int | None, bool]:
    """Where the payload holds a character no YAML stream may hold there (the first
    one not printable, or one allowed only in a quoted scalar standing outside one), or
    ``None``; and whether it holds a character allowed only in a quoted scalar."""
    bad = NOT_PRINTABLE.search(payload)
    end = len(payload) if bad is None else bad.start()
    # nb-char excludes c-byte-order-mark and these: a byte order mark may open the
    # payload, and any of them may stand inside a quoted scalar (nb-json), nowhere else.
    quoted_only = (
        _QUOTED_ONLY.search(payload, 0, end) is not None or payload.find("\ufeff", 1, end) >= 0
    )
    stray = _stray(payload[:end], max_depth) if quoted_only else None
    if stray is not None or bad is not None:
        return (end if stray is None else stray), quoted_only
    return None, quoted_only


def _parser(payload: str, chosen: str, quoted_only: bool) -> type[Any]:
    """libyaml's parser where its events are sound (§1.2: ``c_may_differ``), else the
    referee."""
    if chosen == "c" and C_PARSER is not None and not quoted_only and not c_may_differ(payload):
        return C_PARSER
    return RefereeParser


def event_source(payload: str, loader: str | None = None, max_depth: int = 64) -> type[Any] | None:
    """The event source :func:`read_yaml` first reads ``payload`` with (``loader``,
    ``max_depth`` as there), for a caller that walks its events itself (:func:`events`);
    ``None`` when ``read_yaml`` reports a character instead (not printable, or allowed
    only in quotes and standing outside them). When libyaml's events stop at a finding,
    ``read_yaml`` reads the payload again with the referee (:class:`RefereeParser`),
    whose reading is final: such a caller does the same. Raises ``ValueError`` as
    :func:`read_yaml` does."""
    chosen = choose_loader(loader)
    at, quoted_only = _screen(payload, max_depth)
    return None if at is not None else _parser(payload, chosen, quoted_only)


def events(payload: str, parser: type[Any], max_depth: int = 64) -> EventStream:
    """The events of ``payload``'s first document from ``parser`` (:func:`event_source`),
    as :func:`read_yaml` reads them, as an :class:`EventStream`: they stop at a syntax
    error, at more than ``max_depth`` nested collections and at a second document, and
    the stream's ``finding`` then says which."""
    return EventStream(payload, max_depth, parser)


def _stray(text: str, max_depth: int) -> int | None:
    """The first character of :data:`_QUOTED_ONLY` in ``text`` that stands outside
    every quoted scalar and before the first syntax error (where a YAML 1.2.2 reader
    fails first), or ``None``. An unclosed quoted scalar's error is placed at its
    opening quote, so the characters inside it never count. Linear: one reading of the
    events, then one merge of two sorted lists."""
    stream = EventStream(text, max_depth, RefereeParser)
    quoted = [event_span(e) for e in stream if type(e) is ScalarEvent and e.style in _QUOTES]
    # A syntax error at the character itself is the character's (it is what breaks).
    before = len(text) if stream.finding is None else (stream.finding.start or 0) + 1
    k = 0
    for m in _STRAY.finditer(text, 0, before):
        at = m.start()
        if at == 0 and m.group() == "\ufeff":
            continue  # a byte order mark may open the payload
        while k < len(quoted) and quoted[k][1] <= at:
            k += 1
        if k == len(quoted) or not quoted[k][0] < at:
            return at
    return None


_QUOTES = frozenset({"'", '"'})


def read_with(
    payload: str, parser: type[Any], max_depth: int, limit: int, quiet: Sequence[Span]
) -> Read:
    """:func:`read_yaml` of a printable ``payload`` with the event source ``parser``
    (``RefereeParser``, or libyaml's parser :data:`C_PARSER`, sound only where
    :func:`~replykit.questionnaire.payload.yaml_differ.c_may_differ` is false: the tests
    read the others with it to show what each rule of that gate guards), keeping
    ``limit`` findings (§4.1)."""
    plain = _plain(payload, max_depth, parser)
    if plain is not None:
        return plain
    if parser is not RefereeParser:
        read = _read(payload, max_depth, parser, limit, quiet)
        if read is not None:
            return read
    # The referee decides every payload the C parser cannot read, or must not (libyaml
    # also scans ahead and caps flow nesting at 1000 itself, so its errors can pre-empt
    # the depth limit).
    read = _read(payload, max_depth, RefereeParser, limit, quiet)
    assert read is not None  # the referee's reading is final
    return read


def _plain(payload: str, max_depth: int, parser: type[Any]) -> Read | None:
    """The reading of a payload with nothing to report, or ``None`` (see ``plain_read``).
    Its spans are built, by a second reading, only if a caller asks for them: a valid
    payload never pays for them."""
    value = plain_read(payload, max_depth, parser)
    if value is None:
        return None
    spans, key_spans = lazy_spans(lambda: built_spans(EventStream(payload, max_depth, parser)))
    return Read(value=value, spans=spans, key_spans=key_spans)


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
    """The full reading with ``parser`` (values, spans and every finding); ``None`` when
    the parser is the C one and it did not read the first document whole (the referee
    then reads the payload)."""
    stream = EventStream(payload, max_depth, parser)
    # Events before an error are still built, bounded by the depth check, so that
    # aliases, tags and duplicate keys there are reported too. The stream is built as
    # it is read, not held.
    sink = finding_sink(limit)
    builder = Builder(sink, payload)
    for event in stream:
        builder.feed(event)
    if parser is not RefereeParser and not stream.complete:
        return None
    for note in stream.notes:  # the directives come before every node
        sink.append(note)
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
        keyless=frozenset(builder.keyless),
    )
