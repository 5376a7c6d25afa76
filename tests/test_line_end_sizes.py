"""Every size limit counts a line ending (``\\n``, ``\\r\\n``, a lone ``\\r``) as one
character, as CommonMark's content of a block has it (docs/protocol.md §1.5): the same
form measures the same, and hits ``limit.payload_size`` at the same limit, whatever its
line endings, in a fenced YAML payload, an XML+JSON request or response, and in
streaming."""

from __future__ import annotations

import pytest

from replykit import Limits, StreamSegmenter, segment
from replykit.text import measured_size

YAML = 'title: T\nquestions:\n  - type: free_text\n    text: Q?\n    default: ""\n'
JSON = '{\n"questions": [\n{"type": "text", "text": "Q"}\n]\n}'
RESPONSE = (
    '{\n"type": "questionnaire_response",\n"questionnaire_id": "m_q1",\n'
    '"status": "submitted",\n"answers": []\n}'
)
ENDINGS = ["\n", "\r\n", "\r"]


def _messages(nl: str) -> dict[str, tuple[str, int]]:
    """Each kind of payload with line endings ``nl`` and its size with LF."""
    return {
        "fenced": ("Intro\n\n```questionnaire\n" + YAML.replace("\n", nl) + "```\n", len(YAML)),
        "indented": (
            "Intro\n\n  ```questionnaire\n"
            + "".join("  " + line for line in YAML.splitlines(keepends=True)).replace("\n", nl)
            + "  ```\n",
            len(YAML),
        ),
        "xml": ("Intro <questionnaire>" + JSON.replace("\n", nl) + "</questionnaire>", len(JSON)),
        "response": (
            "<questionnaire-response>" + RESPONSE.replace("\n", nl) + "</questionnaire-response>",
            len(RESPONSE),
        ),
    }


def _size_findings(text: str, limit: int) -> list[tuple[str, str]]:
    result = segment(text, message_id="m", limits=Limits(max_payload=limit))
    stream = StreamSegmenter(message_id="m", limits=Limits(max_payload=limit))
    stream.push(text)
    assert stream.finish() == result
    return [(d.code, d.message) for d in result.diagnostics if d.code.startswith("limit.")]


@pytest.mark.parametrize("nl", ENDINGS)
@pytest.mark.parametrize("kind", ["fenced", "indented", "xml", "response"])
def test_a_line_ending_counts_as_one(kind: str, nl: str) -> None:
    text, size = _messages(nl)[kind]
    assert _size_findings(text, size) == []
    assert _size_findings(text, size - 1) == [
        (
            "limit.payload_size",
            f"the payload has {size} characters (a line ending counts as one); "
            f"the limit is {size - 1}",
        )
    ]


def test_the_details_give_the_measured_size() -> None:
    text, size = _messages("\r\n")["xml"]
    [found] = segment(text, limits=Limits(max_payload=size - 1)).diagnostics
    assert found.params["size"] == size
    assert measured_size("a\r\nb\rc\nd") == 7
    assert measured_size("\r\r\n\n") == 3
