"""Faults of a client's payload reader (docs/protocol.md §4 and §5).

Layers for the ``segment`` op (see ``base.py``). The JSON faults rewrite the payload
in the message; the YAML faults read a fenced payload again the client's way and
check the value with replykit's strict field table (``read_fenced_form``), so only
the fault's part of the reading differs.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from typing import Any

import yaml

from replykit.questionnaire.payload import read_fenced_form, read_json_value, resolve_plain

from .base import Answer, Request, Response, blocks, codes, with_edits

_CURLY = re.compile("[\u201c\u201d]")


def _payload_range(text: str, seg: dict[str, Any]) -> tuple[int, int]:
    """Where the payload of an XML+JSON block lies: after its opening tag, before its
    closing tag."""
    return text.index(">", seg["start"]) + 1, text.rindex("<", seg["start"], seg["end"])


# Family: typographic quotes are accepted in JSON (§5: smart quotes are a
# syntax error). The client replaces “ and ” with " before JSON.parse.
def curly_quotes(request: Request, inner: Answer) -> Response:
    text = request["text"]
    if not _CURLY.search(text):
        return inner(request)
    first = inner(request)
    edits = []
    for seg in blocks(first, "xml_json"):
        if seg["registered"]:
            a, b = _payload_range(text, seg)
            edits += [(m.start(), m.end(), '"') for m in _CURLY.finditer(text, a, b)]
    return with_edits(request, inner, edits) if edits else first


# Family: a payload that is a JSON string is decoded (§5: json.string_payload).
# The client JSON.parse()s again when the first parse gives a string.
def string_payload(request: Request, inner: Answer) -> Response:
    first = inner(request)
    text = request["text"]
    edits = []
    for seg in blocks(first, "xml_json"):
        if "json.string_payload" not in codes(seg):
            continue
        a, b = _payload_range(text, seg)
        read = read_json_value(text[a:b])
        if isinstance(read.value, str) and "</" not in read.value:
            edits.append((a, b, read.value))
    return with_edits(request, inner, edits) if edits else first


# ---------------------------------------------------------------- YAML readings


class _Core12Loader(yaml.SafeLoader):
    """PyYAML with the YAML 1.2 core schema for plain scalars (replykit's own
    resolver) and aliases resolved, as a YAML library with default options does."""

    yaml_implicit_resolvers: dict[Any, Any] = {}  # noqa: RUF012 - PyYAML's class table


def _plain_or_string(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    value = loader.construct_scalar(node)
    return resolve_plain(value)[0] if node.style is None else value


_Core12Loader.add_constructor("tag:yaml.org,2002:str", _plain_or_string)


class _TooLarge(Exception):
    """The value read does not fit the budget of the re-emitted payload."""


_NOT_PRINTABLE = re.compile("[\x7f-\x84\x86-\x9f\ufeff\ufffe\uffff\ud800-\udfff]")


def _scalar(value: Any) -> str:
    """``value`` written as a YAML 1.2 scalar the core schema reads back as it is; a
    value YAML 1.2 has no plain type for (a date) as an explicitly tagged scalar."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        return repr(value) if math.isfinite(value) else ("-.inf" if value < 0 else ".inf")
    if isinstance(value, str):
        quoted = json.dumps(value, ensure_ascii=False)
        return _NOT_PRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)
    if isinstance(value, datetime.date):
        return "!!timestamp " + _scalar(value.isoformat())
    return f"!!{type(value).__name__} " + _scalar(str(value))


def _emit(value: Any, indent: int, out: list[str], depth: int = 0) -> None:
    """Append ``value`` as block YAML lines at ``indent`` (nested first under a key)."""
    if depth > 64 or len(out) > 20_000:
        raise _TooLarge
    pad = " " * indent
    if isinstance(value, dict) and value:
        for key, item in value.items():
            if isinstance(item, dict | list) and item:
                out.append(f"{pad}{_scalar(key)}:")
                _emit(item, indent + 2, out, depth + 1)
            else:
                out.append(f"{pad}{_scalar(key)}: {_flat(item)}")
    elif isinstance(value, list) and value:
        for item in value:
            if isinstance(item, dict | list) and item:
                out.append(f"{pad}-")
                _emit(item, indent + 2, out, depth + 1)
            else:
                out.append(f"{pad}- {_flat(item)}")
    else:
        out.append(pad + _flat(value))


def _flat(value: Any) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    if isinstance(value, tuple):
        return _scalar(str(value))  # a YAML 1.1 complex key
    return _scalar(value)


def _fenced_payload(text: str, seg: dict[str, Any]) -> str:
    """The content of a fenced block: its lines between opener and closing fence, each
    with up to the opener's indentation of spaces removed (§3a)."""
    start = seg["start"] + (1 if seg["start"] == 0 and text.startswith("\ufeff") else 0)
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text[start : seg["end"]])
    indent = len(lines[0]) - len(lines[0].lstrip(" "))
    body = lines[1:-1] if "fence.unclosed" not in codes(seg) else lines[1:]
    return "".join(line[min(indent, len(line) - len(line.lstrip(" "))) :] for line in body)


def _read_again(text: str, seg: dict[str, Any], loader: type[yaml.SafeLoader]) -> dict[str, Any]:
    """``seg`` with its payload read by ``loader`` and checked by replykit's field
    table; ``seg`` unchanged when the loader fails or the value is too large."""
    try:
        value = yaml.load(_fenced_payload(text, seg), Loader=loader)
        lines: list[str] = []
        _emit(value, 0, lines)
    except Exception:  # any failure of the client's reader: keep replykit's verdict
        return seg
    read = read_fenced_form("\n".join(lines) + "\n")
    valid = read.value is not None and not any(f.severity == "error" for f in read.findings)
    out = {k: v for k, v in seg.items() if k != "questionnaire"}
    out["valid"] = valid
    if valid and read.value is not None:
        out["questionnaire"] = read.value.to_json()
    return out


def _readable(seg: dict[str, Any]) -> bool:
    """A registered fenced block whose only problems may be in its payload's value."""
    found = codes(seg)
    return bool(seg["registered"]) and not any(
        c.startswith(("fence.", "limit.")) or c == "yaml.nested_fence" for c in found
    )


def _reread(request: Request, inner: Answer, wanted: Any, loader: type[Any]) -> Response:
    response = inner(request)
    text = request["text"]
    segments = [
        _read_again(text, s, loader)
        if s.get("encoding") == "fenced_yaml" and _readable(s) and wanted(s)
        else s
        for s in response["segments"]
    ]
    return {**response, "segments": segments}


# Family: YAML anchors and aliases are accepted (§4.1: yaml.alias). The client's
# YAML library resolves them (plain scalars read as YAML 1.2 core).
def yaml_aliases(request: Request, inner: Answer) -> Response:
    def only_aliases(seg: dict[str, Any]) -> bool:
        found = {c for c in codes(seg) if c.startswith("yaml.")}
        return found == {"yaml.alias"}

    return _reread(request, inner, only_aliases, _Core12Loader)


# Family: YAML 1.1 scalars (§4.1: the YAML 1.2 core schema). The client's YAML
# library reads ``yes``/``no``/``on``/``off`` as booleans, ``9:16`` as 556, ``1_000`` as
# 1000, ``0o7`` as a string, dates as dates (PyYAML's ``safe_load``).
def yaml11_scalars(request: Request, inner: Answer) -> Response:
    def read_as_yaml12(seg: dict[str, Any]) -> bool:
        return not any(c.startswith("yaml.") for c in codes(seg))

    return _reread(request, inner, read_as_yaml12, yaml.SafeLoader)
