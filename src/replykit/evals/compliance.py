"""Protocol compliance of one model reply, as a benchmark scores it (§8, §6, §9).

:func:`compliance` applies Self-check's pass rules (§8.2) to one assistant message
under a profile (§6) and adds what Self-check cannot know: whether a form was *due*.
The benchmark says so through ``expect``; the rules never infer it from wording.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from replykit.argcheck import typed
from replykit.codes.responses import SELFCHECK_RESPONSE_IN_REPLY
from replykit.diagnostics import Diagnostic
from replykit.questionnaire.conversation.selfcheck import is_blocking
from replykit.questionnaire.model import Segment
from replykit.questionnaire.profiles import SELF_CHECK, Profile
from replykit.questionnaire.segmentation.segmenter import segment
from replykit.text import LineIndex, with_article

Expect = Literal["any", "form", "none"]
#: The values ``expect`` takes, in the order the CLI lists them.
EXPECTS: tuple[Expect, ...] = ("any", "form", "none")
#: Reason code: a form was expected and the message has no valid request block.
FORM_MISSING = "expect.form_missing"
#: Reason code: no form was expected and the message has a candidate block.
BLOCK_PRESENT = "expect.block_present"
NEAR_MISS_PREFIX = "near_miss."


@typed
@attrs.frozen
class Reason:
    """One reason a reply fails: a blocking diagnostic of §8.2 (its ``code`` and
    ``message``, 1-based ``line``/``column`` of its start in the message) or an
    expectation reason (``expect.form_missing``: ``line``/``column`` ``None``;
    ``expect.block_present``: the position of the first candidate block).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    code: str
    message: str
    line: int | None = None
    column: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"code", "message", "line", "column"}``."""
        return {
            "code": self.code,
            "message": self.message,
            "line": self.line,
            "column": self.column,
        }


@attrs.frozen
class Compliance:
    """The verdict of :func:`compliance`.

    ``passed`` and ``score`` (1 or 0, the same verdict as a number); ``expect`` as
    given; ``reasons`` why it fails (empty on a pass), in message order with the
    expectation reason first; ``blocks``: every candidate block of the message (§3a;
    requests and responses, valid or not); ``diagnostics``: all the message's
    diagnostics (§2), warnings that do not block included; ``lenient``: with
    ``lenient=True``, the verdict of the same message read with ``compat="sage"``
    (§9), else ``None``.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    passed: bool
    score: int
    expect: Expect
    reasons: tuple[Reason, ...]
    blocks: tuple[Segment, ...]
    diagnostics: tuple[Diagnostic, ...]
    lenient: Compliance | None = None

    @property
    def near_misses(self) -> tuple[str, ...]:
        """The near-miss kinds of the message (``case``, ``tilde``...; §8.1), each once,
        in message order."""
        return tuple(
            dict.fromkeys(
                d.code[len(NEAR_MISS_PREFIX) :]
                for d in self.diagnostics
                if d.code.startswith(NEAR_MISS_PREFIX)
            )
        )

    def to_json(self) -> dict[str, Any]:
        """``{"passed", "score", "expect", "reasons", "blocks": [segment JSON],
        "diagnostics", "lenient"}`` (``lenient`` the same shape or ``null``)."""
        return {
            "passed": self.passed,
            "score": self.score,
            "expect": self.expect,
            "reasons": [r.to_json() for r in self.reasons],
            "blocks": [b.to_json() for b in self.blocks],
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "lenient": None if self.lenient is None else self.lenient.to_json(),
        }


# Checked once the name exists: ``lenient`` is annotated with the class itself.
typed(Compliance)


def _expectation(expect: Expect, blocks: tuple[Segment, ...], text: str) -> Reason | None:
    if expect == "form" and not any(b.kind == "questionnaire" and b.valid for b in blocks):
        return Reason(FORM_MISSING, "a form was due and the reply has no valid request block")
    if expect == "none" and blocks:
        first = blocks[0]
        return Reason(
            BLOCK_PRESENT,
            f"no form was due and the reply has {with_article(str(first.name))} block",
            *LineIndex(text).line_col(first.start),
        )
    return None


def _add_response_reason(reasons: list[Reason], blocks: tuple[Segment, ...], text: str) -> None:
    """A response block in a reply fails as Self-check fails it
    (``selfcheck.response_in_reply`` at the first, docs/protocol-responses.md section 3),
    placed among ``reasons`` in message order."""
    # Registered only: an unregistered response name is Markdown (name.unregistered).
    responses = [b for b in blocks if b.kind == "questionnaire_response" and b.registered]
    if not responses:
        return
    first = responses[0]
    line, column = LineIndex(text).line_col(first.start)
    message = SELFCHECK_RESPONSE_IN_REPLY.render({"name": first.name, "total": len(responses)})
    at = next(
        (k for k, r in enumerate(reasons) if (r.line or 0, r.column or 0) >= (line, column)),
        len(reasons),
    )
    reasons.insert(at, Reason(SELFCHECK_RESPONSE_IN_REPLY.name, message, line, column))


def verdict(text: str, expect: Expect, profile: Profile, compat: str | None) -> Compliance:
    """:func:`compliance` of one reading (strict when ``compat`` is ``None``), without
    the lenient verdict and without argument checks."""
    result = segment(text, message_id="reply", profile=profile, compat=compat)
    blocks = tuple(s for s in result.segments if s.kind != "markdown")
    reasons = [
        Reason(d.code, d.message, d.line, d.column) for d in result.diagnostics if is_blocking(d)
    ]
    # Offsets index the decoded text when a §9 decoding changed it.
    _add_response_reason(reasons, blocks, result.decoded or text)
    expected = _expectation(expect, blocks, result.decoded or text)
    if expected is not None:
        reasons.insert(0, expected)
    passed = not reasons
    return Compliance(passed, int(passed), expect, tuple(reasons), blocks, result.diagnostics)


@typed
def compliance(
    text: str,
    *,
    expect: Expect = "any",
    profile: Profile = SELF_CHECK,
    lenient: bool = False,
) -> Compliance:
    """Whether one assistant reply follows the protocol (§8.2 pass rules, §6 profile).

    Input: ``text``, the reply (one assistant message's text); ``expect``: ``"any"``
    passes iff Self-check's rules pass (no error, no near-miss of §8.1, no
    ``name.unregistered``, under ``profile``); ``"form"`` also needs at least one valid
    request block (reason ``expect.form_missing`` otherwise); ``"none"`` passes iff the
    reply has no candidate block at all (reason ``expect.block_present``) and no
    near-miss. ``profile``: which names are registered (default ``SELF_CHECK``, the
    five names Self-check reads). ``lenient``: also give the verdict under
    ``compat="sage"`` (§9) in ``Compliance.lenient``, to show how much a client that
    reads stored Sage conversations would forgive.

    Output: :class:`Compliance`. Never infers from wording that a form was due (§8.2).
    Raises ``TypeError`` naming the argument when an argument has the wrong type, and
    ``ValueError`` for an ``expect`` outside ``any``/``form``/``none``; nothing else.
    """
    if expect not in EXPECTS:
        raise ValueError(f"expect must be one of {', '.join(EXPECTS)}, not {expect!r}")
    strict = verdict(text, expect, profile, None)
    if not lenient:
        return strict
    return attrs.evolve(strict, lenient=verdict(text, expect, profile, "sage"))
