"""replykit.evals.audit_record (one stored record as JSON data, never raising) and the
tally that aggregates its results (pass rates with Wilson intervals, code rates)."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import CLIENT
from replykit.evals import (
    Tally,
    audit_json,
    audit_lines,
    audit_record,
    merge_tallies,
    tally_results,
    wilson,
)

FORM = (
    'Pick:\n\n<questionnaire>{"questions":[{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}]}</questionnaire>\n'
)
TILDE = "Pick one:\n\n~~~questionnaire\ntitle: T\n~~~\n"


def conversation(*replies: Any, model: str = "m1") -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    for reply in replies:
        messages += [{"role": "user", "content": "go"}, {"role": "assistant", "content": reply}]
    return {"model": model, "messages": messages}


def test_every_assistant_reply_of_a_conversation() -> None:
    result = audit_record(conversation(FORM, TILDE), group_by="model")
    assert result["group"] == "m1" and result["error"] is None
    assert [(m["index"], m["passed"], m["codes"], m["forms"]) for m in result["messages"]] == [
        (1, True, [], 1),
        (3, False, ["near_miss.tilde"], 0),
    ]
    assert result["messages"][1]["positions"] == [[3, 1]]
    assert result["messages"][1]["near_misses"] == ["tilde"]


def test_latest_only() -> None:
    result = audit_record(conversation(FORM, TILDE), latest=True)
    assert [m["index"] for m in result["messages"]] == [3]
    assert result["group"] == "all"


def test_content_blocks_tool_calls_and_ignored_types() -> None:
    record = [
        {"role": "user", "content": [{"type": "text", "text": "go"}]},
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "Pick:\n\n"}, {"type": "text", "text": FORM[7:]}],
        },
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c"}]},
        {"role": "assistant", "content": "  ", "message_type": "text"},
        {"role": "assistant", "content": TILDE, "message_type": "token_usage"},
    ]
    result = audit_record(record, expect="form")
    # The tool call is a reply too (one rule with Self-check); its text holds no block.
    assert [(m["index"], m["passed"], m["codes"]) for m in result["messages"]] == [
        (1, True, []),
        (2, False, ["expect.form_missing"]),
    ]


def test_single_message_and_bare_reply() -> None:
    one = audit_record({"role": "assistant", "content": TILDE})
    assert [(m["index"], m["passed"]) for m in one["messages"]] == [(0, False)]
    bare = audit_record(FORM, expect="none")
    assert [(m["index"], m["codes"]) for m in bare["messages"]] == [
        (None, ["expect.block_present"])
    ]


def test_eval_record_with_text_field_expect_field_and_dotted_group() -> None:
    record = {"output": FORM, "meta": {"model": "kestrel"}, "want": "none"}
    result = audit_record(record, text_field="output", expect_field="want", group_by="meta.model")
    assert result["group"] == "kestrel"
    assert result["messages"][0]["expect"] == "none"
    assert result["messages"][0]["passed"] is False
    # A conversation under the text field is read as one.
    nested = audit_record({"chat": conversation(TILDE)}, text_field="chat")
    assert [m["index"] for m in nested["messages"]] == [1]
    # A group value that is not a string is named by its JSON and its kind.
    assert (
        audit_record({"m": {"a": 1}, "messages": []}, group_by="m")["group"] == '{"a":1} (object)'
    )
    assert audit_record({"messages": []}, group_by="m")["group"] == "(no m)"


def test_profile_and_lenient() -> None:
    record = conversation(FORM.replace("questionnaire>", "yiii-questionnaire>"))
    assert audit_record(record)["messages"][0]["passed"] is True
    assert audit_record(record, profile=CLIENT)["messages"][0]["codes"] == ["name.unregistered"]
    lenient = audit_record(
        conversation(FORM.replace("<questionnaire>", "<Questionnaire>")), lenient=True
    )
    assert [(m["passed"], m["lenient_passed"]) for m in lenient["messages"]] == [(False, True)]


@pytest.mark.parametrize(
    ("record", "options", "error"),
    [
        (
            5,
            {},
            "a conversation must be a list of messages or an object with a messages list, "
            "not a number",
        ),
        ({"x": 1}, {"text_field": "reply"}, "the record has no field reply"),
        (
            [{"role": "assistant", "content": 3}],
            {},
            "messages[0].content must be a string, a list of content parts or null, not a number",
        ),
        (["hi"], {}, "messages[0] must be an object, not a string"),
        (
            {"want": "maybe", "messages": []},
            {"expect_field": "want"},
            'expect must be one of any, form, none, not "maybe"',
        ),
    ],
)
def test_unreadable_records_are_errors_not_exceptions(
    record: Any, options: dict[str, Any], error: str
) -> None:
    result = audit_record(record, **options)
    assert result["error"] == error
    assert result["messages"] == []


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["role", "content", "messages", "type", "text", "message_type"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)


@given(_json, st.sampled_from([None, "content", "messages"]), st.booleans())
def test_never_raises_and_is_json(record: Any, text_field: str | None, latest: bool) -> None:
    result = audit_record(record, text_field=text_field, latest=latest)
    assert set(result) == {"group", "error", "messages"}
    assert (result["error"] is None) or result["messages"] == []
    assert json.loads(json.dumps(result)) == result


def test_picklable() -> None:
    again = pickle.loads(pickle.dumps(audit_record))
    assert again(conversation(FORM)) == audit_record(conversation(FORM))


@pytest.mark.parametrize(
    ("passed", "total", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (0, 0, 0.0, 1.0),
    ],
)
def test_wilson(passed: int, total: int, low: float, high: float) -> None:
    assert tuple(round(x, 4) for x in wilson(passed, total)) == (low, high)


def test_wilson_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match="need 0 <= passed <= total, got 3 of 2"):
        wilson(3, 2)


def _results() -> list[dict[str, Any]]:
    records = [
        conversation(FORM, model="a"),
        conversation(TILDE, FORM, model="a"),
        conversation(TILDE, model="b"),
        7,
        conversation(FORM, model="b"),
    ]
    return [audit_record(r, group_by="model", expect="form") for r in records]


def test_summary_figures() -> None:
    summary = tally_results(_results()).summary()
    assert (summary["records"], summary["messages"], summary["passed"]) == (5, 5, 3)
    assert summary["input_errors"]["count"] == 1
    assert summary["input_errors"]["first"][0]["where"] == "record 4"
    a, b = summary["groups"]
    assert (a["group"], a["messages"], a["passed"], a["pass_rate"]) == ("a", 3, 2, 0.6667)
    assert a["wilson95"] == [round(x, 4) for x in wilson(2, 3)]
    assert a["codes"] == [
        {
            "code": "expect.form_missing",
            "messages": 1,
            "rate": 0.3333,
            "first": "record 2 message 1",
        },
        {
            "code": "near_miss.tilde",
            "messages": 1,
            "rate": 0.3333,
            "first": "record 2 message 1 at 3:1",
        },
    ]
    assert a["near_misses"] == [{"kind": "tilde", "messages": 1, "rate": 0.3333}]
    assert (b["messages"], b["passed"], b["lenient_pass_rate"]) == (2, 1, None)


def test_partial_tallies_merge_to_the_whole() -> None:
    results = _results()
    for i, r in enumerate(results):
        r["where"] = f"f.jsonl:{i + 1}"
    whole = tally_results(results).summary()
    parts = merge_tallies([tally_results(results[:2]), tally_results(results[2:])]).summary()
    assert parts == whole
    assert pickle.loads(pickle.dumps(Tally())) == Tally()


def test_errors_shown_are_bounded_and_all_counted() -> None:
    tally = Tally()
    for i in range(50):
        tally.error(f"f:{i}", "bad")
    tally.merge(tally_results([audit_record(1)] * 5))
    assert (tally.input_errors, len(tally.errors)) == (55, 20)


def test_audit_json_reads_strictly() -> None:
    assert audit_json('{"a": 1, "a": 2}')["error"] == (
        'not strict JSON at column 10: duplicate key "a"; each key may appear once'
    )
    assert audit_json(b"{}")["error"] == "not a text: bytes"  # type: ignore[arg-type]
    line = json.dumps(conversation(TILDE)) + "\n"
    assert audit_json(line, latest=True) == audit_record(conversation(TILDE), latest=True)


def test_audit_lines_judges_a_line_that_is_no_text_and_never_raises() -> None:
    lines: list[Any] = [5, None, b"{}", ("a", "b", "c"), ("\ufeff{}", "f.jsonl")]
    got = [(r["error"], r["where"]) for r in audit_lines(lines)]
    assert got[:4] == [
        ("not a text: int", "line 1"),
        ("not a text: NoneType", "line 2"),
        ("not a text: bytes", "line 3"),
        ("not a text: tuple", "line 4"),
    ]
    assert got[4][1] == "f.jsonl:1" and got[4][0].startswith("a conversation object needs")


def test_tallies_name_an_item_of_the_wrong_type() -> None:
    with pytest.raises(TypeError, match=r"tally_results\(\) argument 'results' item 0"):
        tally_results([1])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"merge_tallies\(\) argument 'tallies' item 0"):
        merge_tallies([1])  # type: ignore[list-item]
