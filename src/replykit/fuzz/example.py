"""The type of the fuzzer's hand-written examples (docs/fuzzing.md).

Plain data with no dependency on Hypothesis.
"""

from __future__ import annotations

from typing import Any

import attrs

from replykit.fuzz.ops import Op


@attrs.frozen
class Example:
    """A hand-written input the fuzzer always runs before generated ones, so every
    family of edge cases is tried whatever Hypothesis version draws the rest.

    ``op``: the operation; ``rule``: the rule it exercises, a tag of
    :mod:`replykit.codes.rules` (``§3a closer``);
    ``name``: a stable identifier; ``request``: the request body (without
    ``id``/``op``), as :func:`replykit.fuzz.generate.requests` draws it;
    ``family``: the fault family it probes, a name of :mod:`replykit.fuzz.families`
    (``html-entities``), or ``""``.
    """

    op: Op
    rule: str
    name: str
    request: dict[str, Any]
    family: str = ""


__all__ = ["Example"]
