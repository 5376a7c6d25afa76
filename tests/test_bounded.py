"""Bounded output (§1, §2): the diagnostics cap, list limits checked before items are
read, and the message id limit, in ``segment()``."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import segment
from replykit.cap import Collector, cap
from replykit.cli import main
from replykit.diagnostics import Diagnostic, Finding, LeftOut
from replykit.questionnaire.limits import Limits
from replykit.questionnaire.model import Segmentation
from replykit.questionnaire.payload import normalize_form, read_fenced_form, read_xml_request
from replykit.questionnaire.profiles import SELF_CHECK


def fenced(body: str) -> str:
    return "Intro\n\n```questionnaire\n" + body + "```\n"


def xml(form: object) -> str:
    return "Intro <questionnaire>" + json.dumps(form) + "</questionnaire>"


def non_mapping_questions(n: int) -> str:
    return fenced("title: T\nquestions:\n" + "  - 5\n" * n)


# --- Limits.max_diagnostics ------------------------------------------------------------


def test_max_diagnostics_defaults_to_200_and_is_checked() -> None:
    assert Limits().max_diagnostics == 200
    with pytest.raises(ValueError, match="max_diagnostics"):
        Limits(max_diagnostics=0)
    with pytest.raises(TypeError):
        Limits(max_diagnostics="9")  # type: ignore[arg-type]


# --- Limits checked before items are read -----------------------------------------------


@pytest.mark.parametrize("n", [1001, 3001, 100_000])
def test_a_questions_list_over_the_limit_is_one_error_in_both_encodings(n: int) -> None:
    for text in (non_mapping_questions(n), xml({"questions": list(range(n))})):
        result = segment(text)
        assert [(d.code, d.path) for d in result.diagnostics] == [("limit.questions", "questions")]
        assert f"has {n} items" in result.diagnostics[0].message


def test_an_options_list_over_the_limit_is_one_error_and_stops_the_reading() -> None:
    options = "".join(f"      - {i}\n" for i in range(1001))  # integers: each one invalid
    text = fenced(
        "title: T\nquestions:\n  - type: single_choice\n    text: Q\n    options:\n"
        + options
        + "    default: x\n  - bogus\n"
    )
    result = segment(text)
    assert [(d.code, d.path) for d in result.diagnostics] == [
        ("limit.options", "questions[1].options")
    ]
    block = result.segments[1]
    assert not block.valid
    # The finding is on the list's first character (found without a span map of every
    # item), with that line and column.
    first = block.diagnostics[0]
    assert text[first.start : first.end] == "-"
    assert text[first.end :].startswith(" 0\n      - 1\n")
    assert (first.line, first.column) == (text[: first.start].count("\n") + 1, 7)


def test_a_multi_choice_default_over_the_options_limit_is_limit_options() -> None:
    form = {
        "questions": [
            {"type": "multi_choice", "text": "Q", "options": ["a"], "default": ["z"] * 1001}
        ]
    }
    result = segment(xml(form))
    assert [(d.code, d.path) for d in result.diagnostics] == [
        ("limit.options", "questions[1].default")
    ]


def test_response_lists_over_the_limits_are_one_error() -> None:
    answers = [{"question_id": "q", "type": "free_text", "answer": 1}] * 1001
    payload = {"type": "questionnaire_response", "questionnaire_id": "x", "answers": answers}
    text = "<questionnaire-response>" + json.dumps(payload) + "</questionnaire-response>"
    assert [(d.code, d.path) for d in segment(text).diagnostics] == [("limit.questions", "answers")]
    # Every one of 1000 options and "other" is one answer: 1001 values are read.
    one = {"question_id": "q", "type": "multi_choice", "answer": [1] * 1002}
    payload["answers"] = [one]
    text = "<questionnaire-response>" + json.dumps(payload) + "</questionnaire-response>"
    assert [(d.code, d.path) for d in segment(text).diagnostics] == [
        ("limit.options", "answers[1].answer")
    ]
    payload["answers"] = [{**one, "answer": [1] * 1001}]
    text = "<questionnaire-response>" + json.dumps(payload) + "</questionnaire-response>"
    assert "limit.options" not in [d.code for d in segment(text).diagnostics]


def test_readers_take_the_limits() -> None:
    small = Limits(max_questions=2)
    body = "title: T\nquestions:\n" + "  - type: free_text\n    text: Q\n    default: ''\n" * 3
    assert [f.code for f in read_fenced_form(body, limits=small).findings] == ["limit.questions"]
    payload = json.dumps({"questions": [{"type": "text", "text": "Q"}] * 3})
    assert [f.code for f in read_xml_request(payload, limits=small).findings] == ["limit.questions"]
    read = normalize_form(json.loads(payload), allow_extras=False, limits=small)
    assert [f.code for f in read.findings] == ["limit.questions"] and read.value is None


# --- The cap in segment() ----------------------------------------------------------------


def summary_of(result: Segmentation) -> Diagnostic:
    found = [d for d in result.diagnostics if d.code == "limit.diagnostics"]
    assert len(found) == 1
    return found[0]


def test_an_invalid_form_with_many_errors_gives_200_diagnostics_and_one_summary() -> None:
    result = segment(non_mapping_questions(999))
    assert len(result.diagnostics) == 200
    summary = summary_of(result)
    assert summary.severity == "warning" and summary.path is None
    assert summary.left_out == (LeftOut("question.not_mapping", "error", 800),)
    assert "800 more diagnostics are left out (the limit is 200)" in summary.message
    assert "question.not_mapping x800 (error)" in summary.message
    assert summary.to_json()["left_out"] == [
        {"code": "question.not_mapping", "severity": "error", "count": 800}
    ]
    # Placed where the first left-out one stood: right after the 199 kept.
    kept = [d for d in result.diagnostics if d.code == "question.not_mapping"]
    assert result.diagnostics[-1] is summary and len(kept) == 199
    assert summary.line == kept[-1].line + 1
    assert summary.start > kept[-1].start


def test_fewer_than_the_cap_are_untouched() -> None:
    result = segment(non_mapping_questions(200))
    assert len(result.diagnostics) == 200
    assert {d.code for d in result.diagnostics} == {"question.not_mapping"}


def test_other_diagnostics_have_no_left_out_key() -> None:
    result = segment(non_mapping_questions(3))
    assert all("left_out" not in d.to_json() for d in result.diagnostics)


def test_the_cap_never_hides_a_verdict() -> None:
    # Three invalid blocks, each with many errors, 250 near-misses, 20 unregistered.
    text = (
        non_mapping_questions(300)
        + "\n<questionnaire>[]</questionnaire>\n"
        + xml({"questions": list(range(400))})
        + "\n\nx"
        + " <questionnaire>" * 250
        + "\n\n"
        + "<x-questionnaire>{}</x-questionnaire>" * 20
    )
    result = segment(text, limits=Limits(max_diagnostics=50))
    codes = Counter(d.code for d in result.diagnostics)
    assert codes["near_miss.unclosed_tag"] == 250
    assert codes["name.unregistered"] == 20
    blocks = [s for s in result.segments if s.kind != "markdown"]
    invalid = [b for b in blocks if b.registered and not b.valid]
    assert len(invalid) == 3
    for block in invalid:
        assert block.diagnostics and block.diagnostics[0].severity == "error"
        assert block.diagnostics[0] in result.diagnostics
    # Protected ones alone exceed the cap: they and the summary are all that remain.
    assert len(result.diagnostics) == 250 + 20 + 3 + 1
    summary = summary_of(result)
    total = sum(c.count for c in summary.left_out)
    assert total == (300 - 1) + 0 + (400 - 1)  # the empty array is one error


def test_each_block_keeps_exactly_its_own_kept_diagnostics() -> None:
    text = non_mapping_questions(150) + "\n" + xml({"questions": list(range(150))})
    result = segment(text)
    blocks = [s for s in result.segments if s.kind != "markdown"]
    owned = [d for b in blocks for d in b.diagnostics]
    assert Counter(map(id, owned)) == Counter(map(id, result.diagnostics))
    # The summary belongs to the block of the first diagnostic left out: the second.
    assert [d.code for d in blocks[1].diagnostics].count("limit.diagnostics") == 1
    assert blocks[0].diagnostics and len(blocks[0].diagnostics) == 150
    assert len(result.diagnostics) == 200


def test_validity_is_decided_before_the_cap() -> None:
    # 300 warnings, then one error: the reader keeps the first error past its cap.
    options = "".join("      - a\n" for _ in range(301))
    text = fenced(
        "title: T\nquestions:\n  - type: single_choice\n    text: Q\n    options:\n"
        + options
        + "    default: b\n"
    )
    result = segment(text)
    block = result.segments[1]
    assert not block.valid and block.questionnaire is None
    assert "question.default_not_in_options" in [d.code for d in result.diagnostics]
    assert len(result.diagnostics) == 200


def test_a_valid_block_with_many_warnings_stays_valid() -> None:
    options = "".join("      - a\n" for _ in range(400))
    text = fenced(
        "title: T\nquestions:\n  - type: single_choice\n    text: Q\n    options:\n"
        + options
        + "    default: a\n"
    )
    result = segment(text)
    block = result.segments[1]
    assert block.valid and block.questionnaire is not None
    assert summary_of(result).left_out == (LeftOut("question.duplicate_option", "warning", 200),)


def test_self_check_verdict_survives_the_cap() -> None:
    text = non_mapping_questions(500)
    result = segment(text, profile=SELF_CHECK)
    assert any(d.severity == "error" for d in result.diagnostics)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(["bad", "near", "unreg", "dup", "ok"]), min_size=1, max_size=12),
    st.integers(1, 30),
)
def test_cap_properties(parts: list[str], limit: int) -> None:
    pieces = {
        "bad": non_mapping_questions(7),
        "near": "\nx <questionnaire> <Questionnaire>\n\n",
        "unreg": "\n<y-questionnaire>{}</y-questionnaire>\n",
        "dup": fenced(
            "title: T\nquestions:\n  - type: single_choice\n    text: Q\n"
            "    options: [a, a, a, a]\n    default: a\n"
        ),
        "ok": xml({"questions": [{"type": "text", "text": "Q"}]}),
    }
    text = "".join(pieces[p] for p in parts)
    full = segment(text, limits=Limits(max_diagnostics=10_000))
    capped = segment(text, limits=Limits(max_diagnostics=limit))
    # Segments and validity do not depend on the cap.
    assert [(s.start, s.end, s.valid) for s in capped.segments] == [
        (s.start, s.end, s.valid) for s in full.segments
    ]
    protected = [
        d
        for d in full.diagnostics
        if d.code.startswith("near_miss.") or d.code == "name.unregistered"
    ]
    firsts = [
        next(d for d in s.diagnostics if d.severity == "error")
        for s in full.segments
        if any(d.severity == "error" for d in s.diagnostics)
    ]
    kept = [d for d in capped.diagnostics if d.code != "limit.diagnostics"]
    for d in protected + firsts:
        assert d in kept
    assert kept == [d for d in full.diagnostics if d in kept]  # order kept
    summaries = [d for d in capped.diagnostics if d.code == "limit.diagnostics"]
    if len(full.diagnostics) <= limit:
        assert capped.diagnostics == full.diagnostics
    elif len(kept) == len(full.diagnostics):  # only protected ones: nothing to leave out
        assert not summaries
    else:
        assert len(summaries) == 1
        left = sum(c.count for c in summaries[0].left_out)
        assert left + len(kept) == len(full.diagnostics)
        assert len(capped.diagnostics) <= max(limit, len(protected) + len(firsts) + 1)
    owned = [d for s in capped.segments for d in s.diagnostics]
    outside = [d for d in capped.diagnostics if d.code.startswith("near_miss.")]
    assert Counter(map(id, owned + outside)) == Counter(map(id, capped.diagnostics))


# --- The cap primitives -----------------------------------------------------------------


def finding(code: str, severity: str = "error") -> Finding:
    return Finding(code, code, severity=severity)  # type: ignore[arg-type]


def test_collector_keeps_the_first_error_and_counts_the_rest() -> None:
    sink: Collector[Finding] = Collector(3, lambda f: f.code, lambda f: f.severity)
    for _ in range(5):
        sink.append(finding("w", "warning"))
    sink.append(finding("e"))
    sink.append(finding("e"))
    assert [f.code for f in sink] == ["w", "w", "w", "e"]
    assert sink.has_error
    overflow = sink.overflow
    assert overflow is not None
    assert overflow.counts == (LeftOut("w", "warning", 2), LeftOut("e", "error", 1))
    assert overflow.total == 3 and overflow.errors == 1


def test_cap_reserves_a_slot_for_the_summary() -> None:
    items = [finding(f"c{i}") for i in range(10)]
    kept, overflow, index = cap(items, 4, code=lambda f: f.code, severity=lambda f: f.severity)
    assert [f.code for f in kept] == ["c0", "c1", "c2"] and index == 3
    assert overflow is not None and overflow.total == 7 and overflow.first.code == "c3"


# --- The message id ----------------------------------------------------------------------


def test_a_message_id_over_128_characters_is_refused() -> None:
    assert segment("x", message_id="m" * 128).segments
    with pytest.raises(ValueError, match="128"):
        segment("x", message_id="m" * 129)


def test_the_cli_refuses_a_long_message_id(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:

    path = Path(str(tmp_path)) / "m.txt"
    path.write_text("Hi")
    assert main(["segment", str(path), "--message-id", "m" * 200]) == 2
    assert "128" in capsys.readouterr().err


def test_sage_filter_finds_every_bad_question_past_the_cap() -> None:
    questions = [{"type": "bogus", "text": "Q"}] * 250 + [{"type": "text", "text": "Q"}] * 50
    result = segment(xml({"questions": questions}), compat="sage")
    block = result.segments[1]
    assert block.valid and block.questionnaire is not None
    assert len(block.questionnaire.questions) == 50
    assert len(result.diagnostics) == 200
    assert summary_of(result).left_out == (LeftOut("compat.question_dropped", "warning", 51),)
