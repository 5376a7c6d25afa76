"""Resource limits (docs/protocol.md §1.5): defaults no realistic form reaches;
each exceeded limit is a diagnostic, never an exception or a truncated result.

A limit on a list is checked before its items are read: a form whose ``questions`` list
is over ``max_questions`` gives one ``limit.questions`` error and reading of that payload
stops there, instead of one error per item.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

import attrs

from replykit.argcheck import typed
from replykit.codes._core import Code
from replykit.codes.limits import LIMIT_OPTIONS, LIMIT_PAYLOAD_SIZE, LIMIT_QUESTIONS
from replykit.codes.payload import JSON_TOO_DEEP
from replykit.diagnostics import Finding, Path, format_path
from replykit.surrogates import first_lone_surrogate
from replykit.text import is_blank, measured_size

#: The highest ``max_depth`` allowed: far below Python's recursion limit.
MAX_DEPTH_CEILING = 500
#: The longest ``message_id`` (code points): every block id repeats it (§6), so a longer
#: one would let output grow with the number of blocks times its length.
MAX_MESSAGE_ID = 128


def message_id_problem(message_id: str) -> str | None:
    """What is wrong with ``message_id`` as the message id of block ids (§6), or
    ``None``: the one rule of :func:`~replykit.segment`, ``StreamSegmenter``, the HTML
    renderers and every CLI ``--message-id``. A message id is 1 to ``MAX_MESSAGE_ID``
    code points, not blank (§1.1) (block ids ``{message_id}_q{n}`` tell messages
    apart, §6; ``_q1`` tells none apart), with no surrogate code point (JSON cannot
    carry one, §1.3)."""
    if is_blank(message_id):
        return "is empty or only blank characters"
    if len(message_id) > MAX_MESSAGE_ID:
        return f"is longer than {MAX_MESSAGE_ID} characters"
    if first_lone_surrogate(message_id) is not None:
        return "holds a surrogate code point, which JSON cannot carry"
    return None


#: A block id: a message id, ``_q`` and the block's ordinal (at most 19 digits: no
#: message has more blocks than a 64-bit count).
_BLOCK_ID = re.compile(r"(.+)_q[1-9][0-9]{0,18}", re.DOTALL)


def form_id_problem(form_id: str) -> str | None:
    """What is wrong with ``form_id`` as the id of a form or of the form an answer
    names (§6), or ``None``: the message-id rule of :func:`message_id_problem` (1 to
    ``MAX_MESSAGE_ID`` code points, not blank, no surrogate), or a block id
    ``{message_id}_q{n}`` whose message id follows it. The one rule of
    ``questionnaire_from_tool_result``'s ``tool_call_id``, ``build_response``'s and
    ``check_answers``' ``questionnaire_id`` and the CLI's ``respond --id``; a caller
    writes ``f"{argument} {problem}"`` in its ``ValueError``."""
    problem = message_id_problem(form_id)
    if problem is None or first_lone_surrogate(form_id) is not None:
        return problem
    block = _BLOCK_ID.fullmatch(form_id)
    if block is not None and message_id_problem(block.group(1)) is None:
        return None
    return problem


@typed
@attrs.frozen
class Limits:
    """The limits of §1, applied by :func:`replykit.segment` (per block, and per message
    for diagnostics), ``questionnaire_async``, responses and answer actions.

    ``max_payload``: code points of one block's payload, or of the tool's arguments as
    compact JSON text (default 1,000,000; larger is ``limit.payload_size`` and nothing
    is read); ``max_questions`` (1000, ``limit.questions``; also the ``answers`` of a
    response); ``max_options`` per question (1000, ``limit.options``; also a
    multi-choice ``default`` list, and plus one, for "other", a response's value
    lists); ``max_depth`` of YAML or JSON nesting (64,
    ``yaml.too_deep``/``json.too_deep``; at most 500, since Python's JSON decoder
    recurses once per level); ``max_diagnostics`` (200): the most
    diagnostics one message, tool call, set of answers or answer's actions yields, the
    rest summarized by one ``limit.diagnostics`` warning (docs/protocol.md §2.1).
    Raises ``TypeError`` when a limit is not an ``int``, ``ValueError`` when it is below
    1 (or ``max_depth`` above 500).
    """

    max_payload: int = attrs.field(default=1_000_000, validator=attrs.validators.instance_of(int))
    max_questions: int = attrs.field(default=1000, validator=attrs.validators.instance_of(int))
    max_options: int = attrs.field(default=1000, validator=attrs.validators.instance_of(int))
    max_depth: int = attrs.field(default=64, validator=attrs.validators.instance_of(int))
    max_diagnostics: int = attrs.field(default=200, validator=attrs.validators.instance_of(int))

    def __attrs_post_init__(self) -> None:
        for field in attrs.fields(Limits):
            if getattr(self, field.name) < 1:
                raise ValueError(f"{field.name} must be at least 1")
        if self.max_depth > MAX_DEPTH_CEILING:
            raise ValueError(f"max_depth must be at most {MAX_DEPTH_CEILING}")


DEFAULT_LIMITS = Limits()


def payload_size(payload: str, limits: Limits) -> Finding | None:
    """``limit.payload_size`` when ``payload`` measures (:func:`measured_size`) more
    than ``limits.max_payload``."""
    if len(payload) <= limits.max_payload:
        return None  # a CRLF only makes the text longer than its measure
    size = measured_size(payload)
    if size <= limits.max_payload:
        return None
    return LIMIT_PAYLOAD_SIZE.finding(
        details={"limit": limits.max_payload, "actual": size},
        size=size,
        limit=limits.max_payload,
    )


def _over(code: Code, what: str, size: int, limit: int, path: Path) -> Finding:
    where = format_path(path)
    params = {"what": what, "size": size, "limit": limit, "path": where}
    return code.finding(
        path, details={"path": where, "limit": limit, "actual": size}, params=params
    )


def form_lists(root: Any, limits: Limits) -> Finding | None:
    """The first list of a request form over its limit, checked before any item is read.

    Input: the payload's value (a mapping is expected). ``questions`` longer than
    ``max_questions`` is ``limit.questions`` (path ``questions``); a question's
    ``options`` or ``default`` list longer than ``max_options`` is ``limit.options``
    (path ``questions[i].options`` / ``.default``). ``None`` when every list fits.
    """
    if type(root) is not dict and not isinstance(root, Mapping):
        return None
    questions = root.get("questions")
    if not isinstance(questions, list):
        return None
    if len(questions) > limits.max_questions:
        return _over(
            LIMIT_QUESTIONS, "questions", len(questions), limits.max_questions, ("questions",)
        )
    for i, question in enumerate(questions):
        if type(question) is not dict and not isinstance(question, Mapping):
            continue
        for key in ("options", "default"):
            value = question.get(key)
            if isinstance(value, list) and len(value) > limits.max_options:
                path: Path = ("questions", i, key)
                return _over(LIMIT_OPTIONS, key, len(value), limits.max_options, path)
    return None


def answer_list_limit(limits: Limits) -> int:
    """The longest answer list a response may carry (§1): ``max_options`` plus one,
    as a multi-choice question of ``max_options`` options that allows "other" is
    answered with every option and ``__questionnaire_other__``."""
    return limits.max_options + 1


def response_lists(root: Any, limits: Limits) -> Finding | None:
    """The first list of a response payload over its limit, checked before any answer is
    read: ``answers`` longer than ``max_questions`` (``limit.questions``), an answer's
    ``answer``, ``values`` or ``labels`` list longer than :func:`answer_list_limit`
    (``limit.options``). ``None`` when every list fits."""
    if type(root) is not dict and not isinstance(root, Mapping):
        return None
    answers = root.get("answers")
    if not isinstance(answers, list):
        return None
    if len(answers) > limits.max_questions:
        return _over(LIMIT_QUESTIONS, "answers", len(answers), limits.max_questions, ("answers",))
    for i, answer in enumerate(answers):
        if type(answer) is not dict and not isinstance(answer, Mapping):
            continue
        for key in ("answer", "values", "labels"):
            value = answer.get(key)
            if isinstance(value, list) and len(value) > answer_list_limit(limits):
                path: Path = ("answers", i, key)
                return _over(LIMIT_OPTIONS, key, len(value), answer_list_limit(limits), path)
    return None


def _scalar_size(value: Any) -> int:
    if isinstance(value, str):
        return len(json.dumps(value, ensure_ascii=False))
    if value is None or isinstance(value, bool):
        return 4 if value is None or value else 5
    if isinstance(value, int):
        bits = abs(value).bit_length()
        if bits < 14_000:
            return len(str(value))
        # str() refuses ints past 4300 digits: the digit count is estimated instead.
        return int(bits * math.log10(2)) + 1 + (value < 0)
    if isinstance(value, float):
        return len(repr(value)) if math.isfinite(value) else 9
    return 4  # not a JSON value: counted as a null


def arguments_size(arguments: Any, limits: Limits) -> Finding | None:
    """``limit.payload_size`` when ``arguments`` as compact JSON text (``json.dumps``
    with ``separators=(",", ":")`` and ``ensure_ascii=False``; an integer's digits
    estimated from its bit length) is longer than ``max_payload`` code points, or
    ``json.too_deep`` when it nests deeper than ``max_depth``; ``None`` otherwise.

    Walks the value without recursion and stops as soon as a limit is passed, so a
    huge, deep or even cyclic Python value costs at most ``max_payload`` steps.
    """
    size = 0
    stack: list[tuple[Any, int]] = [(arguments, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, Mapping | list | tuple):
            if depth > limits.max_depth:
                return JSON_TOO_DEEP.finding(
                    variant="arguments",
                    details={"path": None, "limit": limits.max_depth},
                    limit=limits.max_depth,
                )
            items = list(value.items()) if isinstance(value, Mapping) else list(value)
            size += 2 + max(len(items) - 1, 0)
            for item in items:
                if isinstance(value, Mapping):
                    key, item = item
                    size += 1 + (_scalar_size(key) if isinstance(key, str) else 4)
                stack.append((item, depth + 1))
        else:
            size += _scalar_size(value)
        if size > limits.max_payload:
            return LIMIT_PAYLOAD_SIZE.finding(
                variant="arguments",
                details={"path": None, "limit": limits.max_payload},
                limit=limits.max_payload,
            )
    return None
