"""Scoring model replies for protocol compliance in benchmark runs (§8, §6, §9).

- :func:`compliance` scores one reply: Self-check's pass rules (§8.2) under a profile,
  plus whether a form was due (``expect``), optionally beside the ``compat="sage"``
  verdict; :class:`Compliance` and :class:`Reason` are its result;
- :func:`audit_record` audits one stored record (a conversation, a reply, an eval
  record) into plain JSON data; pure, picklable, never raises for a record (a wrong
  option raises ``TypeError``/``ValueError`` at the call), for process pools and
  distributed engines; :func:`audit_json` the same from one JSON text (a JSON Lines
  line), read strictly, and :func:`audit_lines` of a partition's lines, located by
  file and line;
- :class:`Tally`, :func:`tally_results`, :func:`merge_tallies` and :func:`wilson`
  aggregate those results per group (pass rate with a 95% Wilson interval, the rate of
  each code and near-miss kind, the first example of each).

Adapters, each behind an optional extra: :mod:`replykit.evals.inspect_scorer`
(``replykit[inspect]``) and :mod:`replykit.evals.promptfoo` (no dependency). The
``replykit audit`` command (docs/evals.md) runs all this over files on every core.
"""

from replykit.evals.compliance import (
    BLOCK_PRESENT,
    EXPECTS,
    FORM_MISSING,
    Compliance,
    Expect,
    Reason,
    compliance,
)
from replykit.evals.record import audit_json, audit_lines, audit_record
from replykit.evals.tally import GroupTally, Tally, merge_tallies, tally_results, wilson

__all__ = [
    "BLOCK_PRESENT",
    "EXPECTS",
    "FORM_MISSING",
    "Compliance",
    "Expect",
    "GroupTally",
    "Reason",
    "Tally",
    "audit_json",
    "audit_lines",
    "audit_record",
    "compliance",
    "merge_tallies",
    "tally_results",
    "wilson",
]
