"""Faults a new user met, each fixed as a kind: one rule for a number written as text
(§1.3, §9: the Sage ``timeout_seconds`` attribute, the JSON field and the CLI's number
options), type names in messages, paths named once, two inputs on standard input, the
text view of a decoded message, and the other message nits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replykit import segment
from replykit.cli import main
from replykit.questionnaire.payload.numbers import read_number

BODY = '{"questions":[{"type":"text","text":"Q"}]}'
NOT_NUMBER = "timeout_seconds must be a non-negative number, not {}; it is ignored."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("30", (30, None)),
        ("0", (0, None)),
        ("2.5", (2.5, None)),
        ("1e3", (1000.0, None)),
        ("-1", (-1, None)),
        ("1e400", (None, "too_large")),
        ("9" * 5000, (None, "too_large")),
        ("30abc", (None, "not_number")),
        ("0x10", (None, "not_number")),
        ("NaN", (None, "not_number")),
        (" 30", (None, "not_number")),
        ("+1", (None, "not_number")),
        ("1_000", (None, "not_number")),
        ("01", (None, "not_number")),
        ("\u0663", (None, "not_number")),  # an Arabic-Indic digit: int() would take it
        ("", (None, "not_number")),
    ],
)
def test_read_number(text: str, expected: tuple[object, object]) -> None:
    value, problem = read_number(text)
    assert (value, problem) == expected
    assert type(value) is type(expected[0])


def _sage(value: str, quote: str = '"') -> tuple[object, list[tuple[str, str, int, int]]]:
    text = f"Intro <questionnaire timeout_seconds={quote}{value}{quote}>{BODY}</questionnaire>"
    result = segment(text, compat="sage")
    form = result.segments[1].questionnaire
    assert form is not None and result.segments[1].valid
    diags = [(d.code, d.message, d.start, d.end) for d in result.diagnostics]
    return form.timeout_seconds, diags


@pytest.mark.parametrize(("value", "kept"), [("30", 30), ("2.5", 2.5), ("1e3", 1000.0)])
@pytest.mark.parametrize("quote", ['"', "'", ""])
def test_sage_timeout_attribute_number_is_kept(value: str, kept: float, quote: str) -> None:
    timeout, diags = _sage(value, quote)
    assert (timeout, type(timeout), diags) == (kept, type(kept), [])


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("30abc", '"30abc"'),
        ("0x10", '"0x10"'),
        ("abc", '"abc"'),
        ("NaN", '"NaN"'),
        ("", '""'),
        ("-1", "-1"),
        ("-2.5", "-2.5"),
    ],
)
def test_sage_timeout_attribute_not_a_valid_number_warns(value: str, shown: str) -> None:
    timeout, diags = _sage(value)
    start = len('Intro <questionnaire timeout_seconds="')
    code = "questionnaire.start.timeout_seconds_invalid"
    assert (timeout, diags) == (None, [(code, NOT_NUMBER.format(shown), start, start + len(value))])


def test_sage_timeout_attribute_beyond_a_float_warns_too_large() -> None:
    timeout, diags = _sage("1e400")
    message = "timeout_seconds 1e400 is too large to read as a number; it is ignored."
    assert (timeout, diags) == (
        None,
        [("questionnaire.start.timeout_seconds_invalid", message, 38, 43)],
    )


@pytest.mark.parametrize(("value", "shown"), [("-1", "-1"), ('"30"', '"30"'), ("true", "true")])
def test_json_field_warns_with_the_same_message(value: str, shown: str) -> None:
    payload = '{"questions":[{"type":"text","text":"Q"}],"timeout_seconds":' + value + "}"
    result = segment(f"Intro <questionnaire>{payload}</questionnaire>")
    messages = [(d.code, d.message) for d in result.diagnostics]
    assert messages == [("questionnaire.start.timeout_seconds_invalid", NOT_NUMBER.format(shown))]


AT_LEAST = "must be an integer of at least {}, not '{}'"
PORT = "argument --port: must be an integer from 0 to 65535, not '{}'"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["stream", "--chunk-size", "0"], "argument --chunk-size: " + AT_LEAST.format(1, "0")),
        (["stream", "--chunk-size", "1e3"], "argument --chunk-size: " + AT_LEAST.format(1, "1e3")),
        (["stream", "--chunk-size", "\u0663"], "argument --chunk-size: " + AT_LEAST.format(1, "٣")),
        (["audit", "--jobs", "x", "."], "argument --jobs: " + AT_LEAST.format(0, "x")),
        (["serve", "--port", "70000"], PORT.format("70000")),
        (["serve", "--port", "1_000"], PORT.format("1_000")),
        (["fuzz", "--examples", "-1"], "argument --examples: " + AT_LEAST.format(0, "-1")),
        (["fuzz", "--seed", "1.5"], "argument --seed: must be an integer, not '1.5'"),
        (["fuzz", "--timeout", "inf"], "argument --timeout: must be a number above 0, not 'inf'"),
        (["fuzz", "--seconds", "0"], "argument --seconds: must be a number above 0, not '0'"),
    ],
)  # fmt: skip
def test_cli_number_options_use_the_rule(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(f"error: {message}")


# --- type names in messages: JSON's words, a Python-only value named as one -------------


@pytest.mark.parametrize(
    ("questions", "message"),
    [
        (({"type": "text", "text": "t"},),
         "questions must be an array of questions, not a Python tuple."),
        ([{"type": "multi_choice", "text": "t", "options": ["a"], "default": ("a",)}],
         "questions[1].default must be an array of strings, not a Python tuple."),
        ([{"type": "text", "text": "t", "default": 5}],
         "questions[1].default must be a string, not a number."),
    ],
)  # fmt: skip
def test_a_tuple_is_not_called_an_array(questions: object, message: str) -> None:
    from replykit import questionnaire_async

    (error,) = questionnaire_async(questions=questions, locale="en")["errors"]
    assert error["message"] == message


def test_answers_error_names_each_path_once() -> None:
    from replykit import AnswersError, build_response

    body = (
        '{"questions":[{"type":"single_choice","text":"Q","options":["a"]},'
        '{"type":"multi_choice","text":"M","options":["a"]}]}'
    )
    form = segment(f"Hi <questionnaire>{body}</questionnaire>").segments[1].questionnaire
    assert form is not None
    with pytest.raises(AnswersError) as exc:
        build_response(form, {"q1": "zz", "q2": ["a", "a"], "q9": "x"}, questionnaire_id="x")
    assert str(exc.value) == (
        'q1: "zz" is not an option value of question q1; '
        'q2[2]: "a" is already chosen earlier in the answer to question q2; '
        'q9: the form has no question with id "q9"'
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["actions", "-", "--context", "-"],
         "ANSWER and --context cannot both read standard input"),
        (["respond", "--message", "-", "--answers", "-", "--message-id", "m"],
         "--message and --answers cannot both read standard input"),
    ],
)  # fmt: skip
def test_two_inputs_cannot_both_be_stdin(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err == f"replykit {argv[0]}: error: {message}\n"


def test_text_view_of_a_decoded_message_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    body = '{"questions":[{"type":"bogus","text":"Q"}]}'
    monkeypatch.chdir(tmp_path)
    path = Path("sage.md")
    path.write_text(json.dumps(f"Intro\n\nline3\n<questionnaire>{body}</questionnaire>"))
    assert main(["segment", "--compat", "sage", "--format", "text", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{path} (decoded):1-3: markdown"
    # Its one question has an error: nothing to drop, the strict error at "bogus" stands.
    assert lines[2].startswith(
        f"{path} (decoded):4:38: error questionnaire.start.question_type_invalid"
    )
    # Nothing decoded: the file's own positions, no mark.
    path.write_text(f"Intro <questionnaire>{body}</questionnaire>")
    assert main(["segment", "--compat", "sage", "--format", "text", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"{path}:1-1: markdown"


# --- no follow-on error from a list that failed to read ---------------------------------

FENCED_CHOICE = (
    "Intro\n```questionnaire\ntitle: T\nquestions:\n  - type: {type}\n    text: Q\n"
    "    options:\n{options}    default: {default}\n```\n"
)


@pytest.mark.parametrize(
    ("qtype", "options", "default"),
    [
        ("single_choice", "      - {value: a, label: A}\n", "a"),
        ("single_choice", "      - b\n      - 5\n", "'5'"),
        (
            "single_choice",
            "      - b\n      - __questionnaire_other__\n",
            "__questionnaire_other__",
        ),
        ("multi_choice", "      - b\n      - {value: a}\n", "[a, b]"),
    ],
)
def test_fenced_default_is_not_checked_against_options_that_failed(
    qtype: str, options: str, default: str
) -> None:
    text = FENCED_CHOICE.format(type=qtype, options=options, default=default)
    codes = [d.code for d in segment(text).diagnostics]
    assert codes == ["question.option_invalid"]


@pytest.mark.parametrize(
    ("option", "default"),
    [("1e3", "'1e3'"), ("1e3", "'1000'"), ("0x10", "'0x10'"), ("0x10", "'16'"),
     ("02142", "'02142'"), ("-0", "'0'"), ("1.50", "'1.5'"), ("1.0", "'1'")],
)  # fmt: skip
def test_fenced_default_naming_a_failed_number_however_written(option: str, default: str) -> None:
    # The failed option's own error names it; the default writes the same number.
    options = f"      - b\n      - {option}\n"
    text = FENCED_CHOICE.format(type="single_choice", options=options, default=default)
    assert [d.code for d in segment(text).diagnostics] == ["question.option_invalid"]
    multi = FENCED_CHOICE.format(type="multi_choice", options=options, default=f"[{default}]")
    assert [d.code for d in segment(multi).diagnostics] == ["question.option_invalid"]


def test_fenced_default_naming_another_number_is_still_reported() -> None:
    options = "      - b\n      - 1e3\n"
    text = FENCED_CHOICE.format(type="single_choice", options=options, default="'1001'")
    codes = [d.code for d in segment(text).diagnostics]
    assert codes == ["question.option_invalid", "question.default_not_in_options"]


@pytest.mark.parametrize("written", ["1e3", "1E3", "1.50", "-0", "1000.0"])
def test_tool_default_writing_a_failed_number_otherwise_is_no_second_error(written: str) -> None:
    from replykit import questionnaire_async_json

    args = (
        '{"title": "T", "questions": [{"type": "single_choice", "text": "Q", '
        f'"options": [{written}, "b"], "default": "{written}"}}]}}'
    )
    errors = questionnaire_async_json(args)["errors"]
    assert {e["code"] for e in errors} == {"questionnaire.start.question_option_invalid"}


@pytest.mark.parametrize("options", ["      - b\n", "      - b\n      - {value: c}\n"])
def test_fenced_default_naming_no_option_is_still_reported(options: str) -> None:
    text = FENCED_CHOICE.format(type="single_choice", options=options, default="a")
    (d,) = [d for d in segment(text).diagnostics if d.code != "question.option_invalid"]
    assert (d.code, d.message) == (
        "question.default_not_in_options",
        'questions[1].default "a" is not one of the options ("b")',
    )


@pytest.mark.parametrize(
    "question",
    [
        {"type": "single_choice", "text": "Q", "options": ["b", 5], "default": "5"},
        {"type": "multi_choice", "text": "Q", "options": ["b", {"value": 1}], "default": ["1"]},
        {
            "type": "single_choice",
            "text": "Q",
            "options": ["b", {"value": " a "}, 5],
            "default": "a",
        },
    ],
)
def test_tool_default_naming_a_failed_option_is_no_second_error(question: object) -> None:
    from replykit import questionnaire_async

    errors = questionnaire_async(questions=[question], locale="en")["errors"]
    assert {e["code"] for e in errors} == {"questionnaire.start.question_option_invalid"}


# --- HTML ids built from the caller's ids ------------------------------------------------


def test_html_ids_encode_the_message_id() -> None:
    pytest.importorskip("markdown_it")
    import re

    from replykit.markdown_it import render_html

    body = (
        '{"questions":[{"type":"single_choice","text":"Q","options":["a"],"allow_other":true},'
        '{"type":"text","text":"T"}]}'
    )
    html = render_html(f"Hi\n\n<questionnaire>{body}</questionnaire>", message_id="a b:%c")
    ids = re.findall(r' (id|for|name)="([^"]*)"', html)
    block = "a%20b%3A%25c_q1"
    assert [v for k, v in ids if k != "name" or v != "questionnaire"] == [
        f"{block}:q1", f"{block}:q1:0", f"{block}:q1:0",
        f"{block}:q1", f"{block}:q1:other", f"{block}:q1:other",
        f"{block}:q1:other", f"{block}:q1:other-text",
        f"{block}:q2", f"{block}:q2:text",
    ]  # fmt: skip
    assert 'data-replykit-block="a b:%c_q1"' in html


# --- message nits ------------------------------------------------------------------------

FORM = (
    "Intro\n```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: Q\n"
    "    default: ''\n```\n"
)


@pytest.mark.parametrize(("depth", "levels"), [(1, "1 level"), (2, "2 levels")])
def test_numbers_in_messages_agree_with_their_noun(depth: int, levels: str) -> None:
    from replykit import Limits

    messages = [d.message for d in segment(FORM, limits=Limits(max_depth=depth)).diagnostics]
    assert messages == [f"YAML nesting deeper than {levels}"]


def test_plural_field_renders_singular_for_one() -> None:
    from replykit.codes.limits import LIMIT_PAYLOAD_SIZE

    assert LIMIT_PAYLOAD_SIZE.render({"size": 1, "limit": 0}) == (
        "the payload has 1 character (a line ending counts as one); the limit is 0"
    )
    assert LIMIT_PAYLOAD_SIZE.render({"size": 2, "limit": 1}) == (
        "the payload has 2 characters (a line ending counts as one); the limit is 1"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["vectors", "export", "/proc/x"],
         "cannot write /proc/x: No such file or directory"),
        (["vectors"], "the following arguments are required: {export}"),
        (["schema"], "the following arguments are required: {tool,form,response,actions}"),
    ],
)  # fmt: skip
def test_cli_errors_name_things_as_the_user_writes_them(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"replykit {argv[0]}: error: {message}"


def test_respond_names_an_unregistered_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    message = tmp_path / "sq.md"
    message.write_text(f"Hi\n\n<yiii-questionnaire>{BODY}</yiii-questionnaire>\n")
    answers = tmp_path / "e.json"
    answers.write_text("{}")
    argv = ["respond", "--message", str(message), "--message-id", "m"]
    argv += ["--answers", str(answers), "--id", "m_q1"]
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        f"replykit respond: error: block m_q1 of {message} is a yiii-questionnaire block, "
        "which profile client does not register (--profile product:yiii does)\n"
    )
    assert main([*argv, "--profile", "product:yiii"]) == 0


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ('{"choices":[{"delta":{"content":5}}]}',
         "choices[0].delta.content must be a string or null, not a number"),
        ('{"type":"content_block_delta","delta":{"type":"text_delta","text":["x"]}}',
         "delta.text must be a string or null, not an array"),
    ],
)  # fmt: skip
def test_sse_text_field_that_is_no_text_is_an_error(
    tmp_path: Path, event: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.sse"
    path.write_text(f'data: {{"choices":[{{"delta":{{"content":"Hi"}}}}]}}\n\ndata: {event}\n\n')
    assert main(["stream", "--sse", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"replykit stream: error: {path} line 3: event data {message}\n"


def test_sse_null_content_is_no_text() -> None:
    from replykit.cli.sse import deltas

    lines = ['data: {"choices":[{"delta":{"role":"assistant","content":null}}]}', ""]
    lines += ['data: {"choices":[{"delta":{"content":"Hi"}}]}', "", "data: [DONE]", ""]
    assert list(deltas(lines, "x")) == ["Hi"]


def test_segmentation_json_text_escapes_a_lone_surrogate() -> None:
    result = segment("Hi \ud800 there")
    assert result.to_json()["segments"][0]["text"] == "Hi \ud800 there"
    text = result.to_json_text()
    text.encode("utf-8")  # strict JSON out (§1.3): always valid UTF-8
    assert '"text":"Hi \\ud800 there"' in text
    assert json.loads(text) == result.to_json()
    assert segment("ü").to_json_text().count("ü") == 1  # other characters kept


def test_audit_summary_counts_in_the_singular_for_one() -> None:
    from replykit.evals.report import table_lines

    summary = {"records": 1, "messages": 1, "passed": 0, "input_errors": {"count": 1},
               "groups": []}  # fmt: skip
    assert next(table_lines(summary)) == "1 record, 1 reply audited, 0 passed, 1 input error"


@pytest.mark.parametrize(("value", "kept"), [("30", 30), ("abc", None)])
def test_sage_timeout_attribute_with_backslash_escaped_quotes(value: str, kept: object) -> None:
    body = '{\\"questions\\":[{\\"type\\":\\"text\\",\\"text\\":\\"Q\\"}]}'
    text = f'Intro <questionnaire timeout_seconds=\\"{value}\\">{body}</questionnaire>'
    result = segment(text, compat="sage")
    form = result.segments[1].questionnaire
    assert form is not None and form.timeout_seconds == kept
    start = text.index(value)
    expected = [] if kept is not None else [(start, start + 3, NOT_NUMBER.format('"abc"'))]
    assert [(d.start, d.end, d.message) for d in result.diagnostics] == expected


def test_argument_type_alternatives_read_as_one_list() -> None:
    from replykit.actions import sanitize

    with pytest.raises(TypeError) as exc:
        sanitize("{}")  # type: ignore[arg-type]
    assert str(exc.value) == (
        "sanitize() argument 'answer' must be a mapping, a sequence, bool, int, float or "
        "None, not str (JSON text? decode it first)"
    )
