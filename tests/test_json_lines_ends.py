"""One line-end rule for JSON Lines readers and their error positions
(docs/protocol-responses.md section 3.1): a line ends at ``\\n``; ``\\r`` is white
space, counted in the column."""

from __future__ import annotations

from pathlib import Path

import pytest

from replykit.cli import main
from replykit.evals import audit_json
from replykit.evals.sources import Item, decode_record, records
from replykit.questionnaire.conversation.stored import ConversationError, read_conversations
from replykit.text import json_lines_line_col

A = '[{"role":"assistant","content":"x"}]'
B = '[{"role":"assistant","content":"y"}]'


def test_line_col_counts_lines_at_lf_only() -> None:
    text = "ab\r\ncd\ref\ngh"
    assert [json_lines_line_col(text, k) for k in (0, 2, 3, 4, 6, 7, 10)] == [
        (1, 1), (1, 3), (1, 4), (2, 1), (2, 3), (2, 4), (3, 1),
    ]  # fmt: skip


@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_lf_and_crlf_end_lines(end: str) -> None:
    got = read_conversations(A + end + B + end)
    assert [(c.line, c.value[0]["content"]) for c in got] == [(1, "x"), (2, "y")]


def test_a_lone_cr_is_white_space_inside_a_line() -> None:
    got = read_conversations(A + "\n" + '[{"role":"assistant",\r"content":"y"}]' + "\n")
    assert [(c.line, c.value[0]["content"]) for c in got] == [(1, "x"), (2, "y")]


def test_a_lone_cr_between_values_is_one_line_and_the_column_says_so() -> None:
    with pytest.raises(ConversationError) as info:
        read_conversations(A + "\r" + B + "\r")
    assert str(info.value) == (
        "not strict JSON at line 1, column 38: extra text after the JSON value, found '['"
    )
    with pytest.raises(ConversationError) as info:
        read_conversations(A + "\n[1,\r,2]\n")
    assert str(info.value).startswith("not strict JSON at line 2, column 5: ")


def test_check_reports_the_same_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cr.jsonl"
    path.write_text(A + "\r" + B + "\r", encoding="utf-8", newline="")
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"replykit check: error: conversation {path} is not strict JSON at line 1, column 38: "
        "extra text after the JSON value, found '['"
    )


def test_audit_splits_and_places_errors_by_the_same_rule() -> None:
    data = (A + "\n" + "[1,\r,2]\r\n" + B + "\r" + B + "\n").encode()
    lines = list(records(Item("f.jsonl", 1, "lines", data, len(data))))
    assert [item.line for item in lines] == [1, 2, 3]
    assert [decode_record(item)[1] for item in lines] == [
        None,
        "not strict JSON at column 5: expected a value after ',', found ','",
        "not strict JSON at column 38: extra text after the JSON value, found '['",
    ]
    assert audit_json("[1,\r,2]")["error"] == (
        "not strict JSON at column 5: expected a value after ',', found ','"
    )
    whole = Item("f.json", None, "json", "[1,\r,2]", 7)
    assert decode_record(whole)[1] == (
        "not strict JSON at line 1, column 5: expected a value after ',', found ','"
    )
