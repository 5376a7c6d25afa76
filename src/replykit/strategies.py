"""Moved: the strategies are :mod:`replykit.testing.strategies`; the fuzzer's operations,
examples and generated requests are :mod:`replykit.fuzz.ops`, :mod:`replykit.fuzz.examples`
and :mod:`replykit.fuzz.generate`.

This module keeps every name it had importable from here (README "Where things
moved"); it needs Hypothesis (the ``replykit[fuzz]`` extra).
"""

from __future__ import annotations

from replykit.fuzz.examples import Example, explicit_examples
from replykit.fuzz.generate import requests
from replykit.fuzz.ops import OPS, Op
from replykit.testing.strategies import (
    PROFILES,
    action_lists,
    actions,
    answers,
    fenced_blocks,
    form_dicts,
    form_yaml,
    hostile_payloads,
    inert_messages,
    markdown,
    messages,
    prose,
    segment_requests,
    tool_arguments,
    xml_blocks,
    yaml_quote,
)

__all__ = [
    "OPS",
    "PROFILES",
    "Example",
    "Op",
    "action_lists",
    "actions",
    "answers",
    "explicit_examples",
    "fenced_blocks",
    "form_dicts",
    "form_yaml",
    "hostile_payloads",
    "inert_messages",
    "markdown",
    "messages",
    "prose",
    "requests",
    "segment_requests",
    "tool_arguments",
    "xml_blocks",
    "yaml_quote",
]
