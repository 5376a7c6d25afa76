"""§8 ``near_miss.fence_indent``: a fence opener with a family name behind blank
characters that CommonMark does not read as indentation (the line is paragraph text)."""

from __future__ import annotations

import pytest

from replykit import SELF_CHECK, segment, self_check
from replykit.text import is_blank

FREE = 'title: T\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n'
CODE = "near_miss.fence_indent"


def codes(text: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.start, d.end) for d in segment(text).diagnostics]


# U+00A0, U+2000-U+200A, U+3000 and Cf characters (zero-width space, BOM in mid-text,
# word joiner, soft hyphen, an isolate), and the other White_Space characters that are
# not indentation: U+0085, U+1680, U+2028, U+202F, U+205F, form feed, vertical tab.
BLANKS = [
    "\u00a0", *map(chr, range(0x2000, 0x200B)), "\u3000", "\u200b", "\ufeff", "\u2060",
    "\u00ad", "\u2066", "\u0085", "\u1680", "\u2028", "\u202f", "\u205f", "\x0c", "\x0b",
]  # fmt: skip


@pytest.mark.parametrize("blank", BLANKS, ids=lambda ch: f"U+{ord(ch):04X}")
def test_every_blank_that_is_not_indentation_gets_the_warning(blank: str) -> None:
    assert is_blank(blank)
    text = f"Intro\n\n{blank}```questionnaire\n{FREE}```\n"
    start = text.index(blank)
    assert codes(text) == [(CODE, start, text.index("\n", start))]
    # Paragraph text, not a fence: no block, and the closer opens a code block.
    assert [s.kind for s in segment(text).segments] == ["markdown"]


def test_the_message_names_the_characters_and_the_consequence() -> None:
    (d,) = segment("Intro\n\n\u3000\u00a0```questionnaire\n").diagnostics
    assert d.severity == "warning" and (d.line, d.column) == (3, 1)
    assert d.message == (
        "U+00A0, U+3000 before '```questionnaire' is not Markdown indentation: the line is "
        "text, not a fence, and a closing fence after it opens a code block; remove them"
    )
    (d,) = segment("Intro\n\n\u3000~~~Questionnaire\n").diagnostics[:1]
    assert d.message.startswith("U+3000 before '~~~Questionnaire' is not Markdown")
    assert d.message.endswith("; remove it")
    # A hostile reply repeats it once per 21-byte line: it stays short (§1).
    assert len(d.message) <= 160


@pytest.mark.parametrize("indent", [" ", "   ", "\t", "    ", " \t"])
def test_never_for_spaces_or_tabs(indent: str) -> None:
    for before in ("Intro\n\n", "Intro\n"):
        assert CODE not in [c for c, _, _ in codes(f"{before}{indent}```questionnaire\n")]


def test_spaces_among_the_blanks_count_as_indentation() -> None:
    assert codes("Intro\n\n\u3000   ```questionnaire\n")[0][0] == CODE
    assert codes("Intro\n\n   \u3000```questionnaire\n")[0][0] == CODE
    assert codes("Intro\n\n \u3000   ```questionnaire\n") == []
    assert codes("Intro\n\n\u3000\t```questionnaire\n") == []


def test_family_names_in_any_case_and_every_other_warning_that_applies() -> None:
    found = [c for c, _, _ in codes("Intro\n\u00a0````Sage-Questionnaire  yaml\n")]
    assert found == [CODE, "near_miss.case", "near_miss.extra_words"]
    assert [c for c, _, _ in codes("Intro\n\n\u200b~~~questionnaire\n")] == [
        CODE,
        "near_miss.tilde",
    ]
    assert [c for c, _, _ in codes("Intro\n\n\u3000``questionnaire\n")] == [
        CODE,
        "near_miss.short_fence",
    ]
    assert codes("Intro\n\n\u3000```questionnaires\n") == []
    assert codes("Intro\n\n\u3000```\n") == []


def test_continuation_lazy_and_container_lines() -> None:
    # A paragraph continuation line and a lazy continuation of a block quote (the fence
    # would close the quote, so it would stand at the top level).
    assert [c for c, _, _ in codes("Intro\n\u3000```questionnaire\n")] == [CODE]
    assert [c for c, _, _ in codes("> Intro\n\u3000```questionnaire\n")] == [CODE]
    # Inside a block quote or list item the fence would be in the container.
    for text in ("> \u3000```questionnaire\n", "- a\n\n  \u3000```questionnaire\n"):
        assert [c for c, _, _ in codes(text)] == [CODE, "near_miss.in_container"], text


def test_not_inside_an_inert_region_opened_before_it() -> None:
    # A code span opened on the line before, an HTML block, a fenced code block, a
    # comment, an unclosed comment that starts a line.
    for text in (
        "Intro `x\n\u3000```questionnaire y`\n",
        "<div>\n\u3000```questionnaire\n</div>\n",
        "Intro\n\n~~~\n\u3000```questionnaire\n~~~\n",
        "Intro <!--\n\u3000```questionnaire -->\n",
        "<div>\n<!--\n</div>\n\n\u3000```questionnaire\n",
    ):
        assert codes(text) == [], text


def test_a_leading_bom_is_not_read_but_a_second_one_is_blank_text() -> None:
    result = segment(f"\ufeff```questionnaire\n{FREE}```\n")
    assert [s.kind for s in result.segments] == ["questionnaire"]
    assert CODE not in [d.code for d in result.diagnostics]
    assert codes("\ufeff\ufeff```questionnaire\n") == [(CODE, 1, 18)]


def test_self_check_fails_on_it() -> None:
    text = f"Intro\n\n\u3000```questionnaire\n{FREE}```\n"
    result = self_check([{"role": "assistant", "content": text}])
    assert not result.passed
    assert CODE in [d.code for d in result.diagnostics]
    assert CODE in [d.code for d in segment(text, profile=SELF_CHECK).diagnostics]
