"""The tables the docs take from the registry: the code table of ``docs/protocol.md`` (appendix A)
and the rule tags of ``docs/fuzzing.md``.

``python -m replykit.codes.tables [--check] [ROOT]`` rewrites (or, with ``--check``,
only compares) each table between its begin and end markers (:data:`TABLES`) in the
docs under ``ROOT`` (default: the current directory); the test suite runs the
comparison, so the committed tables are always the registry's. The code tables of
``docs/protocol-responses.md`` and ``docs/actions.md`` carry more columns (the path,
the effect) and are compared with the registry row by row instead (tests/test_codes.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from replykit.codes import CODES, RULES
from replykit.codes._core import Code

_NOTE: Final = "generated from replykit.codes by `python -m replykit.codes.tables`; edit "
BEGIN: Final = f"<!-- codes:begin — {_NOTE}the registry, not this table -->"
END: Final = "<!-- codes:end -->"
RULES_BEGIN: Final = f"<!-- rules:begin — {_NOTE}replykit.codes.rules, not this table -->"
RULES_END: Final = "<!-- rules:end -->"
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


def rules_table() -> str:
    """The Markdown table of every rule tag: tag, what it is about, where it is stated
    (:attr:`~replykit.codes.Rule.where`: ``docs/protocol.md §4.3``), the codes that
    carry it."""
    head = "| Tag | Rule | Stated in | Codes |\n| --- | --- | --- | --- |"
    rows = []
    for rule in RULES.values():
        codes = ", ".join(f"`{c.name}`" for c in CODES.values() if c.rule is rule)
        rows.append(f"| `{rule.tag}` | {_cell(rule.title)} | {rule.where} | {codes} |")
    return "\n".join([head, *rows])


def _replace(text: str, begin: str, end_marker: str, body: str, doc: str) -> str:
    start = text.find(begin)
    end = text.find(end_marker, start)
    if start < 0 or end < 0:
        raise ValueError(f"{doc} lacks the markers {begin!r} ... {end_marker!r}")
    return text[: start + len(begin)] + "\n" + body + "\n" + text[end:]


def rendered(text: str) -> str:
    """``text`` (``docs/protocol.md``) with the part between :data:`BEGIN` and
    :data:`END` replaced by :func:`table`. Raises ``ValueError`` when a marker is
    missing."""
    return _replace(text, BEGIN, END, table(), DOC)


def rules_rendered(text: str) -> str:
    """``text`` (``docs/fuzzing.md``) with the part between :data:`RULES_BEGIN` and
    :data:`RULES_END` replaced by :func:`rules_table`. Raises ``ValueError`` when a
    marker is missing."""
    return _replace(text, RULES_BEGIN, RULES_END, rules_table(), "docs/fuzzing.md")


#: Each generated docs file and the function that renders it.
TABLES: Final = (("docs/protocol.md", rendered), ("docs/fuzzing.md", rules_rendered))


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite (or ``--check``) the generated tables of the docs under ``ROOT``. Exit
    status: 0 up to date or rewritten, 1 out of date under ``--check``, 2 a file or its
    markers missing."""
    parser = argparse.ArgumentParser(prog="python -m replykit.codes.tables")
    parser.add_argument("root", nargs="?", default=".", help="the repository (default: .)")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if stale")
    args = parser.parse_args(argv)
    stale = []
    for doc, render in TABLES:
        path = Path(args.root) / doc
        try:
            text = path.read_text(encoding="utf-8")
            new = render(text)
        except (OSError, ValueError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        if new != text:
            stale.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    if stale and args.check:
        names = ", ".join(str(p) for p in stale)
        print(f"out of date: {names}; run python -m replykit.codes.tables", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
