"""Rule tags: which rule stands behind each of replykit's decisions.

A rule tag is a :class:`~replykit.codes.Rule` of the registry (:mod:`replykit.codes.rules`):
a section of docs/protocol.md (``§3a``), optionally with a sub-rule (``§4 preface``).
:func:`rule_for_code` gives a diagnostic code's rule from the registry;
:func:`segment_rule`, :func:`questionnaire_rule` and :func:`actions_rule` give the rule
behind replykit's answer at the first field where an adapter's answer differs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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


#: A question the rules may put to the adapter about a variant of the message:
#: ``"preface"`` (does it show the block as a card once a plain paragraph stands before
#: the message?) and ``"plain_name"`` (does it show a block there once the block's name
#: is ``questionnaire``?). The runner answers by asking the adapter; ``None``: no probes.
Probe = Callable[[str], bool]


def _validity_rule(
    expected: Mapping[str, Any], actual: Mapping[str, Any], probe: Probe | None = None
) -> str:
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
    if expected.get("encoding") == "fenced_yaml":
        # The adapter rejects a form replykit accepts and says not why: when a plain
        # paragraph before the message makes it accept the form, the cause is the
        # preface (a code span or comment the adapter reads as hiding the prose).
        if probe is not None and probe("preface"):
            return PREFACE_RULE
        return rules.YAML.tag
    return rules.XML_JSON.tag


def _block_field_rule(
    field: str | None, expected: Mapping[str, Any], actual: Mapping[str, Any], probe: Probe | None
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
        return _validity_rule(expected, actual, probe)
    return DEFAULT_RULE


def _first_line_end(text: str, start: int) -> int:
    for _, content_end, _ in iter_lines(text, start):
        return content_end
    return start


def _line_start(text: str, offset: int) -> int:
    """The start of the line holding ``offset`` (§1 line endings)."""
    start = 0
    for line_start, _, end in iter_lines(text):
        if end > offset:
            return line_start
        start = end
    return start


def codes_on_line(text: str, offset: int, diagnostics: Sequence[Mapping[str, Any]]) -> list[str]:
    """replykit's diagnostic codes that start on the line holding ``offset``, in order."""
    begin = _line_start(text, offset)
    end = max(_first_line_end(text, begin), offset + 1)
    return [
        d["code"]
        for d in diagnostics
        if isinstance(d.get("code"), str)
        and isinstance(d.get("start"), int)
        and begin <= d["start"] < end
    ]


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


def _is_block(seg: Mapping[str, Any] | None) -> bool:
    return seg is not None and seg.get("kind") not in (None, "markdown")


_PLAIN_NAMES: Final = frozenset({"questionnaire", "questionnaire-response"})


def _named(block: Mapping[str, Any]) -> bool:
    """A block whose name has a namespace or is not registered."""
    return block.get("registered") is False or block.get("name") not in _PLAIN_NAMES


def segment_rule_at(
    text: str,
    e: Mapping[str, Any] | None,
    a: Mapping[str, Any] | None,
    field: str | None,
    diagnostics: Sequence[Mapping[str, Any]],
    probe: Probe | None = None,
) -> str:
    """The rule behind replykit's ``segment`` answer where the adapter's differs.

    Input: the message ``text``; ``e`` and ``a``, replykit's and the adapter's segment
    at the place of the difference (``None`` where a side has none); the differing
    ``field`` (``kind``, ``end``, ``valid``, ``id`` ...; ``None`` for the segment as a
    whole); replykit's message ``diagnostics``; an optional :data:`Probe`.

    Output: a rule tag. Boundaries: an offset that is replykit's counted in UTF-16 code
    units is §1; a block replykit reads where the adapter shows text is §3a, or §6 when
    its name has a namespace or is unregistered and the adapter shows a block there
    once the name is ``questionnaire`` (without a probe: when it is unregistered); a
    block only the adapter found is explained by replykit's near-miss warning on its
    line (§8, §3c), else an inert region (§3b), else §3a; a
    fenced block's end is the closing-fence rule (:data:`CLOSER_RULE`), an XML+JSON
    block's end §3a. Block fields: ``registered``/``id`` §6; validity and forms the rule
    of replykit's first error the adapter did not report (``fence.no_preface`` ->
    :data:`PREFACE_RULE`), else the adapter's first error, else §6 for an unregistered
    block, :data:`PREFACE_RULE` when a plain preface makes the adapter accept a fenced
    form, else §4 (fenced) / §5 (XML+JSON) / §7 (responses). Never raises.
    """
    if e is None:
        start = a.get("start") if a is not None else None
        return _why_not_a_block(text, start if isinstance(start, int) else len(text), diagnostics)
    e_block = _is_block(e)
    if field in ("start", "end") and a is not None and _utf16_offset(text, e, a, field):
        return rules.TEXT_UNITS.tag  # the adapter counts UTF-16 code units, not code points
    if field in (None, "kind", "start", "end"):
        return _boundary_rule(text, e, a, field, diagnostics, probe)
    if not e_block:
        return rules.SEGMENTS.tag
    return _block_field_rule(field, e, a or {}, probe)


def _boundary_rule(
    text: str,
    e: Mapping[str, Any],
    a: Mapping[str, Any] | None,
    field: str | None,
    diagnostics: Sequence[Mapping[str, Any]],
    probe: Probe | None,
) -> str:
    """The rule of a difference in where a segment is or what kind it is
    (the boundaries of :func:`segment_rule_at`)."""
    e_block, a_block = _is_block(e), _is_block(a)
    a_start = a.get("start") if a is not None else None
    a_end = a.get("end") if a is not None else None
    same_start = a_start == e.get("start")
    # The adapter shows text where replykit has a block with a namespaced or
    # unregistered name: a registration matter when the adapter shows a block there
    # once the name is plain (without a probe: when the name is unregistered).
    if (
        e_block
        and not (a_block and same_start)
        and _named(e)
        and (probe("plain_name") if probe is not None else e.get("registered") is False)
    ):
        return rules.PROFILES.tag
    if e_block and a_block and field == "end" and same_start:
        return CLOSER_RULE if e.get("encoding") == "fenced_yaml" else rules.CANDIDATES.tag
    if e_block and a_block and field == "kind":
        return rules.CANDIDATES.tag
    if not e_block and a is not None and not a_block and isinstance(a_end, int):
        e_end = e.get("end")
        if isinstance(e_end, int) and a_end < e_end:
            return _why_not_a_block(text, a_end, diagnostics)
        return rules.CANDIDATES.tag
    if not e_block and a_block and isinstance(a_start, int):
        return _why_not_a_block(text, a_start, diagnostics)
    if e_block and a_block and isinstance(a_start, int):
        e_start = e.get("start")
        if isinstance(e_start, int) and a_start < e_start:
            return _why_not_a_block(text, a_start, diagnostics)
    if (
        e_block
        and not a_block
        and probe is not None
        and e.get("encoding") == "fenced_yaml"
        and probe("preface")
    ):
        return PREFACE_RULE
    return rules.CANDIDATES.tag


def segment_rule(
    text: str,
    expected: Mapping[str, Any],
    actual: Mapping[str, Any],
    path: Sequence[str | int],
) -> str:
    """The rule behind replykit's ``segment`` answer at ``path``, the first field where
    ``actual`` (the adapter's response) differs from ``expected`` (replykit's), both
    segments taken at the same index (:func:`segment_rule_at` has the rules).

    Input: the message ``text``; both responses (``{"segments": [...],
    "diagnostics"?: [...]}``, fields as in docs/fuzzing.md); ``path`` as
    :func:`replykit.fuzz.compare.first_difference` returns it (``("segments", 2,
    "end")``). Output: a rule tag; a difference in the message's diagnostics gets the
    rule of the first code in one list and not the other. Never raises.
    """
    exp_raw, act_raw = expected.get("segments"), actual.get("segments")
    exp_segs: list[Any] = exp_raw if isinstance(exp_raw, list) else []
    act_segs: list[Any] = act_raw if isinstance(act_raw, list) else []
    diags = [d for d in expected.get("diagnostics") or [] if isinstance(d, Mapping)]
    if not path or path[0] != "segments":
        if path and path[0] == "diagnostics":
            return _block_field_rule("diagnostics", expected, actual, None)
        return DEFAULT_RULE
    if len(path) < 2 or not isinstance(path[1], int):
        return DEFAULT_RULE
    i = path[1]
    e = exp_segs[i] if i < len(exp_segs) and isinstance(exp_segs[i], Mapping) else None
    a = act_segs[i] if i < len(act_segs) and isinstance(act_segs[i], Mapping) else None
    field = path[2] if len(path) > 2 and isinstance(path[2], str) else None
    return segment_rule_at(text, e, a, field, diags)


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
