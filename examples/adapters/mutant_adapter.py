#!/usr/bin/env python3
"""A mutant adapter: replykit behind the fuzzing adapter protocol (docs/fuzzing.md)
with one realistic client fault, or every one of them at once.

Run: ``python examples/adapters/mutant_adapter.py NAME`` (replykit importable), where
NAME is a fault of ``examples/adapters/mutants`` (``--list`` prints them with their
families) or ``combined``. Reads one JSON request per line on stdin and writes one
JSON response per line on stdout until stdin closes; an op of a plain run the mutant
has no fault in is answered as replykit answers it, and any other op (``stream``: the
mutants are splitters, not streaming readers) with ``{"id", "unsupported": true}``.
"""

from __future__ import annotations

import json
import sys

from mutants import COMBINED, FAULTS, mutant

from replykit.jsonout import dumps


def main(argv: list[str]) -> int:
    """Serve requests for the mutant named in ``argv`` until standard input ends."""
    if argv[:1] == ["--list"]:
        for fault in FAULTS:
            print(f"{fault.name}\t{fault.op}\t{fault.family}")
        print(f"{COMBINED}\tall\tevery fault above at once")
        return 0
    if len(argv) != 1:
        print("usage: mutant_adapter.py NAME | --list", file=sys.stderr)
        return 2
    try:
        answer = mutant(argv[0])
    except KeyError:
        print(f"unknown mutant {argv[0]!r}; --list shows the names", file=sys.stderr)
        return 2
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        request = json.loads(line)
        response = {"id": request.get("id"), **answer(request)}
        sys.stdout.write(dumps(response, ascii_only=True) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
