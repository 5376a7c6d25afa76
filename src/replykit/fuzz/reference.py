"""replykit's own answer to an adapter-protocol request (docs/fuzzing.md).

The same shapes an adapter writes, ``id`` left out:

- ``segment``: ``{"segments": [...], "diagnostics": [...]}`` as ``replykit segment``
  prints them (``Segmentation.to_json()``; offsets in code points);
- ``questionnaire_async``: ``{"result": {...}}``, the tool's success or error object
  for the whole ``arguments`` value
  (:func:`replykit.questionnaire.conversation.tool.call_questionnaire_async`,
  English messages, which are never compared);
- ``sanitize_actions``: ``{"result": {"actions": [...], "diagnostics": [...]}}``, the
  kept actions and every diagnostic of :func:`replykit.actions.sanitize` (no
  client-added entries);
- ``stream``: ``{"segments": [...], "diagnostics": [...]}``, the final result of the
  whole message (``chunks`` joined), as for ``segment`` (§10: ``finish()`` equals
  ``segment()``); what an adapter commits on the way is checked against it
  (:mod:`replykit.fuzz.stream_check`), not against replykit's commit points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replykit.fuzz.ops import ALL_OPS
from replykit.fuzz.request_check import request_problem
from replykit.questionnaire.conversation.tool import call_questionnaire_async
from replykit.questionnaire.profiles import profile_from_string
from replykit.questionnaire.segmentation.segmenter import segment


class RequestError(ValueError):
    """A request body replykit cannot answer: an unknown ``op``, a missing or mistyped
    field (``text``/``message_id`` not strings, a ``message_id`` ``segment()`` refuses
    (§6), ``profile`` not a CLI profile)."""


def reference(op: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """replykit's response to one request.

    Input: ``op`` (``segment``, ``questionnaire_async``, ``sanitize_actions``,
    ``stream``) and the request ``body`` without ``id``/``op`` (``{"text",
    "message_id", "profile"}``, ``{"arguments"}``, ``{"answer"}`` or ``{"chunks",
    "message_id", "profile"}``). Output: the response without ``id``, shapes
    as in the module docstring. Raises :class:`RequestError` for a malformed body.
    """
    if op not in ALL_OPS:
        raise RequestError(f"unknown op {op!r}; expected one of {', '.join(ALL_OPS)}")
    problem = request_problem(op, body)
    if problem is not None:
        raise RequestError(f"{op}: {problem}")
    if op in ("segment", "stream"):
        text = body["text"] if op == "segment" else "".join(body["chunks"])
        message_id = body.get("message_id", "message")
        profile = profile_from_string(body.get("profile", "client"))
        return segment(text, message_id=message_id, profile=profile).to_json()
    if op == "questionnaire_async":
        return {"result": call_questionnaire_async(body["arguments"], locale="en")}
    if op == "sanitize_actions":
        # Loaded here: ``import replykit.fuzz`` stays free of the answer-actions package.
        from replykit.actions import ActionSet, sanitize

        answer = body["answer"]
        # A JSON string answer holds no actions (§12); sanitize() refuses a str, which
        # in a library call is JSON text left undecoded.
        result = ActionSet() if isinstance(answer, str) else sanitize(answer)
        return {
            "result": {
                "actions": [a.to_json() for a in result.actions],
                "diagnostics": [d.to_json() for d in result.diagnostics],
            }
        }
    raise RequestError(f"unknown op {op!r}; expected one of {', '.join(ALL_OPS)}")
