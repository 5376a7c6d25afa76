"""Self-check and the submission rule (§8, §11; docs/protocol-responses.md sections 3
and 4).

A conversation is a sequence of mappings ``{"role", "content", "message_type"?}``, or
a mapping with such a ``messages`` list
(:func:`~replykit.questionnaire.conversation.stored.conversation_messages`):
``role`` one of ``user``, ``assistant``, ``system``, ``developer``, ``tool``,
``function`` (exactly so spelled; any other is a malformed message), ``content`` a
string, a list of content parts (the ``text``/``output_text`` parts' texts, joined, are
the message text) or ``None`` (no text, as for an assistant message that only calls
tools), ``message_type`` an optional string. Message indexes are 0-based positions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from replykit.argcheck import typed
from replykit.cap import LIMIT_DIAGNOSTICS, summary_message
from replykit.codes.responses import SELFCHECK_RESPONSE_IN_REPLY
from replykit.codes.segment import ALWAYS_SHOWN
from replykit.diagnostics import Diagnostic
from replykit.questionnaire.conversation.replies import (
    assistant_replies,
    reply_reading,
    reply_text,
)
from replykit.questionnaire.conversation.stored import (
    checked_messages,
    is_tool_result,
    message_field,
)
from replykit.questionnaire.conversation.texts import (
    PROBLEM_PREFIX,
    Locale,
    check_locale,
    diagnostic_message,
    problem_line,
    repair_prompt,
)
from replykit.questionnaire.limits import DEFAULT_LIMITS
from replykit.questionnaire.model import Segment
from replykit.questionnaire.payload.yaml_loader import choose_loader
from replykit.questionnaire.profiles import SELF_CHECK
from replykit.trusted import trusted

#: The repair instruction lists at most this many distinct problems (§8).
MAX_REPAIR_PROBLEMS = 20
#: A problem line, prefix and repeat count included, is cut to this many code points
#: (a message may quote a long value).
MAX_PROBLEM_LENGTH = 300
#: A registered request name standing as a word (never the tail of ``foo-questionnaire``),
#: longest first: the name a near-miss was written with, in any case (§8).
_REGISTERED = re.compile(
    "(?<![A-Za-z0-9-])("
    + "|".join(re.escape(n) for n in sorted(SELF_CHECK.requests, key=lambda n: (-len(n), n)))
    + ")(?![A-Za-z0-9-])",
    re.IGNORECASE,
)


@typed
@attrs.frozen
class SelfCheckResult:
    """The outcome of :func:`self_check` (§8).

    ``passed``: no blocking diagnostic. ``index``: 0-based position of the inspected
    message, ``None`` when there was none. ``diagnostics``: every diagnostic of that
    message (offsets are code points into its content), messages in the requested
    locale; on a pass only non-blocking warnings can remain. ``repair_prompt``: on
    failure one instruction for the model, else ``None``.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    passed: bool
    index: int | None
    diagnostics: tuple[Diagnostic, ...]
    repair_prompt: str | None

    def to_json(self) -> dict[str, Any]:
        """``{"passed", "index", "diagnostics": [diagnostic JSON], "repair_prompt"}``."""
        return {**self.json_fields(), "diagnostics": [d.to_json() for d in self.diagnostics]}

    def json_fields(self) -> dict[str, Any]:
        """The fields of :meth:`to_json` with ``diagnostics`` as the objects themselves,
        for a writer that converts a few at a time."""
        return {
            "passed": self.passed,
            "index": self.index,
            "diagnostics": self.diagnostics,
            "repair_prompt": self.repair_prompt,
        }


_field = message_field


def _role(message: Any, index: int) -> str:
    role = _field(message, index, "role", required=True)
    assert role is not None
    return role


# Results of this module's own values: built without the constructor's checks (trusted.py).
_result = trusted(SelfCheckResult)


def is_blocking(diagnostic: Diagnostic) -> bool:
    """True when ``diagnostic`` fails Self-check (§8): an error, any ``near_miss.*``, or
    ``name.unregistered``."""
    return diagnostic.severity == "error" or diagnostic.code in ALWAYS_SHOWN


def _names() -> tuple[str, ...]:
    rest = sorted(n for n in SELF_CHECK.requests if n != "questionnaire")
    return ("questionnaire", *rest)


@typed
def self_check(
    messages: Sequence[Mapping[str, Any]] | Mapping[str, Any], *, locale: str = "zh"
) -> SelfCheckResult:
    """Check a conversation the way the runtime's Self-check does (§8).

    Input: ``messages`` (see the module doc: a list of messages, an object with a
    ``messages`` list, or one message object with ``role``), ``locale`` (``zh``
    default, or ``en``). A message whose ``content`` is a list of content parts is read
    as the join of its ``text``/``output_text`` parts; diagnostics' offsets, lines and
    columns refer to that joined text.
    Among the messages after the last ``user`` message (all of them when there is
    none) it inspects the latest reply (:func:`reply_text`, the rule
    :func:`can_submit` follows too): an ``assistant`` message whose ``message_type``
    is not ``empty`` or ``token_usage`` and whose text is not blank (§1) or that makes
    a tool call (``tool_calls`` or a ``tool_use`` part); it segments its text with the
    ``SELF_CHECK`` profile (the five registered names). A reply that only calls a tool
    holds no form and passes, with its ``index``.

    Output: :class:`SelfCheckResult`; ``passed`` iff that message has no ``error``
    diagnostic, no ``near_miss.*`` and no ``name.unregistered`` (legal fenced YAML and
    legal XML+JSON both pass). A response block in the reply, valid or not, is the
    error ``selfcheck.response_in_reply`` (docs/protocol-responses.md section 3).
    No such message: passed, ``index`` ``None``. It looks
    only at protocol blocks: it never infers from question marks or wording that a
    form was due. On failure ``repair_prompt`` asks the model for the complete
    questionnaire again and allows switching encoding under the same registered name,
    or, when only response blocks are wrong, to write the reply without them.

    Raises ``TypeError`` when ``messages`` is none of the conversation shapes, a
    message is not a mapping, has no string ``role`` or a role not among the known
    ones (``messages[1].role must be one of user, ..., not "model"``), has a
    ``content`` that is neither
    a string, a list of content-part objects (a text part's ``text`` a string) nor
    ``None``, or a ``message_type`` that is neither a string nor ``None`` (every
    message, wherever it stands, not only those it inspects; the message is named
    ``messages[i]``, 0-based);
    ``ValueError`` for an unknown locale.
    """
    loc: Locale = check_locale(locale)
    choose_loader()  # a bad REPLYKIT_YAML_LOADER fails here, whatever the reply holds (§1.2)
    for index, content in assistant_replies(messages, latest=True):
        return _inspect(content, index, loc)
    return SelfCheckResult(True, None, (), None)


def _localized(d: Diagnostic, locale: Locale) -> Diagnostic:
    if d.code == LIMIT_DIAGNOSTICS:
        message = summary_message(d.left_out, DEFAULT_LIMITS.max_diagnostics, locale)
    else:
        message = diagnostic_message(d.code, d.message, d.path, locale)
    return attrs.evolve(d, message=message)


def _problems(
    blocking: list[tuple[Diagnostic, str]], left_out_errors: int, locale: Locale
) -> tuple[list[str], int]:
    """The repair instruction's problem lines (§8): the first
    :data:`MAX_REPAIR_PROBLEMS` distinct problems (code and message), each once with how
    many more times it occurs, each whole line (``- ``, text, repeat count) cut to
    :data:`MAX_PROBLEM_LENGTH`; and how many problems are not listed
    (``left_out_errors``, left out by the cap, included)."""
    first: dict[tuple[str, str], tuple[Diagnostic, str]] = {}
    repeats: dict[tuple[str, str], int] = {}
    for d, english in blocking:
        key = (d.code, english)
        if key in first:
            repeats[key] = repeats.get(key, 0) + 1
        elif len(first) < MAX_REPAIR_PROBLEMS:
            first[key] = (d, english)
    lines = []
    for key, (d, english) in first.items():
        line = problem_line(d.line, d.column, d.code, d.message, english, locale)
        suffix = ""
        if key in repeats:
            n = repeats[key]
            suffix = f"（另有 {n} 处相同）" if locale == "zh" else f" (and {n} more like it)"
        room = MAX_PROBLEM_LENGTH - len(PROBLEM_PREFIX) - len(suffix)
        if len(line) > room:
            line = line[: room - 1] + "…"
        lines.append(line + suffix)
    listed = len(first) + sum(repeats.values())
    return lines, len(blocking) - listed + left_out_errors


#: The first family-like word of a span (a near-miss without a ``name`` parameter): the
#: whole run of name characters holding the first "questionnaire". A match starts only
#: where such a run starts, so each run is read once (retrying inside a long run that
#: holds no "questionnaire" was quadratic).
_WRITTEN = re.compile(
    r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]*?questionnaire[A-Za-z0-9_-]*+", re.IGNORECASE
)
_RESPONSE_SUFFIX = "-response"


@attrs.frozen
class _Failing:
    """What the blocking diagnostics of a reply are about (docs/protocol-responses.md
    section 3): the registered names of the failing questionnaire blocks, in order,
    each once (``()`` when none is at stake), how many such blocks fail, whether a
    response-shaped block is in the reply, and the response name to quote."""

    form_names: tuple[str, ...]
    form_blocks: int
    responses: bool
    response_name: str


def _written_name(content: str, d: Diagnostic) -> str | None:
    """The block name a diagnostic outside any block was written with: its ``name``
    parameter (every near-miss on a tag or fence name records it), else the first
    family-like word of its span."""
    name = d.params.get("name")
    if isinstance(name, str):
        return name
    found = _WRITTEN.search(content[d.start : d.end])  # a slice: no run before the span
    return None if found is None else found.group(0)


def _registered_response(name: str) -> str | None:
    lower = name.lower()
    if lower.endswith(_RESPONSE_SUFFIX) and lower[: -len(_RESPONSE_SUFFIX)] in SELF_CHECK.requests:
        return lower
    return None


def _failing(
    content: str, segments: tuple[Segment, ...], blocking: Iterable[Diagnostic], responded: bool
) -> _Failing:
    """Sort the blocking diagnostics into questionnaire problems and response-block
    problems (docs/protocol-responses.md section 3). A diagnostic inside a
    ``questionnaire_response`` block, ``selfcheck.response_in_reply``, and one outside
    any block whose written name holds ``questionnaire-response`` (a near-miss of a
    response tag or fence, any case: ``<Questionnaire-Response>``, a fenced
    ``questionnaire-response``) are about a response block; every other is about a
    questionnaire, named by its block's registered name or, for a near-miss, the
    registered name it was written with, lower case (none when no registered name is at
    stake, ``name.unregistered``). Names are registered ones only, so the instruction
    never copies a name of the message's own (§8 bounded)."""
    names: dict[str, None] = {}
    blocks: set[int] = set()
    responses = responded
    response = next(
        (
            s.name
            for s in segments
            if s.kind == "questionnaire_response" and s.registered and s.name
        ),
        None,
    )
    for d in blocking:
        if d.code == SELFCHECK_RESPONSE_IN_REPLY.name:
            continue
        block = next((s for s in segments if _within(d, s)), None)
        if block is not None and block.kind == "questionnaire_response":
            responses = True
            continue
        if block is not None and block.kind == "questionnaire":
            blocks.add(block.start)
            if block.name in SELF_CHECK.requests:
                names[block.name] = None
            continue
        written = _written_name(content, d)
        if written is not None and "questionnaire-response" in written.lower():
            responses = True
            response = response or _registered_response(written)
            continue
        blocks.add(d.start)
        found = _REGISTERED.search(content, d.start, d.end)
        if found is not None:
            names[found.group(1).lower()] = None
    return _Failing(tuple(names), len(blocks), responses, response or "questionnaire-response")


def _within(d: Diagnostic, s: Segment) -> bool:
    """Whether ``d`` is about segment ``s``: it starts inside it, or it is an empty span
    at the end of a block (``yaml.empty``, a syntax error at the end of the text)."""
    if s.start <= d.start < s.end:
        return True
    return s.kind != "markdown" and s.start < d.start == s.end == d.end


def _inspect(content: str, index: int, locale: Locale) -> SelfCheckResult:
    found, responded, segments = reply_reading(content, index)
    if not found:
        return _result(True, index, (), None)  # a clean reply: nothing to localize
    diagnostics = tuple(_localized(d, locale) for d in found)
    blocking = [
        (d, english.message)
        for d, english in zip(diagnostics, found, strict=True)
        # A response's own faults are beside the point: it must not be there at all.
        if is_blocking(d) and not (responded and d.code.startswith("response."))
    ]
    if not blocking:
        return _result(True, index, diagnostics, None)
    left_out = sum(
        c.count
        for d in found
        if d.code == LIMIT_DIAGNOSTICS
        for c in d.left_out
        if c.severity == "error" and not (responded and c.code.startswith("response."))
    )
    lines, more = _problems(blocking, left_out, locale)
    failing = _failing(content, segments, (d for d, _ in blocking), responded)
    prompt = repair_prompt(
        lines, _names(), locale, more=more, forms=failing.form_blocks > 0,
        responses=failing.responses, form_names=failing.form_names or ("questionnaire",),
        form_blocks=failing.form_blocks, response_name=failing.response_name,
    )  # fmt: skip
    return _result(False, index, diagnostics, prompt)


@typed
def can_submit(
    messages: Sequence[Mapping[str, Any]] | Mapping[str, Any],
    index: int,
    *,
    readonly: bool = False,
) -> bool:
    """Whether the forms of ``messages[index]`` may still be submitted (§11: only the
    forms of the latest assistant message that is not read-only).

    ``messages`` takes the shapes :func:`self_check` takes (``index`` is a position in
    the messages list). True iff ``readonly`` is false, ``messages[index]`` is a reply
    (:func:`reply_text`, the rule :func:`self_check` follows: an ``assistant`` message
    not of ``message_type`` empty/token_usage with text that is not blank, or a
    non-empty ``tool_calls`` list or a ``tool_use`` content part for a
    ``questionnaire_async`` form; or a ``function_call`` object, OpenAI's legacy
    function calling), no ``user`` message comes after it, and no later
    reply follows. Later ``tool`` (and other-role) messages do not matter, nor does a
    ``user`` message of ``tool_result`` parts only (how Anthropic stores a tool result).
    It does not look at whether the message holds a valid form, nor whether one was
    already submitted (a client locks a submitted form, and the answer is a later user
    message anyway).

    Raises ``IndexError`` when ``index`` is not in ``0 <= index < len(messages)``,
    ``TypeError`` when ``index`` is not an ``int`` or for a malformed message (as
    :func:`self_check`).
    """
    messages = checked_messages(messages)
    if not 0 <= index < len(messages):
        raise IndexError(f"message index {index} out of range 0..{len(messages) - 1}")
    if readonly:
        return False
    if _role(messages[index], index) != "assistant" or reply_text(messages[index], index) is None:
        return False
    for later in range(index + 1, len(messages)):
        role = _role(messages[later], later)
        if role == "user" and not is_tool_result(messages[later]):
            return False
        if role == "assistant" and reply_text(messages[later], later) is not None:
            return False
    return True
