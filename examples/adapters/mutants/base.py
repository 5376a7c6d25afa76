"""What every mutant is built on: replykit's own answer, and the helpers a fault uses
to change it (docs/fuzzing.md gives the request and response shapes).

A *fault* is a layer ``(request, inner) -> response``: it may change the request it
passes to ``inner`` (the layers below it, replykit at the bottom), change the response
it gets back, or both. A segment response of a layer always indexes the text of the
request that layer received, so layers stack in any order (the combined mutant).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from replykit import Compat, profile_from_string, segment
from replykit.actions import ActionSet, sanitize
from replykit.questionnaire.conversation.tool import call_questionnaire_async

Request = dict[str, Any]
Response = dict[str, Any]
Answer = Callable[[Request], Response]
Layer = Callable[[Request, Answer], Response]

#: The fields a client's splitter produces for a segment (no diagnostics: a client
#: shows cards and text, it does not report replykit's codes).
CLIENT_FIELDS = (
    "kind",
    "start",
    "end",
    "text",
    "encoding",
    "name",
    "registered",
    "valid",
    "id",
    "questionnaire",
    "response",
)


def replykit_answer(request: Request, compat: Compat | None = None) -> Response:
    """replykit's response (without ``id``) to one request of a plain run's ops
    (``segment``, ``questionnaire_async``, ``sanitize_actions``), ``{"unsupported":
    true}`` to any other op (``stream`` among them); ``compat`` turns on the §9
    switches (docs/protocol.md §9) a fault borrows."""
    op = request["op"]
    if op == "segment":
        profile = profile_from_string(request.get("profile", "client"))
        mid = request.get("message_id", "message")
        return segment(request["text"], message_id=mid, profile=profile, compat=compat).to_json()
    if op == "questionnaire_async":
        return {"result": call_questionnaire_async(request["arguments"], locale="en")}
    if op != "sanitize_actions":
        # The mutants model a client's splitter, not a streaming reader (the streaming
        # faults are tests/fuzz/stream_fault_adapter.py's): other ops are unsupported.
        return {"unsupported": True}
    answer = request["answer"]
    kept = ActionSet() if isinstance(answer, str) else sanitize(answer)
    return {
        "result": {
            "actions": [a.to_json() for a in kept.actions],
            "diagnostics": [d.to_json() for d in kept.diagnostics],
        }
    }


def client_view(response: Response) -> Response:
    """A segment response as a client reports it: segments with :data:`CLIENT_FIELDS`
    only, no diagnostics. Other responses unchanged."""
    if "segments" not in response:
        return response
    segments = [{k: s[k] for k in CLIENT_FIELDS if k in s} for s in response["segments"]]
    return {"segments": segments}


def only(op: str, layer: Layer) -> Layer:
    """``layer`` for requests of ``op``; other requests pass through untouched."""

    def wrapped(request: Request, inner: Answer) -> Response:
        return layer(request, inner) if request["op"] == op else inner(request)

    return wrapped


# ---------------------------------------------------------------- text edits


def edit_map(text: str, edits: Iterable[tuple[int, int, str]]) -> tuple[str, Callable[[int], int]]:
    """Apply ``edits`` (``(start, end, replacement)``, non-overlapping) to ``text``.

    Returns the new text and the map from its offsets to ``text``'s: an offset outside
    every replacement shifts with the edits before it; one inside a replacement maps
    to the same place in the replaced text, clipped to its end (an insertion maps to
    its place, a deletion's place to the start of what it deleted).
    """
    out: list[str] = []
    table: list[tuple[int, int, int, int]] = []  # new start, new end, old start, old end
    pos = shift = 0
    for start, end, new in sorted(edits):
        if start < pos:
            continue  # overlapping: the earlier edit wins
        out.append(text[pos:start])
        table.append((start + shift, start + shift + len(new), start, end))
        out.append(new)
        shift += len(new) - (end - start)
        pos = end
    out.append(text[pos:])
    starts = [row[0] for row in table]

    def to_old(offset: int) -> int:
        i = bisect.bisect_right(starts, offset) - 1
        if i < 0:
            return offset
        new_start, new_end, old_start, old_end = table[i]
        if offset < new_end or offset == new_start:
            return old_start + min(offset - new_start, old_end - old_start)
        return old_end + (offset - new_end)

    return "".join(out), to_old


def _map_diagnostics(items: Sequence[dict[str, Any]], to_old: Callable[[int], int]) -> list[Any]:
    out = []
    for d in items:
        d = dict(d)
        for key in ("start", "end"):
            if isinstance(d.get(key), int):
                d[key] = to_old(d[key])
        out.append(d)
    return out


def tidy(response: Response, text: str, message_id: str) -> Response:
    """Make a segment response well formed for ``text``: no empty Markdown segment, no
    two Markdown segments in a row, every ``text`` a slice of ``text``, block ids
    numbered again in order (docs/protocol.md §2 and §6)."""
    segments: list[dict[str, Any]] = []
    ordinal = 0
    for seg in response["segments"]:
        if seg["kind"] == "markdown":
            if seg["end"] <= seg["start"]:
                continue
            if segments and segments[-1]["kind"] == "markdown":
                segments[-1] = {**segments[-1], "end": seg["end"]}
                continue
            segments.append(dict(seg))
            continue
        ordinal += 1
        segments.append({**seg, "id": f"{message_id}_q{ordinal}"})
    for seg in segments:
        seg["text"] = text[seg["start"] : seg["end"]]
    return {**response, "segments": segments}


def remap(response: Response, text: str, to_old: Callable[[int], int], mid: str) -> Response:
    """A segment response for an edited text, moved back onto ``text``."""
    segments = []
    for seg in response["segments"]:
        seg = {**seg, "start": to_old(seg["start"]), "end": to_old(seg["end"])}
        if "diagnostics" in seg:
            seg["diagnostics"] = _map_diagnostics(seg["diagnostics"], to_old)
        segments.append(seg)
    diagnostics = _map_diagnostics(response.get("diagnostics", []), to_old)
    return tidy({"segments": segments, "diagnostics": diagnostics}, text, mid)


def with_edits(request: Request, inner: Answer, edits: list[tuple[int, int, str]]) -> Response:
    """Answer ``request`` as ``inner`` answers its text with ``edits`` applied, offsets
    and texts moved back onto the original text."""
    if not edits:
        return inner(request)
    text = request["text"]
    new_text, to_old = edit_map(text, edits)
    response = inner({**request, "text": new_text})
    return remap(response, text, to_old, request.get("message_id", "message"))


def demote(
    request: Request, response: Response, drop: Callable[[dict[str, Any]], bool]
) -> Response:
    """``response`` with every block for which ``drop`` is true read as Markdown (the
    client shows it as text) and the later blocks numbered again."""
    segments = [
        {"kind": "markdown", "start": s["start"], "end": s["end"]}
        if s["kind"] != "markdown" and drop(s)
        else s
        for s in response["segments"]
    ]
    if segments == response["segments"]:
        return response
    new = {**response, "segments": segments}
    return tidy(new, request["text"], request.get("message_id", "message"))


def codes(seg: dict[str, Any], severity: str = "error") -> set[str]:
    """The codes of a block's diagnostics of ``severity``."""
    return {d["code"] for d in seg.get("diagnostics", []) if d.get("severity") == severity}


def blocks(response: Response, encoding: str) -> list[dict[str, Any]]:
    """The blocks of a segment response with ``encoding`` (``fenced_yaml``/``xml_json``)."""
    return [s for s in response["segments"] if s.get("encoding") == encoding]


def line_start(text: str, offset: int) -> int:
    """The offset of the start of the line holding ``offset`` (``\\n``, ``\\r\\n`` and a
    lone ``\\r`` end lines, docs/protocol.md §1.1)."""
    return max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1
