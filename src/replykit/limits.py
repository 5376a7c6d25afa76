"""Resource limits (issue 5): defaults no realistic form reaches; each exceeded limit is
a diagnostic on its block, never an exception or a truncated result."""

from __future__ import annotations

import attrs

from replykit.argcheck import typed
from replykit.diagnostics import Finding
from replykit.model import Questionnaire

#: The highest ``max_depth`` allowed: far below Python's recursion limit.
MAX_DEPTH_CEILING = 500


@typed
@attrs.frozen
class Limits:
    """Per-block limits applied by :func:`replykit.segment`.

    ``max_payload``: code points of one block's payload (default 1,000,000; larger is
    ``limit.payload_size`` and the payload is not read); ``max_questions`` (1000,
    ``limit.questions``); ``max_options`` per question (1000, ``limit.options``);
    ``max_depth`` of YAML or JSON nesting (64, ``yaml.too_deep``/``json.too_deep``; at
    most 500, since Python's JSON decoder recurses once per level).
    Raises ``TypeError`` when a limit is not an ``int``, ``ValueError`` when it is below
    1 (or ``max_depth`` above 500).
    """

    max_payload: int = attrs.field(default=1_000_000, validator=attrs.validators.instance_of(int))
    max_questions: int = attrs.field(default=1000, validator=attrs.validators.instance_of(int))
    max_options: int = attrs.field(default=1000, validator=attrs.validators.instance_of(int))
    max_depth: int = attrs.field(default=64, validator=attrs.validators.instance_of(int))

    def __attrs_post_init__(self) -> None:
        for field in attrs.fields(Limits):
            if getattr(self, field.name) < 1:
                raise ValueError(f"{field.name} must be at least 1")
        if self.max_depth > MAX_DEPTH_CEILING:
            raise ValueError(f"max_depth must be at most {MAX_DEPTH_CEILING}")


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
