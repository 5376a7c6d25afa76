"""Conversations as products store them (§8): shapes, content parts, JSON Lines, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replykit.cli import main
from replykit.cli.io import label
from replykit.diagnostics import Diagnostic
from replykit.questionnaire.conversation.selfcheck import SelfCheckResult, can_submit, self_check
from replykit.questionnaire.conversation.stored import (
    ConversationError,
    StoredConversation,
    conversation_messages,
    message_text,
    read_conversations,
)

SEED = Path(__file__).parent / "data" / "seed"
FORM = (SEED / "fenced_task_paused.md").read_bytes().decode("utf-8")
NEAR_MISS = "请选择：\n\n```Questionnaire\ntitle: T\n```\n"
XML = '<questionnaire>{"questions":[{"type":"text","text":"Why?"}]}</questionnaire>'
NEAR_MISS_DIAGNOSTIC = Diagnostic(
    "near_miss.case", "warning", "fence name 'Questionnaire' must be lower case: "
    "'questionnaire'", 6, 22, 3, 1, None,
)  # fmt: skip


def text_parts(*texts: str, kind: str = "text") -> list[dict[str, Any]]:
    return [{"type": kind, "text": t} for t in texts]


# --- OpenAI and Anthropic stored shapes ------------------------------------------------------


def openai_chat(*assistant_parts: dict[str, Any]) -> list[dict[str, Any]]:
    """A Chat Completions history: system string, user parts with an image, assistant parts."""
    return [
        {"role": "system", "content": "You are helpful."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Plan the trip"},
                {"type": "image_url", "image_url": {"url": "https://example.invalid/a.png"}},
            ],
        },
        {"role": "assistant", "content": list(assistant_parts)},
    ]


def anthropic(*assistant_parts: dict[str, Any]) -> dict[str, Any]:
    """A Messages API request body: ``system`` beside ``messages``, parts everywhere."""
    return {
        "model": "claude",
        "system": "You are helpful.",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Plan the trip"}]},
            {"role": "assistant", "content": list(assistant_parts)},
        ],
    }


def test_openai_chat_parts_pass_when_the_joined_text_is_a_form() -> None:
    parts = text_parts(FORM[:10], FORM[10:])
    assert self_check(openai_chat(*parts)) == SelfCheckResult(True, 2, (), None)


def test_openai_responses_output_text_parts_are_read() -> None:
    parts = [{"type": "output_text", "text": XML, "annotations": []}]
    assert self_check(openai_chat(*parts)).passed
    # A refusal part is no text: the message is blank and nothing is inspected.
    refusal = [{"type": "refusal", "refusal": "I can't."}]
    assert self_check(openai_chat(*refusal)) == SelfCheckResult(True, None, (), None)


def test_anthropic_text_and_tool_use_parts() -> None:
    tool_use = {
        "type": "tool_use",
        "id": "toolu_01",
        "name": "questionnaire_async",
        "input": {"questions": [{"type": "text", "text": "<questionnaire>"}]},
    }
    conversation = anthropic({"type": "text", "text": NEAR_MISS}, tool_use)
    result = self_check(conversation, locale="en")
    assert (result.passed, result.index) == (False, 1)
    assert result.diagnostics == (NEAR_MISS_DIAGNOSTIC,)
    # The tool_use input never reaches the text: alone it is a reply holding no form.
    assert self_check(anthropic(tool_use)) == SelfCheckResult(True, 1, (), None)


def test_offsets_refer_to_the_joined_text_and_other_parts_are_skipped() -> None:
    image = {"type": "image", "source": {"type": "base64", "data": "AAAA"}}
    parts = [{"type": "text", "text": "请选择"}, image, {"type": "text", "text": "：\n\n``"},
             {"type": "text", "text": "`Questionnaire\ntitle: T\n```\n"}]  # fmt: skip
    assert message_text({"content": parts}, 0) == NEAR_MISS
    result = self_check(openai_chat(*parts), locale="en")
    assert result.diagnostics == (NEAR_MISS_DIAGNOSTIC,)
    # The same text as a plain string gives the same result.
    plain = openai_chat()
    plain[2]["content"] = NEAR_MISS
    assert self_check(plain, locale="en") == result


def test_parts_join_with_nothing_between_them() -> None:
    split = text_parts(XML[:20], XML[20:41], XML[41:])
    assert message_text({"role": "assistant", "content": split}, 3) == XML
    assert self_check(anthropic(*split)).passed
    assert message_text({"content": []}, 0) == ""
    assert message_text({"content": None}, 0) is None
    assert message_text({}, 0) is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (3, "messages[1].content must be a string, a list of content parts or null, not a number"),
        ({"type": "text", "text": "x"}, "messages[1].content must be a string, a list"),
        (["x"], "messages[1].content[0] must be a content part object, not a string"),
        ([{"type": "text", "text": "a"}, None], "messages[1].content[1] must be a content part"),
        ([{"type": "text"}], "messages[1].content[0] has no text"),
        (
            [{"type": "text", "text": None}],
            "messages[1].content[0].text must be a string, not null",
        ),
        ([{"type": "output_text", "text": 5}], "messages[1].content[0].text must be a string"),
    ],
)
def test_a_content_that_is_neither_names_the_message(content: Any, message: str) -> None:
    conversation = [{"role": "user", "content": "q"}, {"role": "assistant", "content": content}]
    with pytest.raises(TypeError, match=message.replace("[", r"\[").replace("]", r"\]")):
        self_check(conversation)


def test_unknown_part_types_and_parts_without_type_are_skipped() -> None:
    parts = [
        {"text": "no type"},
        {"type": "TEXT", "text": "upper"},
        {"type": "text", "text": "ok"},
        {"type": "input_text", "text": "in"},
        {"type": "tool_result", "content": "r"},
    ]
    assert message_text({"content": parts}, 0) == "ok"


# --- conversation shapes ---------------------------------------------------------------------


def test_conversation_shapes() -> None:
    messages = [{"role": "assistant", "content": XML}]
    assert conversation_messages(messages) is messages
    assert conversation_messages({"messages": messages, "id": "c1"}) is messages
    one = {"role": "assistant", "content": XML}
    assert conversation_messages(one) == (one,)
    assert self_check(one) == SelfCheckResult(True, 0, (), None)
    assert self_check({"messages": messages}) == SelfCheckResult(True, 0, (), None)
    for bad, message in [
        ({"messages": "x"}, "messages must be a list, not a string"),
        ({"title": "x"}, "a conversation object needs a messages list"),
        ("text", "argument 'messages' must be a sequence"),
        (3, "argument 'messages' must be a sequence"),
    ]:
        with pytest.raises(TypeError, match=message):
            self_check(bad)  # type: ignore[arg-type]


def test_can_submit_reads_the_stored_shapes() -> None:
    form = anthropic({"type": "text", "text": FORM})
    assert can_submit(form, 1)
    later_image = [{"type": "image_url", "image_url": {"url": "x"}}]
    chat = [*openai_chat(*text_parts(FORM)), {"role": "assistant", "content": later_image}]
    # A later assistant message with no text does not count ...
    assert can_submit(chat, 2)
    # ... but one with text parts does, and so does a tool_use part (a tool form).
    chat[3]["content"] = text_parts("More")
    assert not can_submit(chat, 2)
    tool_use = {"type": "tool_use", "id": "t", "name": "questionnaire_async", "input": {}}
    chat[3]["content"] = [tool_use]
    assert not can_submit(chat, 2)
    assert can_submit(chat, 3)
    with pytest.raises(TypeError, match=r"messages\[3\]\.content\[0\]"):
        can_submit([*chat[:3], {"role": "assistant", "content": [1]}], 2)


# --- read_conversations ----------------------------------------------------------------------


def test_one_json_value_is_one_conversation() -> None:
    value = [{"role": "assistant", "content": "x"}]
    text = json.dumps(value, indent=2)
    assert read_conversations(text) == (StoredConversation(None, value),)
    assert read_conversations("\ufeff" + text) == (StoredConversation(None, value),)
    assert read_conversations(text, json_lines=False) == (StoredConversation(None, value),)


def test_json_lines_of_every_shape() -> None:
    lines = [
        '[{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]',
        "",
        '{"messages": [{"role": "assistant", "content": [{"type": "text", "text": "b"}]}]}\r',
        "   ",
        '{"role": "assistant", "content": "c"}',
    ]
    found = read_conversations("\n".join(lines) + "\n")
    assert [c.line for c in found] == [1, 3, 5]
    assert found[2].value == {"role": "assistant", "content": "c"}
    one = read_conversations(lines[4], json_lines=True)
    assert one == (StoredConversation(1, {"role": "assistant", "content": "c"}),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[", "not strict JSON at line 1, column 2: expected a value, found the end"),
        ('[{"role": "a", "role": "b"}]', "not strict JSON at line 1, column 16: duplicate key"),
        ("[NaN]", "not strict JSON at line 1, column 2"),
        # JSON Lines: the first bad line is named, with its column.
        ('[]\n[]\n  {"a": }\n[', "not strict JSON at line 3, column 9"),
        ('[]\n{"a": 1, "a": 2}', "not strict JSON at line 2, column 10: duplicate key"),
        # A first line that is no JSON value: the whole text is reported as one JSON text.
        ('[\n{"role": "user"}\n', "not strict JSON at line 3, column 1"),
        ('{\n"messages": []\n}\n{', "not strict JSON at line 4, column 1"),
    ],
)
def test_read_errors_name_the_line_and_column(text: str, message: str) -> None:
    with pytest.raises(ConversationError, match=message.replace("[", r"\[")):
        read_conversations(text)


def test_json_lines_mode_needs_a_conversation() -> None:
    with pytest.raises(ConversationError, match="no conversation"):
        read_conversations(" \n\n", json_lines=True)
    with pytest.raises(ConversationError, match="line 1, column 1"):
        read_conversations("", json_lines=False)


# --- the command line ------------------------------------------------------------------------


def put(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return str(path)


def test_check_reads_parts_and_messages_objects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = put(tmp_path, "c.json", json.dumps(anthropic(*text_parts(FORM[:5], FORM[5:]))))
    assert main(["check", path]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "passed": True, "index": 1, "diagnostics": [], "repair_prompt": None,
    }  # fmt: skip


def test_check_json_lines_prints_one_line_per_conversation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        json.dumps(openai_chat(*text_parts(FORM))),
        json.dumps({"role": "assistant", "content": NEAR_MISS}),
        "",
        json.dumps({"messages": []}),
    ]
    path = put(tmp_path, "c.jsonl", "\n".join(lines) + "\n")
    assert main(["check", path, "--locale", "en"]) == 1
    out = capsys.readouterr().out.splitlines()
    results = [json.loads(line) for line in out]
    assert [(r["line"], r["passed"], r["index"]) for r in results] == [
        (1, True, 2),
        (2, False, 0),
        (4, True, None),
    ]
    assert list(results[1]) == ["line", "passed", "index", "diagnostics", "repair_prompt"]
    assert results[1]["diagnostics"][0]["code"] == "near_miss.case"
    assert main(["check", path, "--format", "text", "--locale", "en"]) == 1
    text = capsys.readouterr().out
    # A long path is named once, then by its last characters (docs/cli.md).
    short = label(path)
    head = f"file: {path}\n" if short != path else ""
    assert text.startswith(f"{head}{short}:1: passed (message 2)\n{short}:2: failed (message 0)\n")
    assert f"{short}:2: message 0 3:1: warning near_miss.case" in text
    assert f"{short}:4: passed (no assistant reply to check)\n" in text


def test_check_jsonl_flag_reads_one_line_as_json_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = put(tmp_path, "one.jsonl", json.dumps([{"role": "assistant", "content": XML}]) + "\n")
    assert main(["check", path, "--jsonl"]) == 0
    assert capsys.readouterr().out == (
        '{"line":1,"passed":true,"index":0,"diagnostics":[],"repair_prompt":null}\n'
    )
    assert main(["check", path]) == 0
    assert json.loads(capsys.readouterr().out)["index"] == 0


def test_check_json_lines_errors_name_the_line_and_print_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = json.dumps([{"role": "assistant", "content": XML}])
    path = put(tmp_path, "bad.jsonl", f"{good}\n{good}\n[{{]\n")
    assert main(["check", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "is not strict JSON at line 3, column 3" in captured.err
    path = put(tmp_path, "shape.jsonl", f'{good}\n[{{"role": "assistant", "content": 7}}]\n')
    assert main(["check", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "replykit check: error: the conversation (line 2) is malformed: messages[0].content "
        "must be a string, a list of content parts or null, not a number\n"
    )
