"""Resource limits (issue 5): defaults no realistic form reaches; each exceeded limit is
a diagnostic on its block, never an exception or a truncated result."""

from __future__ import annotations

import attrs

from replykit.diagnostics import Finding
from replykit.model import Questionnaire


@attrs.frozen
class Limits:
    """Per-block limits applied by :func:`replykit.segment`.

    ``max_payload``: code points of one block's payload (default 1,000,000; larger is
    ``limit.payload_size`` and the payload is not read); ``max_questions`` (1000,
    ``limit.questions``); ``max_options`` per question (1000, ``limit.options``);
    ``max_depth`` of YAML or JSON nesting (64, ``yaml.too_deep``/``json.too_deep``).
    Raises ``ValueError`` when a limit is below 1.
    """

    max_payload: int = 1_000_000
    max_questions: int = 1000
    max_options: int = 1000
    max_depth: int = 64

    def __attrs_post_init__(self) -> None:
        for field in attrs.fields(Limits):
            if getattr(self, field.name) < 1:
                raise ValueError(f"{field.name} must be at least 1")


DEFAULT_LIMITS = Limits()


def payload_size(payload: str, limits: Limits) -> Finding | None:
    """``limit.payload_size`` when ``payload`` is longer than ``limits.max_payload``."""
    if len(payload) <= limits.max_payload:
        return None
    return Finding(
        "limit.payload_size",
        f"the payload has {len(payload)} characters; the limit is {limits.max_payload}",
        details={"limit": limits.max_payload, "actual": len(payload)},
    )


def form_size(form: Questionnaire, limits: Limits) -> tuple[Finding, ...]:
    """``limit.questions`` and ``limit.options`` findings for a read form."""
    out: list[Finding] = []
    if len(form.questions) > limits.max_questions:
        out.append(
            Finding(
                "limit.questions",
                f"the form has {len(form.questions)} questions; the limit is "
                f"{limits.max_questions}",
                ("questions",),
                details={"limit": limits.max_questions, "actual": len(form.questions)},
            )
        )
    for i, q in enumerate(form.questions):
        if len(q.options) > limits.max_options:
            out.append(
                Finding(
                    "limit.options",
                    f"the question has {len(q.options)} options; the limit is {limits.max_options}",
                    ("questions", i, "options"),
                    details={"limit": limits.max_options, "actual": len(q.options)},
                )
            )
    return tuple(out)
