"""§9 ``filter_invalid_questions``: an XML+JSON request read without its questions that
have a §7 error, every other question keeping what the strict reading gives it."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from replykit.codes import start as start_codes
from replykit.codes.limits import COMPAT_QUESTION_DROPPED
from replykit.diagnostics import Finding
from replykit.questionnaire.limits import Limits
from replykit.questionnaire.payload.json_strict import read_json
from replykit.questionnaire.payload.lenient import normalize_form
from replykit.questionnaire.payload.results import FormRead
from replykit.questionnaire.payload.results import place as place_findings

#: The codes of §7 (``questionnaire.start.*``), the only errors leaving a question out
#: resolves.
_START: frozenset[str] = frozenset(c.name for c in start_codes.CODES)


def _bad_questions(findings: Iterable[Finding]) -> set[int]:
    """The positions of the questions with a §7 error (``questionnaire.start.*``)."""
    return {
        f.path[1]
        for f in findings
        if f.severity == "error"
        and f.code in _START
        and len(f.path) >= 2
        and f.path[0] == "questions"
        and isinstance(f.path[1], int)
    }


def _only_question_errors(read: FormRead) -> bool:
    """Whether every error of ``read`` (those the cap left out too) is a §7 one of a
    question: a ``json.*`` or ``limit.*`` error is never resolved by leaving questions
    out (§1), and a form-level one (``title_invalid``) would keep the form invalid."""
    left_out = read.overflow.counts if read.overflow is not None else ()
    errors = [f for f in read.findings if f.severity == "error"]
    return all(
        f.code in _START and len(f.path) >= 2 and f.path[0] == "questions" for f in errors
    ) and all(c.code in _START for c in left_out if c.severity == "error")


def drop_invalid_questions(payload: str, read: FormRead, limits: Limits) -> FormRead:
    """§9 ``filter_invalid_questions`` over ``read``, the strict reading of ``payload``.

    Output: ``read`` unchanged when it has an error other than a §7 one of a question
    (strict JSON, a limit, the form's ``title``) or when every question has an error
    (nothing would be left: the strict errors stand). Otherwise the form without the
    questions that have a §7 error in the strict reading, each left out with one
    ``compat.question_dropped`` covering it.

    Leaving a question out changes nothing else: the kept questions keep their default
    ids ``q<n>`` by their position in the payload, their paths and their findings, and
    a dropped question still claims its id in the duplicate check (``normalize_form``'s
    ``dropped``). So filtering never adds an error and never drops a question without
    an error of its own. When the diagnostics cap (§1) left findings out, the form is
    read again after each drop until a read is complete."""
    if not _only_question_errors(read):
        return read
    raw = read_json(payload, max_depth=limits.max_depth).value
    if not isinstance(raw, dict) or not isinstance(raw.get("questions"), list):
        return read
    count = len(raw["questions"])
    dropped: frozenset[int] = frozenset()
    current = read
    while True:
        bad = _bad_questions(current.findings)
        if not bad:
            break
        dropped |= bad
        if len(dropped) == count:
            return read  # nothing left to show: the strict reading stands
        complete = current.overflow is None
        current = normalize_form(raw, allow_extras=True, limits=limits, dropped=dropped)
        if complete:
            break
    if not dropped:
        return read
    notes = tuple(
        COMPAT_QUESTION_DROPPED.finding(("questions", i), number=i + 1) for i in sorted(dropped)
    )
    overflow = current.overflow
    if overflow is not None:  # the notes come first in the block's order (§2.1)
        overflow = attrs.evolve(overflow, before=overflow.before + len(notes))
    return attrs.evolve(
        current,
        spans=read.spans,
        findings=place_findings(notes + current.findings, read.spans),
        overflow=overflow,
    )
