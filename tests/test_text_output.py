"""Human-readable output is inert (§1): no value from input can add an output line, hide
text or send a terminal control, in every text view and on standard error."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from replykit import segment, self_check
from replykit.actions import ActionContext, sanitize, with_defaults
from replykit.cli import actions as actions_cli
from replykit.cli.conversation import _check_text
from replykit.cli.io import label
from replykit.cli.segment import segment_text
from replykit.fuzz.report import report_text
from replykit.fuzz.runner import FuzzClass, FuzzReport
from replykit.questionnaire.limits import message_id_problem
from replykit.textout import escape, value_lines

UNSAFE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs"}
# Characters that have forged lines, hidden text or reached a terminal in some client.
HOSTILE = [
    "\x1b]0;pwned\x07", "\x1b[2J", "\n", "\r", "\r\n", "\t", "\x00", "\x7f", "\x85",
    "\x9b31m", "\u2028", "\u2029", "\u202e", "\u2066", "\u2069", "\u200b", "\u2060",
    "\ufeff", "\u00ad", "\ud800", "\udfff", "\U000e0041", "\U0001d173",
    "q9 [free_text] FAKE", "<stdin>:9:9: error x y", "  | ", "  2. x", "added (0):",
]  # fmt: skip
values = st.lists(
    st.one_of(st.sampled_from(HOSTILE), st.text(st.characters(exclude_categories=()))),
    max_size=5,
).map("".join)


def unsafe_chars(text: str) -> list[str]:
    """Characters the interpreter's Unicode database calls controls, format characters,
    line/paragraph separators or surrogates (independent of replykit's pinned table)."""
    return [c for c in text if unicodedata.category(c) in UNSAFE_CATEGORIES]


def assert_inert(out: str) -> list[str]:
    assert out.endswith("\n")
    lines = out[:-1].split("\n")
    assert unsafe_chars(out.replace("\n", "")) == []
    return lines


# ---------------------------------------------------------------- the escaping itself


def test_escape_writes_json_style_escapes() -> None:
    assert escape("T\x1b]0;pwned\x07") == "T\\u001b]0;pwned\\u0007"
    assert escape("a\nb\r\nc\td") == "a\\nb\\r\\nc\\td"
    assert escape("\u202eetelpmoC\u202c") == "\\u202eetelpmoC\\u202c"
    assert escape("x\u200by\u2060z\ufeff") == "x\\u200by\\u2060z\\ufeff"
    assert escape("\x85\x9b\u2028\ud800") == "\\u0085\\u009b\\u2028\\ud800"
    assert escape("\U000e0041") == "\\udb40\\udc41"  # a tag character, as JSON writes it
    assert escape("中文 \\n café 😀") == "中文 \\n café 😀"  # visible text untouched


def test_the_pinned_table_covers_this_interpreters_unicode() -> None:
    every = "".join(chr(c) for c in range(0x110000))
    assert unsafe_chars(escape(every)) == []


@given(values)
def test_escape_leaves_no_line_break_or_control_and_loses_nothing(value: str) -> None:
    out = escape(value)
    assert unsafe_chars(out) == []
    assert "\n" not in out and "\r" not in out
    assert escape(out) == out
    # Without backslashes in the value, the escapes read back as JSON give it again
    # (two adjacent lone surrogates would read back as one pair: left out).
    assume("\\" not in value and not re.search("[\ud800-\udbff][\udc00-\udfff]", value))
    assert json.loads('"' + out.replace('"', '\\"') + '"') == value


@given(values)
def test_value_lines_split_only_at_line_endings(value: str) -> None:
    lines = value_lines(value)
    assert len(lines) == len(re.findall(r"\r\n|\r|\n", value)) + 1
    assert all(unsafe_chars(line) == [] for line in lines)


# ---------------------------------------------------------------- segment --format text


ISSUE_EXAMPLE = (
    'Hi\n<questionnaire>{"title":"T\\u001b]0;pwned\\u0007","questions":[{"type":"text",'
    '"text":"x\\nq9 [free_text] FAKE"}]}</questionnaire>'
)


def test_segment_text_cannot_forge_a_line_or_send_escapes() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "replykit.cli", "segment", "--format", "text"],
        input=ISSUE_EXAMPLE.encode("utf-8"),
        capture_output=True,
        timeout=60,
        check=True,
    )
    assert proc.stdout.decode("utf-8") == (
        "<stdin>:1-1: markdown\n"
        "<stdin>:2-2: questionnaire xml_json questionnaire message_q1 valid\n"
        "  title: T\\u001b]0;pwned\\u0007\n"
        "  q1 [free_text] x\\nq9 [free_text] FAKE\n"
    )
    assert b"\x1b" not in proc.stdout and b"\x07" not in proc.stdout


@st.composite
def forms(draw: st.DrawFn) -> tuple[str, str, str]:
    """A message with an XML+JSON form whose every string is arbitrary, a message id and
    a file name, both arbitrary too."""
    question = {
        "type": draw(st.sampled_from(["single_choice", "multi_choice", "text"])),
        "text": draw(values),
        "options": draw(st.lists(values, min_size=1, max_size=3)),
    }
    form = {"title": draw(values), "questions": [question]}
    answer = {"question_id": "q1", "type": "free_text", "answer": draw(values)}
    response = {
        "type": "questionnaire_response",
        "questionnaire_id": draw(values),
        "status": "submitted",
        "answers": [answer],
    }
    text = (
        f"{draw(values)}\n<questionnaire>{json.dumps(form)}</questionnaire>{draw(values)}"
        f"<questionnaire-response>{json.dumps(response)}</questionnaire-response>"
    )
    # segment() refuses a message id that is empty or only white space, longer than 128
    # code points or holding a surrogate (§6): the id is drawn within the rule.
    message_id = draw(values.filter(lambda s: message_id_problem(s) is None))
    return text, message_id, draw(values)


@given(forms())
def test_segment_text_has_one_line_per_item_whatever_the_values(
    case: tuple[str, str, str],
) -> None:
    text, message_id, name = case
    result = segment(text, message_id=message_id)
    lines = assert_inert(segment_text(name, text, result))
    expected = len(result.segments) + len(result.diagnostics)
    for seg in result.segments:
        if seg.questionnaire is not None:
            expected += 1 + len(seg.questionnaire.questions)
        if seg.response is not None:
            expected += len(seg.response.answers)
    # A long name is printed once on a first line, then shortened (docs/cli.md).
    if label(name) != escape(name):
        assert lines.pop(0) == f"file: {escape(name)}"
    assert len(lines) == expected
    head = re.escape(label(name))
    shapes = [
        rf"{head}:\d+-\d+: markdown",
        rf"{head}:\d+-\d+: questionnaire(_response)? \S+ \S+ .* (valid|invalid|unregistered)",
        r"  title: .*",
        r"  q\d+ \[(single_choice|multi_choice|free_text)\] .*",
        r"  \S+: .*",
        rf"{head}:\d+:\d+: (error|warning) [a-z_.]+ .*",
    ]
    for line in lines:
        assert any(re.fullmatch(shape, line) for shape in shapes), line


# ---------------------------------------------------------------- actions --format text


@st.composite
def action_answers(draw: st.DrawFn) -> dict[str, Any]:
    kinds = ["view.detail", "conversation.continue", "business.execute", "render.change"]
    actions = []
    for _ in range(draw(st.integers(1, 4))):
        action: dict[str, Any] = {
            "id": draw(values),
            "type": draw(st.sampled_from(kinds)),
            "label": draw(values),
            "title": draw(values),
            "params": {"prompt": draw(values), "chartType": "bar"},
        }
        action[draw(values)] = draw(values)  # an unknown field, named by the input
        actions.append(action)
    return {"actions": actions}


@given(action_answers(), st.booleans())
def test_actions_text_keeps_every_value_on_its_line(answer: dict[str, Any], lint: bool) -> None:
    context = ActionContext(hasFullDetails=True, question="q\n  2. x")
    lines = assert_inert(actions_cli.format_text(answer, context, lint))
    action_set = with_defaults(sanitize(answer), context)
    shown = (*action_set.actions, *action_set.added)
    prompt_lines = sum(len(value_lines(a.prompt)) - 1 for a in shown if a.prompt is not None)
    sections = 4 if lint else 3
    assert len([line for line in lines if not line.startswith(" ")]) == sections
    continuation = [line for line in lines if re.match(r" +\| ", line)]
    assert len(continuation) == prompt_lines
    for line in lines:
        assert re.fullmatch(r"(actions|added|diagnostics|lint) \(.*\):|  \S.*| {5,}\| .*", line)


def test_actions_text_escapes_escape_and_bidi() -> None:
    answer = {
        "actions": [
            {
                "id": "a\x1b[31m",
                "type": "business.cancel",
                "label": "\u202eetelpmoC\u202c",
                "params": {"prompt": "line one\nline two\x07"},
            }
        ]
    }
    out = actions_cli.format_text(answer, ActionContext(), False)
    assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out
    action_lines = out.split("added (")[0].splitlines()[1:]
    assert len(action_lines) in (1, 2)  # kept with its prompt, or dropped as unsafe
    if len(action_lines) == 2:
        assert action_lines == [
            '  1. "a\\u001b[31m"  business.cancel  "\\u202eetelpmoC\\u202c"  [confirm]'
            "  prompt: line one",
            "       | line two\\u0007",
        ]


# ---------------------------------------------------------------- check --format text


@given(values)
def test_check_text_marks_every_line_of_the_repair_prompt(value: str) -> None:
    content = f"{value}\n\n```Questionnaire\ntitle: {json.dumps(value)}\n```\n"
    result = self_check([{"role": "assistant", "content": content}])
    # A value can hide the form from Markdown (value "<!A" opens an HTML block that no
    # ">" ends): then nothing fails and there is no prompt to show.
    assume(result.repair_prompt is not None)
    assert result.repair_prompt is not None
    lines = assert_inert(_check_text(result, "conv\x1b.json"))
    assert lines[0] == "conv\\u001b.json: failed (message 0)"
    at = lines.index("conv\\u001b.json: repair prompt:")
    assert at == 1 + len(result.diagnostics)
    assert all(line.startswith("conv\\u001b.json: message 0 ") for line in lines[1:at])
    prompt = lines[at + 1 :]
    assert len(prompt) == len(value_lines(result.repair_prompt))
    assert all(line.startswith("conv\\u001b.json:   | ") for line in prompt)


# ---------------------------------------------------------------- fuzz report.txt


@given(values, values, values, values)
def test_fuzz_report_text_has_fixed_lines_whatever_the_adapter_wrote(
    text: str, detail: str, field: str, kind: str
) -> None:
    disagreement = FuzzClass(
        rule="§2",
        op="segment",
        input={"text": text, "message_id": text, "profile": "client"},
        field=field,
        expected=text,
        actual={"x": detail},
        expected_response={"segments": [{"kind": "markdown", "start": 0, "end": 1}]},
        actual_response={"segments": [{"kind": kind, "start": text, "end": 1, "name": text}]},
        count=1,
        found_after_examples=1,
        found_after_seconds=0.5,
    )
    failure = FuzzClass(
        rule="adapter.crash",
        op="sanitize_actions",
        input={"answer": {text: detail}},
        field="",
        expected={},
        actual=None,
        expected_response={},
        actual_response=None,
        count=1,
        found_after_examples=2,
        found_after_seconds=1.0,
        detail=f"the adapter exited; stderr: {detail}",
    )
    report = FuzzReport(
        classes=(disagreement, failure),
        examples_run=2,
        seconds=1.0,
        ops=("segment", "sanitize_actions"),
        seed=0,
        command=("node", text),
        stopped=detail,
    )
    lines = assert_inert(report_text(report))
    assert len(lines) == 21 - (detail == "")  # each class has a "key:" line
    assert "\u200b" not in report_text(
        FuzzReport(classes=(disagreement,), examples_run=1, seconds=1, ops=(), seed=0,
                   command=("x\u200b",))
    )  # fmt: skip


# ---------------------------------------------------------------- standard error


def run(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "replykit.cli", *args], capture_output=True, timeout=60, check=False
    )


def test_error_lines_quoting_input_are_one_escaped_line(tmp_path: Path) -> None:
    message = tmp_path / "m.md"
    message.write_text("Hi", encoding="utf-8")
    answers = tmp_path / "a.json"
    answers.write_text("{}", encoding="utf-8")
    hostile = "x\x1b[31m\ny\u202e"
    cases = [
        run("respond", "--message", str(message), "--message-id", "m", "--answers",
            str(answers), "--id", hostile),
        run("segment", "--profile", hostile, str(message)),
        run("segment", str(tmp_path / hostile)),
        run("segment", str(message), hostile),
        run("check", str(tmp_path / hostile)),
        run("fuzz", "--impl", "x", "--out", str(message / hostile)),
    ]  # fmt: skip
    for proc in cases:
        assert proc.returncode == 2
        err = proc.stderr.decode("utf-8")
        assert err.count("\n") == 1 and err.endswith("\n"), err
        assert unsafe_chars(err[:-1]) == [], err
        assert "x\\u001b[31m\\ny\\u202e" in err or "x\\x1b[31m\\ny\\u202e" in err, err
