"""replykit behind the adapter protocol's ``stream`` op with one streaming fault that
argv[1] names, for the fuzzer's tests (§10). Other ops are unsupported.

- ``early_block``: commits a block as soon as a reading of the text received shows it
  closed (its closer is seen, but a later backtick, ``-->`` or outer tag may still make
  it code, a comment or payload), and the Markdown before it;
- ``split_tag``: loses a family tag split across two chunks (reads each chunk's tags
  on their own): the block becomes text;
- ``withdraw``: commits each chunk's text as Markdown at once and later commits the
  block found there over it (rewrites finished text);
- ``utf16_text``: replykit's commits, each ``text`` sliced by UTF-16 code units (as a
  JavaScript client that takes offsets for string indices): wrong text once a
  character outside the BMP came;
- ``short``: one update fewer than chunks (an answer of the wrong shape).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from replykit import MarkdownCommit, StreamSegmenter, segment

TAG = re.compile(r"</?questionnaire(?:-response)?>")


def _early(chunks: list[str], message_id: str) -> list[dict[str, Any]]:
    updates, received, end = [], "", 0
    for chunk in chunks:
        received += chunk
        out = []
        for seg in segment(received, message_id=message_id).segments:
            closed = seg.kind != "markdown" and all(
                d.code != "fence.unclosed" for d in seg.diagnostics
            )
            if seg.start >= end and closed:
                if seg.start > end:
                    out.append({"kind": "markdown", "start": end, "end": seg.start})
                out.append(seg.to_json())
                end = seg.end
        updates.append({"committed": out})
    return updates


def _split_tag(chunks: list[str], message_id: str) -> dict[str, Any]:
    text = "".join(chunks)
    bounds, at = set(), 0
    for chunk in chunks[:-1]:
        at += len(chunk)
        bounds.add(at)
    seen = list(text)
    for m in TAG.finditer(text):
        if any(m.start() < b < m.end() for b in bounds):
            seen[m.start()] = "\u2039"  # the tag is lost: its "<" never seen
    result = segment("".join(seen), message_id=message_id).to_json()
    for seg in result["segments"]:
        seg.pop("text", None)
    return {"updates": [{"committed": []} for _ in chunks], **result}


def _withdraw(chunks: list[str], message_id: str) -> list[dict[str, Any]]:
    seg = StreamSegmenter(message_id=message_id)
    updates, end = [], 0
    for chunk in chunks:
        update = seg.push(chunk)
        out = [c.to_json() for c in update.committed if not isinstance(c, MarkdownCommit)]
        if update.received > end:
            out.append({"kind": "markdown", "start": end, "end": update.received})
            end = update.received
        updates.append({"committed": out})
    return updates


def _utf16_text(chunks: list[str], message_id: str) -> list[dict[str, Any]]:
    seg = StreamSegmenter(message_id=message_id)
    units = "".join(chunks).encode("utf-16-le")
    updates = []
    for chunk in chunks:
        out = []
        for c in seg.push(chunk).committed:
            item = c.to_json()
            item["text"] = units[2 * c.start : 2 * c.end].decode("utf-16-le", "replace")
            out.append(item)
        updates.append({"committed": out})
    return updates


def _short(chunks: list[str], message_id: str) -> list[dict[str, Any]]:
    return [{"committed": []} for _ in chunks[1:]]  # one update too few


def answer(request: dict[str, Any], fault: str) -> dict[str, Any]:
    rid = request.get("id")
    if request.get("op") != "stream":
        return {"id": rid, "unsupported": True}
    if request.get("profile", "client") != "client":
        return {"id": rid, "unsupported": "profile"}
    chunks, message_id = request["chunks"], request.get("message_id", "message")
    if fault == "split_tag":
        return {"id": rid, **_split_tag(chunks, message_id)}
    final = segment("".join(chunks), message_id=message_id).to_json()
    faults = {
        "early_block": _early, "withdraw": _withdraw, "utf16_text": _utf16_text, "short": _short
    }  # fmt: skip
    updates = faults[fault](chunks, message_id)
    return {"id": rid, "updates": updates, **final}


def main() -> int:
    fault = sys.argv[1]
    for line in sys.stdin.buffer:
        if line.strip():
            sys.stdout.write(json.dumps(answer(json.loads(line), fault)) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
