"""Where one node of a YAML payload starts, without building spans (docs/protocol.md §1,
§4.1): a finding about a whole list (``limit.questions``) points at that list, while a
payload over a limit never pays for the span map of all its items."""

from __future__ import annotations

from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
)

from replykit.diagnostics import Path
from replykit.questionnaire.payload.yaml_core import resolve_plain
from replykit.questionnaire.payload.yaml_differ import c_may_differ
from replykit.questionnaire.payload.yaml_loader import C_PARSER, choose_loader
from replykit.questionnaire.payload.yaml_referee import RefereeParser


class _Frame:
    """An open collection: its path (``None`` inside a key), whether it is a mapping,
    the next item's index or the pending key, and whether a key comes next."""

    __slots__ = ("expect_key", "index", "key", "mapping", "path")

    def __init__(self, path: Path | None, mapping: bool) -> None:
        self.path = path
        self.mapping = mapping
        self.index = 0
        self.key: Any = None
        self.expect_key = mapping


def _node_path(stack: list[_Frame], event: Any) -> Path | None:
    """The path of the node ``event`` starts (``None`` for a key or under one), and the
    parent's state moved past it."""
    if not stack:
        return ()
    top = stack[-1]
    if not top.mapping:
        top.index += 1
        return None if top.path is None else (*top.path, top.index - 1)
    if top.expect_key:
        top.expect_key = False
        plain = isinstance(event, ScalarEvent) and not event.style
        top.key = resolve_plain(event.value)[0] if plain else getattr(event, "value", None)
        if not isinstance(event, ScalarEvent):
            top.key = None  # an alias or a collection as a key: no path under it
        return None
    top.expect_key = True
    if top.path is None or not isinstance(top.key, str):
        return None
    return (*top.path, top.key)


def yaml_node_start(payload: str, path: Path, loader: str | None = None) -> int | None:
    """The code-point offset where the node at ``path`` starts in ``payload`` (the
    start of its span in :func:`~replykit.questionnaire.payload.yaml12.read_yaml`'s
    ``spans``), or ``None`` when no such node is read. Linear time, memory of the
    nesting depth; never raises (a payload the C parser cannot read is read by the
    referee, as ``read_yaml`` does)."""
    parsers: list[type[Any]] = [RefereeParser]
    if choose_loader(loader) == "c" and C_PARSER is not None and not c_may_differ(payload):
        parsers.insert(0, C_PARSER)
    for parser in parsers:
        try:
            return _walk(parser(payload), path)
        except (yaml.YAMLError, ValueError, OverflowError):
            continue
    return None


def _walk(loader: Any, path: Path) -> int | None:
    stack: list[_Frame] = []
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, ScalarEvent | AliasEvent | CollectionStartEvent):
                at = _node_path(stack, event)
                if at == path:
                    return int(event.start_mark.index) if event.start_mark is not None else None
                if isinstance(event, CollectionStartEvent):
                    stack.append(_Frame(at, isinstance(event, MappingStartEvent)))
            elif isinstance(event, MappingEndEvent | SequenceEndEvent):
                stack.pop()
    finally:
        loader.dispose()
    return None
