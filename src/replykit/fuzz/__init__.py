"""Fuzzing other implementations of the protocols against replykit (issue 6).

- :func:`fuzz` runs an adapter command (docs/fuzzing.md) against replykit and returns
  a :class:`FuzzReport`; :func:`write_report` writes ``report.json``/``report.txt``;
- :func:`check` compares one request; :func:`first_difference` two responses;
- :func:`shrink_text` / :func:`shrink_json` reduce an input to a 1-minimal one;
- :func:`rule_for_code` maps a diagnostic code to its rule tag;
- :func:`export` writes the conformance vectors (``replykit vectors export``).

Inputs come from :mod:`replykit.strategies`. Offsets are code points throughout.
"""

from __future__ import annotations

from replykit.fuzz.adapter import Adapter, AdapterStartError, Outcome
from replykit.fuzz.compare import Difference, first_difference
from replykit.fuzz.reference import RequestError, reference
from replykit.fuzz.report import report_json, report_text, write_report
from replykit.fuzz.rules import CODE_RULES, PREFIX_RULES, rule_for_code, segment_rule
from replykit.fuzz.runner import FuzzClass, FuzzReport, Verdict, check, fuzz
from replykit.fuzz.shrink import lines_of, shrink_json, shrink_text
from replykit.fuzz.vectors import export, shipped_segment_vectors

__all__ = [
    "CODE_RULES",
    "PREFIX_RULES",
    "Adapter",
    "AdapterStartError",
    "Difference",
    "FuzzClass",
    "FuzzReport",
    "Outcome",
    "RequestError",
    "Verdict",
    "check",
    "export",
    "first_difference",
    "fuzz",
    "lines_of",
    "reference",
    "report_json",
    "report_text",
    "rule_for_code",
    "segment_rule",
    "shipped_segment_vectors",
    "shrink_json",
    "shrink_text",
    "write_report",
]
