"""``segment()``: split an assistant message into Markdown and protocol blocks (§2-§6).

Pipeline: the scanner (``scan/scanner.py``) turns the message into tokens; the Lark
grammar (``grammar/message.lark``) parses them, its transformer (``scan/parts.py``)
giving raw parts as it goes (in checked mode, ``scan/checked.py`` parses every
construct and compares); :func:`segment` applies the preface rule and ids and hands
each block to ``blocks.py``, which reads its payload, places every finding and applies
the profile.
"""

from __future__ import annotations

from replykit.argcheck import typed
from replykit.questionnaire.compat import Compat, resolve
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits, message_id_problem
from replykit.questionnaire.model import Segmentation
from replykit.questionnaire.payload.yaml_loader import choose_loader
from replykit.questionnaire.profiles import CLIENT, Profile, resolve_profile
from replykit.questionnaire.segmentation.assemble import (
    KnownKey,
    finalize,
    near_miss_diagnostic,
    read_block,
    segment_counted,
)

__all__ = [
    "KnownKey",
    "finalize",
    "near_miss_diagnostic",
    "read_block",
    "segment",
    "segment_counted",
]


@typed
def segment(
    text: str,
    *,
    message_id: str = "message",
    profile: Profile | str = CLIENT,
    compat: Compat | str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    checked: bool = False,
) -> Segmentation:
    """Split one assistant message into segments (§2-§6, §8).

    Input: ``text`` (a ``str``; offsets everywhere are code-point indices into it),
    ``message_id`` (used in block ids ``f"{message_id}_q{ordinal}"``, §6), ``profile``
    (which names are registered, §6: :data:`CLIENT`, :data:`SELF_CHECK`,
    :func:`product`, or the name the CLI's ``--profile`` takes: ``"client"``,
    ``"self_check"``, ``"product:NAME"``).

    Output: a :class:`Segmentation` whose ``segments`` concatenate to ``text``, with
    no empty and no two adjacent Markdown segments, and whose ``diagnostics`` hold
    every diagnostic (block payload errors, ``fence.unclosed``, ``fence.no_preface``,
    ``name.unregistered``, the near-misses of §8.1), ordered by offset, up to
    ``limits.max_diagnostics`` (§1): the first error of every invalid block, every
    near-miss and every ``name.unregistered`` are always kept, the others in offset
    order while room remains, and the rest is summarized by one ``limit.diagnostics``
    warning (with ``left_out`` counts) at the first one left out. A block's
    ``diagnostics`` are exactly the message's diagnostics that belong to it, the
    summary belonging to the block of the first one left out (docs/protocol.md §2.1).

    ``compat``: ``None`` (strict, the default), ``"sage"`` or a :class:`Compat` with
    the §9 relaxations to apply; when its transport decoding changes the text, offsets
    index the decoded text, returned as ``Segmentation.decoded``. ``limits``: the
    per-block :class:`~replykit.questionnaire.limits.Limits`; each exceeded one is a diagnostic.

    ``checked``: also read the message with the whole grammar (``grammar/message.lark``,
    rule ``document``: every block, line and inline construct a token, every token
    checked against its terminal, no shortcut) and compare it with the fast reading;
    the result is the same, several times slower (docs/architecture.md).

    Errors: bad input is reported, never raised. Raises ``TypeError`` naming the
    argument only when an argument has the wrong type (``text`` or ``message_id`` not
    a ``str``, ``profile`` not a :class:`Profile` or ``str``, ``limits`` not a
    :class:`Limits`, ``checked`` not a ``bool``); ``ValueError`` for an unknown
    ``profile`` name or ``compat``, or a ``message_id`` that is empty or only white
    space, longer than 128 code points (every block id repeats it, §6) or holding a
    surrogate code point (§1). With ``checked=True``, :class:`ReplykitBug` (an
    ``AssertionError``) when the two readings differ: a bug in replykit, never in the
    input.
    """
    problem = message_id_problem(message_id)
    if problem is not None:
        raise ValueError(f"message_id {problem}")
    loader = choose_loader()  # a bad REPLYKIT_YAML_LOADER fails here, whatever the text (§1.2)
    mode, chosen = resolve(compat), resolve_profile(profile)
    return segment_counted(text, message_id, chosen, mode, limits, checked, loader=loader)[0]
