"""An inspect_ai scorer for protocol compliance (§8.2, §6, §9); needs the
``replykit[inspect]`` extra.

``protocol_compliance()`` scores the model's completion with
:func:`~replykit.evals.compliance.compliance`: ``C`` (correct) when it passes, ``I``
when it does not. A reply that breaks the protocol is a counted score with its reasons
as the explanation, never an error of the evaluation.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    Scorer,
    Target,
    accuracy,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

from replykit.evals.compliance import EXPECTS, Compliance, compliance
from replykit.questionnaire.profiles import Profile, profile_from_string

#: The explanation lists at most this many reasons.
MAX_REASONS = 10


def explain(result: Compliance) -> str:
    """One line per reason (``code line:column message``), at most
    :data:`MAX_REASONS`; ``passed`` when there is none."""
    if not result.reasons:
        return "passed"
    lines = [
        f"{r.code}" + ("" if r.line is None else f" {r.line}:{r.column}") + f" {r.message}"
        for r in result.reasons[:MAX_REASONS]
    ]
    if len(result.reasons) > MAX_REASONS:
        lines.append(f"... {len(result.reasons) - MAX_REASONS} more")
    return "\n".join(lines)


@scorer(metrics=[accuracy(), stderr()])
def protocol_compliance(
    expect: str = "any", profile: str | Profile = "self_check", lenient: bool = False
) -> Scorer:
    """A scorer: does the completion follow the protocol?

    Input: ``expect`` (``any``, ``form``, ``none``; a sample's ``metadata["expect"]``
    overrides it unless it is ``None``, so one dataset can mix prompts that call for a
    form with others),
    ``profile`` (a :class:`~replykit.questionnaire.profiles.Profile` or its CLI
    spelling, §6), ``lenient`` (also the ``compat="sage"`` verdict, §9, in the
    metadata). Output of each score: ``value`` ``C``/``I``, ``answer`` the completion,
    ``explanation`` the reasons, ``metadata`` ``{"expect", "codes", "near_misses",
    "blocks", "lenient_passed"?}``. An ``expect`` outside the three values scores ``I``
    with that reason. Raises ``ValueError`` for a profile spelling it cannot read.
    """
    chosen = profile if isinstance(profile, Profile) else profile_from_string(profile)

    async def score(state: TaskState, target: Target) -> Score:
        # A null expect is no override (inspect's FieldSpec stores None for a record
        # without the field), as for the audit's --expect-field.
        override = state.metadata.get("expect") if state.metadata else None
        wanted = expect if override is None else override
        text = state.output.completion
        if wanted not in EXPECTS:
            shown = repr(wanted)[:60]
            return Score(value=INCORRECT, answer=text, explanation=f"bad expect {shown}")
        result = compliance(text, expect=wanted, profile=chosen, lenient=lenient)
        metadata: dict[str, Any] = {
            "expect": wanted,
            "codes": list(dict.fromkeys(r.code for r in result.reasons)),
            "near_misses": list(result.near_misses),
            "blocks": len(result.blocks),
        }
        if result.lenient is not None:
            metadata["lenient_passed"] = result.lenient.passed
        return Score(
            value=CORRECT if result.passed else INCORRECT,
            answer=text,
            explanation=explain(result),
            metadata=metadata,
        )

    return score
