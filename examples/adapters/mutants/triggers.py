"""Where each fault can act: a cheap test of a request body that is true whenever the
fault's mutant may answer it differently from replykit (a necessary condition, not a
sufficient one). The tests check that a mutant agrees with replykit on every request
its trigger rejects, so that each mutant has its one fault and no other.

Each trigger takes the request body without ``op`` (``{"text", ...}``,
``{"arguments"}`` or ``{"answer"}``, docs/fuzzing.md).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from typing import Any

Trigger = Callable[[dict[str, Any]], bool]


#: The start of a line: "\n", "\r\n" and a lone "\r" end lines (docs/protocol.md §1.1).
_LINE_START = r"(?:\A|(?<=[\r\n]))"


def _text(pattern: str, flags: int = 0) -> Trigger:
    """True when the message text matches ``pattern``."""
    compiled = re.compile(pattern, flags)
    return lambda body: compiled.search(body.get("text", "")) is not None


def _astral(s: str) -> bool:
    return any(ord(ch) > 0xFFFF for ch in s)


def json_string_message(body: dict[str, Any]) -> bool:
    text = body.get("text", "").strip()
    return len(text) >= 2 and text[0] == text[-1] == '"'


def case_insensitive_names(body: dict[str, Any]) -> bool:
    names = re.finditer(r"[a-z0-9-]*questionnaire", body.get("text", ""), re.IGNORECASE)
    return any(m.group() != m.group().lower() for m in names)


def utf16_offsets(body: dict[str, Any]) -> bool:
    return _astral(body.get("text", ""))


def invisible_preface(body: dict[str, Any]) -> bool:
    return "`" in body.get("text", "") and any(
        unicodedata.category(ch) == "Cf" for ch in body.get("text", "")
    )


_BLANK_LINE = re.compile(r"(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)")


def span_across_blank_lines(body: dict[str, Any]) -> bool:
    text = body.get("text", "")
    first, last = text.find("`"), text.rfind("`")
    return first != last and _BLANK_LINE.search(text, first, last) is not None


def _answer_json(body: dict[str, Any]) -> str:
    return json.dumps(body.get("answer"), ensure_ascii=False)


def sanitizer_keeps_url(body: dict[str, Any]) -> bool:
    return '"url"' in _answer_json(body)


def sanitizer_keeps_duplicate_id(body: dict[str, Any]) -> bool:
    ids = re.findall(r'"id": ("(?:[^"\\]|\\.)*")', _answer_json(body))
    return len(ids) != len(set(ids))


def sanitizer_utf16_labels(body: dict[str, Any]) -> bool:
    return _astral(_answer_json(body))


def tool_duplicate_ids(body: dict[str, Any]) -> bool:
    questions = body.get("arguments")
    questions = questions.get("questions") if isinstance(questions, dict) else None
    return isinstance(questions, list) and len(questions) >= 2


#: The trigger of each fault, by the fault's name.
TRIGGERS: dict[str, Trigger] = {
    "json_string_message": json_string_message,
    "entities_decoded": _text(r"&lt;/?(?:[a-z0-9]+-)?questionnaire", re.IGNORECASE),
    "utf16_offsets": utf16_offsets,
    "case_insensitive_names": case_insensitive_names,
    # an opening tag with something other than ">" after the name
    "tag_attributes": _text(r"<(?:[a-z0-9]+-)?questionnaire(?:-response)?[^a-z0-9>-]"),
    "escaped_closer": _text(r"<\\/"),
    "lone_cr": _text(r"\r(?!\n)"),
    "tab_before_fence": _text(_LINE_START + r"[ \t]*\t[ \t]*`{3}"),
    "fence_not_dedented": _text(_LINE_START + r"[ \t]{1,3}`{3}"),
    # list or quote markers, or a list item's indentation, before a fence
    "fence_in_container": _text(_LINE_START + r"[ \t>*+\-.)0-9]+`{3}"),
    "html_blocks_not_inert": _text(_LINE_START + r"[ \t]{0,3}</?[A-Za-z]"),
    "html_comments_not_inert": _text(r"<!--"),
    "escaped_backtick": _text(r"\\`"),
    "span_across_blank_lines": span_across_blank_lines,
    "indented_always_code": _text(_LINE_START + r"(?: {4}| {0,3}\t)"),
    "invisible_preface": invisible_preface,
    "preface_ignored": _text(r"`{3}"),
    "short_closer": _text(r"`{4}"),
    "curly_quotes": _text("[\u201c\u201d]"),
    "string_payload": _text(r'questionnaire(?:-response)?>\s*"'),
    "invalid_question_dropped": _text(r"questionnaire>"),
    "yaml_aliases": _text(r"`{3}[\s\S]*[&*]"),
    "yaml11_scalars": _text(r"`{3}"),
    "tool_duplicate_ids": tool_duplicate_ids,
    "sanitizer_keeps_url": sanitizer_keeps_url,
    "sanitizer_keeps_duplicate_id": sanitizer_keeps_duplicate_id,
    "sanitizer_utf16_labels": sanitizer_utf16_labels,
}
