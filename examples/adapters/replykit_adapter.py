#!/usr/bin/env python3
"""replykit itself behind the fuzzing adapter protocol (docs/fuzzing.md).

Reads one JSON request per line on stdin, writes one JSON response per line on
stdout, until stdin closes:

    {"id", "op": "segment", "text", "message_id", "profile"}
        -> {"id", "segments": [...], "diagnostics": [...]}
    {"id", "op": "questionnaire_async", "arguments"} -> {"id", "result": {...}}
    {"id", "op": "sanitize_actions", "answer"}
        -> {"id", "result": {"actions": [...], "diagnostics": [...]}}
    {"id", "op": "stream", "chunks", "message_id", "profile"}
        -> {"id", "updates": [{"committed": [...]}, ...], "segments": [...],
            "diagnostics": [...]}

An op it does not know gets {"id", "unsupported": true}; a request replykit cannot
read gets {"id", "error": "..."}. Run: python examples/adapters/replykit_adapter.py
(replykit importable). Fuzzing it against replykit must find nothing.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from replykit import StreamSegmenter, profile_from_string, segment
from replykit.actions import ActionSet, sanitize
from replykit.jsonout import dumps
from replykit.questionnaire.conversation.tool import call_questionnaire_async


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The response object for one request (``id`` copied)."""
    rid = request.get("id")
    op = request.get("op")
    try:
        if op == "segment":
            profile = profile_from_string(request.get("profile", "client"))
            result = segment(
                request["text"], message_id=request.get("message_id", "message"), profile=profile
            )
            return {"id": rid, **result.to_json()}
        if op == "stream":
            profile = profile_from_string(request.get("profile", "client"))
            seg = StreamSegmenter(message_id=request.get("message_id", "message"), profile=profile)
            updates = []
            for chunk in request["chunks"]:
                update = seg.push(chunk)
                updates.append({"committed": [c.to_json() for c in update.committed]})
            return {"id": rid, "updates": updates, **seg.finish().to_json()}
        if op == "questionnaire_async":
            return {"id": rid, "result": call_questionnaire_async(request["arguments"])}
        if op == "sanitize_actions":
            answer = request["answer"]
            # A JSON string answer holds no actions; sanitize() refuses a str (JSON text).
            kept = ActionSet() if isinstance(answer, str) else sanitize(answer)
            return {
                "id": rid,
                "result": {
                    "actions": [a.to_json() for a in kept.actions],
                    "diagnostics": [d.to_json() for d in kept.diagnostics],
                },
            }
    except (KeyError, TypeError, ValueError) as exc:
        return {"id": rid, "error": f"{type(exc).__name__}: {exc}"}
    return {"id": rid, "unsupported": True}


def main() -> int:
    """Serve requests until standard input ends."""
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        request = json.loads(line)
        out = dumps(answer(request), ascii_only=True)  # strict JSON: never NaN
        sys.stdout.write(out + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
