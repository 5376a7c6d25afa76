"""For each fault family: what its inputs hold, and a faulty reading of them (test helper).

``feature(name, op, value)`` says whether an input has the family's construct (a
cheap look at the text or value). ``reaches(name, op, value)`` says whether a client
with the family's fault answers it differently from replykit: the fault is played by
rewriting the input the way such a client reads it (decoding entities, taking a tab
for one column, reading the payload as YAML 1.1 ...) and asking replykit about the
rewritten input. ``value`` is the message text, the tool arguments or the answer.
"""

from __future__ import annotations

import datetime
import functools
import html
import json
import re
from collections.abc import Callable
from typing import Any

import yaml

from replykit.actions.model import MAX_DESCRIPTION, MAX_ID, MAX_LABEL, MAX_TITLE
from replykit.fuzz import reference
from replykit.questionnaire.model import MAX_UI_TEXT
from replykit.testing.strategies.damaged import yaml_form
from replykit.testing.strategies.names import RENDERS_NOTHING

Body = dict[str, Any]


def body(op: str, value: Any) -> Body:
    """The request body of ``value`` for ``op`` (profile ``client``)."""
    if op == "segment":
        return {"text": value, "message_id": "m", "profile": "client"}
    if op == "questionnaire_async":
        return {"arguments": value}
    return {"answer": value}


def verdict(text: str, offsets: bool = False) -> Any:
    """What a user sees of ``text``: each block's kind, validity, registration and
    form, and the diagnostic codes (with ``offsets``, every segment's span too)."""
    answer = reference("segment", body("segment", text))
    blocks = [
        (s["kind"], s.get("valid"), s.get("registered"), json.dumps(s.get("questionnaire")))
        for s in answer["segments"]
        if s["kind"] != "markdown"
    ]
    seen: Any = (blocks, sorted(d["code"] for d in answer["diagnostics"]))
    if offsets:
        seen = (seen, [(s["start"], s["end"]) for s in answer["segments"]])
    return seen


# ---------------------------------------------------------------- faulty readings

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_INVISIBLE = re.compile("[\u200b\ufeff\u2060\u200c\u200d\u00ad\u00a0\u3000]")
_CONTAINER = re.compile(r"(?m)^(?:>[ ]?|[-*+][ ]|\d+[.)][ ])+")
_HTML_LINE = re.compile(r"(?m)^</?(?:details|div|pre|section|table|summary|td)\b[^\n]*\n")


def _spans_everywhere(text: str, escapes: bool) -> str:
    """Code spans matched across blank lines and blocks, masked with ``x`` (line
    endings kept): a regex client that knows only fence lines. With ``escapes``,
    ``\\``` is never a backtick, also inside a span."""
    if escapes:
        text = text.replace("\\`", "\\x")
    fences = {m.start(1) for m in re.finditer(r"(?m)^[ ]{0,3}(`{3,})", text)}
    runs = [m.span() for m in re.finditer("`+", text) if m.start() not in fences]
    out = list(text)
    i = 0
    while i < len(runs):
        start, end = runs[i]
        match = next(
            (k for k in range(i + 1, len(runs)) if runs[k][1] - runs[k][0] == end - start), None
        )
        if match is None:
            i += 1
            continue
        for p in range(start, runs[match][1]):
            if out[p] not in "\r\n":
                out[p] = "x"
        i = match + 1
    return "".join(out)


def _json_decoded(text: str) -> str:
    """A message that is a JSON string literal, decoded (others as they are)."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, str) else text


def _html_to_the_closer(text: str) -> str:
    """An HTML block inert up to its closing tag, blank lines or not."""
    text = re.sub(r"(?m)^<(?:details|div|pre|section|table)\b[^\n]*$", "<!--", text)
    return re.sub(r"(?m)^</\w+>[^\n]*$", "-->", text)


def _short_opener(text: str) -> str:
    opener = re.search(r"(?m)^(`{4,})questionnaire", text)
    if opener is None:
        return text
    size = len(opener.group(1))
    closers = re.findall(r"(?m)^(`{3,})[ \t]*$", text[opener.end() :])
    short = next((c for c in closers if len(c) < size), None)
    if short is None:
        return text
    return text[: opener.start()] + short + text[opener.start() + size :]


Rewrite = Callable[[str], str]

#: The ways a client with the family's fault reads a message; an input reaches the
#: fault when any of them changes what replykit answers.
READINGS: dict[str, tuple[Rewrite, ...]] = {
    "html-entities": (html.unescape,),
    "json-string-message": (_json_decoded,),
    "escaped-closer": (lambda t: t.replace("<\\/", "</"),),
    "lone-cr": (lambda t: re.sub(r"\r(?!\n)", " ", t),),
    "astral-offsets": (lambda t: _ASTRAL.sub("\ue000\ue000", t),),
    "utf16-lengths": (lambda t: _ASTRAL.sub("\ue000\ue000", t),),
    "code-span-blank-line": (lambda t: _spans_everywhere(t, False),),
    "escaped-backtick": (
        lambda t: _spans_everywhere(t, False),
        lambda t: _spans_everywhere(t, True),
    ),
    "html-block": (lambda t: _HTML_LINE.sub("", t), _html_to_the_closer),
    "html-comment": (lambda t: t.replace("<!--", "{!--").replace("-->", "--}"),),
    "four-space-continuation": (lambda t: re.sub(r"\n    (?=[<`])", "\n\n        ", t),),
    "tab-before-fence": (
        lambda t: t.replace("\t", " "),
        lambda t: re.sub(r"(?m)^[ \t]+(?=`{3}|<)", "", t),
    ),
    "fence-in-container": (lambda t: _CONTAINER.sub("", t),),
    "fence-dedent": (lambda t: re.sub(r"(?m)^ {1,3}(```questionnaire)", r"\1", t, count=1),),
    "short-closer": (_short_opener,),
    "name-case": (lambda t: re.sub(r"(?i)(?:sage-)?questionnaire", lambda m: m[0].lower(), t),),
    "tag-attributes": (lambda t: re.sub(r"<([a-z-]*questionnaire)[ \t][^>]*>", r"<\1>", t),),
    "unregistered-name": (
        lambda t: re.sub(r"\b(?:foo|x1|agent|zz)-questionnaire", "questionnaire", t),
    ),
    "invisible-preface": (lambda t: _INVISIBLE.sub("x", t),),
    "no-preface": (lambda t: "Intro\n\n" + t,),
    "curly-quote": (lambda t: t.translate(str.maketrans("“”‘’", '""""')),),
}


def _plain(value: Any) -> Any:
    # A YAML 1.1 date is no string: keep it a non-string JSON can write.
    if isinstance(value, datetime.date):
        return 0
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _decode_json_strings(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in ("{", "[", '"'):
        try:
            return _decode_json_strings(json.loads(value))
        except ValueError:
            return value
    if isinstance(value, dict):
        return {k: _decode_json_strings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode_json_strings(v) for v in value]
    return value


def _drop_bad_question(form: Any, path: str) -> Any:
    found = re.match(r"questions\[(\d+)\]", path or "")
    if found and isinstance(form, dict) and isinstance(form.get("questions"), list):
        form["questions"].pop(int(found.group(1)) - 1)
    return form


def _first_block(text: str) -> tuple[dict[str, Any], str, Any] | None:
    """The first block of ``text``, its raw payload and that payload read by PyYAML
    (YAML 1.1: aliases resolved, ``yes`` a boolean; JSON is YAML too); ``None`` when
    there is no block or PyYAML cannot read it."""
    answer = reference("segment", body("segment", text))
    block = next((s for s in answer["segments"] if s["kind"] != "markdown"), None)
    if block is None:
        return None
    raw = text[block["start"] : block["end"]]
    if block["encoding"] == "fenced_yaml":
        payload = "".join(raw.splitlines(keepends=True)[1:-1])
    else:
        payload = raw[len(block["name"]) + 2 : -(len(block["name"]) + 3)]
    try:
        return block, raw, _plain(yaml.safe_load(payload))
    except yaml.YAMLError:
        return None


def _first_payload(text: str) -> tuple[Any, list[dict[str, Any]]] | None:
    found = _first_block(text)
    if found is None:
        return None
    block, _, value = found
    return value, [d for d in block.get("diagnostics", []) if d["severity"] == "error"]


def _payload_reading(text: str, fix: Callable[[Any, str], Any]) -> str | None:
    """The first block's payload as PyYAML reads it, changed by ``fix(value, first
    error path)`` and written back in the block's encoding (see :func:`_first_block`)."""
    found = _first_block(text)
    if found is None:
        return None
    block, raw, value = found
    errors = [d for d in block.get("diagnostics", []) if d["severity"] == "error"]
    lines = raw.splitlines(keepends=True)
    value = fix(value, errors[0]["path"] if errors else "")
    if block["encoding"] == "fenced_yaml":
        if not isinstance(value, dict):
            return None
        new = lines[0] + yaml_form(value) + lines[-1]
    else:
        name = block["name"]
        new = f"<{name}>{json.dumps(value, ensure_ascii=False)}</{name}>"
    return text[: block["start"]] + new + text[block["end"] :]


#: Faulty readings of the payload of the first block, for the damaged-form families.
PAYLOAD_READINGS: dict[str, Callable[[Any, str], Any]] = {
    "json-string-payload": lambda value, path: _decode_json_strings(value),
    "one-bad-question": _drop_bad_question,
    "yaml-alias": lambda value, path: value,
    "yaml11-scalar": lambda value, path: value,
}


# ---------------------------------------------------------------- features

_ENTITY = re.compile(r"&(?:lt|gt|quot|grave|#\d+|#x[0-9a-fA-F]+);")
_TRAPS = r"(?:yes|no|on|off|Yes|NO|9:16|0o7|0o17|1_000|2026-11-30)"


def _before_fence(text: str) -> str | None:
    found = re.search(r"(?m)^\ufeff?`{3,}questionnaire", text)
    return None if found is None else text[: found.start()] + found.group()[:1].strip("`")


def _four_space_not_code(text: str) -> bool:
    # A line indented 4 spaces right after a paragraph line, or after a list item
    # line (and maybe one blank line): not indented code.
    lines = text.splitlines()
    item = re.compile(r"(?:[-*+]|\d+[.)]) ")
    for i, line in enumerate(lines):
        if not re.match(r" {4}\S", line) or i == 0:
            continue
        if lines[i - 1].strip() or (i > 1 and not lines[i - 1] and item.match(lines[i - 2])):
            return True
    return False


def _one_bad_question(text: str) -> bool:
    # A block of 2 or more questions whose errors are all about one of them.
    payload = _first_payload(text)
    if payload is None:
        return False
    value, errors = payload
    paths = {re.match(r"questions\[\d+\]", e["path"] or "") for e in errors}
    prefixes = {p.group() if p else None for p in paths}
    questions = value.get("questions") if isinstance(value, dict) else None
    return (
        isinstance(questions, list)
        and len(questions) >= 2
        and len(prefixes) == 1
        and None not in prefixes
    )


def _segment_feature(name: str, text: str) -> bool:
    before = _before_fence(text)
    checks: dict[str, Callable[[], bool]] = {
        "html-entities": lambda: bool(_ENTITY.search(text)),
        "json-string-message": lambda: text.startswith('"') and isinstance(json.loads(text), str),
        "escaped-closer": lambda: "<\\/" in text,
        "lone-cr": lambda: bool(re.search(r"\r(?!\n)", text)),
        "astral-offsets": lambda: bool(_ASTRAL.search(text.split("questionnaire")[0])),
        "utf16-lengths": lambda: any(
            len(m) <= MAX_UI_TEXT < _units(m) for m in re.findall(r'"((?:[^"\\]|\\.)*)"', text)
        ),
        "code-span-blank-line": lambda: bool(re.search(r"`[^`]*\n[ ]*\n[^`]*`", text)),
        "escaped-backtick": lambda: "\\`" in text,
        "html-block": lambda: bool(re.search(r"(?m)^<(?:details|div|pre|section|table)", text)),
        "html-comment": lambda: "<!--" in text,
        "four-space-continuation": lambda: _four_space_not_code(text),
        "tab-before-fence": lambda: bool(re.search(r"(?m)^[ ]{0,3}\t[ \t]*(?:`{3}|<)", text)),
        "fence-in-container": lambda: bool(
            re.search(r"(?m)^(?:>[ ]?|[-*+][ ]|\d+[.)][ ])+[ ]*`{3}questionnaire", text)
            or re.search(r"(?m)^(?:[-*+]|\d+[.)]) .*\n[ ]{2,3}`{3}questionnaire", text)
        ),
        "fence-dedent": lambda: bool(re.search(r"(?m)^ {1,3}`{3}questionnaire", text)),
        "short-closer": lambda: _short_opener(text) != text,
        "name-case": lambda: any(
            m[0] != m[0].lower() for m in re.finditer(r"(?i)(?:[a-z0-9]+-)?questionnaire", text)
        ),
        "tag-attributes": lambda: bool(re.search(r"<[a-z-]*questionnaire[ \t][^>]*>", text)),
        "unregistered-name": lambda: bool(re.search(r"\b(?:foo|x1|agent|zz)-questionnaire", text)),
        "invisible-preface": lambda: (
            before is not None
            and bool(_INVISIBLE.search(before))
            and not before.strip(" \n\u200b\ufeff\u2060\u200c\u200d\u00ad\u00a0\u3000")
        ),
        "no-preface": lambda: (
            before is not None
            and not re.sub(
                r"(?s)`code`|<!--.*?-->|```\ncode\n```|    code|<(\w+)>.*?</\1>",
                "",
                functools.reduce(
                    lambda b, piece: b.replace(piece, ""),
                    sorted(RENDERS_NOTHING, key=len, reverse=True),
                    before,
                ),
            ).strip()
        ),
        "curly-quote": lambda: bool(re.search("[“”‘’]", text)),
        "json-string-payload": lambda: '\\"' in text,
        "one-bad-question": lambda: _one_bad_question(text),
        "yaml-alias": lambda: bool(re.search(r"&\w+[ \n]", text) and re.search(r"\*\w+", text)),
        "yaml11-scalar": lambda: bool(
            re.search(rf"(?m)(?::|- |\[)[ ]?{_TRAPS}[ ]*(?:$|,|\]|\}})", text)
        ),
    }
    return checks[name]()


def _actions_of(answer: Any) -> list[Any]:
    if not isinstance(answer, dict):
        return []
    data = answer.get("answerData")
    found = data.get("actions") if isinstance(data, dict) else answer.get("actions")
    return found if isinstance(found, list) else []


def _has_url(action: Any) -> bool:
    if not isinstance(action, dict):
        return False
    inner = [action.get("params"), action.get("target")]
    return "url" in action or any(isinstance(d, dict) and "url" in d for d in inner)


def _units(text: str) -> int:
    """The length of ``text`` in UTF-16 code units (JavaScript's ``.length``)."""
    return len(text.encode("utf-16-le")) // 2


def _utf16_over(action: Any) -> bool:
    limits = {"label": MAX_LABEL, "id": MAX_ID, "title": MAX_TITLE, "description": MAX_DESCRIPTION}
    return isinstance(action, dict) and any(
        isinstance(action.get(k), str) and len(action[k]) <= limit < _units(action[k])
        for k, limit in limits.items()
    )


def feature(name: str, op: str, value: Any) -> bool:
    """``value`` (for ``op``) holds the construct family ``name`` is about."""
    if name == "tool-one-rule":
        result = reference(op, body(op, value))["result"]
        return op == "questionnaire_async" and len(result.get("errors", [])) <= 1
    if name.startswith("action-"):
        items = _actions_of(value) if op == "sanitize_actions" else []
        if name == "action-url":
            return any(_has_url(a) for a in items)
        if name == "action-label-utf16":
            return any(_utf16_over(a) for a in items)
        ids = [a.get("id") for a in items if isinstance(a, dict)]
        return len(ids) != len(set(map(str, ids)))
    return op == "segment" and isinstance(value, str) and _segment_feature(name, value)


#: The question fields §7 normalizes (trim, null as absent, aliases, repeats).
_NORMALIZED = ("type", "text", "default", "id", "allow_other")


def _tool_skips_one_check(args: Any, result: dict[str, Any]) -> bool:
    """A tool that skips the one §7 check at stake answers ``args`` otherwise: with
    one error code, a tool without that check accepts; on valid arguments, a tool
    that does not normalize echoes a field replykit changed (a value trimmed, ``null``
    taken as absent, a type alias, a repeated default, ``title`` for ``text``)."""
    if not result["success"]:
        return len({e["code"] for e in result["errors"]}) == 1
    if "title" in args and args["title"] != result["title"]:
        return True
    for sent, shown in zip(args["questions"], result["questions"], strict=True):
        if "text" not in sent or any(k in sent and sent[k] != shown[k] for k in _NORMALIZED):
            return True
    return False


def _with_actions(answer: Any, change: Callable[[list[Any]], list[Any]]) -> Any:
    """``answer`` with its action list (wrapped or not) replaced by ``change(list)``."""
    answer = json.loads(json.dumps(answer))
    data = answer.get("answerData")
    holder = data if isinstance(data, dict) and "actions" in data else answer
    holder["actions"] = change(holder["actions"])
    return answer


def _renamed_repeats(items: list[Any]) -> list[Any]:
    # A sanitizer that never compares ids: each repeat gets an id of its own.
    seen: set[Any] = set()
    out = []
    for index, item in enumerate(items):
        if isinstance(item, dict) and item.get("id") in seen:
            item = {**item, "id": f"fresh{index}"}
        seen.add(item.get("id") if isinstance(item, dict) else None)
        out.append(item)
    return out


def _dropped_repeats(items: list[Any]) -> list[Any]:
    # A sanitizer whose dropped actions claim their ids too: every repeat goes.
    seen: set[Any] = set()
    out = []
    for item in items:
        key = item.get("id") if isinstance(item, dict) else None
        if key is None or key not in seen:
            out.append(item)
        seen.add(key)
    return out


def _shown(answer: Any) -> Any:
    """What a user sees of a sanitized ``answer``: each kept action's type and label,
    and the diagnostic codes."""
    result = reference("sanitize_actions", body("sanitize_actions", answer))["result"]
    kept = [(a["type"], a["label"]) for a in result["actions"]]
    return kept, sorted(d["code"] for d in result["diagnostics"])


def reaches(name: str, op: str, value: Any) -> bool:
    """A client with family ``name``'s fault answers ``value`` otherwise than replykit."""
    if op == "segment":
        if name in PAYLOAD_READINGS:
            changed = _payload_reading(value, PAYLOAD_READINGS[name])
            return changed is not None and verdict(changed) != verdict(value)
        offsets = name == "astral-offsets"
        mine = verdict(value, offsets)
        return any(verdict(read(value), offsets) != mine for read in READINGS[name])
    result = reference(op, body(op, value))["result"]
    if name == "tool-one-rule":
        return _tool_skips_one_check(value, result)
    kept = result["actions"]
    if name == "action-url":
        # The action that carried the url is kept without it, and the removal reported.
        carriers = {a.get("id") for a in _actions_of(value) if _has_url(a)}
        return any(a["id"] in carriers and not _has_url(a) for a in kept) and any(
            d["path"].endswith(".url") for d in result["diagnostics"]
        )
    if name == "action-duplicate-id":
        mine = _shown(value)
        readings = (_renamed_repeats, _dropped_repeats)
        return any(_shown(_with_actions(value, read)) != mine for read in readings)
    return any(_utf16_over(a) for a in kept)
