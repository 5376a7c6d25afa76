#!/usr/bin/env python3
"""A small, deliberately different Inline Questionnaire splitter, for testing the fuzzer.

It speaks the fuzzing adapter protocol (docs/fuzzing.md) for ``segment`` only and
answers ``{"id", "unsupported": true}`` to the other operations. Standard library plus
PyYAML; it does not use replykit.

Planted departures from the reference (each one a classic client bug):

1. it does not know indented code blocks: a fence or tag indented 4+ spaces is live;
2. it accepts tilde fences (``~~~questionnaire``) as questionnaire fences;
3. a closing fence of 3 or more characters closes a questionnaire fence even when it is
   shorter than the opener;
4. it reads the payload with ``yaml.safe_load`` (YAML 1.1: ``yes``/``no``/``on``/``off``
   are booleans, ``9:16`` is 556, dates are dates);
5. it ignores the preface rule (a fenced form first thing in a message is fine).

Everything else follows the protocol roughly: top-level backtick fences, tags
``<N>...</N>`` anywhere outside code and HTML comments, single-line code spans,
the strict fenced field table, profiles and ids. For XML+JSON blocks it reports no
validity (so that field is not compared).
"""

from __future__ import annotations

import bisect
import json
import re
import sys
from typing import Any

import yaml

FAMILY = re.compile(r"(?:[a-z0-9]+-)?questionnaire")
OPEN_TAG = re.compile(r"<((?:[a-z0-9]+-)?questionnaire(?:-response)?)>")
FENCE = re.compile(r"( *)(`{3,}|~{3,})(.*)")  # any indentation: planted fault 1
CLOSER = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*")
LINE_END = re.compile(r"\r\n|\r|\n")
EXTRA_BLANKS = "\u200b\ufeff\u2060\u00ad"
TYPES = ("single_choice", "multi_choice", "free_text")

PROFILES = {
    "client": {"questionnaire", "sage-questionnaire"},
    "self_check": {
        "questionnaire",
        "yiii-questionnaire",
        "movo-questionnaire",
        "ling-questionnaire",
        "sage-questionnaire",
    },
}


def registered_names(profile: str) -> set[str]:
    """Request names a profile registers (``product:NAME`` adds ``NAME-questionnaire``)."""
    if profile.startswith("product:"):
        return {"questionnaire", profile[len("product:") :] + "-questionnaire"}
    return PROFILES.get(profile, PROFILES["client"])


def trim(s: str) -> str:
    """Strip whitespace and a few invisible format characters."""
    return s.strip().strip(EXTRA_BLANKS).strip()


def blank(s: object) -> bool:
    """True for a string with nothing visible in it."""
    return isinstance(s, str) and trim(s) == ""


def split_lines(text: str) -> list[tuple[int, int, int]]:
    """(start, content end, end with line ending) of every line."""
    out, pos = [], 0
    while pos < len(text):
        m = LINE_END.search(text, pos)
        if m is None:
            out.append((pos, len(text), len(text)))
            break
        out.append((pos, m.start(), m.end()))
        pos = m.end()
    return out


def check_form(data: Any) -> dict[str, Any] | None:
    """The normalized form when ``data`` obeys the strict fenced field table."""
    if not isinstance(data, dict) or set(data) - {"title", "questions"}:
        return None
    title, questions = data.get("title"), data.get("questions")
    if not isinstance(title, str) or blank(title):
        return None
    if not isinstance(questions, list) or not questions:
        return None
    out = []
    for n, q in enumerate(questions, start=1):
        if not isinstance(q, dict):
            return None
        if set(q) - {"type", "text", "options", "default", "allow_other"}:
            return None
        kind, text = q.get("type"), q.get("text")
        if kind not in TYPES or not isinstance(text, str) or blank(text) or "default" not in q:
            return None
        default = q["default"]
        if kind == "free_text":
            if "options" in q or "allow_other" in q or not isinstance(default, str):
                return None
            options: list[str] = []
        else:
            options = q.get("options")  # type: ignore[assignment]
            if not isinstance(options, list) or not options:
                return None
            if not all(isinstance(o, str) and not blank(o) for o in options):
                return None
            if not isinstance(q.get("allow_other", False), bool):
                return None
            if kind == "single_choice" and (not isinstance(default, str) or default not in options):
                return None
            if kind == "multi_choice" and (
                not isinstance(default, list)
                or not all(isinstance(d, str) and d in options for d in default)
            ):
                return None
        out.append(
            {
                "id": f"q{n}",
                "type": kind,
                "text": text,
                "options": [{"value": o, "label": o} for o in options],
                "default": default,
                "allow_other": bool(q.get("allow_other", False)) if kind != "free_text" else False,
            }
        )
    return {"title": title, "questions": out}


def read_payload(payload: str) -> dict[str, Any] | None:
    """Parse a fenced payload (YAML 1.1 via safe_load: planted fault 4)."""
    body = [ln for ln in payload.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not body or body[0].lstrip()[:1] in ("{", "["):
        return None
    if any(FENCE.fullmatch(ln) for ln in payload.splitlines()):
        return None
    try:
        data = yaml.safe_load(payload)
    except (yaml.YAMLError, RecursionError):
        return None
    return check_form(data)


def segment(text: str, message_id: str, profile: str) -> list[dict[str, Any]]:
    """Split ``text`` into segments (code-point offsets)."""
    names = registered_names(profile)
    lines = split_lines(text)
    starts = {start: i for i, (start, _, _) in enumerate(lines)}
    line_starts = [start for start, _, _ in lines]
    blocks: list[dict[str, Any]] = []
    pos = 0
    n = len(text)
    while pos < n:
        if pos in starts:
            i = starts[pos]
            start, content_end, _ = lines[i]
            first = 1 if start == 0 and text.startswith("\ufeff") else start
            m = FENCE.fullmatch(text, first, content_end)
            if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
                char, size = m.group(2)[0], len(m.group(2))
                info = trim(m.group(3))
                candidate = FAMILY.fullmatch(info) is not None  # tildes too: fault 2
                j, closed = i + 1, False
                while j < len(lines):
                    c = CLOSER.fullmatch(text, lines[j][0], lines[j][1])
                    if c and c.group(1)[0] == char:
                        run = len(c.group(1))
                        if run >= size or candidate:  # shorter closers: fault 3
                            closed = True
                            break
                    j += 1
                stop = lines[j][2] if closed else n
                if candidate:
                    indent = len(m.group(1))
                    payload_lines = [text[s:e] for s, _, e in lines[i + 1 : j]]
                    payload = "".join(
                        ln[min(indent, len(ln) - len(ln.lstrip(" "))) :] for ln in payload_lines
                    )
                    form = read_payload(payload) if closed else None
                    ok = info in names and form is not None  # no preface rule: fault 5
                    block = {
                        "kind": "questionnaire",
                        "start": start,
                        "end": stop,
                        "encoding": "fenced_yaml",
                        "name": info,
                        "registered": info in names,
                        "valid": ok,
                    }
                    if ok:
                        block["questionnaire"] = form
                    blocks.append(block)
                pos = stop
                continue
        k = bisect.bisect_right(line_starts, pos) - 1
        line_end = lines[k][1]
        pos = scan_inline(text, pos, line_end, names, blocks)
    return with_markdown(text, blocks, message_id)


def scan_inline(text: str, pos: int, line_end: int, names: set[str], blocks: list[Any]) -> int:
    """Scan one line from ``pos`` for a comment, a code span or an opening tag; return
    where to go on (maybe past the end of this line)."""
    while pos < line_end:
        comment = text.find("<!--", pos, line_end)
        tick = text.find("`", pos, line_end)
        tag = OPEN_TAG.search(text, pos, line_end)
        hits = [h for h in (comment, tick, tag.start() if tag else -1) if h >= 0]
        if not hits:
            break
        at = min(hits)
        if at == comment:
            close = text.find("-->", at + 4)
            return close + 3 if close >= 0 else len(text)
        if at == tick:
            run = re.match(r"`+", text[at:line_end])
            size = len(run.group()) if run else 1
            closer = re.compile(rf"(?<!`)`{{{size}}}(?!`)").search(text, at + size, line_end)
            pos = closer.end() if closer else at + size
            continue
        assert tag is not None
        name = tag.group(1)
        close = text.find(f"</{name}>", tag.end())
        if close < 0:
            pos = tag.end()
            continue
        end = close + len(name) + 3
        request = name[: -len("-response")] if name.endswith("-response") else name
        blocks.append(
            {
                "kind": "questionnaire_response" if name.endswith("-response") else "questionnaire",
                "start": at,
                "end": end,
                "encoding": "xml_json",
                "name": name,
                "registered": request in names,
            }
        )
        return end
    if text.startswith("\r\n", line_end):
        return line_end + 2
    return min(line_end + 1, len(text))


def with_markdown(text: str, blocks: list[dict[str, Any]], message_id: str) -> list[Any]:
    """Fill the gaps between blocks with Markdown segments and number the blocks."""
    out: list[dict[str, Any]] = []
    pos = 0
    for ordinal, block in enumerate(blocks, start=1):
        if block["start"] > pos:
            out.append({"kind": "markdown", "start": pos, "end": block["start"]})
        block["id"] = f"{message_id}_q{ordinal}"
        out.append(block)
        pos = block["end"]
    if pos < len(text):
        out.append({"kind": "markdown", "start": pos, "end": len(text)})
    for seg in out:
        seg["text"] = text[seg["start"] : seg["end"]]
    return out


def main() -> int:
    """Serve adapter requests until standard input ends."""
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        request = json.loads(line)
        rid = request.get("id")
        if request.get("op") == "segment":
            segments = segment(
                request["text"], request.get("message_id", "message"), request.get("profile", "")
            )
            response: dict[str, Any] = {"id": rid, "segments": segments}
        else:
            response = {"id": rid, "unsupported": True}
        sys.stdout.write(json.dumps(response, ensure_ascii=True, default=str) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
