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
"""

from __future__ import annotations

from replykit.questionnaire.model import UI_TEXT_KEYS
from replykit.questionnaire.payload.fenced_form import read_fenced_form
from replykit.questionnaire.payload.json_strict import read_json, read_json_value
from replykit.questionnaire.payload.lenient import ACCEPTED_TYPES, normalize_form
from replykit.questionnaire.payload.results import (
    FormRead,
    Read,
    ResponseRead,
    Span,
    SpanMap,
    locate,
    place,
)
from replykit.questionnaire.payload.xml_form import (
    read_xml_request,
    read_xml_response,
    response_type,
)
from replykit.questionnaire.payload.yaml12 import read_yaml
from replykit.questionnaire.payload.yaml_core import resolve_plain

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
