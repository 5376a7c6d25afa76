"""Fuzzing other implementations of the protocols against replykit (docs/fuzzing.md).

- :func:`fuzz` runs an adapter command (docs/fuzzing.md), or a Python function in this
  process (:class:`InProcessAdapter`), against replykit and returns a
  :class:`FuzzReport`; :func:`write_report` writes ``report.json``/``report.txt``;
- :func:`check` compares one request; :func:`first_difference` two responses;
- :func:`shrink_text` / :func:`shrink_json` reduce an input to a 1-minimal one;
- :func:`rule_for_code` maps a diagnostic code to its rule tag;
- :func:`export` writes the conformance vectors (``replykit vectors export``).

The operations are :data:`OPS` (:mod:`replykit.fuzz.ops`); the hand-written examples
that run first are :func:`explicit_examples` (:mod:`replykit.fuzz.examples`); the
generated requests are :func:`requests` (:mod:`replykit.fuzz.generate`, drawn from
:mod:`replykit.testing.strategies`). Offsets are code points throughout.

Names are loaded when first used, so that ``replykit.fuzz.ops`` and the vector export
import neither the fuzz loop nor Hypothesis. :func:`fuzz`, :func:`check`,
:func:`requests` and the report types need Hypothesis (the ``replykit[fuzz]`` extra);
without it, using them raises ``ModuleNotFoundError`` naming ``hypothesis``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# Bound now: the function ``reference`` has the name of its module, which an import of
# ``replykit.fuzz.reference`` would otherwise leave on this package instead.
from replykit.fuzz.reference import RequestError, reference

if TYPE_CHECKING:
    from replykit.fuzz.adapter import Adapter, AdapterStartError, InProcessAdapter, Outcome
    from replykit.fuzz.compare import Difference, first_difference
    from replykit.fuzz.examples import Example, explicit_examples
    from replykit.fuzz.generate import requests
    from replykit.fuzz.ops import OPS, Op
    from replykit.fuzz.report import report_json, report_text, write_report
    from replykit.fuzz.rules import rule_for_code, segment_rule
    from replykit.fuzz.runner import FuzzClass, FuzzReport, Verdict, check, fuzz
    from replykit.fuzz.shrink import lines_of, shrink_json, shrink_text
    from replykit.fuzz.vectors import export, shipped_segment_vectors

#: Each exported name and the submodule that defines it.
_HOMES: dict[str, str] = {
    "Adapter": "adapter",
    "AdapterStartError": "adapter",
    "InProcessAdapter": "adapter",
    "Outcome": "adapter",
    "Difference": "compare",
    "first_difference": "compare",
    "Example": "examples",
    "explicit_examples": "examples",
    "requests": "generate",
    "OPS": "ops",
    "Op": "ops",
    "report_json": "report",
    "report_text": "report",
    "write_report": "report",
    "rule_for_code": "rules",
    "segment_rule": "rules",
    "FuzzClass": "runner",
    "FuzzReport": "runner",
    "Verdict": "runner",
    "check": "runner",
    "fuzz": "runner",
    "lines_of": "shrink",
    "shrink_json": "shrink",
    "shrink_text": "shrink",
    "export": "vectors",
    "shipped_segment_vectors": "vectors",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{home}"), name)


__all__ = [
    "OPS",
    "Adapter",
    "AdapterStartError",
    "Difference",
    "Example",
    "FuzzClass",
    "FuzzReport",
    "InProcessAdapter",
    "Op",
    "Outcome",
    "RequestError",
    "Verdict",
    "check",
    "explicit_examples",
    "export",
    "first_difference",
    "fuzz",
    "lines_of",
    "reference",
    "report_json",
    "report_text",
    "requests",
    "rule_for_code",
    "segment_rule",
    "shipped_segment_vectors",
    "shrink_json",
    "shrink_text",
    "write_report",
]
