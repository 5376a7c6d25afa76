"""``replykit vectors export DIR``: the conformance suite as language-neutral JSON.

Written files:

- ``segment.json``: the hand-checked vectors of the test suite (shipped as package
  data ``replykit/data/vectors/segment.json``, a copy of ``tests/vectors/segment.json``);
- ``segment_generated.json``, ``questionnaire_async.json``, ``sanitize_actions.json``:
  the explicit fuzz examples of :mod:`replykit.fuzz.examples`, each with replykit's
  answer computed at export time and its rule tag;
- ``stream.json``: streaming cases (§10): chunks, after each what must not be committed
  yet, and the final result (:mod:`replykit.fuzz.stream_vectors`);
- ``README.md``: how to compare, and a table of every field of every file (package
  data ``replykit/data/vectors/README.md``; docs/fuzzing.md has the same rules).
"""

from __future__ import annotations

import json
import os
from importlib import resources
from typing import Any

from replykit.dirs import make_directory
from replykit.fuzz.examples import Example, explicit_examples
from replykit.fuzz.ops import Op
from replykit.fuzz.reference import reference
from replykit.fuzz.stream_vectors import stream_suite
from replykit.jsonout import dumps

VECTOR_FORMAT = 1


def _shipped(name: str) -> str:
    return resources.files("replykit").joinpath("data", "vectors", name).read_text("utf-8")


def shipped_segment_vectors() -> str:
    """The text of the packaged ``segment.json`` (UTF-8 JSON, ``{"format", "cases"}``).
    Raises ``OSError`` when the package data is missing (a broken install)."""
    return _shipped("segment.json")


def shipped_readme() -> str:
    """The exported ``README.md`` (package data ``replykit/data/vectors/README.md``): the
    comparison rules and every field of every file :func:`export` writes. Raises
    ``OSError`` when the package data is missing."""
    return _shipped("README.md")


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


def export(directory: str) -> list[str]:
    """Write the suite into ``directory`` (created if needed; existing files of the
    same names are replaced). Output: the written paths, in order. Raises ``OSError``
    when a file cannot be written or the package data is missing."""
    make_directory(directory)
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
    segment_cases = json.loads(shipped_segment_vectors())["cases"]
    put("stream.json", dumps(stream_suite(segment_cases), indent=1) + "\n")
    put("README.md", shipped_readme())
    return written
