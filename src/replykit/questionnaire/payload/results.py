"""Result types shared by the payload readers, and placing findings by path.

Every reader returns a frozen result: the value it read (or ``None``), ``spans`` (each
structural path of the payload mapped to the code-point ``(start, end)`` of that node,
``()`` being the root), and every :class:`~replykit.diagnostics.Finding`, in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from replykit.cap import Collector, Overflow
from replykit.diagnostics import Finding, Path
from replykit.questionnaire.model import Questionnaire, Response

Span = tuple[int, int]
SpanMap = Mapping[Path, Span]

_NO_SPANS: SpanMap = MappingProxyType({})


def freeze_spans(spans: Mapping[Path, Span]) -> SpanMap:
    """A read-only copy of ``spans`` (results are immutable)."""
    return MappingProxyType(dict(spans))


@attrs.frozen
class Read:
    """What :func:`read_yaml` or :func:`read_json` got from one payload.

    ``value``: the plain Python value built (``dict``/``list``/``str``/``int``/``float``/
    ``bool``/``None``), or ``None`` when nothing could be built (syntax error, nesting
    too deep). ``spans``: path -> code-point ``(start, end)`` of each value node in the
    payload. ``key_spans``: path of a mapping entry -> span of its key text.
    ``findings``: every problem found, in payload order per kind, or, when the reader
    was given a cap, the first ones up to it in offset order (the first error always
    kept, §2.1); ``overflow``: what that cap left out (``None`` when nothing).
    ``aliases``: the paths read as placeholders, each reported once: where a YAML alias
    or a scalar with properties (an anchor or a tag, below the root) stood as a value
    (a ``None`` placeholder); ``keyless``: the mappings one of whose keys was one (the
    entry dropped: which keys they lack is not known). ``refused``: the paths of the
    JSON values read as placeholders (``json.constant``, ``json.number_too_large``;
    the root's excluded), those whose findings a cap left out included, so a later
    reader skips them all.

    It holds the reader's working mappings (``spans``, ``key_spans``) and the decoded ``value``
    as built, so it does not hash (it is a step of reading, not a result to keep).
    """

    value: Any
    spans: SpanMap = _NO_SPANS
    key_spans: SpanMap = _NO_SPANS
    findings: tuple[Finding, ...] = ()
    overflow: Overflow[Finding] | None = None
    aliases: frozenset[Path] = frozenset()
    keyless: frozenset[Path] = frozenset()
    refused: frozenset[Path] = frozenset()

    @property
    def ok(self) -> bool:
        """True when no finding has severity ``error``."""
        return not any(f.severity == "error" for f in self.findings)


@attrs.frozen
class FormRead:
    """A questionnaire request read from a payload or from tool arguments.

    ``value`` is the normalized :class:`~replykit.questionnaire.model.Questionnaire` when there is
    no
    error finding (warnings allowed), else ``None``. ``spans`` as in :class:`Read`
    (empty when the input was not text). ``findings``: every problem found, up to the
    diagnostics cap (§1); ``overflow``: what the cap left out (``None`` when nothing).

    It holds the reader's working mappings (``spans``) as built, so it does not hash (it is a
    step of reading, not a result to keep).
    """

    value: Questionnaire | None
    spans: SpanMap = _NO_SPANS
    findings: tuple[Finding, ...] = ()
    overflow: Overflow[Finding] | None = None


@attrs.frozen
class ResponseRead:
    """A ``*-questionnaire-response`` payload read: ``value`` is the
    :class:`~replykit.questionnaire.model.Response` when there is no error finding, else ``None``;
    ``spans``, ``findings`` and ``overflow`` as in :class:`FormRead`.

    It holds the reader's working mappings (``spans``) as built, so it does not hash (it is a
    step of reading, not a result to keep).
    """

    value: Response | None
    spans: SpanMap = _NO_SPANS
    findings: tuple[Finding, ...] = ()
    overflow: Overflow[Finding] | None = None


class _Once:
    """Calls ``compute`` on first use and keeps its ``(spans, key_spans)``."""

    def __init__(self, compute: Callable[[], tuple[dict[Path, Span], dict[Path, Span]]]) -> None:
        self._compute = compute
        self._value: tuple[dict[Path, Span], dict[Path, Span]] | None = None

    def get(self) -> tuple[dict[Path, Span], dict[Path, Span]]:
        if self._value is None:
            self._value = self._compute()
        return self._value


class _LazySpanMap(Mapping[Path, Span]):
    def __init__(self, once: _Once, which: int) -> None:
        self._once = once
        self._which = which

    def __getitem__(self, key: Path) -> Span:
        return self._once.get()[self._which][key]

    def __iter__(self) -> Iterator[Path]:
        return iter(self._once.get()[self._which])

    def __len__(self) -> int:
        return len(self._once.get()[self._which])


def lazy_spans(
    compute: Callable[[], tuple[dict[Path, Span], dict[Path, Span]]],
) -> tuple[SpanMap, SpanMap]:
    """``(spans, key_spans)`` maps that run ``compute`` once, when either is first read.

    Readers use them for payloads with nothing to report: spans are needed only to place
    a finding, so a valid payload never pays for them."""
    once = _Once(compute)
    return _LazySpanMap(once, 0), _LazySpanMap(once, 1)


def locate(spans: SpanMap, path: Path) -> Span | None:
    """Span of ``path``, else of its nearest ancestor present in ``spans``, else ``None``.

    A finding about a missing key (``questions[1].default``) is so placed on the
    question that lacks it.
    """
    for cut in range(len(path), -1, -1):
        span = spans.get(path[:cut])
        if span is not None:
            return span
    return None


def place(findings: Iterable[Finding], spans: SpanMap) -> tuple[Finding, ...]:
    """Give each finding without offsets the span that :func:`locate` finds for its path."""
    out: list[Finding] = []
    for f in findings:
        if f.start is None:
            span = locate(spans, f.path)
            if span is not None:
                f = attrs.evolve(f, start=span[0], end=span[1])
        out.append(f)
    return tuple(out)


def finding_sink(limit: int) -> Collector[Finding]:
    """A :class:`~replykit.cap.Collector` of findings that keeps at most ``limit``, the
    first ones in payload offset order (§2.1)."""
    return Collector(limit, lambda f: f.code, lambda f: f.severity, lambda f: f.start)


def has_error(findings: Iterable[Finding]) -> bool:
    """True when some finding has severity ``error``."""
    return any(f.severity == "error" for f in findings)
