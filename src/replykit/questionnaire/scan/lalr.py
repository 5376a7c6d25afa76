"""Rule ``message`` of ``grammar/message.lark`` read by its own LALR table (§2).

Lark computes the LALR(1) parse table of the grammar when the grammar is loaded; this
module runs that table over the scanner's tokens with a lean loop of its own: shift a
token, or reduce by a rule and build the rule's value. Lark's ``parse`` does the same
with a parser state, a lexer thread and a ``lark.Token`` per token, set-up that costs
more than a message's few tokens; and as the decisions depend only on the tokens'
kinds, the loop runs once per sequence of kinds and its plan is applied to each
message's tokens. The grammar stays the authority: every decision is the table's, so
a change to rule ``message`` changes this reading with it, and property tests prove
the result equal to Lark's own parse with the :class:`Parts` transformer
(``tests/test_scan_runs.py``, ``tests/test_lalr_read.py``).

Values follow Lark's tree-shaping rules for this grammar: a rule whose name starts
with ``_`` (and Lark's generated ``__x_star_N``/``__x_plus_N`` helpers) is inlined: its
children, kept as a plain list (no token or part is a list), are spliced into its
parent's; ``markdown``, ``fenced_candidate``, ``xml_candidate`` and ``message`` build
:data:`Part` values from the scanner's tokens.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from typing import Any

from lark import Lark
from lark.parsers.lalr_analysis import Shift

from replykit.questionnaire.scan.emit import ReplykitBug
from replykit.questionnaire.scan.emit import Token as ScanToken
from replykit.questionnaire.scan.parts import FencedPart, MarkdownRun, Part, XmlPart
from replykit.questionnaire.scan.shown import shows_text

#: A shift: the next state. A reduce: (rule length, rule name, builder or None).
Reduce = tuple[int, str, "Callable[[str, list[Any]], Any] | None"]
Table = dict[int, dict[str, tuple[bool, Any]]]


def _markdown(text: str, toks: list[ScanToken]) -> MarkdownRun:
    visible = False
    for t in toks:
        if t.type == "PROSE" and shows_text(text, t.start, t.end):
            visible = True
            break
    return MarkdownRun(toks[0].start, toks[-1].end, visible)


def _fenced(text: str, toks: list[ScanToken]) -> FencedPart:
    opener = (toks[0].start, toks[0].end)
    payload = (opener[1], opener[1])
    closer = None
    for t in toks[1:]:  # FENCE_PAYLOAD? FENCE_CLOSER?
        if t.type == "FENCE_PAYLOAD":
            payload = (t.start, t.end)
        elif t.type == "FENCE_CLOSER":
            closer = (t.start, t.end)
    return FencedPart(opener, payload, closer)


def _xml(text: str, toks: list[ScanToken]) -> XmlPart:
    return XmlPart((toks[0].start, toks[0].end), (toks[-1].start, toks[-1].end))


def _message(text: str, parts: list[Part]) -> list[Part]:
    return list(parts)


# The same values as the Parts transformer's methods of the same names.
_BUILD: dict[str, Callable[[str, list[Any]], Any]] = {
    "markdown": _markdown,
    "fenced_candidate": _fenced,
    "xml_candidate": _xml,
    "message": _message,
}


@functools.cache
def _machine(lark: Lark) -> tuple[Table, int, int]:
    """The parse table of ``lark`` (an LALR parser of start symbol ``message``) with
    each reduce action resolved to its rule's length, name and builder."""
    inner = lark.parser.parser.parser
    table = inner.parse_table
    reduces: dict[Any, Reduce] = {}
    for rule in inner.callbacks:
        name = str(rule.origin.name)
        if name.startswith("_"):
            reduces[rule] = (len(rule.expansion), name, None)
        elif name in _BUILD:
            reduces[rule] = (len(rule.expansion), name, _BUILD[name])
    states: Table = {
        state: {
            kind: (True, arg) if action is Shift else (False, _reduce(reduces, arg))
            for kind, (action, arg) in actions.items()
        }
        for state, actions in table.states.items()
    }
    return states, table.start_states["message"], table.end_states["message"]


#: How a sentence's value is built from its tokens: a token's position in the
#: sentence, or a rule's builder and the plans of its (spliced) children.
Plan = int | tuple[Callable[[str, list[Any]], Any], tuple["Plan", ...]]

_KIND = operator.attrgetter("type")
#: Distinct token-kind sequences whose plan is kept (a message has a handful of
#: tokens, so a few dozen sequences cover nearly every message).
PLAN_CACHE_SIZE = 1024
#: Only sequences of at most this many kinds are kept, so the cache's memory is
#: bounded whatever the messages (a longer message is planned for itself alone).
PLAN_CACHE_KINDS = 64


class _Rejected(Exception):
    """The table has no action for the token at ``index`` (``len(kinds)``: the end)."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


def read_message(
    lark: Lark, text: str, tokens: Sequence[ScanToken], seen_visible: bool = False
) -> list[Part]:
    """The parts of ``text`` (Markdown runs and candidates, spans in code points) from
    the scanner's fast-mode ``tokens``, read by ``lark``'s LALR table of rule
    ``message``. Raises :class:`ReplykitBug` when the tokens are not a sentence of the
    rule (the scanner only emits sentences). ``seen_visible``: visible prose came
    before ``text`` (a streaming reading's text), so every Markdown run is marked
    ``visible`` without being read: the preface rule asks only whether visible prose
    came before a block (§4.3), and the answer is already yes.

    The table's shifts and reductions depend only on the tokens' kinds, so they are
    run once per sequence of kinds (:func:`plan`) and the plan is applied to the
    tokens: the same values the loop would build, in the same order."""
    kinds = tuple(map(_KIND, tokens))
    try:
        steps = _cached_plan(lark, kinds) if len(kinds) <= PLAN_CACHE_KINDS else plan(lark, kinds)
    except _Rejected as rejected:
        at = rejected.index
        kind, where = (
            ("$END", "the end") if at == len(kinds) else (kinds[at], f"offset {tokens[at].start}")
        )
        raise ReplykitBug(f"rule message does not expect {kind} at {where}") from None
    parts: list[Part] = _apply(steps, text, tokens, seen_visible)
    return parts


def _apply(steps: Plan, text: str, tokens: Sequence[ScanToken], seen: bool) -> Any:
    if isinstance(steps, int):
        return tokens[steps]
    build, children = steps
    # A token child is taken at once: most children are tokens.
    values = [tokens[c] if type(c) is int else _apply(c, text, tokens, seen) for c in children]
    if seen and build is _markdown:
        return MarkdownRun(values[0].start, values[-1].end, True)
    return build(text, values)


def plan(lark: Lark, kinds: tuple[str, ...]) -> Plan:
    """The plan of the token kinds ``kinds`` under ``lark``'s table of rule ``message``
    (§2): shift a token, or reduce by a rule and record its value (``_``-rules spliced
    into their parent, as Lark shapes trees), in steps linear in ``len(kinds)``. A pure
    function of its arguments; :func:`read_message` keeps the plans of short sequences
    in a bounded cache (:data:`PLAN_CACHE_SIZE` sequences of at most
    :data:`PLAN_CACHE_KINDS` kinds, least recently used dropped).
    Raises :class:`_Rejected` when ``kinds`` is no sentence of the rule."""
    states, start, end = _machine(lark)
    stack = [start]
    values: list[Any] = []
    for index in range(len(kinds) + 1):
        kind = "$END" if index == len(kinds) else kinds[index]
        while True:
            entry = states[stack[-1]].get(kind)
            if entry is None:
                raise _Rejected(index)
            shift, arg = entry
            if shift:
                stack.append(arg)
                values.append(index)
                break
            size, name, build = arg
            children = values[len(values) - size :]
            del values[len(values) - size :], stack[len(stack) - size :]
            flat = splice(children)
            values.append(flat if build is None else (build, tuple(flat)))
            stack.append(states[stack[-1]][name][1])
            if index == len(kinds) and stack[-1] == end:
                steps: Plan = values[-1]
                return steps
    raise ReplykitBug("the parse table accepted no message")  # pragma: no cover


_cached_plan = functools.lru_cache(maxsize=PLAN_CACHE_SIZE)(plan)


def splice(children: list[Any]) -> list[Any]:
    """The children of a reduced rule with each inlined rule's children (a list: no
    token index or plan is a list) spliced in, in order. A first child that is a list
    is extended in place and returned, as Lark does for left recursion: ``x+`` reduces
    once per item, and copying the items so far on every reduce would make a message
    of n tokens cost n^2 steps (§1: linear time). Each list is a value of exactly one
    reduce, so extending it in place changes nothing else."""
    first = children[0] if children else None
    flat: list[Any] = first if type(first) is list else []
    for child in children[1:] if flat is first else children:
        if type(child) is list:
            flat.extend(child)
        else:
            flat.append(child)
    return flat


def _reduce(reduces: dict[Any, Reduce], rule: Any) -> Reduce:
    """A reduce action's rule resolved; a rule of ``message`` with no value is a
    grammar this module does not know how to read."""
    if rule not in reduces:
        raise ReplykitBug(f"rule {rule.origin.name} of message has no value here")
    return reduces[rule]
