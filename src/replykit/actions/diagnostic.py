"""Diagnostics of the answer-actions protocol (§12; docs/actions.md): the
:class:`ActionDiagnostic` that ``sanitize`` and ``lint`` return, the §12 path text it
carries (:func:`key_path`, :func:`action_path`), the cap of §1 (:func:`capped`) and the
:class:`ActionSink` that turns a registry code into a diagnostic."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from replykit.argcheck import typed
from replykit.cap import LIMIT_DIAGNOSTICS, finish, summary_message, summary_params
from replykit.codes import Code
from replykit.diagnostics import LeftOut, join_key
from replykit.findings import Cursor
from replykit.frozen import FrozenDict, freeze_mapping
from replykit.jsonout import dumps, key_text


def key_path(base: str, key: object) -> str:
    """Append one object key to a 1-based path: ``actions[3]`` + ``tool`` -> ``actions[3].tool``.

    Keys that are not identifier-like (``a.b``, ``""``, non-ASCII) are written as a JSON
    string in brackets, ``actions[3]["a.b"]``, so a path never becomes ambiguous; a
    non-string key (possible from Python, never from JSON) is written as its
    :func:`~replykit.jsonout.key_text` in the same bracket form. Source rule: §12,
    docs/actions.md section 1 (paths), in the path syntax of §2.
    """
    if isinstance(key, str):
        return join_key(base, key)
    return f"{base}[{dumps(key_text(key))}]"  # a lone surrogate as an escape (§1)


@typed
@attrs.frozen
class ActionDiagnostic:
    """One dropped action, removed field or lint warning (§12), or a JSON problem (§1).

    ``code``: a §12 code (``action.field_removed`` ...), a ``lint.*`` code, or a
    ``json.*`` code from :func:`~replykit.actions.sanitize_json`; ``path``: 1-based
    place inside the container that held the actions (``actions[3].params.arguments``;
    for ``json.*``, inside the whole JSON text: ``answerData.actions[1].type``), ``None``
    when about the input as a whole; ``message``: English, one sentence, never quoting
    input values (they may be huge). ``start``/``end`` (code-point offsets) and
    ``line``/``column`` (1-based) place a ``json.*`` problem in the text; ``None``
    otherwise.
    ``left_out``: only on the ``limit.diagnostics`` summary of the diagnostics cap
    (§1): the diagnostics it stands for, counted by code (``severity`` ``None``).
    ``params``/``variant``: what ``message`` was rendered from (the code's template in
    :mod:`replykit.codes`); not part of equality nor of the JSON shape.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    code: str
    path: str | None
    message: str
    start: int | None = None
    end: int | None = None
    line: int | None = None
    column: int | None = None

    left_out: tuple[LeftOut, ...] = ()
    params: Mapping[str, Any] = attrs.field(
        factory=FrozenDict, converter=freeze_mapping, eq=False, repr=False
    )
    variant: str | None = attrs.field(default=None, eq=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """``{"code": str, "path": str | null, "message": str}``, plus ``start``, ``end``,
        ``line`` and ``column`` when the diagnostic has a position (``json.*``), and
        ``left_out`` (``[{"code", "count"}]``) on a ``limit.diagnostics`` summary."""
        out: dict[str, Any] = {"code": self.code, "path": self.path, "message": self.message}
        if self.start is not None:
            out.update(start=self.start, end=self.end, line=self.line, column=self.column)
        if self.left_out:
            out["left_out"] = [c.to_json() for c in self.left_out]
        return out


def capped(diagnostics: list[ActionDiagnostic], limit: int) -> tuple[ActionDiagnostic, ...]:
    """``diagnostics`` within the cap of §1 (at most ``limit`` per answer): ``limit - 1``
    of them and one ``limit.diagnostics`` summary (path ``None``) counting the rest by
    code, placed where the first left-out one stood; unchanged when they fit. Verdicts
    (a dropped action, or no actions at all) take the slots before field removals, so
    the removals of one action never hide why another was dropped (§1: the cap never
    hides a verdict); each group keeps its first entries, in order. The entry that is
    always kept is the first verdict (the first entry when there is none), never a
    field removal ahead of it, so ``limit`` 1 gives that verdict and the summary.
    Source rule: docs/actions.md section 4; docs/protocol.md §2.1."""

    def summary(counts: tuple[LeftOut, ...]) -> ActionDiagnostic:
        params, variant = summary_params(counts, limit)
        message = summary_message(counts, limit) + "."  # one sentence, as every action one
        return ActionDiagnostic(
            LIMIT_DIAGNOSTICS, None, message, left_out=counts, params=params, variant=variant
        )

    return tuple(
        finish(
            diagnostics,
            limit,
            code=lambda d: d.code,
            severity=lambda _d: None,
            summary=summary,
            preferred=is_verdict,
        )
    )


#: ``action.text_unsafe`` variants that remove a field, not the action.
_REMOVAL_VARIANTS = frozenset({"removed", "surrogate_removed"})


def is_verdict(diagnostic: ActionDiagnostic) -> bool:
    """Whether ``diagnostic`` says what happened to an action or to the whole list (a
    drop, ``actions.*``, a JSON problem), not that one field was removed (§12)."""
    if diagnostic.code == "action.field_removed":
        return False
    return not (diagnostic.code == "action.text_unsafe" and diagnostic.variant in _REMOVAL_VARIANTS)


class OddKey(str):
    """A mapping key that is not a ``str`` (possible from Python only), as its
    :func:`~replykit.jsonout.key_text`:
    :func:`action_path` always writes it in brackets, as :func:`key_path` does."""


def path_key(key: object) -> str:
    """``key`` as a path part: itself when a ``str``, else an :class:`OddKey`."""
    return key if isinstance(key, str) else OddKey(key_text(key))


def action_path(path: Sequence[str | int]) -> str | None:
    """A path inside the actions' container as §12 writes it: 0-based indices shown
    1-based in brackets, keys joined by :func:`key_path` (``actions[3].params.prompt``);
    ``None`` for ``()``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text = f"{text}[{part + 1}]"
        elif isinstance(part, OddKey):
            text = f"{text}[{dumps(str(part))}]"
        else:
            text = key_path(text, part)
    return text or None


class ActionSink:
    """The :class:`~replykit.findings.Sink` of ``sanitize`` and ``lint``: each report
    becomes an :class:`ActionDiagnostic` (path as :func:`action_path` writes it, message
    rendered from the code's template), in ``diagnostics``, capped by the caller."""

    def __init__(self) -> None:
        self.diagnostics: list[ActionDiagnostic] = []

    def at(self, *path: str | int) -> Cursor:
        """A cursor at ``path`` reporting here."""
        return Cursor(self, path)

    def report(
        self,
        code: Code,
        path: Sequence[str | int],
        variant: str | None,
        details: Mapping[str, Any] | None,
        on_key: bool,
        params: dict[str, Any],
    ) -> None:
        """See :meth:`replykit.findings.Sink.report` (``details`` and ``on_key`` unused:
        an action diagnostic has neither)."""
        message = code.render(params, variant)
        self.diagnostics.append(
            ActionDiagnostic(code.name, action_path(path), message, params=params, variant=variant)
        )
