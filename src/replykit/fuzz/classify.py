"""Class keys: what keeps two faults apart in a fuzz report (docs/fuzzing.md, "Classes").

A finding's :class:`ClassKey` is (op, rule, role, kinds, code, features):

- ``rule``: the rule tag behind replykit's answer (:mod:`replykit.fuzz.rules`);
- ``role``: what the differing field is to a user: ``boundary`` (where a card starts
  or ends, or whether there is one), ``validity`` (a card against raw text at the same
  place), ``registration``, ``id``, ``form`` (what a card holds), ``representation``
  (both sides show the same text, as different segments), ``diagnostics``; for
  ``questionnaire_async`` ``validity`` or ``form:FIELD``; for ``sanitize_actions``
  ``kept`` (an action one side keeps), ``field:FIELD`` (a field of a kept action) or
  ``validity`` (the diagnostics);
- ``kinds``: the segment kinds on both sides at that place (``markdown>questionnaire``:
  replykit reads Markdown, the adapter a block; ``-`` for the other ops);
- ``code``: replykit's first diagnostic code at that place (``-`` when none);
- ``features``: the constructs of the minimal input (:mod:`replykit.fuzz.features`).

The first five are the *coarse* key: the shrinker keeps it while it removes input, and
the features of what is left complete the key. Adapter failures are keyed by op and
failure alone (``segment|adapter.crash``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from replykit.codes import rules
from replykit.codes.segment import NAME_UNREGISTERED, NEAR_MISSES
from replykit.fuzz.compare import Difference
from replykit.fuzz.rules import codes_on_line, rule_for_code
from replykit.fuzz.segdiff import SegmentDifference

#: The segment kinds a key names (docs/protocol.md §2).
SEGMENT_KINDS: Final = frozenset({"markdown", "questionnaire", "questionnaire_response"})

#: What stands for "nothing" in a key part.
NONE: Final = "-"
#: Separates the parts of a key's text form.
SEP: Final = "|"

_VIEW_ROLES: Final[Mapping[str, str]] = {
    "kind": "boundary",
    "start": "boundary",
    "end": "boundary",
    "encoding": "boundary",
    "valid": "validity",
    "registered": "registration",
    "name": "registration",
    "id": "id",
    "questionnaire": "form",
    "response": "form",
}
#: Rules about where blocks are (not what they hold): a representation's code is one
#: of these rules' codes.
BOUNDARY_RULES: Final = frozenset(
    r.tag
    for r in (
        rules.CANDIDATES,
        rules.CLOSER,
        rules.INERT,
        rules.TOP_LEVEL,
        rules.PROFILES,
        rules.NEAR_MISS,
    )
)
#: Warnings about an opener that name why a line is (not) a block there.
LINE_CODES: Final = NEAR_MISSES | {NAME_UNREGISTERED.name}
#: Near-miss warnings that name one construct: at a boundary (or a representation)
#: they explain the difference whole, so its key leaves out the kinds and the
#: features. ``near_miss.unclosed_tag`` is met by several faults (a closer in another
#: case, ``<\/name>``): its features stay.
EXPLAINING_CODES: Final = NEAR_MISSES - {"near_miss.unclosed_tag"}
#: The role of a difference in offsets alone: the adapter counts UTF-16 code units.
OFFSET_ROLE: Final = "offset"
_VALIDITY_FIELDS: Final = frozenset(
    {"success", "status", "validation_passed", "error_code", "errors"}
)


@attrs.frozen
class ClassKey:
    """The key of a class of findings (module docstring). ``features`` is sorted."""

    op: str
    rule: str
    role: str = NONE
    kinds: str = NONE
    code: str = NONE
    features: tuple[str, ...] = ()

    @property
    def keeps_features(self) -> bool:
        """Whether the features of the minimal input complete this key: not for a
        representation or an offset, nor when an :data:`EXPLAINING_CODES` warning
        names the construct (the features would only split one fault by the inputs
        it met)."""
        return self.role not in ("representation", OFFSET_ROLE) and (
            self.code not in EXPLAINING_CODES
        )

    @property
    def coarse(self) -> ClassKey:
        """The key without its features: what shrinking keeps."""
        return attrs.evolve(self, features=())

    def with_features(self, features: frozenset[str] | Sequence[str]) -> ClassKey:
        """This key with ``features`` (sorted)."""
        return attrs.evolve(self, features=tuple(sorted(features)))

    @property
    def is_failure(self) -> bool:
        """True for an adapter failure (``adapter.*``)."""
        return self.rule.startswith("adapter.")

    def text(self) -> str:
        """The key as one line: ``op|rule|role|kinds|code|feature+feature`` (``-`` for an
        empty part); an adapter failure is ``op|adapter.KIND``. This is what
        ``report.json`` writes as a class's ``key`` and what ``--accept`` matches."""
        if self.is_failure:
            return SEP.join((self.op, self.rule))
        features = "+".join(self.features) or NONE
        return SEP.join((self.op, self.rule, self.role, self.kinds, self.code, features))

    def coarse_text(self) -> str:
        """:meth:`text` of :attr:`coarse` without the features part."""
        if self.is_failure:
            return self.text()
        return SEP.join((self.op, self.rule, self.role, self.kinds, self.code))


def _codes(seg: Mapping[str, Any] | None, errors_only: bool = False) -> list[str]:
    """A block's codes, errors first (only errors with ``errors_only``)."""
    diags = seg.get("diagnostics") if seg is not None else None
    if not isinstance(diags, list):
        return []
    items = [d for d in diags if isinstance(d, Mapping) and isinstance(d.get("code"), str)]
    if errors_only:
        items = [d for d in items if d.get("severity") == "error"]
    items.sort(key=lambda d: d.get("severity") != "error")
    return [d["code"] for d in items]


def _segment_at(response: Mapping[str, Any], index: int | None) -> Mapping[str, Any] | None:
    segs = response.get("segments")
    if index is None or not isinstance(segs, list) or not 0 <= index < len(segs):
        return None
    seg = segs[index]
    return seg if isinstance(seg, Mapping) else None


def _earlier_cause(
    expected: Mapping[str, Any], actual: Mapping[str, Any], e: Mapping[str, Any]
) -> str:
    """For an id that moved: the first code of the first block before ``e`` that one
    side counts and the other does not (replykit's codes only)."""

    def starts(response: Mapping[str, Any]) -> list[tuple[Any, Mapping[str, Any]]]:
        segs = response.get("segments")
        out = []
        for seg in segs if isinstance(segs, list) else []:
            if isinstance(seg, Mapping) and seg.get("kind") not in (None, "markdown"):
                out.append((seg.get("start"), seg))
        return out

    limit = e.get("start")
    mine = [(s, seg) for s, seg in starts(expected) if isinstance(s, int) and s != limit]
    theirs = {s for s, _ in starts(actual)}
    for start, seg in mine:
        if isinstance(limit, int) and start < limit and start not in theirs:
            codes = _codes(seg)
            return codes[0] if codes else NONE
    return NONE


def _side(seg: Mapping[str, Any] | None, where: bool = False) -> str:
    """The segment kind of one side at the place of a difference (``-``: none); with
    ``where`` (a difference in where blocks are) a response counts as a questionnaire:
    which of the two a block is does not move it."""
    if seg is None:
        return NONE
    kind = seg.get("kind", "markdown")
    if where and kind == "questionnaire_response":
        return "questionnaire"
    return kind if isinstance(kind, str) and kind in SEGMENT_KINDS else "other"


def _is_block(seg: Mapping[str, Any] | None) -> bool:
    return _side(seg) not in (NONE, "markdown")


def _line_code(
    text: str, expected: Mapping[str, Any], place: Mapping[str, Any] | None
) -> str | None:
    """The first near-miss or ``name.unregistered`` warning of replykit on the line
    where ``place`` starts: what replykit says about an opener there."""
    start, end = (place or {}).get("start"), (place or {}).get("end")
    if not isinstance(start, int):
        return None
    diags = [d for d in expected.get("diagnostics") or [] if isinstance(d, Mapping)]
    if isinstance(end, int) and end > start:
        # a warning about a later opener on the same line says nothing about this place
        diags = [d for d in diags if not isinstance(d.get("start"), int) or d["start"] < end]
    for code in codes_on_line(text, start, diags):
        if code in LINE_CODES:
            return code
    return None


def segment_key(
    text: str,
    expected: Mapping[str, Any],
    actual: Mapping[str, Any],
    found: SegmentDifference,
    rule: str,
) -> ClassKey:
    """The coarse key of a ``segment`` difference ``found`` (from
    :func:`~replykit.fuzz.segdiff.segment_difference`) with its ``rule``.

    ``kinds`` is each side's segment kind there (``markdown``, ``questionnaire``,
    ``questionnaire_response``; ``-`` for none; ``other`` for a kind replykit does not
    know). ``code``: for an id, the first code of the earlier block one side does not
    count; for validity, replykit's first error the adapter does not report (else its
    first error); for a boundary, a registration or a representation, replykit's
    near-miss or ``name.unregistered`` warning on the line where the difference starts,
    and for a representation without one, the first code of replykit's block there
    whose rule is about where blocks are (:data:`BOUNDARY_RULES`: ``fence.unclosed``,
    not a YAML error); for the message's diagnostics, the first code in one list only."""
    e = _segment_at(expected, found.expected_index)
    a = _segment_at(actual, found.actual_index)
    field = found.field
    if found.stage == "view":
        role = _VIEW_ROLES.get(field or "", "boundary")
    elif field == "diagnostics" or found.difference.path[:1] == ("diagnostics",):
        role = "diagnostics"
    else:
        role = "representation"
    where = role in ("boundary", "registration", "representation")
    kinds = f"{_side(e, where)}>{_side(a, where)}"
    code: str | None = None
    if role == "id" and e is not None:
        code = _earlier_cause(expected, actual, e)
    elif role == "validity":
        theirs = set(_codes(a))
        mine = _codes(e, errors_only=True)
        code = next((c for c in mine if c not in theirs), mine[0] if mine else None)
    elif role in ("boundary", "registration", "representation"):
        place = a if _is_block(a) and not _is_block(e) else e
        code = _line_code(text, expected, place)
        if code is None and role == "representation" and _is_block(e):
            # Only a code about where the block is (fence.unclosed) names the cause;
            # its validity errors do not, and keeping them would keep the whole
            # payload through shrinking.
            code = next((c for c in _codes(e) if rule_for_code(c) in BOUNDARY_RULES), None)
    elif role == "diagnostics":
        source_e = e if field == "diagnostics" else expected
        source_a = a if field == "diagnostics" else actual
        mine_codes, their_codes = _codes(source_e), _codes(source_a)
        code = next((c for c in mine_codes if c not in their_codes), None)
        code = code or next((c for c in their_codes if c not in mine_codes), None)
    if role in ("boundary", "representation") and code in EXPLAINING_CODES:
        return ClassKey("segment", rule, role, NONE, code)
    return ClassKey("segment", rule, role, kinds, code or NONE)


def _result_codes(response: Mapping[str, Any], key: str) -> list[str]:
    result = response.get("result")
    items = result.get(key) if isinstance(result, Mapping) else None
    if not isinstance(items, list):
        return []
    return [d["code"] for d in items if isinstance(d, Mapping) and isinstance(d.get("code"), str)]


def _first_own_code(expected: Mapping[str, Any], actual: Mapping[str, Any], key: str) -> str:
    """What differs in the two code lists, counted as multisets: replykit's first code
    the adapter reports fewer times, else the adapter's first code replykit reports
    fewer times, else replykit's first code (``-``: none)."""
    mine, theirs = _result_codes(expected, key), _result_codes(actual, key)
    mine_only = Counter(mine) - Counter(theirs)
    theirs_only = Counter(theirs) - Counter(mine)
    for code in mine:
        if mine_only[code]:
            return code
    for code in theirs:
        if theirs_only[code]:
            return code
    return mine[0] if mine else NONE


def _last_name(path: Sequence[str | int]) -> str:
    for part in reversed(path):
        if isinstance(part, str):
            return part
    return NONE


def json_key(
    op: str, expected: Mapping[str, Any], actual: Mapping[str, Any], diff: Difference, rule: str
) -> ClassKey:
    """The coarse key of a ``questionnaire_async`` or ``sanitize_actions`` difference."""
    path = diff.path
    if op == "questionnaire_async":
        field = path[1] if len(path) > 1 and isinstance(path[1], str) else NONE
        role = "validity" if field in _VALIDITY_FIELDS else f"form:{_last_name(path[1:])}"
        return ClassKey(op, rule, role, NONE, _first_own_code(expected, actual, "errors"))
    if len(path) >= 2 and path[1] == "actions":
        if len(path) == 3 or (len(path) >= 4 and path[3] == "id"):
            role = "kept"
        else:
            role = f"field:{_last_name(path[3:])}" if len(path) > 3 else "kept"
    else:
        role = "validity"
    return ClassKey(op, rule, role, NONE, _first_own_code(expected, actual, "diagnostics"))


def parse_key(text: str) -> tuple[str, ...]:
    """The parts of a key's text form (:meth:`ClassKey.text`)."""
    return tuple(text.split(SEP))


__all__ = [
    "EXPLAINING_CODES",
    "NONE",
    "OFFSET_ROLE",
    "SEP",
    "ClassKey",
    "json_key",
    "parse_key",
    "segment_key",
]
