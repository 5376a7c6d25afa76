"""Diagnostics as data (PROTOCOL-DECISIONS §2): every problem is reported, none raised.

Payload readers work on a payload string and report :class:`Finding` objects with
offsets relative to that payload and a structural path; the segmenter maps them to
message offsets and 1-based line/column and returns :class:`Diagnostic` objects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import attrs

from replykit.argcheck import typed

Severity = Literal["error", "warning"]
PathPart = str | int
Path = tuple[PathPart, ...]


@typed
def format_path(path: Path | None) -> str | None:
    """Render a structural path the way the seed writes it, 1-based: ``questions[2].default``.

    Integer parts are 0-based list indices and are shown plus one; ``()`` and ``None``
    give ``None`` (a diagnostic not about a place inside the payload).
    Raises ``TypeError`` naming the argument when an argument has the wrong type.
    """
    if not path:
        return None
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part + 1}]")
        else:
            out.append(f".{part}" if out else part)
    return "".join(out)


@typed
@attrs.frozen
class Finding:
    """A problem found inside one payload, before it is placed in the message.

    ``start``/``end`` are code-point offsets into the payload string, or ``None`` when
    the reader only knows the ``path`` (the segmenter then uses the span of the value
    at that path, else the whole payload). ``details`` holds machine-readable
    parameters (``expected``, ``actual``, ``value``, ``allowed`` ...).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    code: str
    message: str
    path: Path = ()
    severity: Severity = "error"
    start: int | None = None
    end: int | None = None
    details: Mapping[str, Any] = attrs.field(factory=dict)


@typed
@attrs.frozen
class Diagnostic:
    """One problem in a message (§2).

    ``start``/``end``: code-point offsets into the message; ``line``/``column``:
    1-based position of ``start`` (column in code points); ``path``: place inside the
    payload, 1-based as in the seed (``questions[2].default``), or ``None``.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    code: str
    severity: Severity
    message: str
    start: int
    end: int
    line: int
    column: int
    path: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The CLI/JSON shape: ``code, severity, message, start, end, line, column, path``."""
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "column": self.column,
            "path": self.path,
        }
