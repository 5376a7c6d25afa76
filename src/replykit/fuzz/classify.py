"""Class keys: what keeps two faults apart in a fuzz report (docs/fuzzing.md, "Classes").

A finding's :class:`ClassKey` is (op, rule, role, kinds, code, features):

- ``rule``: the rule tag behind replykit's answer (:mod:`replykit.fuzz.rules`);
- ``role``: what the differing field is to a user: ``block`` (one side counts a
  block where the other has none: a card, or text that moves later ids), ``end`` (a
  block ends elsewhere), ``boundary`` (a card's start or encoding), ``validity`` (a
  card against raw text at the same place), ``registration``, ``id``, ``form`` (what a
  card holds), ``representation`` (both sides show the same text, as different
  segments), ``near_miss`` (a near-miss warning names the construct), ``offset``,
  ``diagnostics``; for ``questionnaire_async`` ``validity`` or ``form:FIELD``; for
  ``sanitize_actions`` ``action`` (the diagnostics of an action differ), ``kept`` (an
  action one side keeps), ``field:FIELD`` (a field of a kept action) or ``validity``;
- ``kinds``: the segment kinds on both sides at that place (``markdown>questionnaire``:
  replykit reads Markdown, the adapter a block; ``-`` for the other ops);
- ``code``: replykit's first diagnostic code at that place (``-`` when none);
- ``features``: the constructs of the minimal input (:mod:`replykit.fuzz.features`).

The first five are the *coarse* key: the shrinker keeps it while it removes input, and
the features of what is left complete the key. For ``validity`` the code too is the
minimal input's (:data:`FINE_CODE_ROLES`); a card difference keeps its own roles
(``card``, ``card_end``) while shrinking and is filed under ``block`` or ``end``
(:data:`CLASS_ROLES`). Adapter failures are keyed by op and
failure alone (``segment|adapter.crash``).
"""

from __future__ import annotations

import re
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
    "kind": "card",
    "start": "boundary",
    "end": "card_end",
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
#: The role of a where-difference whose cause a near-miss warning names
#: (:data:`EXPLAINING_CODES`): whether the block it makes is a card, text, or moves
#: later ids is a consequence, so one class.
NEAR_MISS_ROLE: Final = "near_miss"
#: Roles about where blocks are: one side counts a block the other does not (``block``,
#: which moves later ids; ``card`` when it is a card), a block ends elsewhere (``end``;
#: ``card_end`` for a card), a card's start or encoding (``boundary``), both show text
#: (``representation``).
PLACE_ROLES: Final = frozenset({"boundary", "card", "block", "card_end", "end", "representation"})
#: The role of a class whose coarse key has a card role: whether one side shows a card
#: is kept while shrinking (a card difference never turns into a text one), but a
#: fault that makes a card at one place and a block shown as text at another is one
#: class.
CLASS_ROLES: Final[Mapping[str, str]] = {"card": "block", "card_end": "end"}
#: Roles whose code is the minimal input's, not part of the coarse key: which check
#: fails first in an input that is invalid for one reason is incidental (an invalid
#: question may lack its type or its text), so shrinking is free to reach the
#: simplest input of the fault, and the code of that input completes the key.
FINE_CODE_ROLES: Final = frozenset({"validity"})
#: The order in which the sanitizer's drop rules are checked (docs/actions.md section
#: 2), by the field of an action they are about: of two sides that drop one action
#: for different reasons, the check that comes first names the cause (the other
#: side skipped it, or fails it wrongly).
DROP_FIELDS: Final = ("", "type", "id", "label", "params.prompt", "chartType")
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
        return self.role not in ("representation", OFFSET_ROLE, NEAR_MISS_ROLE) and (
            self.code not in EXPLAINING_CODES
        )

    @property
    def coarse(self) -> ClassKey:
        """The key without its features, and without its code for a role of
        :data:`FINE_CODE_ROLES`: what shrinking keeps."""
        code = NONE if self.role in FINE_CODE_ROLES else self.code
        return attrs.evolve(self, features=(), code=code)

    def with_features(self, features: frozenset[str] | Sequence[str]) -> ClassKey:
        """This key with ``features`` (sorted)."""
        return attrs.evolve(self, features=tuple(sorted(features)))

    @property
    def class_key(self) -> ClassKey:
        """The key a class is filed under: :data:`CLASS_ROLES` maps a card role to the
        role of the same difference shown as text."""
        return attrs.evolve(self, role=CLASS_ROLES.get(self.role, self.role))

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
        coarse = self.coarse
        return SEP.join((coarse.op, coarse.rule, coarse.role, coarse.kinds, coarse.code))


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


def _where_code(seg: Mapping[str, Any] | None) -> str | None:
    """The first code of a block whose rule is about where blocks are
    (:data:`BOUNDARY_RULES`: ``fence.unclosed``, not a YAML error)."""
    return next((c for c in _codes(seg) if rule_for_code(c) in BOUNDARY_RULES), None)


#: Rules of errors about a block as a whole (where it is, whether it may be live)
#: rather than what it holds.
BLOCK_RULES: Final = BOUNDARY_RULES | {rules.PREFACE.tag}


def block_errors(expected: Mapping[str, Any]) -> frozenset[str]:
    """replykit's error codes in a ``segment`` answer whose rule is about a block as a
    whole (:data:`BLOCK_RULES`: ``fence.unclosed``, ``fence.no_preface``). Shrinking a
    validity difference may not add one: the input would then be invalid for another
    reason, which a second fault of the adapter may be what hides."""
    diags = expected.get("diagnostics")
    items = diags if isinstance(diags, list) else []
    return frozenset(
        d["code"]
        for d in items
        if isinstance(d, Mapping)
        and d.get("severity") == "error"
        and isinstance(d.get("code"), str)
        and rule_for_code(d["code"]) in BLOCK_RULES
    )


def _role(found: SegmentDifference) -> str:
    field = found.field
    if found.stage == "view":
        return _VIEW_ROLES.get(field or "", "boundary")
    if field == "diagnostics" or found.difference.path[:1] == ("diagnostics",):
        return "diagnostics"
    if found.stage == "blocks" and field == "kind":
        return "block"
    if found.stage == "blocks" and field == "end":
        return "end"
    return "representation"


def _place_code(text: str, expected: Mapping[str, Any], role: str, e: Any, a: Any) -> str | None:
    """The code of a difference in where blocks are (module docstring of
    :func:`segment_key`)."""
    place = a if _is_block(a) and not _is_block(e) else e
    line = _line_code(text, expected, place)
    if role in ("card", "block"):
        # Whether the name is registered does not decide whether a block is counted
        # (the rule tag says §6 when it matters); only a near-miss names why not.
        return line if line in NEAR_MISSES else None
    if role in ("card_end", "end"):
        # Where replykit's block ends (unclosed, or an unregistered name) is not why
        # the other side ends it elsewhere; the features of the minimal input say.
        return line if line in EXPLAINING_CODES else None
    if line is None and role == "representation" and _is_block(e):
        # Only a code about where the block is (fence.unclosed) names the cause;
        # its validity errors do not, and keeping them would keep the whole
        # payload through shrinking.
        return _where_code(e)
    return line


def segment_key(
    text: str,
    expected: Mapping[str, Any],
    actual: Mapping[str, Any],
    found: SegmentDifference,
    rule: str,
) -> ClassKey:
    """The coarse key of a ``segment`` difference ``found`` (from
    :func:`~replykit.fuzz.segdiff.segment_difference`) with its ``rule``.

    ``role``: ``card`` when one side shows a card where the other has none; ``block``
    when one side counts a block shown as text where the other has none (it moves the
    ids of later blocks: a moved id is keyed by this cause); ``card_end`` or ``end``
    when a block ends elsewhere; ``boundary`` (a card's start or encoding);
    ``validity``; ``registration``; ``form``; ``representation`` (two blocks shown as
    text that differ otherwise); ``diagnostics``. A class files ``card`` under
    ``block`` and ``card_end`` under ``end`` (:data:`CLASS_ROLES`). ``kinds`` is each
    side's segment kind there (``markdown``, ``questionnaire``,
    ``questionnaire_response``; ``-`` for none; ``other`` for a kind replykit does not
    know). ``code``: for validity, replykit's first error the adapter does not report
    (else its first error), a part of the key the shrinker does not keep
    (:data:`FINE_CODE_ROLES`); for a block or an end, replykit's near-miss warning on
    the line where the block starts (none else: the features say why); for a
    boundary, a registration or a representation, replykit's near-miss or
    ``name.unregistered`` warning on that line, and for a representation without one,
    the block's first code about where blocks are; for the message's diagnostics, the
    first code in one list only. A near-miss that names one construct
    (:data:`EXPLAINING_CODES`) keys a place difference alone: role ``near_miss``."""
    e = _segment_at(expected, found.expected_index)
    a = _segment_at(actual, found.actual_index)
    field = found.field
    role = _role(found)
    where = role in PLACE_ROLES or role in ("registration", "id")
    kinds = f"{_side(e, where)}>{_side(a, where)}"
    code: str | None = None
    if role == "validity":
        theirs = set(_codes(a))
        mine = _codes(e, errors_only=True)
        code = next((c for c in mine if c not in theirs), mine[0] if mine else None)
    elif role in PLACE_ROLES or role == "registration":
        code = _place_code(text, expected, role, e, a)
    elif role == "diagnostics":
        source_e = e if field == "diagnostics" else expected
        source_a = a if field == "diagnostics" else actual
        mine_codes, their_codes = _codes(source_e), _codes(source_a)
        code = next((c for c in mine_codes if c not in their_codes), None)
        code = code or next((c for c in their_codes if c not in mine_codes), None)
    if role in PLACE_ROLES and code in EXPLAINING_CODES:
        return ClassKey("segment", rule, NEAR_MISS_ROLE, NONE, code)
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


_ACTION_AT: Final = re.compile(r"actions\[([0-9]+)\]\.?(.*)")
#: The role of a sanitizer difference in what happens to one action (kept, dropped
#: and why, a field removed): keyed by the field the first check that differs is
#: about.
ACTION_ROLE: Final = "action"


def _by_action(response: Mapping[str, Any]) -> dict[int, Counter[tuple[str, str]]]:
    """The diagnostics of a sanitizer answer as (code, field) by action number."""
    result = response.get("result")
    items = result.get("diagnostics") if isinstance(result, Mapping) else None
    out: dict[int, Counter[tuple[str, str]]] = {}
    for d in items if isinstance(items, list) else []:
        if not isinstance(d, Mapping) or not isinstance(d.get("code"), str):
            continue
        m = _ACTION_AT.fullmatch(d["path"]) if isinstance(d.get("path"), str) else None
        if m is not None:
            field = re.sub(r"\[[0-9]+\]", "[]", m.group(2))
            out.setdefault(int(m.group(1)), Counter())[(d["code"], field)] += 1
    return out


def _action_cause(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> str | None:
    """The field of the first action whose diagnostics differ that the earliest
    differing check is about (:data:`DROP_FIELDS` order, then removals), or ``None``
    when every action's diagnostics agree: which code each side gives there is
    incidental (an id a client does not check for duplicates meets the label check
    next), which field the cause is about is not."""
    mine, theirs = _by_action(expected), _by_action(actual)
    for n in sorted(set(mine) | set(theirs)):
        m, t = mine.get(n, Counter()), theirs.get(n, Counter())
        if m == t:
            continue
        fields = [field for _, field in ((m - t) + (t - m))]

        def rank(field: str) -> tuple[int, str]:
            at = DROP_FIELDS.index(field) if field in DROP_FIELDS else len(DROP_FIELDS)
            return at, field

        return min(fields, key=rank) or "action"
    return None


def json_key(
    op: str, expected: Mapping[str, Any], actual: Mapping[str, Any], diff: Difference, rule: str
) -> ClassKey:
    """The coarse key of a ``questionnaire_async`` or ``sanitize_actions`` difference.

    ``questionnaire_async``: role ``validity`` or ``form:FIELD``, code the first code
    in one error list only (a fine part for validity). ``sanitize_actions``: when the
    diagnostics of some action differ, role ``action`` and code the field the first
    differing check there is about (``id``, ``label``, ``url``; ``action`` for the
    action itself; :func:`_action_cause`); else ``kept`` (an action one side keeps),
    ``field:FIELD`` (a field of a kept action) or ``validity``."""
    path = diff.path
    if op == "questionnaire_async":
        field = path[1] if len(path) > 1 and isinstance(path[1], str) else NONE
        role = "validity" if field in _VALIDITY_FIELDS else f"form:{_last_name(path[1:])}"
        return ClassKey(op, rule, role, NONE, _first_own_code(expected, actual, "errors"))
    cause = _action_cause(expected, actual)
    if cause is not None:
        return ClassKey(op, rule, ACTION_ROLE, NONE, cause)
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
    "ACTION_ROLE",
    "BLOCK_RULES",
    "CLASS_ROLES",
    "DROP_FIELDS",
    "EXPLAINING_CODES",
    "FINE_CODE_ROLES",
    "NEAR_MISS_ROLE",
    "NONE",
    "OFFSET_ROLE",
    "PLACE_ROLES",
    "SEP",
    "ClassKey",
    "block_errors",
    "json_key",
    "parse_key",
    "segment_key",
]
