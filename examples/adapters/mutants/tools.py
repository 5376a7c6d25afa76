"""Faults of a client's ``questionnaire_async`` tool and answer-actions sanitizer
(docs/protocol-responses.md section 2, docs/actions.md sections 2-4).

Layers (see ``base.py``) for the ``questionnaire_async`` and ``sanitize_actions`` ops.
Each hides one check from replykit by renaming what it would catch, or puts back what
replykit removed.
"""

from __future__ import annotations

import re
from typing import Any

from replykit.actions import locate_actions
from replykit.text import is_blank

from .base import Answer, Request, Response

_FAKE = "mutant-{}"


def _fresh(taken: set[str], n: int) -> str:
    name = _FAKE.format(n)
    while name in taken:
        name += "_"
    taken.add(name)
    return name


# Family: the tool skips one §7 check, ``question_id_duplicate``. The client keys
# questions by id in a list and never checks that ids are unique.
def tool_duplicate_ids(request: Request, inner: Answer) -> Response:
    args = request["arguments"]
    if not isinstance(args, dict) or not isinstance(args.get("questions"), list):
        return inner(request)
    questions = list(args["questions"])
    ids = [q.get("id") if isinstance(q, dict) else None for q in questions]
    taken = {i for i in ids if isinstance(i, str)}
    seen: set[str] = set()
    hidden: dict[int, str] = {}
    for n, (q, given) in enumerate(zip(questions, ids, strict=True)):
        if not isinstance(q, dict) or not (given is None or isinstance(given, str)):
            continue
        qid = given if isinstance(given, str) and not is_blank(given) else f"q{n + 1}"
        if qid in seen:
            hidden[n] = qid
            questions[n] = {**q, "id": _fresh(taken, n + 1)}
        seen.add(qid)
    if not hidden:
        return inner(request)
    response = inner({**request, "arguments": {**args, "questions": questions}})
    result = response["result"]
    if result.get("success"):
        shown = [dict(q) for q in result["questions"]]
        for n, qid in hidden.items():
            shown[n]["id"] = qid
        response = {**response, "result": {**result, "questions": shown}}
    return response


def _raw_actions(answer: Any) -> list[Any] | None:
    found = None if isinstance(answer, str) else locate_actions(answer)
    return found[1] if found is not None and isinstance(found[1], list) else None


def _with_actions(answer: dict[str, Any], actions: list[Any]) -> dict[str, Any]:
    """``answer`` with the list :func:`locate_actions` reads replaced by ``actions``."""
    if "answerData" in answer or "payload" in answer:
        data = answer.get("answerData")
        key = "answerData" if isinstance(data, dict) and "actions" in data else "payload"
        return {**answer, key: {**answer[key], "actions": actions}}
    return {**answer, "actions": actions}


_DROPS = frozenset(
    {
        "action.not_object",
        "action.type_unknown",
        "action.id_invalid",
        "action.id_reserved",
        "action.id_duplicate",
        "action.label_invalid",
        "action.prompt_required",
        "action.chart_type_invalid",
        "action.over_limit",
    }
)
_AT = re.compile(r"actions\[(\d+)\](.*)")


def _kept_positions(raw: list[Any], diagnostics: list[dict[str, Any]]) -> list[int]:
    """The positions in ``raw`` of the kept actions: those no drop rule reported
    (docs/actions.md section 2)."""
    dropped = set()
    for d in diagnostics:
        m = _AT.fullmatch(d.get("path") or "")
        if m is None:
            continue
        n, rest = int(m.group(1)) - 1, m.group(2)
        modify = isinstance(raw[n], dict) and raw[n].get("type") == "conversation.modify"
        unsafe_drop = rest in (".id", ".label") or (rest == ".params.prompt" and not modify)
        if d["code"] in _DROPS or (d["code"] == "action.text_unsafe" and unsafe_drop):
            dropped.add(n)
    return [n for n in range(len(raw)) if n not in dropped]


# Family: the sanitizer keeps a ``url`` (docs/actions.md section 3: every other key of
# an action is removed). The client's whitelist has ``url`` for link buttons.
def sanitizer_keeps_url(request: Request, inner: Answer) -> Response:
    response = inner(request)
    raw = _raw_actions(request["answer"])
    if raw is None or not any(isinstance(a, dict) and "url" in a for a in raw):
        return response
    result = response["result"]
    kept = _kept_positions(raw, result["diagnostics"])
    if len(kept) != len(result["actions"]):
        return response  # the diagnostics cap hid a drop: leave replykit's answer
    actions = [
        {**action, "url": raw[n]["url"]} if "url" in raw[n] else action
        for n, action in zip(kept, result["actions"], strict=True)
    ]
    urls = {f"actions[{n + 1}].url" for n in kept}
    diagnostics = [
        d
        for d in result["diagnostics"]
        if not (d["code"] == "action.field_removed" and d.get("path") in urls)
    ]
    return {**response, "result": {"actions": actions, "diagnostics": diagnostics}}


# Family: the sanitizer keeps a duplicate id (docs/actions.md section 2, rule 6). The
# client renders every action; two buttons may share an id.
def sanitizer_keeps_duplicate_id(request: Request, inner: Answer) -> Response:
    answer = request["answer"]
    raw = _raw_actions(answer)
    if raw is None:
        return inner(request)
    ids = [a.get("id") if isinstance(a, dict) else None for a in raw]
    taken = {i for i in ids if isinstance(i, str)}
    seen: set[str] = set()
    hidden: dict[str, str] = {}
    actions = list(raw)
    for n, given in enumerate(ids):
        if isinstance(given, str):
            if given in seen:
                fake = _fresh(taken, n + 1)
                hidden[fake] = given
                actions[n] = {**raw[n], "id": fake}
            seen.add(given)
    if not hidden:
        return inner(request)
    response = inner({**request, "answer": _with_actions(answer, actions)})
    result = response["result"]
    shown = [{**a, "id": hidden.get(a["id"], a["id"])} for a in result["actions"]]
    return {**response, "result": {**result, "actions": shown}}


def _utf16_length(s: str) -> int:
    return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF)


# Family: the sanitizer counts labels in UTF-16 units (docs/actions.md section 2: at
# most 32 characters, code points). The client checks ``label.length <= 32``.
def sanitizer_utf16_labels(request: Request, inner: Answer) -> Response:
    answer = request["answer"]
    raw = _raw_actions(answer)
    if raw is None:
        return inner(request)
    actions = [
        {**a, "label": "x" * 33}
        if isinstance(a, dict)
        and isinstance(a.get("label"), str)
        and len(a["label"]) <= 32 < _utf16_length(a["label"])
        else a
        for a in raw
    ]
    if actions == raw:
        return inner(request)
    return inner({**request, "answer": _with_actions(answer, actions)})
