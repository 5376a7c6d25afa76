"""One request to both implementations: :func:`check` compares replykit's answer with
the adapter's and gives a :class:`Verdict` with the coarse class key
(docs/fuzzing.md, "Classes"); :func:`shrink_request` shrinks a request body while a
predicate holds (docs/fuzzing.md, "Shrinking")."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from replykit.codes import rules
from replykit.fuzz.adapter import FAILURES, Adapter
from replykit.fuzz.classify import (
    FINE_CODE_ROLES,
    OFFSET_ROLE,
    ClassKey,
    block_errors,
    json_key,
    segment_key,
)
from replykit.fuzz.compare import Difference, first_difference
from replykit.fuzz.features import PAYLOAD_FEATURES, WHERE_ROLES, key_features
from replykit.fuzz.ops import Op
from replykit.fuzz.reference import reference
from replykit.fuzz.rules import (
    Probe,
    actions_rule,
    questionnaire_rule,
    segment_rule,
    segment_rule_at,
)
from replykit.fuzz.segdiff import code_point_offsets, segment_difference
from replykit.fuzz.shrink import shrink_json, shrink_text
from replykit.fuzz.stream_check import (
    STREAM_RULE,
    commit_fault,
    final_body,
    shape_fault,
    shrink_stream,
    stream_key,
)

#: The profile and message id the shrinker tries first.
DEFAULT_PROFILE: Final = "client"
DEFAULT_MESSAGE_ID: Final = "m"
#: What the preface probe puts before the message (docs/fuzzing.md).
PREFACE_PROBE: Final = "Intro\n\n"


@attrs.frozen
class Verdict:
    """The outcome of one request.

    ``rule``: ``None`` when the adapter agrees with replykit on every compared field
    (or does not support the request: ``unsupported`` is then ``"op"`` or
    ``"profile"``); a rule tag (§ or seed heading) for a disagreement; ``adapter.crash``,
    ``adapter.timeout``, ``adapter.oversized``, ``adapter.invalid_json`` or
    ``adapter.bad_response`` for an adapter failure. ``key``: the coarse
    :class:`~replykit.fuzz.classify.ClassKey` of a disagreement or failure (``None``
    otherwise); ``expected``: replykit's response; ``actual``: the adapter's (``None``
    on failure); ``difference``: the first differing field; ``detail``: the failure's
    description.

    It holds JSON values as exchanged with the adapter (plain ``dict`` and ``list``), so
    it does not hash.
    """

    rule: str | None
    expected: Mapping[str, Any]
    actual: Mapping[str, Any] | None = None
    difference: Difference | None = None
    detail: str = ""
    unsupported: str = ""
    key: ClassKey | None = None


def _is_block(seg: Any) -> bool:
    return isinstance(seg, Mapping) and seg.get("kind") not in (None, "markdown")


def _is_card(seg: Any) -> bool:
    return (
        isinstance(seg, Mapping)
        and seg.get("kind") not in (None, "markdown")
        and seg.get("registered") is not False
        and seg.get("valid") is not False
    )


def _probe(adapter: Adapter, body: Mapping[str, Any], block: Mapping[str, Any] | None) -> Probe:
    """Answers the rules' questions about variants of the message (``Probe``) by asking
    the adapter: does it show a card where ``block`` stands once a plain paragraph
    stands before the message (``preface``), or a block there once the block's name is
    ``questionnaire`` (``plain_name``)?"""
    answers: dict[str, bool] = {}

    def ask(kind: str) -> bool:
        if kind in answers:
            return answers[kind]
        answers[kind] = False
        text = str(body.get("text", ""))
        start, end = (block or {}).get("start"), (block or {}).get("end")
        name = (block or {}).get("name")
        if not isinstance(start, int) or not isinstance(end, int):
            return False
        if kind == "preface":
            variant, at = PREFACE_PROBE + text, start + len(PREFACE_PROBE)
        elif kind == "plain_name" and isinstance(name, str) and name:
            plain = "questionnaire-response" if name.endswith("-response") else "questionnaire"
            variant, at = text[:start] + text[start:end].replace(name, plain) + text[end:], start
        else:
            return False
        outcome = adapter.request("segment", {**body, "text": variant})
        response = outcome.response
        if response is not None:
            response = code_point_offsets(variant, response) or response
        segs = response.get("segments") if response is not None else None
        if outcome.kind == "ok" and isinstance(segs, list):
            shown = _is_card if kind == "preface" else _is_block
            answers[kind] = any(shown(s) and s.get("start") == at for s in segs)
        return answers[kind]

    return ask


def _segment_verdict(
    adapter: Adapter, body: Mapping[str, Any], expected: Mapping[str, Any], actual: Any
) -> Verdict:
    found = segment_difference(expected, actual)
    if found is None:
        return Verdict(None, expected, actual)
    text = str(body.get("text", ""))
    shown = actual
    in_code_points = code_point_offsets(text, actual)
    if in_code_points is not None:
        # The adapter counts UTF-16 code units: one class, whatever the message holds;
        # anything else it gets wrong is judged in code points (its own class).
        other = segment_difference(expected, in_code_points)
        if other is None:
            key = ClassKey("segment", rules.TEXT_UNITS.tag, OFFSET_ROLE)
            return Verdict(key.rule, expected, actual, found.difference, key=key)
        found, actual = other, in_code_points
    segs_e = expected.get("segments") or []
    segs_a = actual.get("segments") or []
    e = segs_e[found.expected_index] if found.expected_index is not None else None
    a = segs_a[found.actual_index] if found.actual_index is not None else None
    diags = [d for d in expected.get("diagnostics") or [] if isinstance(d, Mapping)]
    if found.stage == "rest" and found.field is None:
        rule = segment_rule(text, expected, actual, found.difference.path)
    else:
        rule = segment_rule_at(text, e, a, found.field, diags, _probe(adapter, body, e))
    key = segment_key(text, expected, actual, found, rule)
    return Verdict(rule, expected, shown, found.difference, key=key)


def _stream_verdict(
    adapter: Adapter, body: Mapping[str, Any], expected: Mapping[str, Any], actual: Any
) -> Verdict:
    """A ``stream`` answer against the invariants of §10 (:mod:`.stream_check`): its
    shape, then every commit, then its final result as a ``segment`` answer."""
    fault = shape_fault(body, actual)
    if fault:
        adapter.close()  # restarted after a failure, as every failure restarts it
        rule = "adapter.bad_response"
        return Verdict(rule, expected, actual, detail=fault, key=ClassKey("stream", rule))
    found = commit_fault(body, actual, expected.get("segments") or [])
    if found is not None:
        role, kinds, diff, why = found
        return Verdict(STREAM_RULE, expected, actual, diff, why, key=stream_key(role, kinds))
    final = {k: actual[k] for k in ("segments", "diagnostics") if k in actual}
    seg = _segment_verdict(adapter, final_body(body), expected, final)
    if seg.rule is None or seg.key is None:
        return Verdict(None, expected, actual)
    key = ClassKey("stream", STREAM_RULE, "final", seg.key.kinds, seg.key.code)
    detail = f"the final result differs as a segment answer does under {seg.rule}"
    return Verdict(STREAM_RULE, expected, actual, seg.difference, detail, key=key)


def check(adapter: Adapter, op: Op, body: Mapping[str, Any]) -> Verdict:
    """Ask replykit and ``adapter`` the same request and compare (docs/fuzzing.md).

    Input: an :class:`~replykit.fuzz.adapter.Adapter`, the op and the request body.
    Output: a :class:`Verdict` whose ``key`` is the coarse class key. A ``segment``
    answer is compared as a user sees it first (cards, then every block, then the
    rest: :mod:`replykit.fuzz.segdiff`); to tag a rejected form or a missed block the
    adapter may be asked about one or two variants of the message. A ``stream`` answer
    is checked against the invariants of §10 (:mod:`replykit.fuzz.stream_check`). Raises
    :class:`~replykit.fuzz.reference.RequestError` for a malformed body and
    :class:`~replykit.fuzz.adapter.AdapterStartError` when the adapter cannot start.
    """
    expected = reference(op, body)
    outcome = adapter.request(op, body)
    if outcome.kind == "unsupported":
        return Verdict(None, expected, unsupported=outcome.unsupported or "op")
    if outcome.kind in FAILURES or outcome.response is None:
        rule = f"adapter.{outcome.kind}"
        return Verdict(rule, expected, detail=outcome.detail, key=ClassKey(op, rule))
    actual = outcome.response
    if op == "segment":
        return _segment_verdict(adapter, body, expected, actual)
    if op == "stream":
        return _stream_verdict(adapter, body, expected, actual)
    diff = first_difference(expected, actual)
    if diff is None:
        return Verdict(None, expected, actual)
    if op == "questionnaire_async":
        rule = questionnaire_rule(expected, actual)
    else:
        rule = actions_rule(expected, actual)
    return Verdict(rule, expected, actual, diff, key=json_key(op, expected, actual, diff, rule))


def shrink_request(
    op: Op,
    body: Mapping[str, Any],
    holds: Callable[[Mapping[str, Any]], bool],
    profile: str = DEFAULT_PROFILE,
) -> Mapping[str, Any]:
    """A 1-minimal request body for which ``holds`` is true (docs/fuzzing.md,
    "Shrinking").

    Input: the op, a ``body`` for which ``holds`` is true (not re-checked), the
    predicate, and the profile to try first (``client`` unless ``--profile`` leaves it
    out). A ``segment`` body first tries that profile and the message id ``m``, then its
    text shrinks (:func:`~replykit.fuzz.shrink.shrink_text`); a ``stream`` body the
    same, then its chunks (:func:`~replykit.fuzz.stream_check.shrink_stream`); the
    other ops shrink
    ``arguments`` or ``answer`` (:func:`~replykit.fuzz.shrink.shrink_json`). Raises what
    ``holds`` raises.
    """
    if op in ("segment", "stream"):
        for field, plain in (("profile", profile), ("message_id", DEFAULT_MESSAGE_ID)):
            if body.get(field) != plain and holds({**body, field: plain}):
                body = {**body, field: plain}
        if op == "stream":
            return shrink_stream(body, holds, shrink_text)
        text = shrink_text(str(body["text"]), lambda t: holds({**body, "text": t}))
        return {**body, "text": text}
    key = "arguments" if op == "questionnaire_async" else "answer"
    return {**body, key: shrink_json(body[key], lambda v: holds({**body, key: v}))}


def shrink_finding(
    adapter: Adapter,
    op: Op,
    first: Verdict,
    body: Mapping[str, Any],
    on_failure: Callable[[Op, Mapping[str, Any], Verdict], None],
    profile: str,
    *,
    deadline: float | None = None,
    on_hold: Callable[[Mapping[str, Any], Verdict], None] | None = None,
) -> Mapping[str, Any]:
    """A finding's request ``body`` shrunk (:func:`shrink_request`, ``profile`` tried
    first) while the adapter's answer keeps the coarse key of ``first`` (the verdict on
    ``body``); for a validity difference, also while replykit finds no error about the
    block as a whole that ``first`` did not
    (:func:`~replykit.fuzz.classify.block_errors`). An adapter failure met on the way
    goes to ``on_failure`` and does not hold; each candidate that holds goes to
    ``on_hold`` with its verdict. From ``deadline`` on (``time.monotonic()`` seconds)
    the adapter is asked nothing more and no candidate holds: the input shrunk so far
    is returned. Raises what :func:`check` raises."""
    key = first.key
    assert key is not None
    allowed = block_errors(first.expected) if key.role in FINE_CODE_ROLES else None

    def holds(candidate: Mapping[str, Any]) -> bool:
        if deadline is not None and time.monotonic() >= deadline:
            return False
        verdict = check(adapter, op, candidate)
        if verdict.rule is not None and verdict.rule.startswith("adapter."):
            on_failure(op, candidate, verdict)
            return False
        if verdict.key is None or verdict.key.coarse != key.coarse:
            return False
        if allowed is not None and not block_errors(verdict.expected) <= allowed:
            return False
        if on_hold is not None:
            on_hold(candidate, verdict)
        return True

    return shrink_request(op, body, holds, profile)


def class_key_for(coarse: ClassKey, op: Op, shrunk: Mapping[str, Any]) -> ClassKey:
    """The key of a class: the key of its minimal input (with that input's code, for a
    role of :data:`~replykit.fuzz.classify.FINE_CODE_ROLES`) and the features of that
    input, but none for a representation (both sides show the same text: one class
    per rule, kinds and code, with up to 3 inputs to show its variety)."""
    if not coarse.keeps_features:
        return coarse.class_key
    found = key_features(op, shrunk)
    if coarse.role in WHERE_ROLES:
        found -= PAYLOAD_FEATURES  # what a payload holds does not move a block
    return coarse.class_key.with_features(found)


__all__ = [
    "DEFAULT_MESSAGE_ID",
    "DEFAULT_PROFILE",
    "PREFACE_PROBE",
    "Verdict",
    "check",
    "class_key_for",
    "shrink_finding",
    "shrink_request",
]
