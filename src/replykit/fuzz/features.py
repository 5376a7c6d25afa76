"""Which constructs an input contains: the *features* that tell fault classes apart.

A class of findings is keyed, among other things, by the features of its minimal input
(docs/fuzzing.md, "Classes"): two minimal inputs of the same rule that differ in kind
(one holds an HTML entity, the other a lone CR) are two faults, not one. Features are
names, cheap to find (regular expressions, linear in the input) and coarse on purpose:
a fault family should give one feature set whichever of its examples the shrinker
kept (``yes`` and ``9:16`` are both ``yaml11``).

:func:`features` gives the features of a request body of any op; :data:`FEATURES`
lists every name with what it means (the docs table is checked against it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

from replykit.jsonout import key_text
from replykit.questionnaire.profiles import profile_from_string
from replykit.text import iter_lines
from replykit.textout import is_unsafe

#: Every feature name and the construct it stands for.
FEATURES: Final[Mapping[str, str]] = {
    "fence": "a backtick fence opener whose info string names the questionnaire family",
    "long_fence": "a fence opener of four or more backticks or tildes",
    "short_closer": "a backtick fence line shorter than an earlier family opener",
    "tilde": "a tilde fence (~~~)",
    "unclosed": "a family fence opener with no closing fence after it",
    "fence_indent": "a family fence opener indented by 1-3 spaces",
    "tag": "an XML+JSON opening tag of the family (<questionnaire>, <x-questionnaire>)",
    "response": "a response tag (<questionnaire-response>)",
    "namespaced": "a family name with a namespace (x-questionnaire)",
    "unregistered": "a family name the request's profile does not register (§6)",
    "case": "a family name with upper-case letters (Questionnaire)",
    "tag_attributes": "an opening tag of the family with attributes or spaces",
    "escaped_closer": "a closing tag written <\\/name>",
    "indented_code": "a line indented by 4 or more columns",
    "tab": "a tab character",
    "cr": "a lone CR (a line ending of its own, §1)",
    "crlf": "a CRLF line ending",
    "blank_line": "an empty or blank line between two lines",
    "entity": "an HTML entity or numeric character reference (&lt;, &#96;)",
    "comment": "an HTML comment opener (<!--)",
    "html_block": "a line starting with an HTML tag that is not of the family",
    "list_item": "a list item marker at a line start (-, *, +, 1.)",
    "block_quote": "a block quote marker at a line start (>)",
    "code_span": "a backtick that is not part of a fence line",
    "escaped_backtick": "a backslash-escaped backtick (\\`)",
    "json_message": 'the whole message is a JSON string ("...")',
    "json_string": "a JSON payload or value that is a string holding JSON",
    "curly_quote": "a typographic quote (“ ” ‘ ’)",
    "alias": "a YAML anchor or alias (&a, *a)",
    "yaml11": "a YAML 1.1 scalar that YAML 1.2 reads otherwise (yes, on, 9:16, 0o7, 1_000)",
    "yaml_tag": "a YAML tag (!!str)",
    "invisible": "an invisible or format character (U+200B, U+FEFF, bidi controls)",
    "unicode_space": "a space other than U+0020 (U+00A0, U+3000, U+2000-U+200A)",
    "line_separator": "U+2028, U+2029 or U+0085 (not line endings, §1)",
    "astral": "a character outside the BMP (two UTF-16 code units)",
    "profile": "a profile other than client",
    "message_id": "a message id other than the default m",
    "not_object": "tool arguments or an answer that is not a JSON object",
    "duplicate_id": "two list items with the same id",
    "url": "a url, href or link field",
    "foreign_field": "a field outside the protocol on an action or a question",
    "long_text": "a string of more than 64 code points",
}

_FAMILY = r"(?:[A-Za-z0-9]+-)?[Qq][Uu][Ee][Ss][Tt][Ii][Oo][Nn][Nn][Aa][Ii][Rr][Ee]"
# Invisible characters before an opener (a BOM) do not hide the fence from features.
_FENCE_OPEN = re.compile(
    "[ \t>*+\\-0-9.)\u200b-\u200d\u2060\ufeff]*(`{3,}|~{3,})[ \t]*(" + _FAMILY + ")"
)
# Attributes end at a "<" too: a run to the ">" from every "<questionnaire" of a text
# that has none would make finditer quadratic.
_TAG = re.compile(r"<(" + _FAMILY + r")(-[Rr]esponse)?(\s[^<>]*)?>", re.ASCII)
_CLOSE_ESCAPED = re.compile(r"<\\/")
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")
_HTML_LINE = re.compile(
    r" {0,3}</?(?!" + _FAMILY + r"\b)[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)|" r" {0,3}<[!?]"
)
_LIST = re.compile(r" {0,3}(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)")
_QUOTE = re.compile(r" {0,3}>")
_INDENTED = re.compile(r"(?: {4,}|(?: {0,3}\t))\S")
_CURLY = re.compile("[\u201c\u201d\u2018\u2019]")
_ALIAS = re.compile(r"(?:^|[\s\[{,:\-?])[&*][A-Za-z0-9_][^\s,\[\]{}]*", re.MULTILINE)
_YAML_TAG = re.compile(r"(?:^|[\s\[{,:\-?])!", re.MULTILINE)
# Linear: the runs are possessive and unambiguous (giving digits back only puts a digit,
# ":" or "_" before the look-ahead, which refuses it), and a ":" after a digit starts no
# scalar (each ":" of a long "1:2:3..." would read the rest of the run again).
_YAML11 = re.compile(
    r"(?:^|[\s\[{,\-?]|(?<![0-9]):)"
    r"(?:yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF"
    r"|[0-9]++(?::[0-5]?[0-9])++|0o[0-7]++|[0-9]++_[0-9_]*+|0b[01_]++"
    r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2})"
    r"(?=$|[\s,\]}#])",
    re.MULTILINE,
)
_SPACES = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
_SEPARATORS = re.compile("[\u2028\u2029\u0085]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_URL_KEYS: Final = frozenset({"url", "href", "link", "uri"})
# Fields of the protocol's objects: anything else on an action or a question is foreign.
_ACTION_FIELDS: Final = frozenset(
    {
        "id", "type", "label", "style", "description", "riskLevel", "requiresConfirmation",
        "target", "params", "dataset", "componentId", "prompt", "chartType",
    }
)  # fmt: skip
_QUESTION_FIELDS: Final = frozenset(
    {"id", "type", "text", "title", "options", "default", "allow_other", "value", "label"}
)


def _char_features(text: str, out: set[str]) -> None:
    if _CURLY.search(text):
        out.add("curly_quote")
    if _SPACES.search(text):
        out.add("unicode_space")
    if _SEPARATORS.search(text):
        out.add("line_separator")
    if _ASTRAL.search(text):
        out.add("astral")
    if "\t" in text:
        out.add("tab")
    if any(is_unsafe(ch) for ch in text if ch not in "\n\r\t\u2028\u2029\u0085"):
        out.add("invisible")


def _looks_like_json_text(value: str) -> bool:
    stripped = value.strip()
    if len(stripped) < 2 or stripped[0] not in "{[":
        return False
    try:
        json.loads(stripped)
    except ValueError:
        return False
    return True


_CONTAINER = re.compile("[ \t>*+\\-0-9.)\u200b-\u200d\u2060\ufeff]*")


def _line_features(content: str, out: set[str]) -> None:
    """Markdown constructs of one line outside a form's payload."""
    if _INDENTED.match(content):
        out.add("indented_code")
    if _LIST.match(content):
        out.add("list_item")
    if _QUOTE.match(content):
        out.add("block_quote")
    if _HTML_LINE.match(content) and not content.lstrip().startswith("<!--"):
        out.add("html_block")
    rest = content[_CONTAINER.match(content).end() :]  # type: ignore[union-attr]
    if rest.startswith("~~~"):
        out.add("tilde")  # a tilde fence of any info string opens a code block
    if not rest.startswith(("```", "~~~")) and "`" in content.replace("\\`", ""):
        out.add("code_span")


def _payload_features(payload: str, out: set[str]) -> None:
    """YAML constructs of a fenced form's payload."""
    if _ALIAS.search(payload):
        out.add("alias")
    if _YAML_TAG.search(payload):
        out.add("yaml_tag")
    if _YAML11.search(payload):
        out.add("yaml11")


def _structure(text: str, out: set[str]) -> None:
    """Line endings, blank lines, family fences (length, indentation, short and
    missing closers), their payloads, and the Markdown constructs of every other line."""
    opener: tuple[str, int] | None = None  # the open family fence's char and length
    payload: list[str] = []
    blank_before = seen_text = False
    for start, content_end, end in iter_lines(text):
        content = text[start:content_end]
        ending = text[content_end:end]
        if ending == "\r":
            out.add("cr")
        elif ending == "\r\n":
            out.add("crlf")
        if opener is not None:
            body = content[_CONTAINER.match(content).end() :]  # type: ignore[union-attr]
            run = len(body) - len(body.lstrip(opener[0]))
            if run >= 3 and not body[run:].strip(" \t"):
                if run >= opener[1]:
                    opener = None
                    _payload_features("".join(payload), out)
                    payload = []
                    continue
                out.add("short_closer")
            payload.append(content + "\n")
            continue
        if not content.strip(" \t"):
            blank_before = seen_text
            continue
        if blank_before:
            out.add("blank_line")
        seen_text = True
        _line_features(content, out)
        m = _FENCE_OPEN.match(content)
        if m is None:
            continue
        run_text = m.group(1)
        out.add("tilde" if run_text[0] == "~" else "fence")
        if len(run_text) >= 4:
            out.add("long_fence")
        lead = len(content) - len(content.lstrip(" "))
        if 0 < lead <= 3 and content[lead] in "`~":
            out.add("fence_indent")
        opener = (run_text[0], len(run_text))
    if opener is not None:
        out.add("unclosed")
        _payload_features("".join(payload), out)


def _names(text: str, profile: str, out: set[str]) -> None:
    try:
        registered = profile_from_string(profile)
    except ValueError:
        registered = profile_from_string("client")
    for m in re.finditer(_FAMILY, text):
        name = m.group()
        if name != name.lower():
            out.add("case")
        if "-" in name:
            out.add("namespaced")
        if not registered.registers(name.lower()):
            out.add("unregistered")


def text_features(text: str, profile: str = "client") -> frozenset[str]:
    """The features (:data:`FEATURES`) of a message ``text`` segmented under
    ``profile`` (a profile string as the CLI spells it). Linear time; never raises."""
    out: set[str] = set()
    _char_features(text, out)
    _structure(text, out)
    for m in _TAG.finditer(text):
        out.add("tag")
        if m.group(2):
            out.add("response")
        if m.group(3):
            out.add("tag_attributes")
    if _CLOSE_ESCAPED.search(text):
        out.add("escaped_closer")
    if _ENTITY.search(text):
        out.add("entity")
    if "<!--" in text:
        out.add("comment")
    if "\\`" in text:
        out.add("escaped_backtick")
    stripped = text.strip()
    if len(stripped) >= 2 and stripped[0] == '"' and stripped[-1] == '"':
        out.add("json_message")
    if re.search(r">\s*\"(?:[^\"\\]|\\.)*[{\[]", text):
        out.add("json_string")
    _names(text, profile, out)
    return frozenset(out)


def _walk(value: Any, out: set[str], depth: int = 0) -> None:
    if depth > 64:
        return
    if isinstance(value, str):
        _char_features(value, out)
        if _looks_like_json_text(value):
            out.add("json_string")
        if len(value) > 64:
            out.add("long_text")
        if _CURLY.search(value) is None and _YAML11.fullmatch(value.strip()):
            out.add("yaml11")
        return
    if isinstance(value, list):
        ids = [item.get("id") for item in value if isinstance(item, Mapping)]
        seen = [i for i in ids if isinstance(i, str)]
        if len(seen) != len(set(seen)):
            out.add("duplicate_id")
        for item in value:
            _walk(item, out, depth + 1)
        return
    if isinstance(value, Mapping):
        keys = {key_text(k) for k in value}
        if keys & _URL_KEYS:
            out.add("url")
        if "type" in keys and keys - _ACTION_FIELDS - _QUESTION_FIELDS - _URL_KEYS:
            out.add("foreign_field")
        for item in value.values():
            _walk(item, out, depth + 1)


def json_features(value: Any) -> frozenset[str]:
    """The features of tool arguments or an answer (a JSON value): ``not_object``,
    ``json_string``, ``duplicate_id``, ``url``, ``foreign_field``, ``long_text``,
    ``yaml11`` (a string such as ``yes``) and the character features. Never raises."""
    out: set[str] = set()
    if not isinstance(value, Mapping):
        out.add("not_object")
    _walk(value, out)
    return frozenset(out)


#: Features left out of class keys: which encoding a block uses, whether it is a
#: response, has a namespace, is registered or closed. The rule, role and code of a key
#: already tell what matters of these, and a fault that shows in both encodings, or
#: under another name, stays one class. A profile other than ``client`` is a key
#: feature: the shrinker tries ``client`` first, so a minimal input keeps another
#: profile only when the fault needs it.
MARKERS: Final = frozenset({"fence", "tag", "response", "namespaced", "unregistered", "unclosed"})


#: Features of what a payload holds: they can make a block valid or not, never move it
#: (left out of keys whose role is where blocks are, :data:`WHERE_ROLES`).
PAYLOAD_FEATURES: Final = frozenset(
    {"yaml11", "yaml_tag", "alias", "curly_quote", "json_string", "long_text", "foreign_field"}
)
#: Class roles about where blocks are and what they are called (not what they hold).
WHERE_ROLES: Final = frozenset(
    {"boundary", "card", "block", "card_end", "end", "registration", "id"}
)


def key_features(op: str, body: Mapping[str, Any]) -> frozenset[str]:
    """:func:`features` without the :data:`MARKERS`: the features part of a class key."""
    return features(op, body) - MARKERS


def features(op: str, body: Mapping[str, Any]) -> frozenset[str]:
    """The features of one request body (docs/fuzzing.md, "Classes"): for ``segment``
    those of its ``text`` under its ``profile``, plus ``profile`` and ``message_id``
    when they are not the defaults (``client``, ``m``); for ``stream`` those of its
    whole message (``chunks`` joined) as for ``segment``; for the other ops those of
    ``arguments`` or ``answer``. Never raises."""
    if op == "stream":  # the features of the whole message
        chunks = body.get("chunks")
        parts = chunks if isinstance(chunks, list) else []
        whole = "".join(c for c in parts if isinstance(c, str))
        return features("segment", {**body, "text": whole})
    if op == "segment":
        text = body.get("text")
        profile = str(body.get("profile", "client"))
        out = set(text_features(text if isinstance(text, str) else "", profile))
        if profile != "client":
            out.add("profile")
        if body.get("message_id", "m") != "m":
            out.add("message_id")
        return frozenset(out)
    key = "arguments" if op == "questionnaire_async" else "answer"
    return json_features(body.get(key))


__all__ = [
    "FEATURES",
    "MARKERS",
    "PAYLOAD_FEATURES",
    "WHERE_ROLES",
    "features",
    "json_features",
    "key_features",
    "text_features",
]
