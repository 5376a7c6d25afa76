"""Persisted action state: ``actionStates`` and ``chartPresentation`` (seed 004 "7. 操作状态", §12).

Both live in the answer message's session checkpoint; :meth:`AnswerState.to_json` and
:meth:`AnswerState.from_json` round-trip them to equal objects.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any, Final, Literal

import attrs

from replykit.actions.context import component_id_problem
from replykit.actions.diagnostic import key_path
from replykit.actions.model import (
    CHART_TYPES,
    MAX_DESCRIPTION,
    ChartType,
    action_id_problem,
    as_chart_type,
)
from replykit.argcheck import typed
from replykit.jsonout import shown_repr
from replykit.surrogates import first_lone_surrogate
from replykit.text import measured_size

ActionStatus = Literal["idle", "confirming", "running", "success", "error", "cancelled"]
STATUSES: Final[tuple[ActionStatus, ...]] = (
    "idle",
    "confirming",
    "running",
    "success",
    "error",
    "cancelled",
)
_STATUS_BY_NAME: Final[dict[str, ActionStatus]] = {s: s for s in STATUSES}
# ASCII digits only: ``\d`` and ``strptime`` also take fullwidth or Arabic-Indic digits.
TIMESTAMP_RE: Final = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z"
)


#: The most a record's ``message`` may hold, in code points (a line ending counts as
#: one, docs/protocol.md §1.5): a description's limit, as both are one text shown beside
#: a button (docs/actions.md section 7, "Persisted state").
MAX_MESSAGE: Final = MAX_DESCRIPTION


class StateError(ValueError):
    """A persisted state value without the documented JSON shape (message names the path)."""


def message_problem(value: str) -> str | None:
    """Why ``value`` cannot be a record's ``message``, or ``None`` (docs/actions.md
    section 7, "Persisted state"): it goes into the persisted state's JSON, so it is
    held to what :class:`~replykit.actions.ActionContext` asks of its question (no
    surrogate code point: JSON cannot carry one, §1) and to a bound like every text of
    an action (at most :data:`MAX_MESSAGE` characters, §1.5). Input: any ``str``;
    never raises. Used by :class:`ActionStateRecord`, ``dispatch``'s ``message`` and
    :meth:`AnswerState.from_json`."""
    if measured_size(value) > MAX_MESSAGE:
        return f"must be at most {MAX_MESSAGE} characters"
    found = first_lone_surrogate(value)
    if found is not None:
        return f"must not hold a surrogate code point (U+{ord(found):04X}; JSON cannot carry one)"
    return None


@typed
def format_timestamp(now: datetime) -> str:
    """``now`` as ``2026-08-27T07:00:00.000Z``: UTC, milliseconds truncated (seed 004
    "7. 操作状态").

    Input: a timezone-aware ``datetime`` (the injected clock, §12). Raises
    ``ValueError`` for a naive datetime (its instant is unknown) or one that cannot be
    expressed in UTC.
    Raises ``TypeError`` naming the argument when an argument has the wrong type.
    """
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be a timezone-aware datetime")
    try:
        utc = now.astimezone(UTC)
    except OverflowError as exc:
        raise ValueError("now cannot be expressed in UTC") from exc
    return (
        f"{utc.year:04d}-{utc.month:02d}-{utc.day:02d}T{utc.hour:02d}:{utc.minute:02d}:"
        f"{utc.second:02d}.{utc.microsecond // 1000:03d}Z"
    )


def _check_status(_inst: object, _attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str) or value not in _STATUS_BY_NAME:
        raise ValueError("status must be one of " + ", ".join(STATUSES))


def _check_message(_inst: object, _attribute: attrs.Attribute[Any], value: object) -> None:
    problem = message_problem(value) if isinstance(value, str) else None
    if problem is not None:
        raise ValueError(f"message {problem}")


def _check_stamp(_inst: object, _attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str) or TIMESTAMP_RE.fullmatch(value) is None:
        raise ValueError("updatedAt must look like 2026-08-27T07:00:00.000Z")
    try:  # the shape alone admits 2026-02-30 or 25:00
        datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ")
    except ValueError:
        raise ValueError(f"updatedAt {shown_repr(value)} is not a real date and time") from None


@typed
@attrs.frozen
class ActionStateRecord:
    """The state of one action (seed 004 "7. 操作状态"): ``status``, ``message``, ``updatedAt``.

    ``message`` is a client text in the context's locale (or the host's text for a
    reported error); ``updatedAt`` is a UTC timestamp string, see
    :func:`format_timestamp`. Raises ``ValueError`` on an unknown status, a
    malformed timestamp, or a message :func:`message_problem` refuses (over
    :data:`MAX_MESSAGE` characters, or a surrogate code point: the record goes into the
    session checkpoint as JSON, docs/actions.md section 7).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    status: ActionStatus = attrs.field(validator=_check_status)
    message: str = attrs.field(validator=[attrs.validators.instance_of(str), _check_message])
    updatedAt: str = attrs.field(validator=_check_stamp)

    def to_json(self) -> dict[str, Any]:
        """``{"status": str, "message": str, "updatedAt": str}``."""
        return {"status": self.status, "message": self.message, "updatedAt": self.updatedAt}


def _record_pairs(
    value: Mapping[str, ActionStateRecord] | Iterable[tuple[str, ActionStateRecord]],
) -> tuple[tuple[str, ActionStateRecord], ...]:
    return tuple(sorted(dict(value).items(), key=lambda kv: kv[0]))


def _chart_pairs(
    value: Mapping[str, ChartType] | Iterable[tuple[str, ChartType]],
) -> tuple[tuple[str, ChartType], ...]:
    return tuple(sorted(dict(value).items(), key=lambda kv: kv[0]))


def _key_problem(attribute: str, key: str) -> str | None:
    """Why ``key`` cannot key the map ``attribute``: an id no kept action has
    (``actionStates``) or no chart can have (``chartPresentation``), §12."""
    if attribute == "actionStates":
        return action_id_problem(key)
    return component_id_problem(key)


def _check_keys(
    _inst: object, attribute: attrs.Attribute[Any], pairs: tuple[tuple[str, Any], ...]
) -> None:
    # A JavaScript client stores both maps as plain objects (§12 reserved ids), and a
    # key sanitize never keeps belongs to no action or chart.
    for key, _value in pairs:
        problem = _key_problem(attribute.name, key)
        if problem is not None:
            raise ValueError(f"{key_path(attribute.name, key)}: the key {problem}")


@typed
@attrs.frozen
class AnswerState:
    """The persisted state of one answer's actions (seed 004 "7. 操作状态", §12).

    ``actionStates``: action id -> :class:`ActionStateRecord` (an absent id is idle and
    never touched); ``chartPresentation``: componentId -> the chart type the user chose
    (an absent chart shows its client default). Both accept a mapping or pairs and are
    stored as key-sorted tuples of pairs, so equal content gives equal objects.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    Neither is ever keyed by an id ``sanitize`` refuses (blank, too long, an unsafe
    character, a name JavaScript objects inherit such as ``__proto__``, §12):
    ``ValueError`` naming the key when constructed with one.
    """

    actionStates: tuple[tuple[str, ActionStateRecord], ...] = attrs.field(
        default=(), converter=_record_pairs, validator=_check_keys
    )
    chartPresentation: tuple[tuple[str, ChartType], ...] = attrs.field(
        default=(), converter=_chart_pairs, validator=_check_keys
    )

    def record(self, action_id: str) -> ActionStateRecord | None:
        """The record of ``action_id``, or ``None`` when the action was never used."""
        for key, value in self.actionStates:
            if key == action_id:
                return value
        return None

    def status_of(self, action_id: str) -> ActionStatus:
        """The status of ``action_id``; ``idle`` when it has no record (seed 004 "7. 操作状态")."""
        found = self.record(action_id)
        return found.status if found is not None else "idle"

    def chart_type(self, component_id: str) -> ChartType | None:
        """The user's chart type for ``component_id``, or ``None`` (client default)."""
        for key, value in self.chartPresentation:
            if key == component_id:
                return value
        return None

    def with_record(self, action_id: str, record: ActionStateRecord) -> AnswerState:
        """A copy with ``action_id``'s record replaced."""
        states = dict(self.actionStates)
        states[action_id] = record
        return AnswerState(states, self.chartPresentation)

    def with_chart(self, component_id: str, chart_type: ChartType) -> AnswerState:
        """A copy where ``component_id`` shows as ``chart_type``."""
        charts = dict(self.chartPresentation)
        charts[component_id] = chart_type
        return AnswerState(self.actionStates, charts)

    def without_charts(self) -> AnswerState:
        """A copy with every chart override cleared (render.reset, seed 004 "4.3 render.reset")."""
        return AnswerState(self.actionStates, ())

    def to_json(self) -> dict[str, Any]:
        """``{"actionStates": {id: record}, "chartPresentation": {componentId: type}}``."""
        return {
            "actionStates": {key: value.to_json() for key, value in self.actionStates},
            "chartPresentation": dict(self.chartPresentation),
        }

    @classmethod
    def from_json(cls, value: object) -> AnswerState:
        """Restore a state from :meth:`to_json`'s shape (both keys optional, no others).

        Raises :class:`StateError` naming the bad path: unknown keys, a key no kept
        action or chart can have (an action id ``sanitize`` refuses: blank, over 80
        characters, an unsafe character, a name JavaScript objects inherit; a
        componentId likewise, over 120 characters, §12), a record without
        exactly ``status``/``message``/``updatedAt``, an unknown status, a message
        :func:`message_problem` refuses (over :data:`MAX_MESSAGE` characters, a surrogate
        code point), a malformed timestamp, a key that is not a string, an unsupported
        chart type. Source rule: docs/actions.md section 7, "Persisted state"; §12.
        """
        if not isinstance(value, dict):
            raise StateError("state: must be a JSON object")
        for key in value:
            if key not in ("actionStates", "chartPresentation"):
                raise StateError(f"{key_path('state', key)}: unknown key")
        raw_states = value.get("actionStates", {})
        raw_charts = value.get("chartPresentation", {})
        if not isinstance(raw_states, dict):
            raise StateError("state.actionStates: must be an object")
        if not isinstance(raw_charts, dict):
            raise StateError("state.chartPresentation: must be an object")
        states = {key: _read_record(key, raw) for key, raw in raw_states.items()}
        charts = {key: _read_chart(key, raw) for key, raw in raw_charts.items()}
        return cls(states, charts)


def _read_record(action_id: object, raw: object) -> ActionStateRecord:
    """One ``actionStates`` entry of :meth:`AnswerState.from_json`, or :class:`StateError`
    naming its path: the key first (a string, an id ``sanitize`` keeps), then the record."""
    where = key_path("state.actionStates", action_id)  # §2 path syntax
    if not isinstance(action_id, str):
        raise StateError(f"{where}: keys must be strings")
    problem = action_id_problem(action_id)
    if problem is not None:
        raise StateError(f"{where}: the action id {problem}")
    if not isinstance(raw, dict) or set(raw) != {"status", "message", "updatedAt"}:
        raise StateError(f"{where}: must hold exactly status, message, updatedAt")
    status = raw["status"]
    known = _STATUS_BY_NAME.get(status) if isinstance(status, str) else None
    if known is None:
        raise StateError(f"{where}.status: unknown status")
    message = raw["message"]
    if not isinstance(message, str):
        raise StateError(f"{where}.message: must be a string")
    problem = message_problem(message)
    if problem is not None:
        raise StateError(f"{where}.message: {problem}")
    stamp = raw["updatedAt"]
    if not isinstance(stamp, str) or TIMESTAMP_RE.fullmatch(stamp) is None:
        raise StateError(f"{where}.updatedAt: must look like 2026-08-27T07:00:00.000Z")
    try:
        return ActionStateRecord(known, message, stamp)
    except ValueError as error:
        raise StateError(f"{where}.updatedAt: {error}") from None


def _read_chart(component_id: object, raw: object) -> ChartType:
    """One ``chartPresentation`` entry of :meth:`AnswerState.from_json`, or
    :class:`StateError` naming its path: the key first (a string, a componentId a chart
    can have), then the chart type."""
    where = key_path("state.chartPresentation", component_id)
    if not isinstance(component_id, str):
        raise StateError(f"{where}: keys must be strings")
    problem = component_id_problem(component_id)
    if problem is not None:
        raise StateError(f"{where}: the componentId {problem}")
    chart = as_chart_type(raw)
    if chart is None:
        raise StateError(f"{where}: unsupported chart type (one of {', '.join(CHART_TYPES)})")
    return chart
