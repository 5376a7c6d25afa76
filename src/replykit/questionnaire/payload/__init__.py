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


def _items(name: str, items: Iterable[Any], check: Any, what: str) -> None:
    """``TypeError`` naming the argument when an item of ``items`` fails ``check``."""
    for index, item in enumerate(items):
        if not check(item):
            raise TypeError(f"argument '{name}' item {index} must be {what}")


def _span(item: Any) -> bool:
    return (
        isinstance(item, tuple)
        and len(item) == 2
        and all(type(x) is int for x in item)  # (not bool)
    )


def _response_name(name: str) -> None:
    """A request or response tag name of the family (``questionnaire``,
    ``NAME-questionnaire``, and their ``-response``), as :func:`response_type` reads."""
    from replykit.questionnaire.scan.grammar import family_parts  # (imports this package)

    base = name.removesuffix("-response")
    if re.fullmatch(family_parts().name_pattern(), base) is None:
        raise ValueError(
            f"name {name!r} is no tag name of the questionnaire family (in lower case, as "
            "segment() gives block names)"
        )


@typed
def read_yaml(
    payload: str,
    *,
    max_depth: int = 64,
    loader: str | None = None,
    max_findings: int | None = None,
    quiet: Sequence[Span] = (),
) -> Read:
    """Read one YAML payload with the YAML 1.2 core schema (§4): ``payload`` (``str``)
    to a :class:`Read` (``value`` the root mapping or ``None``, ``spans`` and
    ``key_spans`` by path in code points, ``findings``), every problem a ``yaml.*``
    finding; ``max_depth`` nested collections at most (1 or more), ``loader``
    ``"auto"``/``"c"``/``"pure"`` (``ValueError`` for another name), ``max_findings``
    kept at most (1 or more; ``None``: all), ``quiet`` spans (pairs of code-point
    offsets) reported elsewhere."""
    _at_least("max_depth", max_depth, 1)
    _at_least("max_findings", max_findings, 1)
    _items("quiet", quiet, _span, "a pair of int offsets")
    return yaml12.read_yaml(
        payload, max_depth=max_depth, loader=loader, max_findings=max_findings, quiet=quiet
    )


@typed
def read_json_value(text: str, *, max_depth: int = 64) -> Read:
    """Read any JSON text strictly (§1): ``text`` (``str``) to a :class:`Read` (the value,
    ``spans`` by path in code points, ``json.*`` findings); ``max_depth`` nested arrays
    and objects at most (1 or more)."""
    _at_least("max_depth", max_depth, 1)
    return json_strict.read_json_value(text, max_depth=max_depth)


@typed
def read_json(payload: str, *, max_depth: int = 64) -> Read:
    """Read an XML+JSON payload (§5): as :func:`read_json_value`, plus
    ``json.not_object`` or ``json.string_payload`` when the root is no object."""
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
    """Read a fenced YAML form (§4): ``payload`` (``str``, the text between the fences)
    to a :class:`FormRead` (the :class:`~replykit.Questionnaire` or ``None``, ``spans``,
    every finding: ``yaml.*``, ``form.*``, ``question.*``, ``limit.*``); ``max_depth``
    (1 or more), ``fence_length`` of the opener (3 or more), ``loader`` as
    :func:`read_yaml`, ``limits`` a :class:`~replykit.Limits`."""
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
    """Normalize ``questionnaire_async`` arguments leniently (§7): ``args`` (decoded
    JSON) to a :class:`FormRead`; ``allow_extras`` (``bool``): extra keys are kept out
    without an error; ``limits`` a :class:`~replykit.Limits`; ``dropped``: indices of
    questions left out before."""
    return lenient.normalize_form(args, allow_extras=allow_extras, limits=limits, dropped=dropped)


@typed
def read_xml_request(
    payload: str, *, max_depth: int | None = None, limits: Limits = DEFAULT_LIMITS
) -> FormRead:
    """Read an XML+JSON request payload (§5): ``payload`` (``str``) to a
    :class:`FormRead`; ``max_depth`` (1 or more, ``None``: the limits'), ``limits``."""
    _at_least("max_depth", max_depth, 1)
    return xml_form.read_xml_request(payload, max_depth=max_depth, limits=limits)


@typed
def read_xml_response(
    payload: str, name: str, *, max_depth: int | None = None, limits: Limits = DEFAULT_LIMITS
) -> ResponseRead:
    """Read an XML+JSON response payload (§7): ``payload`` (``str``) and ``name``, the
    tag's name in lower case (``questionnaire-response`` or
    ``NAME-questionnaire-response``, or the request's), to a :class:`ResponseRead`;
    ``max_depth`` (1 or more), ``limits``."""
    _at_least("max_depth", max_depth, 1)
    _response_name(name)
    return xml_form.read_xml_response(payload, name, max_depth=max_depth, limits=limits)


@typed
def response_type(name: str) -> str:
    """The ``type`` a response payload carries for the tag ``name`` (§7), a request or
    response name in lower case: ``sage-questionnaire`` and
    ``sage-questionnaire-response`` both give ``sage_questionnaire_response``."""
    _response_name(name)
    return xml_form.response_type(name)


@typed
def resolve_plain(text: str) -> tuple[Any, bool]:
    """A YAML 1.2 core-schema plain scalar ``text`` resolved (§4.1): ``(value, ok)``,
    ``ok`` false only for an integer of more than 4300 digits."""
    return _resolve_plain(text)


@typed
def locate(spans: SpanMap, path: Path) -> Span | None:
    """The span (code points) of ``path`` in ``spans``, else of its nearest ancestor
    that has one, else ``None``."""
    return _locate(spans, path)


@typed
def place(findings: Iterable[Finding], spans: SpanMap) -> tuple[Finding, ...]:
    """``findings`` with each unplaced one (``start`` ``None``) placed at the span of
    its path (:func:`locate`), as a tuple."""
    findings = tuple(findings)
    _items("findings", findings, lambda f: isinstance(f, Finding), "a Finding")
    return _place(findings, spans)


_CHECKED = """

    As the public entry point (:mod:`replykit.questionnaire.payload`), it checks its
    arguments first: ``TypeError`` naming the argument for a wrong type,
    ``ValueError`` for a limit below its range or a name of no family tag (and, for
    ``loader``, an unknown loader name). For a payload of any content it raises
    nothing else."""

# Each says so, then gives the reader's own docstring where the build keeps one (a
# compiled reader has none: docs/protocol.md has the rules).
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
    _own = (_public.__doc__ or "").rstrip() + _CHECKED
    _public.__doc__ = _own + ("\n\n    " + _reader.__doc__.strip() if _reader.__doc__ else "")
del _public, _reader, _own

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
