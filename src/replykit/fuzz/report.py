"""Writing a fuzz report: ``report.json`` for machines, ``report.txt`` for people.

``report.json``::

    {"classes": [{"rule", "op", "input", "expected", "actual", "count",
                  "key", "role", "kinds", "code", "features", "inputs",
                  "field", "expected_response", "actual_response",
                  "found_after_examples", "found_after_seconds", "detail"}],
     "accepted": [{"key", "count", "input"}],
     "examples_run", "seconds", "rate", "seed", "ops", "profiles", "impl",
     "unsupported_ops", "unsupported_profiles", "adapter_starts", "stopped"}

The first six class keys and ``examples_run``/``seconds`` are the report's required
fields (docs/fuzzing.md, "The report"); the others are additions. Offsets in inputs
and responses are code points. Both files are inert (§1): every invisible, format or
control character is written as an escape (in ``report.json`` a JSON ``\\uXXXX``
escape, so the JSON value is unchanged).
"""

from __future__ import annotations

import os
import shlex
from typing import Any

from replykit.dirs import make_directory
from replykit.fuzz.classify import NONE
from replykit.fuzz.runner import FuzzClass, FuzzReport
from replykit.jsonout import dumps, portable
from replykit.textout import escape, os_name, render


def class_json(found: FuzzClass) -> dict[str, Any]:
    """One class as its ``report.json`` object (keys in the documented order)."""
    key = found.key
    return {
        "rule": found.rule,
        "op": found.op,
        "input": found.input,
        "expected": found.expected,
        "actual": found.actual,
        "count": found.count,
        "key": found.key_text,
        "role": key.role if key is not None else NONE,
        "kinds": key.kinds if key is not None else NONE,
        "code": key.code if key is not None else NONE,
        "features": list(found.key_features),
        "inputs": list(found.inputs or (found.input,)),
        "field": found.field,
        "expected_response": found.expected_response,
        "actual_response": found.actual_response,
        "found_after_examples": found.found_after_examples,
        "found_after_seconds": found.found_after_seconds,
        "detail": found.detail,
    }


def report_json(report: FuzzReport) -> dict[str, Any]:
    """The whole ``report.json`` object."""
    return {
        "classes": [class_json(c) for c in report.classes],
        "accepted": [
            {"key": c.key_text, "count": c.count, "input": c.input} for c in report.accepted
        ],
        "examples_run": report.examples_run,
        "seconds": report.seconds,
        "rate": round(report.rate, 1),
        "seed": report.seed,
        "ops": list(report.ops),
        "profiles": list(report.profiles),
        "impl": os_name(shlex.join(report.command)),
        "unsupported_ops": list(report.unsupported_ops),
        "unsupported_profiles": list(report.unsupported_profiles),
        "adapter_starts": report.adapter_starts,
        "stopped": report.stopped,
    }


def inert_json(value: Any) -> str:
    """``value`` as indented JSON with every character :func:`~replykit.textout.escape`
    rewrites written as a JSON escape (§1). Its lines are those of the indented JSON
    (JSON strings hold no raw line break), so escaping line by line touches only the
    inside of strings, and the value read back is the same."""
    return "\n".join(escape(line) for line in dumps(value, indent=2).split("\n"))


def _show(value: Any) -> str:
    return dumps(portable(value))


def _segments_line(response: Any) -> str:
    if not isinstance(response, dict) or not isinstance(response.get("segments"), list):
        return _show(response)
    parts = []
    for seg in response["segments"]:
        if not isinstance(seg, dict):
            parts.append(_show(seg))
            continue
        extra = ""
        if seg.get("kind") != "markdown":
            flags = [f"{k}={_show(seg[k])}" for k in ("name", "valid") if k in seg]
            extra = (" " + " ".join(flags)) if flags else ""
        parts.append(f"{seg.get('kind')}[{seg.get('start')}:{seg.get('end')}]{extra}")
    return ", ".join(parts) or "(no segments)"


def report_text(report: FuzzReport) -> str:
    """The readable ``report.txt``: a summary line, then one section per class with
    the rule, the op, the minimal input (as a JSON string), the first differing field
    and both values. Every line is escaped (:func:`~replykit.textout.render`, §1), so
    invisible, bidi and control characters show as ``\\uXXXX`` and nothing an input or
    an adapter wrote can add a line."""
    out = _header_lines(report)
    if not report.classes:
        out.append("no disagreement and no adapter failure found")
    else:
        out.append(f"{len(report.classes)} class(es):")
    for n, found in enumerate(report.classes, start=1):
        out.extend(_class_lines(n, found))
    return render(out)


def _header_lines(report: FuzzReport) -> list[str]:
    """The report's first lines: adapter, ops, budget, profiles, what was left out."""
    out = [
        f"replykit fuzz against: {os_name(shlex.join(report.command))}",
        f"ops: {', '.join(report.ops)}; seed {report.seed}; {report.examples_run} examples in "
        f"{report.seconds:.1f} s ({report.rate:.1f}/s); adapter started {report.adapter_starts}"
        " time(s)",
    ]
    if report.profiles:
        out.append(f"profiles drawn: {', '.join(report.profiles)}")
    if report.unsupported_ops:
        out.append(f"not supported by the adapter: {', '.join(report.unsupported_ops)}")
    if report.unsupported_profiles:
        out.append(
            f"profiles not supported by the adapter: {', '.join(report.unsupported_profiles)}"
        )
    if report.stopped:
        out.append(f"stopped early: {report.stopped}")
    if report.accepted:
        count = sum(c.count for c in report.accepted)
        out.append(
            f"accepted (--accept), not shown: {len(report.accepted)} class(es), {count} example(s)"
        )
    return out


def _class_lines(n: int, found: FuzzClass) -> list[str]:
    """One class's section: key, when found, its minimal inputs, the difference."""
    out = [""]
    kind = "adapter failure" if found.is_failure else "disagreement"
    out.append(f"[{n}] {found.op} · {found.rule} · {kind} · {found.count} example(s)")
    out.append(f"    key: {found.key_text}")
    out.append(
        f"    found after {found.found_after_examples} examples, {found.found_after_seconds:.2f} s"
    )
    inputs = list(found.inputs or (found.input,))
    for i, body in enumerate(inputs, start=1):
        label = "input" if len(inputs) == 1 else f"input {i}"
        if found.op == "segment":
            out.append(f"    {label} text: {_show(body.get('text'))}")
            out.append(
                f"    {' ' * len(label)} profile {body.get('profile')}, "
                f"message_id {_show(body.get('message_id'))}"
            )
        else:
            out.append(f"    {label}: {_show(body)}")
    if found.is_failure:
        out.append(f"    {found.detail}")
        return out
    out.append(f"    first differing field: {found.field or '/'}")
    out.append(f"    replykit: {_show(found.expected)}")
    out.append(f"    adapter:  {_show(found.actual)}")
    if found.detail:
        out.append(f"    {found.detail}")
    if found.op == "segment":
        out.append(f"    replykit segments: {_segments_line(found.expected_response)}")
        out.append(f"    adapter segments:  {_segments_line(found.actual_response)}")
    return out


def write_report(report: FuzzReport, directory: str) -> tuple[str, str]:
    """Write ``report.json`` and ``report.txt`` (UTF-8) into ``directory``, creating
    it. Output: the two paths. Raises ``OSError`` when the directory cannot be written."""
    make_directory(directory)
    json_path = os.path.join(directory, "report.json")
    text_path = os.path.join(directory, "report.txt")
    with open(json_path, "w", encoding="utf-8") as handle:
        handle.write(inert_json(report_json(report)) + "\n")
    with open(text_path, "w", encoding="utf-8") as handle:
        handle.write(report_text(report))
    return json_path, text_path
