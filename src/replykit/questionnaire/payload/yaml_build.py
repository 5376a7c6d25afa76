"""Building values from a YAML event stream (docs/protocol.md §4.1): the second pass of
:func:`~replykit.questionnaire.payload.yaml12.read_yaml`. :class:`Builder` builds the
value, its spans and every finding of a node (``yaml.alias``, ``yaml.tag``,
``yaml.duplicate_key``, ``yaml.key_not_string``, ``yaml.number_too_large``,
``yaml.lone_surrogate``); :func:`plain_read` is the fast path of the whole reading for a
document with nothing to report."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
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
    StreamEndEvent,
)

from replykit.codes.payload import (
    YAML_ALIAS,
    YAML_DUPLICATE_KEY,
    YAML_KEY_NOT_STRING,
    YAML_LONE_SURROGATE,
    YAML_NUMBER_TOO_LARGE,
    YAML_TAG,
)
from replykit.diagnostics import Finding, Path, format_path
from replykit.questionnaire.payload.describe import yaml_kind, yaml_scalar
from replykit.questionnaire.payload.results import Span
from replykit.questionnaire.payload.yaml_core import (
    MAX_INT_DIGITS,
    SPECIAL_FIRST,
    freeze_scalar,
    resolve_plain,
)
from replykit.questionnaire.payload.yaml_loader import open_parser
from replykit.text import with_article

# A surrogate code point in a value can only come from a "\ud800"-style escape: raw ones
# are not printable. YAML 1.2 escapes denote characters, and surrogates are none.
_SURROGATE = re.compile(r"[\ud800-\udfff]")  # raw: mypyc refuses surrogate literals


class _Sink(Protocol):
    """Where findings go: a list, or a collector that keeps only the first ones."""

    def append(self, finding: Finding, /) -> None: ...


class _Unset:
    """Marker: a mapping frame is waiting for its next key."""


_NO_KEY = _Unset()


class _Frame:
    """One open collection while building (mutable, local to one read)."""

    __slots__ = (
        "end",
        "flow",
        "frozen",
        "held",
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
        # Placeholder paths in its entries kept so far: recorded (Builder.aliases) only
        # if the collection itself is kept (a dropped duplicate's are not).
        self.held: list[Path] = []
        self.frozen: list[Any] | None = [] if path is None else None


def _index(mark: Any) -> int:
    return int(mark.index) if mark is not None else 0


def event_span(event: Event) -> Span:
    """The event's ``(start, end)`` code-point offsets."""
    return _index(event.start_mark), _index(event.end_mark)


# One node property (an anchor '&a' or a tag '!t', '!<...>'), then the white space
# before another: a property ends at white space or a flow indicator.
_PROPERTY = re.compile("[&!][^\0 \t\r\n\x85\u2028\u2029,\\[\\]{}]*[ \t]*")


def properties_end(payload: str, start: int) -> int:
    """The end of the node properties (anchor, tag, in either order) that start at
    ``start`` in ``payload``: a collection's event ends at its first token instead, and
    a finding covers the properties themselves (§4.1). ``start + 1`` without a
    payload (clamped to its end)."""
    end = start
    for _ in range(2):  # at most one anchor and one tag
        match = _PROPERTY.match(payload, end)
        if match is None:
            break
        end = match.end()
    return len(payload[start:end].rstrip(" \t")) + start if end > start else start + 1


def node_event_findings(event: NodeEvent, path: Path, payload: str = "") -> list[Finding]:
    """``yaml.alias``/``yaml.tag`` for one node; ``details["kind"]`` says which of
    ``alias``, ``anchor``, ``tag`` (an alias node has no value of its own). On a
    scalar a finding covers the scalar; on a collection its properties (found in
    ``payload``)."""
    start, end = event_span(event)
    if not isinstance(event, ScalarEvent | AliasEvent):
        end = properties_end(payload, start)
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
                end=end,
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
                end=end,
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
    start, end = event_span(event)
    shown = f"U+{ord(found.group()):04X}"
    return YAML_LONE_SURROGATE.finding(path, start=start, end=end, shown=shown)


def _scalar_value(event: ScalarEvent, findings: _Sink, path: Path) -> tuple[Any, bool]:
    """The scalar's value and whether it was refused: ``yaml.number_too_large`` at
    ``path`` (the value's place, or the mapping's for a key) for an integer Python
    cannot convert, read as a float placeholder that nothing else reports on (§5)."""
    plain = event.style in (None, "")
    if not plain:
        return event.value, False  # quoted and block scalars are strings
    value, ok = resolve_plain(event.value)
    if not ok:
        start, end = event_span(event)
        findings.append(
            YAML_NUMBER_TOO_LARGE.finding(path, start=start, end=end, limit=MAX_INT_DIGITS)
        )
    return value, not ok


_NO_VALUE = _Unset()


def refused_paths(findings: Iterable[Finding], spans: Mapping[Path, Span]) -> frozenset[Path]:
    """The paths of the values read as placeholders (``yaml.number_too_large`` on the
    value itself: a key's finding is at its mapping, with another span), on which
    nothing else is reported (§5)."""
    return frozenset(
        f.path
        for f in findings
        if f.code == YAML_NUMBER_TOO_LARGE.name and spans.get(f.path) == (f.start, f.end)
    )


def plain_read(payload: str, max_depth: int, parser: type[Any]) -> dict[str, Any] | None:
    """Fast path of the reading: the value of a payload with nothing to report, read in
    one loop over ``parser``'s events (``RefereeParser`` or libyaml's ``CParser``) with
    no spans and no event kept; ``None`` as soon as anything would be reported, and the
    full reading (:class:`Builder` on the depth-checked stream) runs instead.

    Nothing to report means: one document, whose root is a block mapping, read whole
    without error, no more than ``max_depth`` nested collections, no anchor, alias or
    tag, no duplicate or non-string key, no oversized integer and no surrogate escape
    (docs/protocol.md §4.1). The value is then the one :class:`Builder` builds."""
    loader = open_parser(parser, payload, max_depth)
    try:
        value = _plain_value(loader.get_event, max_depth)
        # A directive the referee noted (YAML 1.2.2 spec 6.8.1) is a warning to report.
        return None if getattr(loader, "notes", None) else value
    except (yaml.YAMLError, ValueError):
        return None
    finally:
        loader.dispose()


def _plain_value(get_event: Callable[[], Any], max_depth: int) -> dict[str, Any] | None:
    """The loop of :func:`plain_read` over the events ``get_event`` returns."""
    stack: list[Any] = []
    keys: list[Any] = []  # per open collection: a mapping's pending key, or _NO_VALUE
    documents = 0
    root: Any = None
    # Locals, not module names: compiled code looks a module name up at every use.
    scalar, mapping, sequence = ScalarEvent, MappingStartEvent, SequenceStartEvent
    mapping_end, sequence_end, no_value = MappingEndEvent, SequenceEndEvent, _NO_VALUE
    while True:
        event = get_event()
        kind = type(event)  # PyYAML's event classes are used as they are
        if kind is scalar:
            if event.anchor is not None or event.tag is not None or not stack:
                return None  # a scalar root: the full reading reports it
            value, style = event.value, event.style
            if not style:  # plain: None from the referee, "" from libyaml
                if not value:
                    value = None
                elif value[0] in SPECIAL_FIRST:
                    value, ok = resolve_plain(value)
                    if not ok:
                        return None
            elif style == '"' and _SURROGATE.search(value):
                return None
        elif kind is mapping or kind is sequence:
            if event.anchor is not None or event.tag is not None:
                return None
            if len(stack) >= max_depth or (not stack and (kind is sequence or event.flow_style)):
                return None  # too deep, or root findings: the full reading reports them
            stack.append({} if kind is mapping else [])
            keys.append(no_value)
            continue
        elif kind is mapping_end or kind is sequence_end:
            value = stack.pop()
            keys.pop()
            if not stack:
                root = value
                continue
        elif kind is StreamEndEvent:
            break
        elif kind is AliasEvent:
            return None
        else:  # stream start, document start and end: one document only
            documents += kind is DocumentStartEvent
            if documents > 1:
                return None
            continue
        top = stack[-1]
        if type(top) is list:
            top.append(value)
        elif keys[-1] is no_value:
            if type(value) is not str or value in top:
                return None
            keys[-1] = value
        else:
            top[keys[-1]] = value
            keys[-1] = no_value
    return root if type(root) is dict else None


def built_spans(events: Iterable[Event]) -> tuple[dict[Path, Span], dict[Path, Span]]:
    """``(spans, key_spans)`` of the value :class:`Builder` builds from ``events``."""
    builder = Builder([])
    for event in events:
        builder.feed(event)
    return builder.spans, builder.key_spans


class Builder:
    """Second pass: builds values from depth-checked events, iteratively; findings go to
    ``findings`` (a list, or a collector that keeps only the first ones); ``payload``
    is the text the events come from."""

    def __init__(self, findings: _Sink, payload: str = "") -> None:
        self.findings = findings
        self.payload = payload  # the text the events were read from (property spans)
        self.stack: list[_Frame] = []
        self.spans: dict[Path, Span] = {}
        self.key_spans: dict[Path, Span] = {}
        self.aliases: set[Path] = set()
        self.keyless: set[Path] = set()  # mappings with a placeholder key (Read.keyless)
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
        # A scalar with properties below the root reads as a placeholder, as an alias
        # node does (§4): reported once, its value never built nor judged, as a key
        # nothing (its entry dropped), so no diagnostic depends on what a tag may mean.
        placeholder = (
            isinstance(event, ScalarEvent)
            and bool(self.stack)
            and (event.anchor is not None or event.tag is not None)
        )
        held: list[Path] = []
        if isinstance(event, NodeEvent) and (
            isinstance(event, AliasEvent)
            or event.anchor is not None
            or getattr(event, "tag", None) is not None
        ):
            value_path = self._child_path()
            path = self._place() if value_path is None else value_path  # a key: its mapping's
            if value_path is not None and (isinstance(event, AliasEvent) or placeholder):
                # A placeholder value (recorded once its entry is kept); a placeholder
                # key only drops its entry (the rest of its mapping is judged).
                held = [value_path]
            elif value_path is None and (isinstance(event, AliasEvent) or placeholder):
                top = self.stack[-1] if self.stack else None
                if top is not None and top.path is not None and top.key is _NO_KEY:
                    self.keyless.add(top.path)  # a key: which key it is is not known
            for finding in node_event_findings(event, path, self.payload):
                self.findings.append(finding)
        if placeholder:
            self._deliver(None, event_span(event), ("alias", event_span(event)), held)
        elif isinstance(event, ScalarEvent):
            self._scalar(event)
        elif isinstance(event, AliasEvent):
            # Aliases are already errors; a placeholder keeps the build linear.
            self._deliver(None, event_span(event), ("alias", event_span(event)), held)
        elif isinstance(event, MappingStartEvent | SequenceStartEvent):
            items: Any = {} if isinstance(event, MappingStartEvent) else []
            start, _ = event_span(event)
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
            self._deliver(frame.items, (frame.start, end), frozen, frame.held)

    def _scalar(self, event: ScalarEvent) -> None:
        """Build one scalar without node properties and put it in place."""
        at = self._child_path()
        is_key = at is None
        at = self._place() if at is None else at
        lone = _lone_surrogate(event, at)
        if lone is not None:
            self.findings.append(lone)
            if is_key and self.stack:  # no known key: its entry dropped, as an alias key's
                top = self.stack[-1]
                if top.path is not None and top.key is _NO_KEY:
                    self.keyless.add(top.path)  # §4.1: no key its mapping lacks reported
                self._deliver(None, event_span(event), ("alias", event_span(event)))
                return
        value, refused = _scalar_value(event, self.findings, at)
        span = event_span(event)
        scalar_frozen = None
        if self._needs_frozen():  # a refused key is reported once, as too large
            scalar_frozen = ("refused", span) if refused else freeze_scalar(value)
        self._deliver(value, span, scalar_frozen)

    def _deliver(self, value: Any, span: Span, frozen: Any, held: list[Path] | None = None) -> None:
        """Put ``value`` in place; ``held``: the placeholder paths in it, recorded with
        it (none when it is a key or an entry that is dropped)."""
        path = self._child_path()
        if not self.stack:
            self.root = value
            self.has_root = True
            self.spans[()] = span
            self.aliases.update(held or ())
            return
        top = self.stack[-1]
        top.end = max(top.end, span[1])
        if isinstance(top.items, list):
            if path is not None:
                self.spans[path] = span
            top.items.append(value)
            top.held.extend(held or ())
            if top.frozen is not None:
                top.frozen.append(frozen)
            return
        if top.key is _NO_KEY:
            top.key = value
            top.key_span = span
            top.key_frozen = frozen
            return
        self._entry(top, value, span, frozen, path, held or [])

    def _entry(
        self, top: _Frame, value: Any, span: Span, frozen: Any, path: Path | None,
        held: list[Path],
    ) -> None:  # fmt: skip
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
            if isinstance(key_frozen, tuple) and key_frozen[:1] in (("alias",), ("refused",)):
                return  # an alias key or a refused number is already reported
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
        top.held.extend(held)
        if path is not None:
            self.spans[path] = span
            self.key_spans[path] = key_span


def _key_text(key: Any) -> str:
    """A key as messages show it, in YAML's words (``null``, ``true``, ``.inf``), never
    Python's (``None``, ``True``, ``inf``)."""
    if isinstance(key, str):
        return repr(key)
    if isinstance(key, dict | list):
        return f"({with_article(yaml_kind(key))})"
    return yaml_scalar(key)


def _describe(path: Path) -> str:
    return format_path(path) or "the top level"
