"""The playground's JSON endpoints as pure functions: a decoded request in, a JSON
value out (docs/serve.md "Endpoints").

- :func:`analyze`: segments, diagnostics, rendered HTML and the Self-check verdict of
  one message (§2-§6, §8);
- :func:`respond`: the response a filled form sends (§7);
- :func:`actions`: the sanitized buttons of an answer and one step of their state
  machine (§12).

Each raises :class:`RequestError` (HTTP 400) for a request without the documented
shape and nothing else: problems *in* a message, answers or action list are data in
the result, as everywhere in replykit. The server (:mod:`replykit.serve.server`)
does the HTTP; nothing here reads a file or keeps state between calls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from replykit.jsonout import dumps
from replykit.markdown_it.bound import output_limit, utf8_size
from replykit.markdown_it.cards import CardOptions
from replykit.questionnaire.conversation.responses.build import AnswersError, build_response
from replykit.questionnaire.conversation.selfcheck import self_check
from replykit.questionnaire.conversation.texts import LOCALES, check_locale
from replykit.questionnaire.limits import form_id_problem, message_id_problem
from replykit.questionnaire.model import Segment
from replykit.questionnaire.payload.describe import a_json_type
from replykit.questionnaire.profiles import Profile, profile_from_string
from replykit.questionnaire.segmentation.segmenter import segment
from replykit.serve.render import json_size, render_message

#: The compat switch values the page offers (§9): strict, or every Sage relaxation.
COMPAT_CHOICES = ("", "sage")


class RequestError(ValueError):
    """A request body without the documented shape (HTTP 400); the message is one line
    naming the bad field."""


def _field(request: Mapping[str, Any], key: str, kind: type, default: Any = None) -> Any:
    value = request.get(key, default)
    if not isinstance(value, kind):
        expected = {str: "a string", bool: "a boolean"}.get(kind, "an object")
        if key not in request:  # missing, not null: say which
            raise RequestError(f"{key}: is required ({expected})")
        raise RequestError(f"{key}: must be {expected}, not {a_json_type(value)}")
    return value


def _options(request: Mapping[str, Any]) -> tuple[str, str, Profile, str | None, str]:
    """``(text, message_id, profile, compat, locale)`` of a message request."""
    text = _field(request, "text", str)
    message_id = _field(request, "message_id", str, "message")
    problem = message_id_problem(message_id)
    if problem is not None:
        raise RequestError(f"message_id: {problem}")
    if "\0" in message_id:
        raise RequestError("message_id: holds NUL, which HTML cannot carry")
    try:
        profile = profile_from_string(_field(request, "profile", str, "client"))
    except ValueError as exc:
        raise RequestError(f"profile: {exc}") from None
    compat = _field(request, "compat", str, "")
    if compat not in COMPAT_CHOICES:
        raise RequestError('compat: must be "" or "sage"')
    locale = _field(request, "locale", str, "en")
    if locale not in LOCALES:
        raise RequestError(f"locale: must be one of {', '.join(LOCALES)}")
    return text, message_id, profile, compat or None, locale


def _segment_json(seg: Segment) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": seg.kind, "start": seg.start, "end": seg.end}
    if seg.kind != "markdown":
        out.update(
            encoding=seg.encoding,
            name=seg.name,
            registered=seg.registered,
            valid=seg.valid,
            id=seg.id,
            diagnostics=len(seg.diagnostics),
        )
    return out


def analyze(request: Mapping[str, Any]) -> dict[str, Any]:
    """Everything the page shows for one message.

    Request: ``{"text": str, "message_id"?: str (default "message", at most 128),
    "profile"?: "client"|"self_check"|"product:NAME", "compat"?: ""|"sage",
    "locale"?: "zh"|"en" (Self-check texts and the cards' labels, default en),
    "readonly"?: bool (every form locked, default false; docs/html.md section 3)}``.
    Output: ``{"segments": [{kind, start, end[, encoding, name, registered, valid, id,
    diagnostics (a count)]}], "diagnostics": [diagnostic JSON], "decoded": str|null
    (the text the offsets index when a §9 decoding changed it), "html": the rendered
    message, "self_check": {"passed", "diagnostics", "repair_prompt"}}``, written as
    compact JSON at most 16 x the UTF-8 bytes of the request's fields plus 256 KiB
    (the largest cards shown as their raw text past that, docs/html.md section 8; when
    even the diagnostics do not fit, each list keeps its first ones and
    ``diagnostics_left_out`` counts the rest, beside it).
    Offsets are code points. Self-check always reads with the ``self_check`` profile (§8), whatever
    ``profile`` says. Raises :class:`RequestError` for a bad field.
    """
    text, message_id, profile, compat, locale = _options(request)
    readonly = _field(request, "readonly", bool, False)
    cards = CardOptions(readonly, check_locale(locale))
    html, result = render_message(
        text, message_id=message_id, profile=profile, compat=compat, cards=cards
    )
    checked = self_check({"role": "assistant", "content": text}, locale=locale)
    answer = {
        "segments": [_segment_json(s) for s in result.segments],
        "diagnostics": [d.to_json() for d in result.diagnostics],
        "decoded": result.decoded,
        "html": html,
        "self_check": {
            "passed": checked.passed,
            "diagnostics": [d.to_json() for d in checked.diagnostics],
            "repair_prompt": checked.repair_prompt,
        },
    }
    # The answer keeps render_html's bound (docs/html.md section 8), the request's
    # fields counted as the input: the HTML gets what the rest leaves.
    limit = output_limit(text, message_id, profile.name, compat or "", locale)
    size = utf8_size(dumps(answer, compact=True))
    if size > limit:
        room = limit - (size - json_size(html))
        answer["html"], _ = render_message(
            text, message_id=message_id, profile=profile, compat=compat, limit=room, cards=cards
        )
        size = utf8_size(dumps(answer, compact=True))
    if size > limit:
        _trim_diagnostics(answer, size, limit)
    return answer


# What a trimmed list's left-out count field and its comma take, at most.
_LEFT_OUT_FIELD = 64


def _trim_diagnostics(answer: dict[str, Any], size: int, limit: int) -> None:
    """Past the bound with the HTML at its smallest, keep the first diagnostics of each
    list that fit in half the room left each, and count the rest in
    ``diagnostics_left_out`` (of the answer, of ``self_check``): a message dense with
    near-misses would otherwise make the answer many times its size twice over (§1.5;
    the two lists hold the same diagnostics read by two profiles)."""
    check = answer["self_check"]
    lists = [answer["diagnostics"], check["diagnostics"]]
    fixed = size - sum(utf8_size(dumps(items, compact=True)) for items in lists)
    room = max(0, limit - fixed - 2 * _LEFT_OUT_FIELD) // 2
    for owner in (answer, check):
        items = owner["diagnostics"]
        kept, used = 0, 2  # the brackets
        for item in items:
            used += utf8_size(dumps(item, compact=True)) + 1
            if used > room:
                break
            kept += 1
        owner["diagnostics"] = items[:kept]
        owner["diagnostics_left_out"] = len(items) - kept


def respond(request: Mapping[str, Any]) -> dict[str, Any]:
    """The response a filled form sends (§7).

    Request: the fields of :func:`analyze` plus ``"block_id": str`` (the form's
    ``data-replykit-block``) and ``"answers": {question id: str | [str] |
    {"value", "other_text"}}`` (the shapes of :func:`~replykit.build_response`).
    Output: ``{"agent_text", "display_text", "answers"}`` exactly as
    :func:`~replykit.build_response` builds them, or ``{"diagnostics": [{"code",
    "severity", "path", "message"}]}`` when the answers do not fit the form.
    Raises :class:`RequestError` when ``block_id`` names no valid questionnaire.
    """
    text, message_id, profile, compat, locale = _options(request)
    block_id = _field(request, "block_id", str)
    problem = form_id_problem(block_id)
    if problem is not None:
        raise RequestError(f"block_id: {problem}")
    answers = _field(request, "answers", dict)
    result = segment(text, message_id=message_id, profile=profile, compat=compat)
    found = [s for s in result.segments if s.id == block_id and s.questionnaire is not None]
    if not found or found[0].name is None or found[0].questionnaire is None:
        raise RequestError(f"block_id: no valid questionnaire {block_id!r} in the message")
    seg = found[0]
    assert seg.questionnaire is not None and seg.name is not None
    try:
        built = build_response(
            seg.questionnaire, answers, name=seg.name, questionnaire_id=block_id, locale=locale
        )
    except AnswersError as exc:
        return {
            "diagnostics": [
                {
                    "code": f.code,
                    "severity": f.severity,
                    "path": f.details.get("path"),
                    "message": f.message,
                }
                for f in exc.findings
            ]
        }
    return built.to_json()


def actions(
    request: Mapping[str, Any], *, clock: Callable[[], datetime] = lambda: datetime.now(UTC)
) -> dict[str, Any]:
    """The answer-actions panel (§12; docs/actions.md).

    Request: ``{"answer": str (the answer's JSON text, read strictly), "context"?:
    the context object of docs/actions.md, "state"?: an ``AnswerState`` JSON,
    "event"?: {"action_id": str, "kind": "click"|"confirm"|"cancel"|"host_success"|
    "host_error"}}``. Output: ``{"buttons": [{"action": action JSON, "added": bool,
    "confirm": bool, "status": str}], "diagnostics": [...], "source", "state": the
    state after the event, "effect": effect JSON or null}``. ``clock`` gives the
    timezone-aware ``now`` of the state records. Raises :class:`RequestError` for a
    bad context, state or event, or an event on an action that is not shown.
    """
    from replykit.actions import (
        EVENT_KINDS,
        AnswerState,
        ContextError,
        dispatch,
        needs_confirmation,
        parse_context,
        sanitize_json,
        with_defaults,
    )
    from replykit.actions.state import StateError

    answer = _field(request, "answer", str)
    try:
        context = parse_context(request.get("context", {}))
        state = AnswerState.from_json(request.get("state", {}))
    except (ContextError, StateError) as exc:
        raise RequestError(str(exc)) from None
    shown = with_defaults(sanitize_json(answer), context)
    effect: dict[str, Any] | None = None
    event = request.get("event")
    if event is not None:
        if not isinstance(event, dict) or event.get("kind") not in EVENT_KINDS:
            raise RequestError(f"event: must be {{action_id, kind}}, kind one of {EVENT_KINDS}")
        chosen = [a for a in shown.all_actions if a.id == event.get("action_id")]
        if not chosen:
            raise RequestError("event.action_id: no such action is shown")
        state, done = dispatch(state, chosen[0], event["kind"], context, clock())
        effect = done.to_json()
    added = {a.id for a in shown.added}
    return {
        "buttons": [
            {
                "action": a.to_json(),
                "added": a.id in added,
                "confirm": needs_confirmation(a),
                "status": state.status_of(a.id),
            }
            for a in shown.all_actions
        ],
        "diagnostics": [d.to_json() for d in shown.diagnostics],
        "source": shown.source,
        "state": state.to_json(),
        "effect": effect,
    }
