"""Chart/data compatibility and render.change target resolution (§12; seed 004
"4.2 render.change")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal

import attrs

from replykit.actions.context import DATA_SHAPES, ChartComponent, DataShape
from replykit.actions.model import ChartType
from replykit.argcheck import typed

#: Which data shapes each chart type can show (§12). scatter takes every shape but is a
#: renderer fallback: the fixed renderer applies its own compatibility strategy (seed 004
#: "4.2 render.change").
COMPATIBLE_SHAPES: Final[Mapping[ChartType, frozenset[DataShape]]] = {
    "bar": frozenset({"categorical", "ordinal", "temporal"}),
    "row": frozenset({"categorical", "ordinal", "temporal"}),
    "donut": frozenset({"categorical", "ordinal", "temporal"}),
    "line": frozenset({"ordinal", "temporal"}),
    "area": frozenset({"ordinal", "temporal"}),
    "table": frozenset(DATA_SHAPES),
    "scatter": frozenset(DATA_SHAPES),
}

ResolutionError = Literal["unknown_component", "choose_chart", "no_chart", "incompatible"]


@typed
def is_compatible(chart_type: ChartType, shape: DataShape) -> bool:
    """True when a chart of ``shape`` data may be shown as ``chart_type`` (§12, the
    table of docs/actions.md section 8); an unknown chart type or shape is compatible
    with nothing.

    Raises ``TypeError`` naming the argument when an argument has the wrong type.
    """
    return shape in COMPATIBLE_SHAPES.get(chart_type, frozenset())


@typed
def is_renderer_fallback(chart_type: ChartType) -> bool:
    """True for ``scatter``: accepted for any shape, drawn by the renderer's fallback (§12).

    Raises ``TypeError`` naming the argument when an argument has the wrong type.
    """
    return chart_type == "scatter"


@typed
@attrs.frozen
class ChartResolution:
    """Outcome of resolving a render.change target.

    Exactly one of ``chart`` (the chart to change) and ``error`` is set. ``error`` is
    ``unknown_component`` (the componentId is not registered), ``choose_chart`` (no
    componentId and several compatible charts), ``no_chart`` (no componentId and no
    chart registered) or ``incompatible`` (the chart, or every chart, cannot take the
    type).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    chart: ChartComponent | None = None
    error: ResolutionError | None = None


@typed
def resolve_chart(
    chart_type: ChartType, component_id: str | None, charts: tuple[ChartComponent, ...]
) -> ChartResolution:
    """Pick the chart a render.change applies to (§12; seed 004 "4.2 render.change", 执行限制).

    Input: the requested type, ``target.componentId`` or ``None``, the registered charts.
    With an id: that chart if registered and compatible. Without: the only compatible
    chart; several compatible is ``choose_chart``.
    Raises nothing but ``TypeError`` (naming the argument) for an argument of
    the wrong type.
    """
    if component_id is not None:
        for chart in charts:
            if chart.componentId == component_id:
                if is_compatible(chart_type, chart.dataShape):
                    return ChartResolution(chart=chart)
                return ChartResolution(error="incompatible")
        return ChartResolution(error="unknown_component")
    if not charts:
        return ChartResolution(error="no_chart")
    fitting = [c for c in charts if is_compatible(chart_type, c.dataShape)]
    if len(fitting) > 1:
        return ChartResolution(error="choose_chart")
    if not fitting:
        return ChartResolution(error="incompatible")
    return ChartResolution(chart=fitting[0])
