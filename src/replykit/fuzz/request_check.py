"""The shape of an adapter-protocol request body (docs/fuzzing.md, "The protocol").

One rule for every reader of request bodies: :func:`replykit.fuzz.reference.reference`
refuses a malformed body with it, and an ``--explicit`` file's examples are checked
with it when the file is read, so a malformed example is a usage error naming its
entry and field, never a failure in the middle of a run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replykit.questionnaire.limits import message_id_problem
from replykit.questionnaire.profiles import profile_from_string


def request_problem(op: str, body: Mapping[str, Any]) -> str | None:
    """The first malformed field of the request ``body`` of ``op`` (``segment``,
    ``stream``, ``questionnaire_async``, ``sanitize_actions``), as ``FIELD: what is
    expected`` (``chunks: expected a list of strings``), or ``None``. An unknown
    ``op`` is the caller's to refuse. The rules: ``segment`` needs a string ``text``,
    ``stream`` a list of string ``chunks``; both take an optional ``message_id`` that
    ``segment()`` accepts (§6) and an optional ``profile`` as the CLI spells it;
    ``questionnaire_async`` needs ``arguments`` and ``sanitize_actions`` an ``answer``
    (any JSON value: a wrong one is the tool's answer to check, §7, §12)."""
    if op == "segment" and not isinstance(body.get("text"), str):
        return "text: expected a string"
    if op == "stream":
        chunks = body.get("chunks")
        if not isinstance(chunks, list) or not all(isinstance(c, str) for c in chunks):
            return "chunks: expected a list of strings"
    if op in ("segment", "stream"):
        return _options_problem(body)
    if op == "questionnaire_async" and "arguments" not in body:
        return "arguments: required"
    if op == "sanitize_actions" and "answer" not in body:
        return "answer: required"
    return None


def _options_problem(body: Mapping[str, Any]) -> str | None:
    message_id = body.get("message_id", "message")
    if not isinstance(message_id, str):
        return "message_id: expected a string"
    problem = message_id_problem(message_id)
    if problem is not None:
        return f"message_id: {problem}"
    profile = body.get("profile", "client")
    if not isinstance(profile, str):
        return "profile: expected a string (client, self_check or product:NAME)"
    try:
        profile_from_string(profile)
    except ValueError as exc:
        return f"profile: {exc}"
    return None


__all__ = ["request_problem"]
