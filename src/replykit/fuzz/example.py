"""The type of the fuzzer's hand-written examples (docs/fuzzing.md), and reading
examples of one's own from a file (``replykit fuzz --explicit FILE``).

Plain data with no dependency on Hypothesis.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from replykit.fuzz.ops import ALL_OPS, Op
from replykit.fuzz.request_check import request_problem
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.text import LineIndex


@attrs.frozen
class Example:
    """A hand-written input the fuzzer always runs before generated ones, so every
    family of edge cases is tried whatever Hypothesis version draws the rest.

    ``op``: the operation; ``rule``: the rule it exercises, a tag of
    :mod:`replykit.codes.rules` (``§3a closer``);
    ``name``: a stable identifier; ``request``: the request body (without
    ``id``/``op``), as :func:`replykit.fuzz.generate.requests` draws it;
    ``family``: the fault family it probes, a name of :mod:`replykit.fuzz.families`
    (``html-entities``), or ``""``.

    It holds JSON values as sent to the adapter (plain ``dict`` and ``list``), so it does not hash.
    """

    op: Op
    rule: str
    name: str
    request: dict[str, Any]
    family: str = ""


def _vector_entry(case: Any) -> Any:
    """One case of a file ``replykit vectors export`` writes as an ``{"op", "input"}``
    entry: a generated case as it is, a ``segment.json`` case (``input`` is the
    message text) as a ``segment`` request, a ``stream.json`` case as a ``stream``
    request; anything else unchanged (and refused as an entry)."""
    if not isinstance(case, Mapping) or "op" in case:
        return case
    common = {"message_id": case.get("message_id", "m"), "profile": case.get("profile")}
    common = {k: v for k, v in common.items() if v is not None}
    named = {"rule": case.get("rule", ""), "name": case.get("id", "")}
    if isinstance(case.get("input"), str):
        return {"op": "segment", "input": {"text": case["input"], **common}, **named}
    if isinstance(case.get("chunks"), list):
        return {"op": "stream", "input": {"chunks": case["chunks"], **common}, **named}
    return case


def parse_examples(text: str) -> tuple[Example, ...]:
    """The examples of an ``--explicit`` file (docs/fuzzing.md, "Running"): JSON text,
    a list of ``{"op": OP, "input": {...}}`` objects (the request bodies, without
    ``id``; an optional ``"rule"`` tag and ``"name"``), a ``report.json`` of an
    earlier run, whose classes give their minimal ``inputs``, or a file that
    ``replykit vectors export`` writes (``{"format", "cases"}``: every case is run as
    the request it describes, named by its ``id``); read as strict JSON (§1.3). Raises
    ``ValueError`` for other text, naming the line and column or the entry (1-based),
    and for an entry whose input is malformed, naming the entry and the field
    (:func:`replykit.fuzz.request_check.request_problem`)."""
    read = read_json_value(text)
    if read.findings:
        first = min(read.findings, key=lambda f: f.start or 0)
        line, column = LineIndex(text).line_col(first.start or 0)
        message = first.message.removeprefix("JSON syntax error: ")
        raise ValueError(f"not strict JSON at line {line}, column {column}: {message}")
    data = read.value
    if isinstance(data, Mapping) and isinstance(data.get("classes"), list):
        data = [
            {"op": c.get("op"), "input": body}
            for c in data["classes"]
            if isinstance(c, Mapping)
            for body in c.get("inputs") or [c.get("input")]
        ]
    elif isinstance(data, Mapping) and isinstance(data.get("cases"), list):
        data = [_vector_entry(case) for case in data["cases"]]
    if not isinstance(data, list):
        raise ValueError(
            'expected a list of {"op": ..., "input": {...}}, a report.json or a file '
            "replykit vectors export writes"
        )
    found: list[Example] = []
    for n, entry in enumerate(data, start=1):
        op = entry.get("op") if isinstance(entry, Mapping) else None
        body = entry.get("input") if isinstance(entry, Mapping) else None
        known = [o for o in ALL_OPS if o == op]
        if not known or not isinstance(body, Mapping):
            raise ValueError(
                f'entry {n}: expected {{"op": one of {", ".join(ALL_OPS)}, "input": {{...}}}}'
            )
        problem = request_problem(known[0], body)
        if problem is not None:
            raise ValueError(f"entry {n} ({known[0]}): input.{problem}")
        rule, name = entry.get("rule", ""), entry.get("name") or entry.get("id") or f"entry-{n}"
        found.append(Example(known[0], str(rule), str(name), dict(body)))
    return tuple(found)


def load_examples(path: str) -> tuple[Example, ...]:
    """:func:`parse_examples` of the UTF-8 file at ``path`` (a leading byte order mark
    is ignored). Raises ``OSError`` when it
    cannot be read and ``ValueError`` when it is not UTF-8 or of another shape."""
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        return parse_examples(raw.decode("utf-8").removeprefix("\ufeff"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 (byte {exc.start})") from None


__all__ = ["Example", "load_examples", "parse_examples"]
