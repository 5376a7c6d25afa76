"""``replykit vectors export DIR``: the conformance suite as language-neutral JSON.

Written files:

- ``segment.json``: the hand-checked vectors of the test suite (shipped as package
  data ``replykit/data/vectors/segment.json``, a copy of ``tests/vectors/segment.json``);
- ``segment_generated.json``, ``questionnaire_async.json``, ``sanitize_actions.json``:
  the explicit fuzz examples of :mod:`replykit.strategies`, each with replykit's
  answer computed at export time and its rule tag;
- ``README.md``: the format and how to compare (docs/fuzzing.md has the same rules).
"""

from __future__ import annotations

import os
from importlib import resources
from typing import Any

from replykit.fuzz.reference import reference
from replykit.jsonout import dumps
from replykit.strategies import Example, Op, explicit_examples

VECTOR_FORMAT = 1


def shipped_segment_vectors() -> str:
    """The text of the packaged ``segment.json`` (UTF-8 JSON, ``{"format", "cases"}``).
    Raises ``OSError`` when the package data is missing (a broken install)."""
    return (
        resources.files("replykit")
        .joinpath("data", "vectors", "segment.json")
        .read_text(encoding="utf-8")
    )


def generated_case(example: Example) -> dict[str, Any]:
    """One generated case: ``{"id", "rule", "op", "input", "expected"}`` where
    ``input`` is the request body (as in the adapter protocol, without ``id``/``op``)
    and ``expected`` is replykit's response to it."""
    return {
        "id": example.name,
        "rule": example.rule,
        "op": example.op,
        "input": example.request,
        "expected": reference(example.op, example.request),
    }


def generated_suite(op: Op) -> dict[str, Any]:
    """``{"format": 1, "op": op, "cases": [...]}`` for the explicit examples of ``op``."""
    return {
        "format": VECTOR_FORMAT,
        "op": op,
        "cases": [generated_case(e) for e in explicit_examples((op,))],
    }


README = """# replykit conformance vectors

These files let an implementation of the Inline Questionnaire protocol (seed 000)
and of answer actions (seed 004) check itself against replykit, the reference,
without running Python. Every file is UTF-8 JSON. Offsets (`start`, `end`) count
Unicode code points, not UTF-16 units and not bytes: in JavaScript iterate with
`Array.from(text)`, in Swift use `unicodeScalars`, in Kotlin/Java
`codePointCount`/`offsetByCodePoints`.

| File | Operation | Expected answers |
| --- | --- | --- |
| `segment.json` | split a message into segments | hand-checked from the rules |
| `segment_generated.json` | split a message into segments | computed by replykit |
| `questionnaire_async.json` | validate and normalize tool arguments | computed by replykit |
| `sanitize_actions.json` | keep or drop answer actions | computed by replykit |

Every case carries `rule`: the section of replykit's protocol decisions (`§3a`) or
the seed heading (`seed 000 · Inline Questionnaire · 协议边界`) it exercises.

## `segment.json`

`{"format": 1, "cases": [{"id", "rule", "description", "input", "profile",
"message_id", "expected": {"segments", "diagnostics"}}]}`. Call your segmenter with
`input`, `message_id` and `profile` (`client`, `self_check` or `product:NAME`) and
compare:

1. the segments' texts concatenate to `input`; each starts where the previous ended;
   none is empty; no two Markdown segments are adjacent;
2. the same number of segments; per segment `kind`, `start`, `end`, and for blocks
   `encoding`, `name`, `registered`, `valid`, `id`; `questionnaire` / `response` equal
   as JSON values (key order ignored), present exactly when expected;
3. diagnostics as a multiset of `(code, severity, path)`; where an expected entry
   has `start`, an actual one with the same code, severity, path and start.

`message`, `line`, `column`, `end` of diagnostics and segment `text` are not compared.

## Generated files

`{"format": 1, "op": OP, "cases": [{"id", "rule", "op", "input", "expected"}]}`.
`input` is the request body of the fuzzing adapter protocol (docs/fuzzing.md):

- `segment`: `{"text", "message_id", "profile"}`; `expected` is
  `{"segments": [...], "diagnostics": [...]}` with every field replykit produces;
- `questionnaire_async`: `{"arguments"}` (the whole tool-call arguments value);
  `expected` is `{"result": {...}}`, the success object (`success`, `status`,
  `validation_passed`, `title`, `question_count`, `questions`, `should_end`,
  `message`) or the error object (`success`, `status`, `error_code`,
  `validation_passed`, `errors: [{code, path, message, details}]`);
- `sanitize_actions`: `{"answer"}`; `expected` is `{"result": {"actions": [...],
  "diagnostics": [{code, path, message}]}}` (kept actions in order, at most 8; no
  client-added entries).

Compare the way `replykit fuzz` does: only the fields your implementation produces;
never `message` (localized text); a field replykit leaves out counts as `null`;
Markdown segments only on `kind`, `start`, `end`, `text`; `diagnostics` and `errors`
as multisets; every other list in order; `true` is not `1`, `30` equals `30.0`.
"""


def export(directory: str) -> list[str]:
    """Write the suite into ``directory`` (created if needed; existing files of the
    same names are replaced). Output: the written paths, in order. Raises ``OSError``
    when a file cannot be written or the package data is missing."""
    os.makedirs(directory, exist_ok=True)
    written: list[str] = []

    def put(name: str, text: str) -> None:
        path = os.path.join(directory, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        written.append(path)

    put("segment.json", shipped_segment_vectors())
    names: dict[Op, str] = {
        "segment": "segment_generated.json",
        "questionnaire_async": "questionnaire_async.json",
        "sanitize_actions": "sanitize_actions.json",
    }
    for op, name in names.items():
        put(name, dumps(generated_suite(op), indent=1) + "\n")
    put("README.md", README)
    return written
