"""replykit's own ``yaml.syntax`` diagnostics (docs/protocol.md §4.1, §1).

The referee (:mod:`replykit.questionnaire.payload.yaml_referee`) decides whether a payload is valid
and
where reading stopped; this module says it in replykit's words. A referee error is
sorted into one of :data:`KINDS` by what it is about (a variant of ``yaml.syntax``
in the registry of codes); the message never quotes
a parser's own text, and the position is a code-point offset into the payload.
"""

from __future__ import annotations

import re

import yaml

from replykit.codes.payload import YAML_SYNTAX
from replykit.diagnostics import Finding
from replykit.questionnaire.payload.yaml_problem import SyntaxProblem

#: The kinds of error placed at the start of the construct rather than where reading
#: stopped. Every kind is a variant of ``yaml.syntax`` in the registry
#: (:data:`replykit.codes.payload.YAML_SYNTAX`; ``other`` is its default message).
AT_CONSTRUCT: frozenset[str] = frozenset({"key_without_colon", "unclosed_quote"})
#: Every kind, ``other`` last.
KINDS: tuple[str, ...] = (*YAML_SYNTAX.variants, "other")


# (words in the error's context, words in its problem, kind), first match wins. Only
# used to sort; none of these words reaches a message.
_SORTING: tuple[tuple[str, str, str], ...] = (
    ("", "cannot start any token", "bad_character"),
    ("", "mapping values are not allowed", "mapping_value"),
    ("", "mapping keys are not allowed", "mapping_key"),
    ("", "sequence entries are not allowed", "list_item"),
    ("simple key", "", "key_without_colon"),
    ("quoted scalar", "end of stream", "unclosed_quote"),
    ("quoted scalar", "document separator", "quote_document_marker"),
    ("quoted scalar", "", "escape"),
    ("anchor", "", "anchor_name"),
    ("alias", "", "anchor_name"),
    ("", "undefined tag handle", "tag"),
    ("directive", "", "directive"),
    ("", "directive", "directive"),
    ("", "tag handle", "directive"),
    ("", "incompatible YAML document", "directive"),
    ("tag", "", "tag"),
    ("", "tag", "tag"),
    ("flow sequence", "", "flow_sequence"),
    ("flow mapping", "", "flow_mapping"),
    ("block mapping", "", "block_mapping_end"),
    ("block collection", "", "block_list_end"),
    ("", "node content", "missing_value"),
    ("", "document start", "after_document"),
)


def kind_of(error: Exception) -> str:
    """The kind (one of :data:`KINDS`) of a referee error (``"other"`` when none fits)."""
    if isinstance(error, SyntaxProblem):
        return error.kind
    if isinstance(error, yaml.reader.ReaderError):
        return "not_printable"
    context = str(getattr(error, "context", None) or "")
    problem = str(getattr(error, "problem", None) or "")
    for in_context, in_problem, kind in _SORTING:
        if in_context in context and in_problem in problem:
            return kind
    return "other"


def _offset(error: Exception, at_construct: bool) -> int:
    if isinstance(error, SyntaxProblem):
        return error.index
    if isinstance(error, yaml.reader.ReaderError):
        return int(error.position)
    problem = getattr(error, "problem_mark", None)
    context = getattr(error, "context_mark", None)
    mark = (context or problem) if at_construct else (problem or context)
    return int(mark.index) if mark is not None else 0


def describe_at(payload: str, offset: int) -> str:
    """What stands at ``offset``, in words: ``the end of the payload``, ``a line break``
    (U+0085, U+2028 and U+2029 named: ``a line break (U+2028)``), ``a tab``, or the
    character quoted (``'`'``)."""
    if offset >= len(payload):
        return "the end of the payload"
    ch = payload[offset]
    if ch in "\r\n":
        return "a line break"
    if ch in _YAML_BREAKS:  # one to YAML's scanners too (§4.1), named so it can be found
        return f"a line break (U+{ord(ch):04X})"
    if ch == "\t":
        return "a tab"
    if ch == " ":
        return "a space"
    if not ch.isprintable():
        return f"character U+{ord(ch):04X}"
    return f"'{ch}'"


def syntax_finding(payload: str, error: Exception) -> Finding:
    """The ``yaml.syntax`` finding for a referee error: replykit's message for its kind,
    placed at a code-point offset (clamped to the payload), one character long (§1, §4)."""
    kind = kind_of(error)
    offset = _offset(error, kind in AT_CONSTRUCT)
    if kind in _KEY_KINDS:
        key = long_key_start(payload, offset)
        if key is not None:
            return kind_finding(payload, "key_too_long", key)
    text = error.text if isinstance(error, SyntaxProblem) else ""
    return kind_finding(payload, kind, offset, text)


#: The kinds a key over the 1024-character limit of implicit keys is reported as by a
#: YAML reader: the ':' after it is not seen as a key's.
_KEY_KINDS: frozenset[str] = frozenset(
    {"mapping_value", "key_without_colon", "flow_mapping", "flow_sequence", "block_mapping_end"}
)
#: The longest implicit key YAML 1.2 allows (code points, the key and its ':' on one line).
MAX_IMPLICIT_KEY = 1024
_LINE_KEY = re.compile(r"[ \t]*(?:[-?][ \t]+)*")
_COLON = re.compile(r":(?=[ \t,\]}]|$)")


#: The line breaks of a YAML payload as both PyYAML scanners read them.
_YAML_BREAKS = ("\n", "\r", "\x85", "\u2028", "\u2029")


def long_key_start(payload: str, offset: int) -> int | None:
    """The start of an implicit key over :data:`MAX_IMPLICIT_KEY` code points on the
    line of ``offset`` (after the line's indentation and list/'?' indicators, or after
    the last '{', '[' or ',' before ``offset``), whose ':' is on that line; else None."""
    # The payload's YAML lines: PyYAML's scanners break them at U+0085, U+2028 and
    # U+2029 too (§4.1), so the key's line starts after the last of any of them.
    begin = max(payload.rfind(b, 0, offset) for b in _YAML_BREAKS) + 1
    ends = [i for i in (payload.find(b, offset) for b in _YAML_BREAKS) if i >= 0]
    line = payload[begin : min(ends, default=len(payload))]
    starts = {_LINE_KEY.match(line).end()}  # type: ignore[union-attr]
    flow = max(line.rfind(c, 0, offset - begin) for c in "{[,")
    if flow >= 0:
        starts.add(flow + 1 + len(line[flow + 1 :]) - len(line[flow + 1 :].lstrip(" \t")))
    for start in sorted(starts):
        colon = _COLON.search(line, start)
        if colon is not None and colon.start() - start > MAX_IMPLICIT_KEY:
            return begin + start
    return None


def kind_finding(payload: str, kind: str, offset: int, text: str = "") -> Finding:
    """The ``yaml.syntax`` finding of one of :data:`KINDS` at ``offset`` (its
    variant; ``other`` the default message); ``details["kind"]`` names the kind;
    ``text`` is what the message of ``escape_range`` and ``yaml_version`` names."""
    start = max(0, min(offset, len(payload)))
    return YAML_SYNTAX.finding(
        start=start,
        end=min(start + 1, len(payload)),
        variant=None if kind == "other" else kind,
        details={"kind": kind},
        what=describe_at(payload, start),
        shown=text,
    )
