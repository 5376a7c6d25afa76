"""A promptfoo Python assertion for protocol compliance (§8.2, §6, §9).

promptfoo loads this file and calls :func:`get_assert` with each output::

    assert:
      - type: python
        value: file:///path/to/site-packages/replykit/evals/promptfoo.py
        config: {expect: form}

(``python -c "import replykit.evals.promptfoo as m; print(m.__file__)"`` prints the
path.) It needs nothing beyond replykit; promptfoo itself is a Node program.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replykit.evals.compliance import EXPECTS, compliance
from replykit.questionnaire.profiles import profile_from_string

#: The reason lists at most this many problems.
MAX_REASONS = 10


def _setting(context: Any, key: str, default: Any) -> Any:
    """``context["config"][key]`` (the assertion's ``config``), else
    ``context["vars"][key]`` (the test case's variables), else ``default``; a ``None``
    (null) value is missing, as the audit's fields are."""
    if not isinstance(context, Mapping):
        return default
    for part in ("config", "vars"):
        place = context.get(part)
        if isinstance(place, Mapping) and place.get(key) is not None:
            return place[key]
    return default


def _reason(reasons: list[str], lenient: bool | None) -> str:
    text = "; ".join(reasons[:MAX_REASONS]) or "follows the protocol"
    if len(reasons) > MAX_REASONS:
        text += f"; and {len(reasons) - MAX_REASONS} more"
    if lenient is not None:
        text += f" (compat=sage: {'passes' if lenient else 'fails'})"
    return text


def get_assert(output: Any, context: Any) -> dict[str, Any]:
    """promptfoo's entry point: grade one model ``output`` (a string).

    ``context`` is promptfoo's assertion context (``prompt``, ``vars``, ``test``,
    ``config``...); ``expect`` (``any``/``form``/``none``), ``profile`` (``self_check``,
    ``client``, ``product:NAME``; §6) and ``lenient`` (§9: ``true``, or the text
    ``"true"`` a CSV test case gives) are read from the
    assertion's ``config``, else from the test's ``vars``. Output: promptfoo's grading
    result ``{"pass", "score" (1.0 or 0.0), "reason", "namedScores":
    {"protocol_compliance": score}}``; the reason lists the codes and messages (with
    line:column) of the first ten problems. A non-string output or a bad setting
    fails the assertion with that reason; it never raises.
    """
    expect = _setting(context, "expect", "any")
    # true, or "true" in any case (promptfoo's CSV test cases give every var as text).
    wanted = _setting(context, "lenient", False)
    lenient = wanted is True or (isinstance(wanted, str) and wanted.strip().lower() == "true")
    try:
        profile = profile_from_string(str(_setting(context, "profile", "self_check")))
    except ValueError as exc:
        return _result(False, [str(exc)], None)
    if expect not in EXPECTS:
        return _result(False, [f"expect must be one of {', '.join(EXPECTS)}"], None)
    if not isinstance(output, str):
        return _result(False, [f"the output is {type(output).__name__}, not text"], None)
    result = compliance(output, expect=expect, profile=profile, lenient=lenient)
    reasons = [
        r.code + ("" if r.line is None else f" at {r.line}:{r.column}") + f": {r.message}"
        for r in result.reasons
    ]
    return _result(
        result.passed, reasons, None if result.lenient is None else result.lenient.passed
    )


def _result(passed: bool, reasons: list[str], lenient: bool | None) -> dict[str, Any]:
    score = 1.0 if passed else 0.0
    return {
        "pass": passed,
        "score": score,
        "reason": _reason(reasons, lenient),
        "namedScores": {"protocol_compliance": score},
    }
