"""Payload readers: pure functions from the text inside one block to a normalized value
plus every problem found (§4, §5, §7). Their messages are rendered from the registry of
codes (:mod:`replykit.codes`).

- :func:`read_yaml`: YAML 1.2 core schema on PyYAML's event stream.
- :func:`read_json_value`: any JSON text, strictly (§1); :func:`read_json`: an
  XML+JSON payload (an object).
- :func:`read_fenced_form`: a ```` ```questionnaire ```` payload, strict seed rules.
- :func:`normalize_form`: the lenient ``questionnaire_async`` normalizer.
- :func:`read_xml_request` / :func:`read_xml_response`: XML+JSON payloads.

Offsets in results and findings are code-point indices into the payload; paths are
tuples of str keys and 0-based int indices (``format_path`` shows them 1-based).

These are the public entry points: each checks its arguments as every function of
:mod:`replykit` does (``TypeError`` naming the argument for a wrong type; ``ValueError``
for a number below its range: ``max_depth`` and ``max_findings`` below 1, a
``fence_length`` below 3, a response ``name`` that is no family tag name), then calls
the reader the segmenter uses (in its own module, unchecked: it is given only what the
library built). This module is left out of the compiled build: the check reads the
annotations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from replykit.argcheck import typed
from replykit.diagnostics import Finding, Path
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits
from replykit.questionnaire.model import UI_TEXT_KEYS
from replykit.questionnaire.payload import fenced_form, json_strict, lenient, xml_form, yaml12
from replykit.questionnaire.payload.lenient import ACCEPTED_TYPES
from replykit.questionnaire.payload.results import (
    FormRead,
    Read,
    ResponseRead,
    Span,
    SpanMap,
)
from replykit.questionnaire.payload.results import locate as _locate
from replykit.questionnaire.payload.results import place as _place
from replykit.questionnaire.payload.yaml_core import resolve_plain as _resolve_plain


def _at_least(name: str, value: int | None, low: int) -> None:
    if value is not None and value < low:
        raise ValueError(f"{name} must be at least {low}, not {value}")


def _response_name(name: str) -> None:
    """A request or response tag name of the family (``questionnaire``,
    ``NAME-questionnaire``, and their ``-response``), as :func:`response_type` reads."""
    from replykit.questionnaire.scan.grammar import family_parts  # (imports this package)

    base = name.removesuffix("-response")
    if re.fullmatch(family_parts().name_pattern(), base, re.IGNORECASE | re.ASCII) is None:
        raise ValueError(f"name {name!r} is no tag name of the questionnaire family")


@typed
def read_yaml(
    payload: str,
    *,
    max_depth: int = 64,
    loader: str | None = None,
    max_findings: int | None = None,
    quiet: Sequence[Span] = (),
) -> Read:
    _at_least("max_depth", max_depth, 1)
    _at_least("max_findings", max_findings, 1)
    return yaml12.read_yaml(
        payload, max_depth=max_depth, loader=loader, max_findings=max_findings, quiet=quiet
    )


@typed
def read_json_value(text: str, *, max_depth: int = 64) -> Read:
    _at_least("max_depth", max_depth, 1)
    return json_strict.read_json_value(text, max_depth=max_depth)


@typed
def read_json(payload: str, *, max_depth: int = 64) -> Read:
    _at_least("max_depth", max_depth, 1)
    return json_strict.read_json(payload, max_depth=max_depth)


@typed
def read_fenced_form(
    payload: str,
    *,
    max_depth: int | None = None,
    fence_length: int = 3,
    loader: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> FormRead:
    _at_least("max_depth", max_depth, 1)
    _at_least("fence_length", fence_length, 3)
    return fenced_form.read_fenced_form(
        payload, max_depth=max_depth, fence_length=fence_length, loader=loader, limits=limits
    )


@typed
def normalize_form(
    args: Any,
    *,
    allow_extras: bool,
    limits: Limits = DEFAULT_LIMITS,
    dropped: frozenset[int] = frozenset(),
) -> FormRead:
    return lenient.normalize_form(args, allow_extras=allow_extras, limits=limits, dropped=dropped)


@typed
def read_xml_request(
    payload: str, *, max_depth: int | None = None, limits: Limits = DEFAULT_LIMITS
) -> FormRead:
    _at_least("max_depth", max_depth, 1)
    return xml_form.read_xml_request(payload, max_depth=max_depth, limits=limits)


@typed
def read_xml_response(
    payload: str, name: str, *, max_depth: int | None = None, limits: Limits = DEFAULT_LIMITS
) -> ResponseRead:
    _at_least("max_depth", max_depth, 1)
    _response_name(name)
    return xml_form.read_xml_response(payload, name, max_depth=max_depth, limits=limits)


@typed
def response_type(name: str) -> str:
    _response_name(name)
    return xml_form.response_type(name)


@typed
def resolve_plain(text: str) -> tuple[Any, bool]:
    return _resolve_plain(text)


@typed
def locate(spans: SpanMap, path: Path) -> Span | None:
    return _locate(spans, path)


@typed
def place(findings: Iterable[Finding], spans: SpanMap) -> tuple[Finding, ...]:
    return _place(findings, spans)


_CHECKED = """

    As the public entry point (:mod:`replykit.questionnaire.payload`), it checks its
    arguments first: ``TypeError`` naming the argument for a wrong type,
    ``ValueError`` for a limit below its range or a name of no family tag. For a
    payload of any content it raises nothing else."""

# Each keeps the docstring of the reader it checks the arguments of, and says so.
for _public, _reader in (
    (read_yaml, yaml12.read_yaml),
    (read_json_value, json_strict.read_json_value),
    (read_json, json_strict.read_json),
    (read_fenced_form, fenced_form.read_fenced_form),
    (normalize_form, lenient.normalize_form),
    (read_xml_request, xml_form.read_xml_request),
    (read_xml_response, xml_form.read_xml_response),
    (response_type, xml_form.response_type),
    (resolve_plain, _resolve_plain),
    (locate, _locate),
    (place, _place),
):
    _public.__doc__ = (_reader.__doc__ or "").rstrip() + _CHECKED
del _public, _reader

__all__ = [
    "ACCEPTED_TYPES",
    "UI_TEXT_KEYS",
    "FormRead",
    "Read",
    "ResponseRead",
    "Span",
    "SpanMap",
    "locate",
    "normalize_form",
    "place",
    "read_fenced_form",
    "read_json",
    "read_json_value",
    "read_xml_request",
    "read_xml_response",
    "read_yaml",
    "resolve_plain",
    "response_type",
]
