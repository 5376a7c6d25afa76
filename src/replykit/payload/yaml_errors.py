"""replykit's own ``yaml.syntax`` diagnostics (docs/protocol.md §4.1, §1).

The referee (:mod:`replykit.payload.yaml_referee`) decides whether a payload is valid and
where reading stopped; this module says it in replykit's words. A referee error is
sorted into one kind of :data:`MESSAGES` by what it is about; the message never quotes
a parser's own text, and the position is a code-point offset into the payload.
"""

from __future__ import annotations

import yaml

from replykit.diagnostics import Finding
from replykit.payload.yaml_referee import SyntaxProblem

# kind -> the message (after "YAML syntax error: ") and whether the finding is placed at
# the start of the construct (True) rather than where reading stopped.
MESSAGES: dict[str, tuple[str, bool]] = {
    "bad_character": ("{what} cannot start a YAML value here; quote the value", False),
    "mapping_value": (
        "':' is not allowed here; a plain value that holds ': ' must be quoted",
        False,
    ),
    "mapping_key": ("'?' cannot start a mapping key here", False),
    "list_item": (
        "'-' cannot start a list item here; a list inside a value starts on its own line",
        False,
    ),
    "key_without_colon": ("this mapping key has no ':' after it on its line", True),
    "unclosed_quote": ("this quoted string is never closed", True),
    "quote_document_marker": (
        "a quoted string runs into a document marker line ('---' or '...')",
        False,
    ),
    "escape": (
        "unknown escape in a double-quoted string; write \\\\ for a backslash, and "
        "\\x, \\u, \\U with 2, 4, 8 hexadecimal digits",
        False,
    ),
    "anchor_name": (
        "'&' and '*' start YAML anchors and aliases; quote a value that begins with them",
        False,
    ),
    "tag": ("'!' starts a YAML tag; quote a value that begins with '!'", False),
    "directive": (
        "malformed or repeated directive line (%YAML, %TAG); quote a value that begins with '%'",
        False,
    ),
    "block_header": (
        "a block scalar header (| or >) holds only an indentation digit 1-9, a chomping "
        "sign + or -, and a comment",
        False,
    ),
    "flow_sequence": (
        "a flow list [...] needs ',' between its items and ']' at its end, found {what}",
        False,
    ),
    "flow_mapping": (
        "a flow mapping {{...}} needs ',' between its entries and '}}' at its end, found {what}",
        False,
    ),
    "missing_value": ("a value is missing before {what}", False),
    "block_mapping_end": (
        "expected another key of the mapping at this indentation, or less indentation "
        "to end it; found {what}",
        False,
    ),
    "block_list_end": (
        "expected another '- ' item of the list at this indentation, or less "
        "indentation to end it; found {what}",
        False,
    ),
    "after_document": ("unexpected {what} after the end of the YAML document", False),
    "comment_space": (
        "a comment needs white space before '#'; add a space, or quote a value that holds '#'",
        False,
    ),
    "tab_indent": ("a tab cannot indent YAML; indent with spaces", False),
    "tab_before_block": (
        "a tab cannot come before a list item '-', a key, or '?'/':' that starts a "
        "block collection; use spaces",
        False,
    ),
    "not_printable": ("{what} is not allowed in YAML", False),
    "other": ("the text here is not valid YAML", False),
}

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
    """The :data:`MESSAGES` kind of a referee error (``"other"`` when none fits)."""
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
    """What stands at ``offset``, in words: ``the end of the payload``, ``a line break``,
    ``a tab``, or the character quoted (``'`'``)."""
    if offset >= len(payload):
        return "the end of the payload"
    ch = payload[offset]
    if ch in "\r\n":
        return "a line break"
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
    return kind_finding(payload, kind, _offset(error, MESSAGES[kind][1]))


def kind_finding(payload: str, kind: str, offset: int) -> Finding:
    """The ``yaml.syntax`` finding of one :data:`MESSAGES` kind at ``offset``;
    ``details["kind"]`` names the kind."""
    start = max(0, min(offset, len(payload)))
    message = MESSAGES[kind][0].format(what=describe_at(payload, start))
    return Finding(
        code="yaml.syntax",
        message=f"YAML syntax error: {message}",
        start=start,
        end=min(start + 1, len(payload)),
        details={"kind": kind},
    )
