"""Findings collected one way: a :class:`Cursor` descends with the reader and reports.

A reader holds a cursor at the place it reads (a path, built as it descends:
``at.descend("questions", 2)``) and reports a code there (``at.add(code, "type",
given=...)``); the cursor's :class:`Sink` turns the report into the reader's record
(a payload :class:`~replykit.diagnostics.Finding` placed on its span, an answer
action's diagnostic) and keeps it within the diagnostics cap (§2) of
:class:`~replykit.cap.Collector`, the one bounding mechanism. No reader builds a path
or a message by hand: the path comes from the cursor, the message from the code's
template (:mod:`replykit.codes`) and the recorded parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Protocol

from replykit.cap import Collector
from replykit.codes._core import Code
from replykit.diagnostics import Finding, Path, PathPart, Severity, path_text

Span = tuple[int, int]


class Sink(Protocol):
    """Where a :class:`Cursor`'s reports go."""

    def report(
        self,
        code: Code,
        path: Path,
        variant: str | None,
        details: Mapping[str, Any] | None,
        on_key: bool,
        params: dict[str, Any],
    ) -> None:
        """Record one finding of ``code`` at ``path`` (``on_key``: placed on the key of
        that entry rather than its value)."""


class Cursor(NamedTuple):
    """A place in the input (``path``) and the :class:`Sink` findings there go to
    (immutable; a tuple, cheap to make at each step of a descent)."""

    sink: Sink
    path: Path = ()

    def descend(self, *parts: PathPart) -> Cursor:
        """The cursor at ``path + parts``: a key (``str``) or a 0-based index (``int``)."""
        return Cursor(self.sink, (*self.path, *parts))

    def add(
        self,
        code: Code,
        *parts: PathPart,
        variant: str | None = None,
        details: Mapping[str, Any] | None = None,
        on_key: bool = False,
        **params: Any,
    ) -> None:
        """Report ``code`` at ``path + parts`` with ``params`` (the template's fields; a
        ``path`` field, 1-based, is added unless given) and ``variant``; ``details`` are
        the machine-readable fields the caller sees (the sink may add ``path``)."""
        self.sink.report(code, (*self.path, *parts), variant, details, on_key, params)


Locate = Callable[[Path, bool], "Span | None"]


class FindingSink:
    """A payload reader's :class:`Sink`: :class:`~replykit.diagnostics.Finding` objects
    in a :class:`~replykit.cap.Collector` of at most ``limit``.

    ``locate``: the payload span of a path (``on_key``: of its key), or ``None`` to
    leave the finding unplaced (placed later by path). ``skip``: paths not to report
    (under a YAML alias, a refused number); a finding on a key is asked about the path
    of the mapping holding the key. ``path_in_details``: ``details`` start with ``path``, 1-based,
    followed by the ``details`` reported, or by the parameters when none are (the
    lenient normalizer's and a response's findings). ``into``: an existing collector to
    append to (a reader's, already holding its syntax findings), else a new one."""

    def __init__(
        self,
        limit: int,
        *,
        locate: Locate | None = None,
        skip: Callable[[Path], bool] | None = None,
        path_in_details: bool = False,
        into: Collector[Finding] | None = None,
    ) -> None:
        self.findings: Collector[Finding] = (
            Collector(limit, _code, _severity, _start) if into is None else into
        )
        self._locate = locate
        self._skip = skip
        self._path_in_details = path_in_details

    def at(self, *path: PathPart) -> Cursor:
        """A cursor at ``path`` reporting here."""
        return Cursor(self, path)

    def report(
        self,
        code: Code,
        path: Path,
        variant: str | None,
        details: Mapping[str, Any] | None,
        on_key: bool,
        params: dict[str, Any],
    ) -> None:
        """See :meth:`Sink.report`."""
        # A finding on a key is about the mapping that holds it: skipped only when that
        # mapping is (an unknown key whose value is an alias or a refused number is
        # still reported, §4: every violation).
        if self._skip is not None and self._skip(path[:-1] if on_key and path else path):
            return
        where = path_text(path)
        params.setdefault("path", where)
        if self._path_in_details:
            details = {"path": where, **(params if details is None else details)}
        span = None if self._locate is None else self._locate(path, on_key)
        self.findings.append(
            code.finding(
                path,
                start=None if span is None else span[0],
                end=None if span is None else span[1],
                variant=variant,
                details=details,
                params=params,
            )
        )


def _code(f: Finding) -> str:
    return f.code


def _severity(f: Finding) -> Severity:
    return f.severity


def _start(f: Finding) -> int | None:
    return f.start
