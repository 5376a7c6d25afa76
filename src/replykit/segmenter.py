"""``segment()``: split an assistant message into Markdown and protocol blocks (§2-§6).

Pipeline: the lexer stage (``scan/lexer.py``) turns the message into tokens; the Lark
grammar (``grammar/message.lark``) parses them, its transformer (``scan/parts.py``)
giving raw parts as it goes; :func:`segment` applies the preface rule and ids and hands each block
to ``blocks.py``, which reads its payload, places every finding and applies the
profile.
"""

from __future__ import annotations

import re

from replykit.argcheck import typed
from replykit.blocks import Context, fenced_block, xml_block
from replykit.compat import Compat, decode_transport, resolve
from replykit.diagnostics import Diagnostic
from replykit.limits import DEFAULT_LIMITS, Limits
from replykit.model import Segment, Segmentation
from replykit.profiles import CLIENT, Profile
from replykit.scan.grammar import lexemes, parse
from replykit.scan.lexer import Lexer
from replykit.scan.parts import FencedPart, MarkdownRun
from replykit.text import LineIndex

# Exact fast path: without the family name (in any ASCII case) there can be no
# candidate and no near-miss, so the message is one Markdown segment.
_FAMILY = re.compile(r"questionnaire", re.IGNORECASE | re.ASCII)


@typed
def segment(
    text: str,
    *,
    message_id: str = "message",
    profile: Profile = CLIENT,
    compat: Compat | str | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Segmentation:
    """Split one assistant message into segments (PROTOCOL-DECISIONS §2-§6, §8).

    Input: ``text`` (a ``str``; offsets everywhere are code-point indices into it),
    ``message_id`` (used in block ids ``f"{message_id}_q{ordinal}"``, §6), ``profile``
    (which names are registered, §6: :data:`CLIENT`, :data:`SELF_CHECK`,
    :func:`product`).

    Output: a :class:`Segmentation` whose ``segments`` concatenate to ``text``, with
    no empty and no two adjacent Markdown segments, and whose ``diagnostics`` hold
    every diagnostic (block payload errors, ``fence.unclosed``, ``fence.no_preface``,
    ``name.unregistered``, the §8 near-misses), ordered by offset.

    ``compat``: ``None`` (strict, the default), ``"sage"`` or a :class:`Compat` with
    the §9 relaxations to apply; when its transport decoding changes the text, offsets
    index the decoded text, returned as ``Segmentation.decoded``. ``limits``: the
    per-block :class:`~replykit.limits.Limits`; each exceeded one is a diagnostic.

    Errors: bad input is reported, never raised. Raises ``TypeError`` naming the
    argument only when an argument has the wrong type (``text`` or ``message_id`` not
    a ``str``, ``profile`` not a :class:`Profile`, ``limits`` not a :class:`Limits`);
    ``ValueError`` for an unknown ``compat``.
    """
    mode = resolve(compat)
    decoded = None
    if mode is not None:
        plain = decode_transport(text, mode)
        if plain != text:
            text = decoded = plain
    if not _FAMILY.search(text):
        segs = (Segment("markdown", 0, len(text), text),) if text else ()
        return Segmentation(segs, (), decoded)
    lx = Lexer(text, lexemes(), compat=mode).run()
    parts = parse(text, lx)
    lines = LineIndex(text)
    segments: list[Segment] = []
    diagnostics: list[Diagnostic] = []
    seen_visible = False
    ordinal = 0
    ctx = Context(text, lines, profile, mode or Compat(), limits)
    for part in parts:
        if isinstance(part, MarkdownRun):
            seen_visible = seen_visible or part.visible
            segments.append(Segment("markdown", part.start, part.end, text[part.start : part.end]))
            continue
        ordinal += 1
        block_id = f"{message_id}_q{ordinal}"
        if isinstance(part, FencedPart):
            end = (part.closer or part.payload)[1]
            seg = fenced_block(
                part.opener, part.payload, end, part.closer is not None, seen_visible,
                block_id, ctx,
            )  # fmt: skip
        else:
            seg = xml_block(part.opener, part.closer, block_id, ctx)
        segments.append(seg)
        diagnostics.extend(seg.diagnostics)
    for nm in lx.near_misses:
        line, col = lines.line_col(nm.start)
        diagnostics.append(
            Diagnostic(nm.code, "warning", nm.message, nm.start, nm.end, line, col, None)
        )
    diagnostics.sort(key=lambda d: d.start)
    return Segmentation(tuple(segments), tuple(diagnostics), decoded)
