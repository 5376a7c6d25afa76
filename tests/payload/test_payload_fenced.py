"""read_fenced_form: the seed's strict fenced-YAML field table (§4)."""

from __future__ import annotations

import pytest

from replykit.diagnostics import format_path
from replykit.questionnaire.model import Option, Question, Questionnaire
from replykit.questionnaire.payload.fenced_form import read_fenced_form
from replykit.questionnaire.segmentation.segmenter import segment

# The seed's example (新消息的标准格式), payload of the ```questionnaire block.
SEED_FENCED = """title: 任务已暂停
questions:
  - type: single_choice
    text: 是否继续当前任务？
    options:
      - 继续
    default: 继续
"""


def test_seed_example() -> None:
    read = read_fenced_form(SEED_FENCED)
    assert read.findings == ()
    assert read.value == Questionnaire(
        title="任务已暂停",
        questions=(
            Question(
                id="q1",
                type="single_choice",
                text="是否继续当前任务？",
                options=(Option("继续", "继续"),),
                default="继续",
                allow_other=False,
            ),
        ),
    )


def test_all_types_and_ids() -> None:
    src = (
        "title: T\nquestions:\n"
        "  - type: multi_choice\n    text: A\n    options: [Yes, No, '9:16']\n"
        "    default: [Yes, '9:16']\n    allow_other: true\n"
        '  - type: free_text\n    text: B\n    default: ""\n'
        "  - type: single_choice\n    text: C\n    options: [on, off]\n    default: off\n"
    )
    read = read_fenced_form(src)
    assert read.findings == ()
    assert read.value is not None
    q1, q2, q3 = read.value.questions
    assert (q1.id, q2.id, q3.id) == ("q1", "q2", "q3")
    assert q1.options == (Option("Yes", "Yes"), Option("No", "No"), Option("9:16", "9:16"))
    assert q1.default == ("Yes", "9:16") and q1.allow_other is True
    assert q2 == Question(id="q2", type="free_text", text="B", default="")
    assert q3.default == "off" and q3.allow_other is False


Q = "title: T\nquestions:\n"
SINGLE = Q + "  - type: single_choice\n    text: A\n"

# (payload, code, formatted path, exact text at the finding's offsets or None)
CASES = [
    ("", "yaml.empty", None, ""),
    (" \n\u3000\n", "yaml.empty", None, " \n\u3000\n"),
    (SINGLE + "    options: [a]\n    default: a\n```\n", "yaml.nested_fence", None, "```"),
    (
        SINGLE + "    options: [a]\n    default: a\n   ~~~ x\n",
        "yaml.nested_fence",
        None,
        "   ~~~ x",
    ),
    (
        '{"title": "T", "questions": []}',
        "yaml.json_payload",
        None,
        '{"title": "T", "questions": []}',
    ),
    ("- a\n", "yaml.root_not_mapping", None, "- a"),
    (
        Q + "  - type: free_text\n    text: A\n    default: x\nid: 1\n",
        "form.unknown_field",
        "id",
        "id",
    ),
    (
        "questions:\n  - type: free_text\n    text: A\n    default: x\n",
        "form.title_required",
        "title",
        None,
    ),
    ("title: ' '\nquestions: []\n", "form.title_required", "title", "' '"),
    ("title: 12\nquestions: []\n", "form.title_invalid", "title", "12"),
    ("title: T\n", "form.questions_required", "questions", None),
    ("title: T\nquestions: []\n", "form.questions_invalid", "questions", "[]"),
    ("title: T\nquestions: x\n", "form.questions_invalid", "questions", "x"),
    (Q + "  - hello\n", "question.not_mapping", "questions[1]", "hello"),
    (
        SINGLE + "    options: [a]\n    default: a\n    id: x\n",
        "question.unknown_field",
        "questions[1].id",
        "id",
    ),
    (Q + "  - text: A\n    default: a\n", "question.type_required", "questions[1].type", None),
    (
        Q + "  - type: multiple_choice\n    text: A\n    options: [a]\n    default: [a]\n",
        "question.type_invalid",
        "questions[1].type",
        "multiple_choice",
    ),
    (
        Q + "  - type: text\n    text: A\n    default: ''\n",
        "question.type_invalid",
        "questions[1].type",
        "text",
    ),
    (
        Q + "  - type: rating\n    text: A\n    default: ''\n",
        "question.type_invalid",
        "questions[1].type",
        "rating",
    ),
    (
        Q + "  - type: free_text\n    default: ''\n",
        "question.text_required",
        "questions[1].text",
        None,
    ),
    (
        Q + "  - type: free_text\n    text: '\u200b'\n    default: ''\n",
        "question.text_required",
        "questions[1].text",
        "'\u200b'",
    ),
    (
        Q + "  - type: free_text\n    text: [a]\n    default: ''\n",
        "question.text_invalid",
        "questions[1].text",
        "[a]",
    ),
    (
        Q + "  - type: free_text\n    text: A\n",
        "question.default_required",
        "questions[1].default",
        None,
    ),
    (SINGLE + "    default: a\n", "question.options_required", "questions[1].options", None),
    (
        SINGLE + "    options: []\n    default: a\n",
        "question.options_required",
        "questions[1].options",
        "[]",
    ),
    (
        SINGLE + "    options: a\n    default: a\n",
        "question.options_required",
        "questions[1].options",
        "a",
    ),
    (
        SINGLE + "    options: [a, 02142]\n    default: a\n",
        "question.option_invalid",
        "questions[1].options[2]",
        "02142",
    ),
    (
        SINGLE + "    options: [a, '']\n    default: a\n",
        "question.option_invalid",
        "questions[1].options[2]",
        "''",
    ),
    (
        SINGLE + "    options:\n      - value: a\n        label: A\n    default: a\n",
        "question.option_invalid",
        "questions[1].options[1]",
        "value: a\n        label: A",
    ),
    (
        Q + "  - type: free_text\n    text: A\n    options: [a]\n    default: ''\n",
        "question.options_forbidden",
        "questions[1].options",
        "options",
    ),
    (
        Q + "  - type: free_text\n    text: A\n    allow_other: false\n    default: ''\n",
        "question.allow_other_forbidden",
        "questions[1].allow_other",
        "allow_other",
    ),
    (
        SINGLE + "    options: [a]\n    default: a\n    allow_other: yes\n",
        "question.allow_other_invalid",
        "questions[1].allow_other",
        "yes",
    ),
    (
        SINGLE + "    options: [a]\n    default:\n",
        "question.default_invalid",
        "questions[1].default",
        "",
    ),
    (
        SINGLE + "    options: ['02142']\n    default: 02142\n",
        "question.default_invalid",
        "questions[1].default",
        "02142",
    ),
    (
        Q + "  - type: free_text\n    text: A\n    default: ~\n",
        "question.default_invalid",
        "questions[1].default",
        "~",
    ),
    (
        Q + "  - type: multi_choice\n    text: A\n    options: [a]\n    default: a\n",
        "question.default_invalid",
        "questions[1].default",
        "a",
    ),
    (
        Q + "  - type: multi_choice\n    text: A\n    options: ['1']\n    default: [1]\n",
        "question.default_invalid",
        "questions[1].default[1]",
        "1",
    ),
    (
        SINGLE + "    options: [a]\n    default: b\n",
        "question.default_not_in_options",
        "questions[1].default",
        "b",
    ),
    (
        SINGLE + "    options: [a]\n    default: ''\n",
        "question.default_not_in_options",
        "questions[1].default",
        "''",
    ),
    (
        Q + "  - type: multi_choice\n    text: A\n    options: [a]\n    default: [a, c]\n",
        "question.default_not_in_options",
        "questions[1].default[2]",
        "c",
    ),
]


@pytest.mark.parametrize(("payload", "code", "path", "text"), CASES)
def test_fenced_codes(payload: str, code: str, path: str | None, text: str | None) -> None:
    read = read_fenced_form(payload)
    hits = [f for f in read.findings if f.code == code]
    assert len(hits) == 1, read.findings
    f = hits[0]
    assert f.severity == "error"
    assert format_path(f.path) == path
    assert f.start is not None and f.end is not None
    if text is not None:
        assert payload[f.start : f.end] == text
    assert read.value is None


def test_duplicate_option_is_a_warning_on_the_later_one() -> None:
    src = SINGLE + "    options: [a, b, a]\n    default: a\n"
    read = read_fenced_form(src)
    (f,) = read.findings
    assert (f.code, f.severity, format_path(f.path)) == (
        "question.duplicate_option",
        "warning",
        "questions[1].options[3]",
    )
    assert f.start is not None and src[f.start : f.end] == "a" and f.start == src.rindex("a]")
    assert read.value is not None  # a warning keeps the form valid


@pytest.mark.parametrize(
    ("scalar", "kind"),
    [("02142", "an integer"), ("0o17", "an integer"), ("true", "a boolean"), ("1.5", "a float")],
)
def test_non_string_option_or_default_suggests_quoting(scalar: str, kind: str) -> None:
    src = SINGLE + f"    options: [{scalar}]\n    default: {scalar}\n"
    messages = [f.message for f in read_fenced_form(src).findings]
    assert len(messages) == 2
    for m in messages:
        assert f"YAML reads {scalar} as {kind}" in m and f'"{scalar}"' in m


def test_alias_message_suggests_strict_name() -> None:
    src = Q + "  - type: multiple_choice\n    text: A\n    options: [a]\n    default: [a]\n"
    (f,) = read_fenced_form(src).findings
    assert "'multi_choice'" in f.message


def test_every_violation_is_reported() -> None:
    src = (
        "title:\nsubtitle: x\nquestions:\n"
        "  - type: multiple_choice\n    text: ''\n    options: [{value: a}, 7]\n"
        "  - type: free_text\n    text: B\n    default: 3\n    allow_other: true\n"
        "  - 5\n"
    )
    codes = [(f.code, format_path(f.path)) for f in read_fenced_form(src).findings]
    assert codes == [
        ("form.unknown_field", "subtitle"),
        ("form.title_invalid", "title"),
        ("question.type_invalid", "questions[1].type"),
        ("question.text_required", "questions[1].text"),
        ("question.default_required", "questions[1].default"),
        ("question.option_invalid", "questions[1].options[1]"),
        ("question.option_invalid", "questions[1].options[2]"),
        ("question.allow_other_forbidden", "questions[2].allow_other"),
        ("question.default_invalid", "questions[2].default"),
        ("question.not_mapping", "questions[3]"),
    ]


def test_yaml_findings_and_field_findings_together() -> None:
    src = "title: T\ntitle: U\nquestions:\n  - type: free_text\n    text: !!str A\n"
    codes = [f.code for f in read_fenced_form(src).findings]
    assert codes == ["yaml.duplicate_key", "yaml.tag", "question.default_required"]


def test_an_alias_is_reported_once_without_field_noise() -> None:
    src = Q + "  - type: free_text\n    text: &q Why?\n    default: *q\n"
    read = read_fenced_form(src)
    assert [(f.code, format_path(f.path), f.details.get("kind")) for f in read.findings] == [
        ("yaml.alias", "questions[1].text", "anchor"),
        ("yaml.alias", "questions[1].default", "alias"),
    ]


def test_findings_before_a_syntax_error_are_kept() -> None:
    src = "title: !!str T\nquestions: [\n"
    codes = [f.code for f in read_fenced_form(src).findings]
    assert codes == ["yaml.tag", "yaml.syntax"]


def test_deep_nesting() -> None:
    read = read_fenced_form("title: " + "[" * 100_000)
    assert [f.code for f in read.findings] == ["yaml.too_deep"]


# --- a closing fence with text after it (§8) ----------------------------------------------

_CLOSING_TEXT = (
    "this line looks like a closing fence with text after it; a closing fence stands "
    "alone on its line, so the questionnaire does not end here"
)
_OPENS = (
    "a line inside the questionnaire opens a code fence; a questionnaire cannot contain "
    "other fenced blocks"
)
FREE = Q + '  - type: free_text\n    text: A\n    default: ""\n'


def _closing_blank(char: str) -> str:
    return (
        f"this line looks like a closing fence with the invisible character {char} after "
        "it; a closing fence allows only spaces and tabs after its backticks, so the "
        "questionnaire does not end here"
    )


@pytest.mark.parametrize(
    ("line", "fence_length", "message"),
    [
        ("```。", 3, _CLOSING_TEXT),  # CJK punctuation
        ("``` .", 3, _CLOSING_TEXT),  # ASCII punctuation after a space
        ("````！！", 3, _CLOSING_TEXT),  # longer than the opener
        ("  ```\t→", 3, _CLOSING_TEXT),  # indented, a tab, then a symbol
        ("``` `", 3, _CLOSING_TEXT),  # a backtick after it: no opener, still closing-like
        ("```。", 4, _OPENS),  # shorter than the opener: an opener, not a closer
        ("```python", 3, _OPENS),  # a language: an opener
        ("```。x", 3, _OPENS),  # a letter after the punctuation
        ("~~~。", 3, _OPENS),  # tildes never close a backtick fence
        # Blank characters (§1) that are not spaces or tabs: still no closer (§3a).
        ("```\u3000", 3, _closing_blank("U+3000")),  # ideographic space
        ("```\u00a0", 3, _closing_blank("U+00A0")),  # no-break space
        ("```\u200b", 3, _closing_blank("U+200B")),  # zero-width space (Cf)
        ("```\ufeff", 3, _closing_blank("U+FEFF")),  # BOM (Cf)
        ("``` \u2003\t", 3, _closing_blank("U+2003")),  # em space (Zs) between blanks
        ("````\u2060", 3, _closing_blank("U+2060")),  # word joiner, a longer fence
        ("```\u3000。", 3, _CLOSING_TEXT),  # punctuation too: text after it
        ("```\u3000", 4, _OPENS),  # shorter than the opener
        ("```\u3000x", 3, _OPENS),  # a letter: an opener with an info string
    ],
)
def test_fence_line_inside_a_form(line: str, fence_length: int, message: str) -> None:
    src = FREE + line + "\n"
    read = read_fenced_form(src, fence_length=fence_length)
    start = src.index(line)
    assert [(f.code, f.message, f.start, f.end) for f in read.findings] == [
        ("yaml.nested_fence", message, start, start + len(line))
    ]
    assert read.value is None


def test_a_fence_line_yields_no_second_syntax_error() -> None:
    # The fence line ends the YAML reading; a syntax error on another line stays.
    src = "title: T\n```。\nquestions: [\n"
    assert [f.code for f in read_fenced_form(src).findings] == ["yaml.nested_fence"]
    src = "title: [\n```。\n"
    codes = [(f.code, f.start) for f in read_fenced_form(src).findings]
    assert codes == [("yaml.nested_fence", 9)]
    src = "title: T\nquestions: ]\n```。\n"
    codes = [(f.code, f.start) for f in read_fenced_form(src).findings]
    assert codes == [("yaml.nested_fence", 22), ("yaml.syntax", 20)]


def test_closing_like_fence_in_a_message() -> None:
    text = "Intro\n\n```questionnaire\n" + FREE + "```。\n"
    result = segment(text)
    block = result.segments[1]
    assert not block.valid
    assert [(d.code, d.message) for d in block.diagnostics] == [
        ("fence.unclosed",
         "the questionnaire fence is never closed; it runs to the end of the message"),
        ("yaml.nested_fence", _CLOSING_TEXT),
    ]  # fmt: skip
    assert block.diagnostics[1].start == text.index("```。")
    # A four-backtick opener: a three-backtick line with text is a nested opener.
    text = "Intro\n\n````questionnaire\n" + FREE + "```。\n````\n"
    (diag,) = segment(text).segments[1].diagnostics
    assert (diag.code, diag.message) == ("yaml.nested_fence", _OPENS)


@pytest.mark.parametrize("tail", ["\u3000", "\u00a0", "\u200b"])
def test_closer_with_an_invisible_tail_in_a_message(tail: str) -> None:
    # §3a unchanged: no closer, the block runs to the end; only the wording names it.
    text = "Intro\n\n```questionnaire\n" + FREE + "```" + tail + "\n"
    block = segment(text).segments[1]
    assert (block.valid, block.text) == (False, text[len("Intro\n\n") :])
    assert [(d.code, d.message, d.start) for d in block.diagnostics] == [
        ("fence.unclosed",
         "the questionnaire fence is never closed; it runs to the end of the message",
         len("Intro\n\n")),
        ("yaml.nested_fence", _closing_blank(f"U+{ord(tail):04X}"), text.rindex("```")),
    ]  # fmt: skip
