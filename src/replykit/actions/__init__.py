"""Answer actions (seed 004): the headless reference of the client protocol.

Declarative buttons under an answer are sanitized (:func:`sanitize`; from JSON text,
read strictly, :func:`sanitize_json`), completed with
client-added entries (:func:`with_defaults`), confirmed (:func:`needs_confirmation`,
:func:`confirmation_view`) and run as a pure state transition (:func:`dispatch`) whose
effect the host performs. :func:`lint` checks producers against the seed's checklist
and :func:`action_schema` describes a valid list. Nothing here calls a tool, a URL or
the network: the only way out is a :class:`ChatSend` effect with a prompt.
"""

from __future__ import annotations

from replykit.actions.charts import (
    COMPATIBLE_SHAPES,
    ChartResolution,
    is_compatible,
    is_renderer_fallback,
    resolve_chart,
)
from replykit.actions.confirm import (
    ConfirmationView,
    confirmation_view,
    effective_prompt,
    needs_confirmation,
)
from replykit.actions.context import (
    DATA_SHAPES,
    ActionContext,
    ChartComponent,
    ContextError,
    DataShape,
    parse_context,
)
from replykit.actions.defaults import default_entries, with_defaults
from replykit.actions.dispatch import (
    EVENT_KINDS,
    ChatSend,
    Effect,
    EventKind,
    FillInput,
    Ignored,
    NoEffect,
    ResetCharts,
    SetChart,
    ShowConfirmation,
    ShowDetails,
    dispatch,
)
from replykit.actions.lint import has_vague_reference, lint
from replykit.actions.model import (
    ACTION_TYPES,
    CHART_TYPES,
    MAX_DESCRIPTION,
    MAX_ID,
    MAX_LABEL,
    MAX_PROMPT,
    MAX_SHOWN,
    MAX_TARGET,
    MAX_TITLE,
    RESERVED_IDS,
    RISK_LEVELS,
    STYLES,
    ActionDiagnostic,
    ActionSet,
    ActionType,
    AnswerAction,
    ChartType,
    Locale,
    Params,
    RiskLevel,
    Style,
    Target,
)
from replykit.actions.sanitize import locate_actions, sanitize, sanitize_json
from replykit.actions.schema import action_schema
from replykit.actions.state import (
    STATUSES,
    ActionStateRecord,
    ActionStatus,
    AnswerState,
    StateError,
    format_timestamp,
)

__all__ = [
    "ACTION_TYPES",
    "CHART_TYPES",
    "COMPATIBLE_SHAPES",
    "DATA_SHAPES",
    "EVENT_KINDS",
    "MAX_DESCRIPTION",
    "MAX_ID",
    "MAX_LABEL",
    "MAX_PROMPT",
    "MAX_SHOWN",
    "MAX_TARGET",
    "MAX_TITLE",
    "RESERVED_IDS",
    "RISK_LEVELS",
    "STATUSES",
    "STYLES",
    "ActionContext",
    "ActionDiagnostic",
    "ActionSet",
    "ActionStateRecord",
    "ActionStatus",
    "ActionType",
    "AnswerAction",
    "AnswerState",
    "ChartComponent",
    "ChartResolution",
    "ChartType",
    "ChatSend",
    "ConfirmationView",
    "ContextError",
    "DataShape",
    "Effect",
    "EventKind",
    "FillInput",
    "Ignored",
    "Locale",
    "NoEffect",
    "Params",
    "ResetCharts",
    "RiskLevel",
    "SetChart",
    "ShowConfirmation",
    "ShowDetails",
    "StateError",
    "Style",
    "Target",
    "action_schema",
    "confirmation_view",
    "default_entries",
    "dispatch",
    "effective_prompt",
    "format_timestamp",
    "has_vague_reference",
    "is_compatible",
    "is_renderer_fallback",
    "lint",
    "locate_actions",
    "needs_confirmation",
    "parse_context",
    "resolve_chart",
    "sanitize",
    "sanitize_json",
    "with_defaults",
]
