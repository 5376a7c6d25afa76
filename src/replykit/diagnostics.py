"""Diagnostics as data (§2): every problem is reported, none raised.

Payload readers work on a payload string and report :class:`Finding` objects with
offsets relative to that payload and a structural path; the segmenter maps them to
message offsets and 1-based line/column and returns :class:`Diagnostic` objects.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final, Literal

import attrs

from replykit.argcheck import typed
from replykit.frozen import FrozenDict, freeze_mapping
from replykit.jsonout import dumps

Severity = Literal["error", "warning"]
PathPart = str | int
Path = tuple[PathPart, ...]

#: A key written plainly in a path (docs/protocol.md §2): an identifier-like name.
_PLAIN_KEY: Final = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def join_key(base: str, key: str) -> str:
    r"""``base`` (a path, ``""`` at the root) followed by the key ``key`` (§2 paths):
    ``.key`` for an identifier-like name (``[A-Za-z_$][A-Za-z0-9_$]*``), else ``key`` as a
    JSON string in brackets, ``["a.b"]``, ``[""]``, ``["c[2]"]``, ``["é"]``, ``["\ud800"]``
    (JSON escaping: a newline as ``\n``, a lone surrogate as ``\udXXX``), so no key can
    pass for a nested key, an index or an empty part. The one rule of every path
    (questionnaire, responses, tool, answer actions, lint)."""
    if _PLAIN_KEY.fullmatch(key):
        return f"{base}.{key}" if base else key
    return f"{base}[{dumps(key)}]"


@typed
def format_path(path: Path | None) -> str | None:
    """Render a structural path the way the seed writes it, 1-based: ``questions[2].default``.

    Integer parts are 0-based list indices and are shown plus one; ``()`` and ``None``
    give ``None`` (a diagnostic not about a place inside the payload). A key that is
    not identifier-like (empty, holding ``.``, ``[``, a space, a non-ASCII or lone
    surrogate character ...) is written as a JSON string in brackets,
    ``questions[1]["a.b"]`` (:func:`join_key`), so a path is never ambiguous and
    always encodes as UTF-8 (§1, §2).
    Raises ``TypeError`` naming the argument when an argument has the wrong type.
    """
    return path_text(path)


def path_text(path: Path | None) -> str | None:
    """:func:`format_path` without the argument check, for readers that built ``path``
    themselves (called once per finding)."""
    if not path:
        return None
    text = ""
    for part in path:
        text = f"{text}[{part + 1}]" if isinstance(part, int) else join_key(text, part)
    return text


@typed
@attrs.frozen
class Finding:
    """A problem found inside one payload, before it is placed in the message.

    ``start``/``end`` are code-point offsets into the payload string, or ``None`` when
    the reader only knows the ``path`` (the segmenter then uses the span of the value
    at that path, else the whole payload). ``details`` holds machine-readable
    parameters (``expected``, ``actual``, ``value``, ``allowed`` ...). ``params`` and
    ``variant`` record what the message was rendered from (its code's template in
    :mod:`replykit.codes`), so any locale renders from them; they take no part in
    equality.
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    code: str
    message: str
    path: Path = ()
    severity: Severity = "error"
    start: int | None = None
    end: int | None = None
    details: Mapping[str, Any] = attrs.field(factory=FrozenDict, converter=freeze_mapping)
    params: Mapping[str, Any] = attrs.field(
        factory=FrozenDict, converter=freeze_mapping, eq=False, repr=False
    )
    variant: str | None = attrs.field(default=None, eq=False, repr=False)


@typed
@attrs.frozen
class LeftOut:
    """How many diagnostics of one ``code`` (and ``severity``) the diagnostics cap left
    out (§1, §2): the machine-readable part of a ``limit.diagnostics`` summary.
    ``severity`` is ``None`` for answer-action diagnostics, which have none (§12).
    The constructor raises ``TypeError`` naming the field when a value has the wrong type.
    """

    code: str
    severity: Severity | None
    count: int

    def to_json(self) -> dict[str, Any]:
        """``{"code", "severity", "count"}`` (``severity`` absent when ``None``)."""
        out: dict[str, Any] = {"code": self.code}
        if self.severity is not None:
            out["severity"] = self.severity
        out["count"] = self.count
        return out


@typed
@attrs.frozen
class Diagnostic:
    """One problem in a message (§2).

    ``start``/``end``: code-point offsets into the message; ``line``/``column``:
    1-based position of ``start`` (column in code points); ``path``: place inside the
    payload, 1-based as in the seed (``questions[2].default``), or ``None``.
    ``left_out``: only on the ``limit.diagnostics`` summary of the diagnostics cap (§1):
    the diagnostics it stands for, counted by code and severity; ``()`` on every other.
    ``params``/``variant``: what ``message`` was rendered from (see :class:`Finding`),
    for other locales; not part of equality nor of the JSON shape.
    The constructor raises ``ValueError`` naming the field unless ``0 <= start <= end``
    and ``line``, ``column`` are at least 1, ``TypeError`` when a value has the wrong type.
    """

    code: str
    severity: Severity
    message: str
    start: int
    end: int
    line: int
    column: int
    path: str | None = None
    left_out: tuple[LeftOut, ...] = ()
    params: Mapping[str, Any] = attrs.field(
        factory=FrozenDict, converter=freeze_mapping, eq=False, repr=False
    )
    variant: str | None = attrs.field(default=None, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(
                f"start and end must satisfy 0 <= start <= end, not {self.start}, {self.end}"
            )
        if self.line < 1 or self.column < 1:
            raise ValueError(f"line and column must be at least 1, not {self.line}, {self.column}")

    def to_json(self) -> dict[str, Any]:
        """The CLI/JSON shape: ``code, severity, message, start, end, line, column, path``,
        plus ``left_out`` (``[{"code", "severity", "count"}]``) on a
        ``limit.diagnostics`` summary only."""
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "column": self.column,
            "path": self.path,
        }
        if self.left_out:
            out["left_out"] = [c.to_json() for c in self.left_out]
        return out
