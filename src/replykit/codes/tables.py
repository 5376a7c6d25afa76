"""The code table of ``docs/protocol.md``, rendered from the registry.

``python -m replykit.codes.tables [--check] [ROOT]`` rewrites (or, with ``--check``,
only compares) the table between the markers :data:`BEGIN` and :data:`END` in
``ROOT/docs/protocol.md`` (``ROOT`` defaults to the current directory); the test suite
runs the comparison, so the committed table is always the registry's. The tables of
``docs/protocol-responses.md`` and ``docs/actions.md`` carry more columns (the path, the
effect) and are compared with the registry row by row instead (tests/test_codes.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from replykit.codes import CODES
from replykit.codes._core import Code

BEGIN: Final = (
    "<!-- codes:begin — generated from replykit.codes by "
    "`python -m replykit.codes.tables`; edit the registry, not this table -->"
)
END: Final = "<!-- codes:end -->"
DOC: Final = "docs/protocol.md"

_SEVERITY: Final = {"error": "E", "warning": "W"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _row(code: Code) -> str:
    severity = _SEVERITY[code.severity] if code.severity else ""
    cells = (f"`{code.name}`", severity, code.rule.tag, _cell(code.meaning), _cell(code.example))
    return "| " + " | ".join(cells) + " |"


def table() -> str:
    """The Markdown table of every code listed in ``docs/protocol.md``: code, severity
    (``E``/``W``), rule tag, meaning, example; in registry order."""
    rows = [_row(c) for c in CODES.values() if c.doc == "protocol"]
    head = "| Code | Sev | Rule | Meaning | Example |\n| --- | --- | --- | --- | --- |"
    return "\n".join([head, *rows])


def rendered(text: str) -> str:
    """``text`` (the docs file) with the part between :data:`BEGIN` and :data:`END`
    replaced by :func:`table`. Raises ``ValueError`` when a marker is missing."""
    start = text.find(BEGIN)
    end = text.find(END, start)
    if start < 0 or end < 0:
        raise ValueError(f"{DOC} lacks the markers {BEGIN!r} ... {END!r}")
    return text[: start + len(BEGIN)] + "\n" + table() + "\n" + text[end:]


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite (or ``--check``) the code table of ``ROOT/docs/protocol.md``. Exit status:
    0 up to date or rewritten, 1 out of date under ``--check``, 2 no such file or
    markers."""
    parser = argparse.ArgumentParser(prog="python -m replykit.codes.tables")
    parser.add_argument("root", nargs="?", default=".", help="the repository (default: .)")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if stale")
    args = parser.parse_args(argv)
    path = Path(args.root) / DOC
    try:
        text = path.read_text(encoding="utf-8")
        new = rendered(text)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if new == text:
        return 0
    if args.check:
        print(f"{path} is out of date: run python -m replykit.codes.tables", file=sys.stderr)
        return 1
    path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
