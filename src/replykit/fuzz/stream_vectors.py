"""Streaming conformance vectors: ``stream.json`` of ``replykit vectors export`` (§10).

Each case is a message cut into chunks. After each chunk, the case lists what an
implementation must not have committed yet (``not_committed``): every segment that a
reading of the text received so far shows and that the final reading shows otherwise
(a block that is withdrawn or changed later, Markdown that later becomes part of a
block, code or a comment). Whatever an implementation commits must be outside those
ranges and unchanged at the end; committing later than replykit is never wrong, so
replykit's own ``committed_end`` is given as information only. ``expected`` is the
final result, exactly as ``segment()`` (and ``finish()``) gives it.

The cases: hand-written streams of the usual faults (a tag or fence split across
chunks, a later backtick or comment closer that makes a complete-looking block inert, a
tentative tag that stays text, a reply with both encodings in chunks of 16), and the
conformance vectors of ``segment.json`` in which a prefix shows a block that the whole
message does not.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from replykit.codes.segment import FENCE_UNCLOSED
from replykit.questionnaire.model import Segment, Segmentation
from replykit.questionnaire.profiles import profile_from_string
from replykit.questionnaire.segmentation.segmenter import segment
from replykit.questionnaire.segmentation.stream import StreamSegmenter

STREAM_FORMAT = 1
_PAYLOAD = 'title: T\nquestions:\n  - type: free_text\n    text: Why?\n    default: ""\n'
_FORM = f"```questionnaire\n{_PAYLOAD}```\n"
_JSON = '{"title":"T","questions":[{"id":"a","type":"free_text","text":"Q","default":""}]}'
_XML = f"<questionnaire>{_JSON}</questionnaire>"
_REPLY = f"Intro.\n\n{_FORM}\nThen this one: {_XML}\n\nDone.\n"

#: The ``segment.json`` vectors of at most 600 code points in which a prefix shows a
#: closed block that the whole message does not (:func:`withdrawn`).
WITHDRAWN = frozenset({
    "code-span-one-backtick", "code-span-two-backticks", "escaped-then-real-code-span",
    "code-span-across-lines", "html-comment-inline", "xml-other-tags-in-json-string",
    "ids-examples-not-counted", "escaped-backslash-then-backtick", "comment-with-double-dash",
    "block-end-hidden-in-candidate",
})  # fmt: skip

#: Hand-written streams: (id, description, chunks).
HANDWRITTEN: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "tag-split",
        "an XML+JSON block whose tags are split across chunks",
        (
            "Intro.\n\n<questionn",
            'aire>{"title":"T","questions":[{"id":"a","type":"free_text","text":"Q","default":""}]}</question',
            "naire>\n\nDone.\n",
        ),
    ),
    (
        "fence-split",
        "a fenced form whose opener and closer are split across chunks",
        (
            "Intro.\n\n``",
            f"`questionnaire\n{_PAYLOAD}`",
            "``\n\nDone.\n",
        ),
    ),
    (
        "crlf-split",
        "a \\r\\n line ending split between chunks",
        (
            "Intro.\r",
            "\n\r\n" + _FORM.replace("\n", "\r\n")[:40],
            _FORM.replace("\n", "\r\n")[40:] + "\r\nDone.\r\n",
        ),
    ),
    (
        "later-backtick",
        "a complete block that a later backtick run makes code (§3b)",
        ("Look: `` ", _XML + "\n", "still `` text\n"),
    ),
    (
        "later-comment-closer",
        "a complete block inside a comment that a later --> closes (§3b)",
        ("Note <!-- draft ", _XML + "\n", "--> end\n"),
    ),
    (
        "tentative-stays-text",
        "an opening tag that never gets its closer (§3a)",
        ('Intro.\n\n<questionnaire>{"title":', '"T"}\n\nno closer here.\n'),
    ),
    (
        "reply-in-16s",
        "a reply with a fenced form and an XML+JSON form, 16 code points a chunk",
        tuple(_REPLY[i : i + 16] for i in range(0, len(_REPLY), 16)),
    ),
    (
        "outer-tag",
        "a fenced form inside an outer tag that closes later (§3a payload)",
        ("Intro <questionnaire>\n\n", _FORM, "\n</questionnaire>\n"),
    ),
    (
        "astral",
        "characters outside the BMP before and inside a form: offsets count code points, "
        "not UTF-16 units",
        (
            "Ready 😀🚀\n\n",
            _FORM.replace("title: T", "title: T 🎉")[:30],
            _FORM.replace("title: T", "title: T 🎉")[30:] + "\nDone 👍.\n",
        ),
    ),
)


def _json(result: Segmentation) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(result.to_json(), ensure_ascii=False))
    return out


def not_committed(prefix: Segmentation, final: Segmentation) -> list[dict[str, Any]]:
    """The segments of ``prefix`` (a reading of the text received) that ``final``
    shows otherwise: a block not in ``final`` unchanged, or the part of a Markdown
    segment that ``final`` does not hold as Markdown."""
    out: list[dict[str, Any]] = []
    finals = {(s.start, s.end): s for s in final.segments}
    markdown = [s for s in final.segments if s.kind == "markdown"]
    for seg in prefix.segments:
        if seg.kind != "markdown":
            if finals.get((seg.start, seg.end)) != seg:
                out.append({"kind": seg.kind, "start": seg.start, "end": seg.end, "id": seg.id})
            continue
        out.extend(_not_markdown(seg, markdown))
    return out


def _not_markdown(seg: Segment, markdown: list[Segment]) -> list[dict[str, Any]]:
    pos, out = seg.start, []
    for m in markdown:
        if m.end <= pos or m.start >= seg.end:
            continue
        if m.start > pos:
            out.append({"kind": "markdown", "start": pos, "end": m.start, "id": None})
        pos = min(m.end, seg.end)
    if pos < seg.end:
        out.append({"kind": "markdown", "start": pos, "end": seg.end, "id": None})
    return out


def stream_case(
    case_id: str, rule: str, description: str, chunks: list[str], profile: str, message_id: str
) -> dict[str, Any]:
    """One case: the chunks, after each the ranges not to commit and replykit's own
    committed end, and the final result."""
    prof = profile_from_string(profile)
    whole = "".join(chunks)
    final = segment(whole, message_id=message_id, profile=prof)
    seg = StreamSegmenter(message_id=message_id, profile=prof)
    steps, received = [], ""
    for chunk in chunks:
        update = seg.push(chunk)
        received += chunk
        prefix = segment(received, message_id=message_id, profile=prof)
        steps.append({
            "received": len(received),
            "not_committed": not_committed(prefix, final),
            "replykit_committed_end": update.committed_end,
        })  # fmt: skip
    return {
        "id": case_id, "rule": rule, "description": description, "profile": profile,
        "message_id": message_id, "chunks": chunks, "steps": steps, "expected": _json(final),
    }  # fmt: skip


def withdrawn(case: dict[str, Any]) -> int:
    """The end of the first prefix of the ``segment.json`` vector ``case`` that shows a
    closed block the whole message does not have at that start (it becomes text, code
    or payload), or 0: the vectors of :data:`WITHDRAWN` have one (a test checks)."""
    text = case["input"]
    final = segment(text, message_id=case["message_id"])
    starts = {s.start for s in final.segments if s.kind != "markdown"}
    for end in range(1, len(text)):
        prefix = segment(text[:end], message_id=case["message_id"])
        for seg in prefix.segments:
            closed = seg.kind != "markdown" and not _unclosed(seg)
            if closed and seg.start not in starts:
                return end
    return 0


def _unclosed(seg: Segment) -> bool:
    return any(d.code == FENCE_UNCLOSED.name for d in seg.diagnostics)


def stream_suite(segment_cases: list[dict[str, Any]]) -> dict[str, Any]:
    """``{"format", "cases"}``: the hand-written streams, the ``segment.json`` vectors
    (``segment_cases``) of :data:`WITHDRAWN`, cut at each line end and where the
    withdrawn block first shows."""
    cases = [stream_case(i, "§10", d, list(c), "client", "m") for i, d, c in HANDWRITTEN]
    for case in segment_cases:
        text = case["input"]
        if case["id"] not in WITHDRAWN:
            continue
        cuts = {i + 1 for i, ch in enumerate(text) if ch == "\n"} | {withdrawn(case)}
        points = [0, *sorted(c for c in cuts if 0 < c < len(text)), len(text)]
        chunks = [text[a:b] for a, b in itertools.pairwise(points)]
        description = f"segment.json case {case['id']}, cut at line ends and where a block shows"
        cases.append(stream_case(f"vector-{case['id']}", case["rule"], description,
                                 chunks, "client", case["message_id"]))  # fmt: skip
    return {"format": STREAM_FORMAT, "cases": cases}
