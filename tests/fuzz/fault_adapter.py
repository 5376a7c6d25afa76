"""replykit behind the adapter protocol with the client faults argv[1] names (comma
separated), for the fuzzer's class tests: run as a process, or in the test's process
(:func:`responder`). ``segment`` only; other ops are unsupported.

Faults (each a realistic client bug):

- ``unclosed_as_text``: an unclosed fence is Markdown, not an invalid block (a
  harmless difference in representation: both show the text as not live);
- ``invalid_as_text``: an invalid block (any error) is Markdown (representation only);
- ``unregistered_as_text``: a block with an unregistered name is Markdown and is not
  counted, so later blocks get other ids;
- ``entity``: HTML entities are decoded before splitting;
- ``lone_cr``: a lone CR is not a line ending;
- ``escaped_backtick``: ``\\``` opens a code span like a bare backtick;
- ``client_only``: every profile is read as ``client`` (a client with one profile);
- ``profile_unsupported``: answers ``{"id", "unsupported": "profile"}`` for every
  profile but ``client``;
- ``nodiag``: no diagnostics in the answer (a client without replykit's codes).
"""

from __future__ import annotations

import html
import json
import re
import sys
from collections.abc import Callable
from typing import Any

from replykit import profile_from_string, segment

ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")
LONE_CR = re.compile(r"\r(?!\n)")


def decode(text: str) -> tuple[str, list[int]]:
    """``text`` with entities decoded, and the original offset of each decoded one."""
    out: list[str] = []
    where: list[int] = []
    pos = 0
    for m in ENTITY.finditer(text):
        for i in range(pos, m.start()):
            out.append(text[i])
            where.append(i)
        for ch in html.unescape(m.group()):
            out.append(ch)
            where.append(m.start())
        pos = m.end()
    for i in range(pos, len(text)):
        out.append(text[i])
        where.append(i)
    where.append(len(text))
    return "".join(out), where


def split(text: str, message_id: str, profile: str, faults: set[str]) -> list[dict[str, Any]]:
    """The segments of ``text`` as this faulty client sees them (code-point offsets)."""
    seen, where = text, list(range(len(text) + 1))
    if "entity" in faults:
        seen, where = decode(text)
    if "lone_cr" in faults:
        seen = LONE_CR.sub("\x0b", seen)
    if "escaped_backtick" in faults:
        seen = seen.replace("\\`", " `")
    if "client_only" in faults:
        profile = "client"
    result = segment(seen, message_id=message_id, profile=profile_from_string(profile))
    out: list[dict[str, Any]] = []
    for seg in result.to_json()["segments"]:
        seg["start"], seg["end"] = where[seg["start"]], where[seg["end"]]
        codes = {d["code"] for d in seg.get("diagnostics", [])}
        if seg["kind"] != "markdown" and (
            ("unclosed_as_text" in faults and "fence.unclosed" in codes)
            or ("invalid_as_text" in faults and seg.get("valid") is False)
            or ("unregistered_as_text" in faults and seg.get("registered") is False)
        ):
            seg = {"kind": "markdown", "start": seg["start"], "end": seg["end"]}
        if "nodiag" in faults:
            seg.pop("diagnostics", None)
        if out and out[-1]["kind"] == "markdown" and seg["kind"] == "markdown":
            out[-1]["end"] = seg["end"]
            continue
        out.append(seg)
    ordinal = 0
    for seg in out:
        seg["text"] = text[seg["start"] : seg["end"]]
        if seg["kind"] != "markdown":
            ordinal += 1
            seg["id"] = f"{message_id}_q{ordinal}"
    return out


def respond(request: dict[str, Any], faults: set[str]) -> dict[str, Any]:
    """The response to one request object, with ``faults``."""
    rid = request["id"]
    profile = request.get("profile", "client")
    if request.get("op") != "segment":
        return {"id": rid, "unsupported": True}
    if "profile_unsupported" in faults and profile != "client":
        return {"id": rid, "unsupported": "profile"}
    segments = split(request["text"], request.get("message_id", "m"), profile, faults)
    return {"id": rid, "segments": segments}


def responder(faults: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """:func:`respond` with the comma-separated ``faults``, for an in-process run."""
    chosen = set(faults.split(","))

    def fault_adapter(request: dict[str, Any]) -> dict[str, Any]:
        return respond(request, chosen)

    return fault_adapter


def main() -> int:
    faults = set(sys.argv[1].split(",")) if len(sys.argv) > 1 else set()
    for line in sys.stdin.buffer:
        sys.stdout.write(json.dumps(respond(json.loads(line), faults)) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
