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

from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from replykit.fuzz.compare import Difference
from replykit.fuzz.rules import codes_on_line
from replykit.fuzz.segdiff import SegmentDifference

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


def _codes(seg: Mapping[str, Any] | None) -> list[str]:
    """A block's codes, errors first."""
    diags = seg.get("diagnostics") if seg is not None else None
    if not isinstance(diags, list):
        return []
    items = [d for d in diags if isinstance(d, Mapping) and isinstance(d.get("code"), str)]
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


def segment_key(
    text: str,
    expected: Mapping[str, Any],
    actual: Mapping[str, Any],
    found: SegmentDifference,
    rule: str,
) -> ClassKey:
    """The coarse key of a ``segment`` difference ``found`` (from
    :func:`~replykit.fuzz.segdiff.segment_difference`) with its ``rule``."""
    e = _segment_at(expected, found.expected_index)
    a = _segment_at(actual, found.actual_index)
    field = found.field
    if found.stage == "view":
        role = _VIEW_ROLES.get(field or "", "boundary")
    elif field == "diagnostics" or (
        found.stage == "rest" and found.difference.path[:1] == ("diagnostics",)
    ):
        role = "diagnostics"
    elif field == "id":
        role = "id"
    else:
        role = "representation"
    kinds = f"{(e or {}).get('kind', NONE)}>{(a or {}).get('kind', NONE)}"
    code = NONE
    if role == "id" and e is not None:
        code = _earlier_cause(expected, actual, e)
    elif e is not None and e.get("kind") not in (None, "markdown"):
        codes = _codes(e)
        code = codes[0] if codes else NONE
    else:
        start = (a or {}).get("start")
        if isinstance(start, int):
            diags = [d for d in expected.get("diagnostics") or [] if isinstance(d, Mapping)]
            on_line = codes_on_line(text, start, diags)
            code = on_line[0] if on_line else NONE
    return ClassKey("segment", rule, role, kinds, code)


def _result_codes(response: Mapping[str, Any], key: str) -> list[str]:
    result = response.get("result")
    items = result.get(key) if isinstance(result, Mapping) else None
    if not isinstance(items, list):
        return []
    return [d["code"] for d in items if isinstance(d, Mapping) and isinstance(d.get("code"), str)]


def _first_own_code(expected: Mapping[str, Any], actual: Mapping[str, Any], key: str) -> str:
    mine, theirs = _result_codes(expected, key), _result_codes(actual, key)
    for code in mine:
        if code not in theirs:
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


__all__ = ["NONE", "SEP", "ClassKey", "json_key", "parse_key", "segment_key"]
