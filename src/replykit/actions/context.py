"""What the host knows about the answer: details, registered charts, question, locale.

Source rules: seed 004 "4.2 render.change" (charts and their data), "4.8 answer.refresh"
(the original question), "5. 客户端自动补充的入口" (client-added entries) and §12 (data
shapes; docs/actions.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, Literal

import attrs

from replykit.actions.diagnostic import key_path
from replykit.actions.model import (
    LOCALES,
    MAX_TARGET,
    Locale,
    id_problem,
    valid_target,
)
from replykit.argcheck import typed
from replykit.diagnostics import join_key
from replykit.jsonout import shown_repr
from replykit.surrogates import first_lone_surrogate

DataShape = Literal["categorical", "ordinal", "temporal", "numeric_xy"]
DATA_SHAPES: Final[tuple[DataShape, ...]] = ("categorical", "ordinal", "temporal", "numeric_xy")
_SHAPE_BY_NAME: Final[dict[str, DataShape]] = {s: s for s in DATA_SHAPES}
_LOCALE_BY_NAME: Final[dict[str, Locale]] = {s: s for s in LOCALES}
CONTEXT_FIELDS: Final[tuple[str, ...]] = ("hasFullDetails", "charts", "question", "locale")


class ContextError(ValueError):
    """A context value that does not have the documented JSON shape (message names the path)."""


def component_id_problem(value: str) -> str | None:
    """Why ``value`` cannot be a chart's componentId, or ``None``: the rule of
    :class:`ChartComponent` and the context file alike. It must be one an action can
    target (docs/actions.md section 3: non-blank, at most 120 code points, no control or
    bidi character, no surrogate code point) and no name JavaScript objects inherit
    (chartPresentation is keyed by it, §12)."""
    return id_problem(value, valid_target(value), MAX_TARGET, "a componentId")


def _component_id(_inst: object, _attribute: attrs.Attribute[Any], value: str) -> None:
    problem = component_id_problem(value)
    if problem is not None:
        raise ValueError(f"componentId {problem}")


def _one_of(name: str, allowed: tuple[str, ...]) -> Any:
    """An attrs validator whose message is one line naming the field (no attrs internals)."""

    def check(_inst: object, _attribute: attrs.Attribute[Any], value: object) -> None:
        if value not in allowed:
            choices = ", ".join(repr(a) for a in allowed)
            raise ValueError(f"{name} must be one of {choices}, not {shown_repr(value)}")

    return check


def _no_surrogate(_inst: object, _attribute: attrs.Attribute[Any], value: str | None) -> None:
    if value is not None and first_lone_surrogate(value) is not None:
        raise ValueError("question must not hold a surrogate code point (JSON cannot carry one)")


@typed
@attrs.frozen
class ChartComponent:
    """A statistics chart registered in the current answer (seed 004 "4.2 render.change").

    ``componentId``: its id in the answer; ``dataShape``: the kind of data it shows,
    one of ``categorical`` (unordered categories), ``ordinal`` (ordered categories),
    ``temporal`` (points in time) and ``numeric_xy`` (pairs of numbers), §12.
    Raises ``TypeError`` for a non-string id, ``ValueError`` for an unknown shape or an
    id the context file refuses (:func:`component_id_problem`: blank, over 120 code
    points, a control, bidi or surrogate character, or a name JavaScript objects inherit
    such as ``constructor``, §12: state is keyed by it), with a one-line message naming
    the field.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    componentId: str = attrs.field(validator=[attrs.validators.instance_of(str), _component_id])
    dataShape: DataShape = attrs.field(validator=_one_of("dataShape", DATA_SHAPES))

    def to_json(self) -> dict[str, Any]:
        """``{"componentId": str, "dataShape": str}``."""
        return {"componentId": self.componentId, "dataShape": self.dataShape}


def _unique_charts(
    _inst: object, _attribute: attrs.Attribute[Any], charts: tuple[ChartComponent, ...]
) -> None:
    ids = [c.componentId for c in charts]
    if len(set(ids)) != len(ids):
        raise ValueError("charts: componentIds must be unique")


def _as_charts(value: Iterable[ChartComponent]) -> tuple[ChartComponent, ...]:
    return tuple(value)


@typed
@attrs.frozen
class ActionContext:
    """The host's knowledge about one answer, used by client-added entries and execution.

    ``hasFullDetails``: the answer has a full data detail view (seed 004
    "5. 客户端自动补充的入口"); ``charts``: registered chart components, unique ids
    (seed 004 "4.2 render.change", "5. 客户端自动补充的入口"); ``question``: the user
    question that produced the answer, or ``None`` when unknown (seed 004
    "4.8 answer.refresh", "5. 客户端自动补充的入口"; a blank question counts as
    unknown); ``locale``: ``zh`` or ``en`` for client-side texts (§12).
    Raises ``ValueError`` on duplicate chart ids, another locale or a question holding a
    surrogate code point, ``TypeError`` when a field has the wrong type (so the
    functions taking a context never fail on it).
    """

    hasFullDetails: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))
    charts: tuple[ChartComponent, ...] = attrs.field(
        default=(),
        converter=_as_charts,
        validator=[
            attrs.validators.deep_iterable(attrs.validators.instance_of(ChartComponent)),
            _unique_charts,
        ],
    )
    question: str | None = attrs.field(
        default=None,
        validator=[attrs.validators.optional(attrs.validators.instance_of(str)), _no_surrogate],
    )
    locale: Locale = attrs.field(default="zh", validator=_one_of("locale", LOCALES))

    def chart(self, component_id: str) -> ChartComponent | None:
        """The registered chart with this id, or ``None``."""
        for chart in self.charts:
            if chart.componentId == component_id:
                return chart
        return None

    def to_json(self) -> dict[str, Any]:
        """The context file shape: ``{"hasFullDetails", "charts", "question", "locale"}``."""
        return {
            "hasFullDetails": self.hasFullDetails,
            "charts": [c.to_json() for c in self.charts],
            "question": self.question,
            "locale": self.locale,
        }


@typed
def parse_context(value: object) -> ActionContext:
    """Read the CLI's context JSON (strictly: the host wrote it, a typo should not pass).

    Shape: ``{"hasFullDetails"?: bool, "charts"?: [{"componentId": str, "dataShape":
    "categorical"|"ordinal"|"temporal"|"numeric_xy"}], "question"?: str | null,
    "locale"?: "zh"|"en"}``; every key optional, no other key allowed. Output: an
    :class:`ActionContext`. Raises :class:`ContextError` naming the bad path (unknown
    key, wrong type, unknown data shape, a componentId :func:`component_id_problem`
    refuses, a duplicate componentId).
    Source rule: seed 004 "4.2 render.change", "4.8 answer.refresh", "5. 客户端自动补充的入口"; §12.
    """
    if not isinstance(value, dict):
        raise ContextError("context: must be a JSON object")
    for key in value:
        if key not in CONTEXT_FIELDS:
            allowed = ", ".join(CONTEXT_FIELDS)
            raise ContextError(f"{key_path('context', key)}: unknown key (allowed: {allowed})")
    details = value.get("hasFullDetails", False)
    if not isinstance(details, bool):
        raise ContextError("context.hasFullDetails: must be true or false")
    question = value.get("question")
    if question is not None and not isinstance(question, str):
        raise ContextError("context.question: must be a string or null")
    if question is not None and first_lone_surrogate(question) is not None:
        raise ContextError("context.question: must not hold a surrogate code point")
    raw_locale = value.get("locale", "zh")
    locale = _LOCALE_BY_NAME.get(raw_locale) if isinstance(raw_locale, str) else None
    if locale is None:
        raise ContextError('context.locale: must be "zh" or "en"')
    raw_charts = value.get("charts", [])
    if not isinstance(raw_charts, list):
        raise ContextError("context.charts: must be an array")
    charts: list[ChartComponent] = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_charts, start=1):
        where = f"context.charts[{index}]"
        if not isinstance(raw, dict):
            raise ContextError(f"{where}: must be an object")
        for key in raw:
            if key not in ("componentId", "dataShape"):
                at = join_key(where, key) if isinstance(key, str) else where
                raise ContextError(f"{at}: unknown key (allowed: componentId, dataShape)")
        component_id = raw.get("componentId")
        if not isinstance(component_id, str):
            raise ContextError(f"{where}.componentId: must be a string")
        problem = component_id_problem(component_id)
        if problem is not None:
            raise ContextError(f"{where}.componentId: {problem}")
        if component_id in seen:
            raise ContextError(f"{where}.componentId: duplicate id")
        seen.add(component_id)
        shape = raw.get("dataShape")
        known = _SHAPE_BY_NAME.get(shape) if isinstance(shape, str) else None
        if known is None:
            raise ContextError(f"{where}.dataShape: must be one of {', '.join(DATA_SHAPES)}")
        charts.append(ChartComponent(component_id, known))
    return ActionContext(
        hasFullDetails=details, charts=tuple(charts), question=question, locale=locale
    )
