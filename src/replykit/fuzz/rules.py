"""Rule tags: which rule stands behind each of replykit's decisions.

A rule tag is a :class:`~replykit.codes.Rule` of the registry (:mod:`replykit.codes.rules`):
a section of docs/protocol.md (``§3a``), optionally with a sub-rule (``§4 preface``).
:func:`rule_for_code` gives a diagnostic code's rule from the registry;
:func:`segment_rule`, :func:`questionnaire_rule` and :func:`actions_rule` give the rule
behind replykit's answer at the first field where an adapter's answer differs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from replykit.codes import CODES, rules
from replykit.codes.segment import NEAR_MISSES
from replykit.questionnaire.segmentation.regions import code_regions
from replykit.text import iter_lines

#: The closing fence may not be shorter than the opener (a fenced block's end).
CLOSER_RULE: Final = rules.CLOSER.tag
#: Prose before a fenced form (``fence.no_preface``).
PREFACE_RULE: Final = rules.PREFACE.tag
#: The rule when nothing more specific is known (segments and their order).
DEFAULT_RULE: Final = rules.SEGMENTS.tag

_FAMILY_RULES: Final[Mapping[str, str]] = {
    code.family: code.rule.tag for code in reversed(list(CODES.values()))
}


def rule_for_code(code: str) -> str:
    """The rule tag of a diagnostic code: ``"yaml.alias"`` -> ``"§4"``,
    ``"fence.no_preface"`` -> ``"§4 preface"``.

    Input: any string. Output: the registered code's rule; for a code replykit does not
    know (an adapter's own), the rule of the first registered code of its family
    (``yaml.foo`` -> ``§4``), else :data:`DEFAULT_RULE`. Never raises.
    """
    found = CODES.get(code)
    if found is not None:
        return found.rule.tag
    return _FAMILY_RULES.get(code.rsplit(".", 1)[0], DEFAULT_RULE)


# ---------------------------------------------------------------- segment


def _error_codes(segment: Mapping[str, Any]) -> list[str]:
    diags = segment.get("diagnostics")
    if not isinstance(diags, list):
        return []
    return [
        d["code"]
        for d in diags
        if isinstance(d, Mapping)
        and d.get("severity") == "error"
        and isinstance(d.get("code"), str)
    ]


def _all_codes(segment: Mapping[str, Any]) -> list[str]:
    diags = segment.get("diagnostics")
    if not isinstance(diags, list):
        return []
    return [d["code"] for d in diags if isinstance(d, Mapping) and isinstance(d.get("code"), str)]


def _validity_rule(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> str:
    """Why replykit's block is (in)valid where the adapter says otherwise."""
    theirs = set(_all_codes(actual))
    mine = _error_codes(expected)
    if mine:
        for code in mine:
            if code not in theirs:
                return rule_for_code(code)
        return rule_for_code(mine[0])
    their_errors = _error_codes(actual)
    if their_errors:
        return rule_for_code(their_errors[0])
    if expected.get("registered") is False:
        return rules.PROFILES.tag
    if expected.get("kind") == "questionnaire_response":
        return rules.TOOL.tag
    return rules.YAML.tag if expected.get("encoding") == "fenced_yaml" else rules.XML_JSON.tag


def _block_field_rule(
    field: str, expected: Mapping[str, Any], actual: Mapping[str, Any], rest: str
) -> str:
    if field in ("encoding", "name", "kind"):
        return rules.CANDIDATES.tag
    if field in ("registered", "id"):
        return rules.PROFILES.tag
    if field == "text":
        return rules.SEGMENTS.tag
    if field == "diagnostics":
        mine, theirs = _all_codes(expected), _all_codes(actual)
        for code in mine:
            if code not in theirs:
                return rule_for_code(code)
        for code in theirs:
            if code not in mine:
                return rule_for_code(code)
        return rule_for_code(mine[0]) if mine else DEFAULT_RULE
    if field in ("valid", "questionnaire", "response"):
        if field != "valid" and expected.get(field) is not None and actual.get(field) is not None:
            # Both read a value and the values differ: the reading rules.
            if field == "response":
                return rules.TOOL.tag
            return (
                rules.YAML.tag if expected.get("encoding") == "fenced_yaml" else rules.XML_JSON.tag
            )
        return _validity_rule(expected, actual)
    return DEFAULT_RULE


def _first_line_end(text: str, start: int) -> int:
    for _, content_end, _ in iter_lines(text, start):
        return content_end
    return start


def _why_not_a_block(text: str, start: int, diagnostics: Sequence[Mapping[str, Any]]) -> str:
    """replykit reads Markdown at ``start`` where the adapter starts a block: a
    near-miss warning on that line names the rule (§8, §3c); else an inert region
    there (§3b); else the candidate rules (§3a)."""
    end = max(_first_line_end(text, start), start + 1)
    for d in diagnostics:
        code = d.get("code")
        at = d.get("start")
        if (
            isinstance(code, str)
            and code in NEAR_MISSES
            and isinstance(at, int)
            and start <= at < end
        ):
            return rule_for_code(code)
    for region in code_regions(text):
        if region.start < end and start < region.end:
            return rules.INERT.tag
    return rules.CANDIDATES.tag


def _utf16_offset(
    text: str, expected: Mapping[str, Any], actual: Mapping[str, Any], field: str
) -> bool:
    """Whether the adapter's offset is replykit's counted in UTF-16 code units (§1)."""
    mine, theirs = expected.get(field), actual.get(field)
    if not isinstance(mine, int) or not isinstance(theirs, int) or mine == theirs:
        return False
    astral = sum(1 for ch in text[:mine] if ord(ch) > 0xFFFF)
    return astral > 0 and theirs == mine + astral


def segment_rule(
    text: str,
    expected: Mapping[str, Any],
    actual: Mapping[str, Any],
    path: Sequence[str | int],
) -> str:
    """The rule behind replykit's ``segment`` answer at ``path``, the first field where
    ``actual`` (the adapter's response) differs from ``expected`` (replykit's).

    Input: the message ``text``; both responses (``{"segments": [...],
    "diagnostics"?: [...]}``, fields as in docs/fuzzing.md); ``path`` as
    :func:`replykit.fuzz.compare.first_difference` returns it (``("segments", 2,
    "end")``). Output: a rule tag. Boundaries: a block the adapter missed or placed
    differently is §3a; a block only the adapter found is explained by replykit's
    near-miss warning on its line (§8, §3c), else an inert region (§3b), else §3a; a
    fenced block's end is the closing-fence rule (:data:`CLOSER_RULE`), an
    XML+JSON block's end §3a. Block fields: ``registered``/``id`` §6, validity and
    forms the rule of replykit's first error the adapter did not report (e.g.
    ``fence.no_preface`` -> :data:`PREFACE_RULE`), else §4 (fenced) / §5 (XML+JSON)
    / §7 (responses). Message diagnostics: the rule of the first code in one list and
    not the other. Never raises.
    """
    exp_raw, act_raw = expected.get("segments"), actual.get("segments")
    exp_segs: list[Any] = exp_raw if isinstance(exp_raw, list) else []
    act_segs: list[Any] = act_raw if isinstance(act_raw, list) else []
    diags = [d for d in expected.get("diagnostics") or [] if isinstance(d, Mapping)]
    if not path or path[0] != "segments":
        if path and path[0] == "diagnostics":
            return _block_field_rule("diagnostics", expected, actual, "")
        return DEFAULT_RULE
    if len(path) < 2 or not isinstance(path[1], int):
        return DEFAULT_RULE
    i = path[1]
    e = exp_segs[i] if i < len(exp_segs) else None
    a = act_segs[i] if i < len(act_segs) and isinstance(act_segs[i], Mapping) else None
    field = path[2] if len(path) > 2 and isinstance(path[2], str) else None
    if e is None:
        # The adapter has more segments: replykit's last one ended where the adapter's
        # extra part begins.
        start = a.get("start") if a is not None else None
        return _why_not_a_block(text, start if isinstance(start, int) else len(text), diags)
    e_block = e.get("kind") != "markdown"
    a_kind = a.get("kind") if a is not None else None
    a_block = a is not None and a_kind not in (None, "markdown")
    if field in ("start", "end") and a is not None and _utf16_offset(text, e, a, field):
        return rules.TEXT_UNITS.tag  # the adapter counts UTF-16 code units, not code points
    if field in (None, "kind", "start", "end"):
        a_start = a.get("start") if a is not None else None
        a_end = a.get("end") if a is not None else None
        if e_block and a_block and field == "end" and a_start == e.get("start"):
            return CLOSER_RULE if e.get("encoding") == "fenced_yaml" else rules.CANDIDATES.tag
        if e_block and a_block and field == "kind":
            return rules.CANDIDATES.tag
        if not e_block and a is not None and a_kind == "markdown" and isinstance(a_end, int):
            e_end = e.get("end")
            if isinstance(e_end, int) and a_end < e_end:
                return _why_not_a_block(text, a_end, diags)
            return rules.CANDIDATES.tag
        if not e_block and a_block and isinstance(a_start, int):
            return _why_not_a_block(text, a_start, diags)
        if e_block and a_block and isinstance(a_start, int):
            e_start = e.get("start")
            if isinstance(e_start, int) and a_start < e_start:
                return _why_not_a_block(text, a_start, diags)
        return rules.CANDIDATES.tag
    if not e_block:
        return rules.SEGMENTS.tag
    return _block_field_rule(field, e, a or {}, "")


# ---------------------------------------------------------------- other ops


def _codes_in(value: Any, key: str) -> list[str]:
    items = value.get(key) if isinstance(value, Mapping) else None
    if not isinstance(items, list):
        return []
    return [d["code"] for d in items if isinstance(d, Mapping) and isinstance(d.get("code"), str)]


def _list_rule(expected: Any, actual: Any, key: str, fallback: str) -> str:
    mine, theirs = _codes_in(expected, key), _codes_in(actual, key)
    for code in mine:
        if code not in theirs:
            return rule_for_code(code)
    for code in theirs:
        if code not in mine:
            return rule_for_code(code)
    return rule_for_code(mine[0]) if mine else fallback


def questionnaire_rule(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> str:
    """The rule behind replykit's ``questionnaire_async`` result where the adapter's
    differs: the rule of the first error code only one side reports
    (``questionnaire.start.*`` -> §7), else §7. Input: both ``{"result": {...}}``
    responses. Never raises."""
    return _list_rule(expected.get("result"), actual.get("result"), "errors", rules.TOOL.tag)


def actions_rule(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> str:
    """The rule behind replykit's ``sanitize_actions`` result where the adapter's
    differs: the rule of the first diagnostic code only one side reports (``action.*``
    -> §12), else §12. Never raises."""
    return _list_rule(
        expected.get("result"), actual.get("result"), "diagnostics", rules.ACTIONS.tag
    )
