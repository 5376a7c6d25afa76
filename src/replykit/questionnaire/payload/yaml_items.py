"""Where the items of a root key's block sequence start, from the YAML events alone (§10).

The streaming preview (``stream_preview.py``) cuts a growing fenced payload before
its last question; this finds the questions without building any value: one pass
over the events :func:`~replykit.questionnaire.payload.yaml12.read_yaml` reads, with
the same event source, so the offsets are the same on every install (§1.2).
"""

from __future__ import annotations

from typing import Any

from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from replykit.questionnaire.payload.yaml12 import event_source, events
from replykit.questionnaire.payload.yaml_build import event_span
from replykit.questionnaire.payload.yaml_referee import RefereeParser


def item_starts(payload: str, key: str, loader: str | None = None) -> list[int]:
    """The code-point offsets where the items of the block sequence that is the value of
    the root mapping's ``key`` start (each item's first event: ``- type: x`` starts at
    ``type``), as far as ``payload`` reads (a finding ends it). ``[]`` when the root is
    no block mapping, ``key`` is absent, its value is no block sequence, or
    ``read_yaml`` reports a character instead (:func:`.yaml12.event_source`). Where
    libyaml's events stop at a finding, the referee's are read, as ``read_yaml`` does,
    so both event sources give the same answer. ``loader``: as for ``read_yaml``.
    Time linear in ``len(payload)``."""
    parser = event_source(payload, loader)
    if parser is None:
        return []
    found, stopped = _starts(payload, key, parser)
    if stopped and parser is not RefereeParser:
        found, _ = _starts(payload, key, RefereeParser)
    return found


def _starts(payload: str, key: str, parser: type[Any]) -> tuple[list[int], bool]:
    """:func:`item_starts` with ``parser``, and whether its events stopped at a finding."""
    stream = events(payload, parser)
    depth, at_key, take = 0, True, False
    items: list[int] | None = None
    event: Any  # PyYAML's events are untyped: flow_style, value
    for event in stream:
        kind = type(event)
        opens = kind is MappingStartEvent or kind is SequenceStartEvent
        if opens or kind is ScalarEvent or kind is AliasEvent:
            if depth == 0 and (kind is not MappingStartEvent or event.flow_style):
                return [], False
            if depth == 1:  # the root's keys and values alternate
                if at_key:
                    take = kind is ScalarEvent and event.value == key
                elif take:
                    take = False
                    if kind is SequenceStartEvent and not event.flow_style:
                        items = []
                at_key = not at_key
            elif depth == 2 and items is not None:
                items.append(event_span(event)[0])
            depth += opens
        elif kind is MappingEndEvent or kind is SequenceEndEvent:
            depth -= 1
            if depth == 1 and items is not None:
                return items, False
    return (items if items is not None else []), stream.finding is not None
