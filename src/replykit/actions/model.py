"""Models of the answer-actions protocol (§12; docs/actions.md).

Every class is a frozen attrs class. Field names are the seed's JSON names
(``riskLevel``, ``requiresConfirmation``, ``componentId``, ``chartType``) so that a
model and its JSON read the same. Lengths are code points (``len(str)``), not UTF-16
units as in JavaScript's ``.length`` (§12). The diagnostics (:class:`ActionDiagnostic`,
the paths of docs/actions.md section 1, the cap, :class:`ActionSink`) live in
:mod:`replykit.actions.diagnostic` and are importable from here too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

import attrs

# The diagnostics moved to their own module; imported from here as before.
from replykit.actions.diagnostic import ActionDiagnostic as ActionDiagnostic
from replykit.actions.diagnostic import ActionSink as ActionSink
from replykit.actions.diagnostic import OddKey as OddKey
from replykit.actions.diagnostic import action_path as action_path
from replykit.actions.diagnostic import capped as capped
from replykit.actions.diagnostic import key_path as key_path
from replykit.actions.diagnostic import path_key as path_key

# The reserved names and unsafe characters have their own module; imported from here.
from replykit.actions.unsafe import PROMPT_ALLOWED as PROMPT_ALLOWED
from replykit.actions.unsafe import RESERVED_IDS as RESERVED_IDS
from replykit.actions.unsafe import UNSAFE_RANGES as UNSAFE_RANGES
from replykit.actions.unsafe import is_reserved_id as is_reserved_id
from replykit.actions.unsafe import unsafe_char as unsafe_char
from replykit.actions.unsafe import unsafe_params as unsafe_params
from replykit.actions.unsafe import unsafe_variant as unsafe_variant
from replykit.argcheck import typed
from replykit.text import is_blank, measured_size

ActionType = Literal[
    "view.detail",
    "render.change",
    "render.reset",
    "conversation.continue",
    "conversation.modify",
    "business.execute",
    "business.cancel",
    "answer.refresh",
]
ChartType = Literal["bar", "row", "line", "area", "donut", "scatter", "table"]
Style = Literal["primary", "default", "danger"]
RiskLevel = Literal["LOW", "MEDIUM", "HIGH"]
Locale = Literal["zh", "en"]
Source = Literal["answerData", "payload"]
#: What :func:`~replykit.actions.sanitize` reads: a decoded JSON value other than a
#: string (a ``str`` is refused with ``TypeError``: it is JSON text left undecoded).
AnswerValue = Mapping[Any, Any] | Sequence[Any] | bool | int | float | None

ACTION_TYPES: Final[tuple[ActionType, ...]] = (
    "view.detail",
    "render.change",
    "render.reset",
    "conversation.continue",
    "conversation.modify",
    "business.execute",
    "business.cancel",
    "answer.refresh",
)
CHART_TYPES: Final[tuple[ChartType, ...]] = (
    "bar",
    "row",
    "line",
    "area",
    "donut",
    "scatter",
    "table",
)
STYLES: Final[tuple[Style, ...]] = ("primary", "default", "danger")
RISK_LEVELS: Final[tuple[RiskLevel, ...]] = ("LOW", "MEDIUM", "HIGH")
LOCALES: Final[tuple[Locale, ...]] = ("zh", "en")

#: Types that cannot work without ``params.prompt`` (§12; docs/actions.md section 2).
PROMPT_REQUIRED_TYPES: Final[frozenset[str]] = frozenset(
    {"conversation.continue", "business.execute", "business.cancel"}
)
#: Types that use ``params.prompt`` at all; conversation.modify has a default (§12).
PROMPT_TYPES: Final[frozenset[str]] = PROMPT_REQUIRED_TYPES | {"conversation.modify"}
BUSINESS_TYPES: Final[frozenset[str]] = frozenset({"business.execute", "business.cancel"})

# Limits in code points and the number of actions shown (§12; docs/actions.md section 4).
MAX_ID: Final = 80
MAX_LABEL: Final = 32
MAX_TITLE: Final = 80
MAX_DESCRIPTION: Final = 240
MAX_TARGET: Final = 120
MAX_PROMPT: Final = 800
MAX_SHOWN: Final = 8

#: Every top-level field of an action the protocol knows (docs/actions.md section 3).
ACTION_FIELDS: Final[tuple[str, ...]] = (
    "id",
    "type",
    "label",
    "style",
    "title",
    "description",
    "riskLevel",
    "requiresConfirmation",
    "target",
    "params",
)
TARGET_FIELDS: Final[tuple[str, ...]] = ("dataset", "componentId")
PARAMS_FIELDS: Final[tuple[str, ...]] = ("prompt", "chartType")

_TYPE_BY_NAME: Final[dict[str, ActionType]] = {t: t for t in ACTION_TYPES}
_CHART_BY_NAME: Final[dict[str, ChartType]] = {c: c for c in CHART_TYPES}
_STYLE_BY_NAME: Final[dict[str, Style]] = {s: s for s in STYLES}
_RISK_BY_NAME: Final[dict[str, RiskLevel]] = {r: r for r in RISK_LEVELS}


def valid_target(value: object) -> bool:
    """A ``target.dataset``/``componentId`` of the right shape: a non-blank string of at
    most 120 code points (§12). Its characters are :func:`unsafe_char`'s business (a
    surrogate is an unsafe character, reported as such, §1)."""
    return valid_text(value, MAX_TARGET)


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def valid_text(value: object, limit: int, *, prompt: bool = False) -> bool:
    """True when ``value`` is a ``str``, not blank (§1) and at most ``limit`` code points;
    in a ``prompt`` (the one text that may hold line endings) a ``\r\n`` counts as one
    (§1.5), elsewhere every code point counts, so a text over its limit is reported as
    too long whatever characters it holds.

    Source rule: §12 (docs/actions.md section 4: non-blank, at most N code points; §1 blank).
    """
    if not isinstance(value, str):
        return False
    size = measured_size(value) if prompt else len(value)
    return size <= limit and not is_blank(value)


def kept_text(value: object, limit: int, *, prompt: bool = False) -> bool:
    """True when ``sanitize`` keeps ``value`` as a text field: :func:`valid_text` within
    ``limit`` and no character :func:`unsafe_char` forbids (§12). A field it removes
    counts as missing (docs/actions.md section 9)."""
    return (
        valid_text(value, limit, prompt=prompt) and unsafe_char(str(value), prompt=prompt) is None
    )


def action_id_problem(value: str) -> str | None:
    """Why ``value`` can never be the id of an action ``sanitize`` keeps, or ``None``
    (§12): blank or over :data:`MAX_ID` code points, a character :func:`unsafe_char`
    forbids, or a name JavaScript objects inherit. Persisted state keyed by such an
    id can belong to no action."""
    return id_problem(value, valid_text(value, MAX_ID), MAX_ID)


def id_problem(value: str, valid: bool, limit: int, noun: str = "an action id") -> str | None:
    """Why ``value`` is no id an action can name, or ``None`` (§12): ``valid`` is
    whether it is a non-blank string of at most ``limit`` code points; then no character
    :func:`unsafe_char` forbids and no name JavaScript objects inherit. ``noun`` names
    what refuses the character in the message (``an action id``, ``a componentId``)."""
    if not valid:
        return f"must be a non-blank string of at most {limit} characters"
    index = unsafe_char(value)
    if index is not None:
        return f"holds U+{ord(value[index]):04X} at character {index + 1}, which {noun} refuses"
    if is_reserved_id(value):
        return "must not be a name JavaScript objects inherit"
    return None


def as_action_type(value: object) -> ActionType | None:
    """The whitelisted event type equal to ``value`` (exact, case-sensitive), else ``None``.

    Source rule: §12 (docs/actions.md section 2: the 8 events).
    """
    return _TYPE_BY_NAME.get(value) if isinstance(value, str) else None


def as_chart_type(value: object) -> ChartType | None:
    """The supported chart type equal to ``value``, else ``None`` (docs/actions.md section 8)."""
    return _CHART_BY_NAME.get(value) if isinstance(value, str) else None


def as_style(value: object) -> Style | None:
    """The button style equal to ``value``, else ``None`` (docs/actions.md section 3)."""
    return _STYLE_BY_NAME.get(value) if isinstance(value, str) else None


def as_risk_level(value: object) -> RiskLevel | None:
    """The risk level equal to ``value`` (upper case only), else ``None`` (§12)."""
    return _RISK_BY_NAME.get(value) if isinstance(value, str) else None


def _optional_text(limit: int, *, prompt: bool = False) -> Any:
    def check(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is not None and not valid_text(value, limit, prompt=prompt):
            raise ValueError(f"{attribute.name} must be a non-blank str of at most {limit}")
        if isinstance(value, str) and _SURROGATE.search(value) is not None:
            raise ValueError(f"{attribute.name} must not hold a surrogate code point")
        if prompt and isinstance(value, str) and unsafe_char(value, prompt=True) is not None:
            raise ValueError(
                f"{attribute.name} must not hold control, bidi or surrogate characters"
            )

    return check


def _target_text(*, reserved: bool) -> Any:
    """A target field's validator: what sanitize keeps (§12), no unsafe character and,
    for ``componentId`` (``reserved``), no name JavaScript objects inherit."""
    base = _optional_text(MAX_TARGET)

    def check(inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
        base(inst, attribute, value)
        if isinstance(value, str) and unsafe_char(value) is not None:
            raise ValueError(f"{attribute.name} must not hold control or bidi characters")
        if reserved and is_reserved_id(value):
            raise ValueError(f"{attribute.name} must not be a name JavaScript objects inherit")

    return check


@typed
@attrs.frozen
class Target:
    """The controlled target of an action (§12; docs/actions.md section 3).

    ``dataset`` (reserved: the whole detail view opens, docs/actions.md section 7) and
    ``componentId`` (a chart of this answer, docs/actions.md section 8): non-blank, at most 120 code
    points, no unsafe character (:func:`unsafe_char`); a ``componentId`` is no name
    JavaScript objects inherit (no chart has one). At least one is set; an action
    without a target has ``target=None``.

    Raises ``ValueError`` when constructed with a value the protocol would remove.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    dataset: str | None = attrs.field(default=None, validator=_target_text(reserved=False))
    componentId: str | None = attrs.field(default=None, validator=_target_text(reserved=True))

    def __attrs_post_init__(self) -> None:
        if self.dataset is None and self.componentId is None:
            raise ValueError("an empty target is written as target=None")

    def to_json(self) -> dict[str, Any]:
        """``{"dataset"?: str, "componentId"?: str}``, absent fields left out."""
        out: dict[str, Any] = {}
        if self.dataset is not None:
            out["dataset"] = self.dataset
        if self.componentId is not None:
            out["componentId"] = self.componentId
        return out


@typed
@attrs.frozen
class Params:
    """The only parameters that reach execution (§12): ``prompt``, ``chartType``.

    ``prompt``: non-blank, at most 800 code points, free of the characters
    :func:`unsafe_char` finds (tab and line breaks allowed). ``chartType``: one of
    :data:`CHART_TYPES`. At least one is set; otherwise the action has ``params=None``.
    Raises ``ValueError`` on a value the protocol would drop or remove.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    prompt: str | None = attrs.field(
        default=None, validator=_optional_text(MAX_PROMPT, prompt=True)
    )
    chartType: ChartType | None = None

    def __attrs_post_init__(self) -> None:
        if self.chartType is not None and as_chart_type(self.chartType) is None:
            raise ValueError("chartType must be one of " + ", ".join(CHART_TYPES))
        if self.prompt is None and self.chartType is None:
            raise ValueError("empty params are written as params=None")

    def to_json(self) -> dict[str, Any]:
        """``{"prompt"?: str, "chartType"?: str}``, absent fields left out."""
        out: dict[str, Any] = {}
        if self.prompt is not None:
            out["prompt"] = self.prompt
        if self.chartType is not None:
            out["chartType"] = self.chartType
        return out


def action_problem(action: AnswerAction) -> str | None:
    """Why ``action`` breaks a keep or removal rule (§12; docs/actions.md 2, 3), or ``None``.

    Returns an English reason. Used by the :class:`AnswerAction` constructor, so every
    ``AnswerAction`` that exists is one :func:`~replykit.actions.sanitize` would keep
    unchanged.
    """
    if as_action_type(action.type) is None:
        return "type is not one of the 8 supported events"
    if not valid_text(action.id, MAX_ID):
        return f"id must be a non-blank str of at most {MAX_ID}"
    if is_reserved_id(action.id):
        return "id must not be a name JavaScript objects inherit"
    if not valid_text(action.label, MAX_LABEL):
        return f"label must be a non-blank str of at most {MAX_LABEL}"
    for name in ("id", "label", "title", "description"):
        value = getattr(action, name)
        if value is not None and unsafe_char(value) is not None:
            return f"{name} must not hold control, bidi formatting or surrogate characters"
    if action.style is not None and as_style(action.style) is None:
        return "style must be primary, default or danger"
    if action.title is not None and not valid_text(action.title, MAX_TITLE):
        return f"title must be a non-blank str of at most {MAX_TITLE}"
    if action.description is not None and not valid_text(action.description, MAX_DESCRIPTION):
        return f"description must be a non-blank str of at most {MAX_DESCRIPTION}"
    if action.riskLevel is not None and as_risk_level(action.riskLevel) is None:
        return "riskLevel must be LOW, MEDIUM or HIGH"
    if not isinstance(action.requiresConfirmation, bool):
        return "requiresConfirmation must be a bool"
    if action.target is not None and not isinstance(action.target, Target):
        return "target must be a Target or None"
    if action.params is not None and not isinstance(action.params, Params):
        return "params must be a Params or None"
    prompt = action.params.prompt if action.params else None
    chart = action.params.chartType if action.params else None
    if action.type in PROMPT_REQUIRED_TYPES and prompt is None:
        return f"{action.type} needs params.prompt"
    if prompt is not None and action.type not in PROMPT_TYPES:
        return f"{action.type} does not use params.prompt"
    if action.type == "render.change" and chart is None:
        return "render.change needs params.chartType"
    if chart is not None and action.type != "render.change":
        return f"{action.type} does not use params.chartType"
    return None


@typed
@attrs.frozen
class AnswerAction:
    """One sanitized action (§12; docs/actions.md 3): only protocol fields, every value valid.

    ``requiresConfirmation`` is ``True`` or ``False`` (``False`` = absent in JSON, the
    seed honours only ``true``). ``target``/``params`` are ``None`` when absent.
    Raises ``ValueError`` when constructed with anything :func:`action_problem` rejects.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    id: str
    type: ActionType
    label: str
    style: Style | None = None
    title: str | None = None
    description: str | None = None
    riskLevel: RiskLevel | None = None
    requiresConfirmation: bool = False
    target: Target | None = None
    params: Params | None = None

    def __attrs_post_init__(self) -> None:
        problem = action_problem(self)
        if problem is not None:
            raise ValueError(problem)

    @property
    def prompt(self) -> str | None:
        """``params.prompt`` as given, or ``None`` (no default applied here)."""
        return self.params.prompt if self.params else None

    @property
    def chartType(self) -> ChartType | None:
        """``params.chartType`` or ``None``."""
        return self.params.chartType if self.params else None

    @property
    def componentId(self) -> str | None:
        """``target.componentId`` or ``None``."""
        return self.target.componentId if self.target else None

    def to_json(self) -> dict[str, Any]:
        """The action as JSON, keys in the protocol's order (§12), absent fields left out."""
        out: dict[str, Any] = {"id": self.id, "type": self.type, "label": self.label}
        for key in ("style", "title", "description", "riskLevel"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.requiresConfirmation:
            out["requiresConfirmation"] = True
        if self.target is not None:
            out["target"] = self.target.to_json()
        if self.params is not None:
            out["params"] = self.params.to_json()
        return out


@typed
@attrs.frozen
class ActionSet:
    """The result of :func:`~replykit.actions.sanitize`, optionally with client-added entries.

    ``actions``: the kept actions shown, in input order, at most 8 (docs/actions.md section 4);
    ``diagnostics``: one per dropped action and per removed field, in input order;
    ``source``: which container supplied the list (``None`` when neither had one);
    ``added``: client-added entries (docs/actions.md section 5), filled by
    :func:`~replykit.actions.with_defaults`, shown after ``actions``.
    Raises ``ValueError`` for more than 8 ``actions`` or an id used twice across
    ``actions`` and ``added``.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    actions: tuple[AnswerAction, ...] = ()
    diagnostics: tuple[ActionDiagnostic, ...] = ()
    source: Source | None = None
    added: tuple[AnswerAction, ...] = ()

    def __attrs_post_init__(self) -> None:
        # What sanitize never returns (docs/actions.md sections 2, 5): state is keyed by id.
        if len(self.actions) > MAX_SHOWN:
            raise ValueError(f"actions holds {len(self.actions)} actions; at most {MAX_SHOWN}")
        seen: set[str] = set()
        for name, action in [("actions", a) for a in self.actions] + [
            ("added", a) for a in self.added
        ]:
            if action.id in seen:
                raise ValueError(f"{name}: id {action.id!r} is used by an earlier action")
            seen.add(action.id)

    @property
    def all_actions(self) -> tuple[AnswerAction, ...]:
        """``actions`` then ``added``: every button the client shows, in display order."""
        return self.actions + self.added

    def to_json(self) -> dict[str, Any]:
        """``{"actions": [...], "added": [...], "diagnostics": [...], "source": str | null}``."""
        return {
            "actions": [a.to_json() for a in self.actions],
            "added": [a.to_json() for a in self.added],
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "source": self.source,
        }
