"""``replykit stream --sse``: which events carry the message, and which end it badly.

Only choice 0 of an OpenAI stream is read; one byte-order mark at the start is
ignored (WHATWG); an error event, a stream without its end event, a file that is no
server-sent-event stream and a field of the wrong type are input errors (exit 2, one
line naming the stream and the line), the updates read before them printed and no
``done`` event (docs/cli.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replykit.cli import main
from replykit.cli.sse import NotText, delta_text, deltas, reported_error

DONE = "data: [DONE]\n\n"


def _oa(content: str, index: int | None = None) -> str:
    choice: dict[str, object] = {"delta": {"content": content}}
    if index is not None:
        choice["index"] = index
    return "data: " + json.dumps({"choices": [choice]}) + "\n\n"


def _responses(text: str) -> str:
    """A Responses stream event carrying ``text`` (with the event line servers send)."""
    data = {"type": "response.output_text.delta", "output_index": 0, "delta": text}
    return "event: response.output_text.delta\ndata: " + json.dumps(data) + "\n\n"


def _run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, encoding: str = "utf-8"
) -> tuple[int, list[dict[str, object]], str]:
    path = tmp_path / "s.sse"
    path.write_bytes(text.encode(encoding))
    code = main(["stream", "--sse", str(path)])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err.replace(str(path), "S")


def _done_text(events: list[dict[str, object]]) -> str:
    assert events[-1]["event"] == "done"
    segments = events[-1]["segments"]
    assert isinstance(segments, list)
    return "".join(s["text"] for s in segments)


def test_only_choice_zero_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _oa("B1 ", 1) + _oa("A1 ", 0) + _oa("B2", 1) + _oa("A2", 0) + DONE
    code, events, _ = _run(tmp_path, capsys, text)
    assert (code, _done_text(events)) == (0, "A1 A2")
    # Without an index a choice is choice 0 (the usual n = 1 stream).
    code, events, _ = _run(tmp_path, capsys, _oa("Hi") + _oa(" there") + DONE)
    assert (code, _done_text(events)) == (0, "Hi there")


def test_a_leading_byte_order_mark_is_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, events, _ = _run(tmp_path, capsys, "\ufeff" + _oa("Hello") + _oa(" world") + DONE)
    assert (code, _done_text(events)) == (0, "Hello world")
    assert list(deltas(["\ufeffdata: [DONE]", ""], "x")) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,'
            '"delta":{"type":"text_delta","text":"Partial"}}\n\nevent: error\ndata: {"type":'
            '"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
            "S line 5: the stream reports an error: overloaded_error: Overloaded",
        ),
        (
            _oa("Partial") + 'data: {"error":{"message":"server\\nerror"}}\n\n' + DONE,
            "S line 3: the stream reports an error: server error",
        ),
        (
            _oa("Partial"),
            "S: the stream ends without data: [DONE], message_stop or response.completed",
        ),
        ("data: [1, 2]\n\n" + DONE, "S line 1: event data must be an object, not an array"),
        ('data: "text"\n\n' + DONE, "S line 1: event data must be an object, not a string"),
        (
            _responses("Partial") + 'data: {"type":"response.failed","response":{"status":'
            '"failed","error":{"code":"server_error","message":"The model failed"}}}\n\n',
            "S line 4: the stream reports an error: server_error: The model failed",
        ),
        (
            'data: {"type":"error","code":"rate_limit_exceeded","message":"Slow down"}\n\n',
            "S line 1: the stream reports an error: rate_limit_exceeded: Slow down",
        ),
        (
            'data: {"type":"response.output_text.delta","delta":7}\n\n',
            "S line 1: event data delta must be a string or null, not a number",
        ),
        ('data: {"choices":[{"text":false}]}\n\n' + DONE, "choices[0].text must be a string"),
        ("# A Markdown file\n\nNot a stream.\n", "S: not a server-sent-event stream"),
        ('data: {"choices":{"delta":{}}}\n\n' + DONE, "line 1: event data choices must be a list"),
        ('data: {"choices":[3]}\n\n' + DONE, "choices[0] must be an object, not a number"),
        ('data: {"choices":[{"index":"0"}]}\n\n' + DONE, "choices[0].index must be an integer"),
        ('data: {"choices":[{"delta":[]}]}\n\n' + DONE, "choices[0].delta must be an object or"),
        ('data: {"type":"content_block_delta","delta":5}\n\n' + DONE, "delta must be an object"),
    ],
)
def test_a_broken_stream_is_an_input_error(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, events, err = _run(tmp_path, capsys, text)
    assert code == 2
    assert err.startswith("replykit stream: error: ") and err.count("\n") == 1, err
    assert message in err
    assert all(e["event"] != "done" for e in events)


def test_the_end_event_allows_blanks_and_ends_the_stream(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, events, _ = _run(tmp_path, capsys, _oa("a") + "data: [DONE] \n\n" + _oa("late"))
    assert (code, _done_text(events)) == (0, "a")


def test_the_field_rules() -> None:
    assert delta_text({"choices": []}) is None
    assert delta_text({"choices": [{"index": 1, "delta": {"content": "x"}}]}) is None
    assert delta_text({"choices": [{"index": 0, "delta": None}]}) is None
    assert delta_text({"choices": [{"index": 0, "delta": {"content": "x"}}]}) == "x"
    with pytest.raises(NotText, match=r"^choices\[0\]\.index must be an integer, not a boolean$"):
        delta_text({"choices": [{"index": True}]})
    assert reported_error({"type": "ping"}) is None
    assert reported_error({"error": "boom"}) == "boom"
    assert reported_error({"type": "error", "error": {"type": "x", "message": "m"}}) == "x: m"
    assert len(reported_error({"error": {"message": "y" * 500}}) or "") == 200


def test_a_legacy_completion_stream_carries_its_text_in_the_choice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    legacy = "".join(
        "data: "
        + json.dumps(
            {
                "object": "text_completion",
                "choices": [{"index": 0, "text": t, "finish_reason": None}],
            }
        )
        + "\n\n"
        for t in ("Hello", " there")
    )
    code, events, _ = _run(tmp_path, capsys, legacy + DONE)
    assert (code, _done_text(events)) == (0, "Hello there")


def test_a_responses_stream_is_read_to_its_end_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    created = 'event: response.created\ndata: {"type":"response.created","response":{}}\n\n'
    reasoning = 'data: {"type":"response.reasoning_summary_text.delta","delta":"hmm"}\n\n'
    body = _responses("Intro\n\n<questionnaire>") + _responses('{"title":"T"}</questionnaire>')
    for end in ("response.completed", "response.incomplete"):
        done = f'event: {end}\ndata: {{"type":"{end}","response":{{}}}}\n\n'
        text = created + reasoning + body + done + _responses("after the end")
        code, events, _ = _run(tmp_path, capsys, text)
        assert (code, _done_text(events)) == (
            0,
            'Intro\n\n<questionnaire>{"title":"T"}</questionnaire>',
        )
