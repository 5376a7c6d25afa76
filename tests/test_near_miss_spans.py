"""§8.1: an opener-like text that is a complete code span on its line is inline code, no
fence attempt, so it gets no near-miss of any code, whatever the backtick run's length
and padding, in any container. A span closed on a later line by a run standing like a
closing fence (the conformance vector ``near-miss-short-fence-case``) still warns."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from replykit import segment, self_check
from replykit.testing.streaming import check_stream, cut

_NAMES = ("questionnaire", "Questionnaire", "sage-questionnaire", "questionnaire yaml")
# Blank characters before the run: indentation, or ones CommonMark does not take as it.
_PREFIXES = ("", " ", "   ", "\u00a0", "\u3000", " \u00a0")


@st.composite
def span_lines(draw: st.DrawFn) -> tuple[str, str]:
    """A message whose paragraph line starts with a backtick run opening a code span
    around a family name, and the same message without the span's closer."""
    run = "`" * draw(st.integers(1, 5))
    pad = draw(st.sampled_from(["", " ", "  "]))
    name = draw(st.sampled_from(_NAMES))
    container = draw(st.sampled_from(["", "- ", "> ", "1. "]))
    before = draw(st.sampled_from(["", "Intro.\n", "Intro.\n\n"]))
    prefix = draw(st.sampled_from(_PREFIXES))
    opener = container + prefix + run + pad + name
    closed = f"{before}{opener}{pad} {run} are how I ask.\n"
    unclosed = f"{before}{opener}{pad} are how I ask.\n"
    return closed, unclosed


def _codes(text: str) -> list[str]:
    return [d.code for d in segment(text).diagnostics]


@given(span_lines(), st.lists(st.integers(0, 120), max_size=4))
def test_no_near_miss_on_a_complete_code_span(texts: tuple[str, str], cuts: list[int]) -> None:
    closed, unclosed = texts
    assert _codes(closed) == []
    if closed.split("``")[0].endswith(("\n", "- ", "> ", "1. ")) or closed.startswith("``"):
        # Without its closing run the same two-backtick opener is a near-miss.
        assert ("near_miss.short_fence" in _codes(unclosed)) is (closed.count("`") == 4)
    assert segment(closed, checked=True) == segment(closed)
    assert check_stream(cut(closed, cuts)) == []


def test_padded_span_reproduction_and_its_controls() -> None:
    """The break-it reproduction passes Self-check; the same opener with no closing run,
    or closed on a later line, is still a near-miss."""
    text = "Done.\n\n`` questionnaire `` blocks are how I ask you things."
    report = self_check([{"role": "assistant", "content": text}])
    assert (report.passed, report.diagnostics) == (True, ())
    assert _codes("Done.\n\n`` questionnaire blocks") == [
        "near_miss.short_fence",
        "near_miss.extra_words",
    ]
    for text in ("Done.\n\n`` questionnaire\n\nstill `` blocks.", "Done.\n\n``questionnaire\n``\n"):
        found = segment(text).diagnostics
        assert [(d.code, d.line, d.column) for d in found] == [("near_miss.short_fence", 3, 1)]
    found = segment("Done.\n\n\u00a0```questionnaire\nx ``` y").diagnostics
    assert [(d.code, d.start, d.end) for d in found] == [("near_miss.fence_indent", 7, 24)]
    assert _codes("Done.\n\n\u00a0```questionnaire``` y") == []


def test_a_backtick_in_the_info_string_is_still_a_fence_attempt() -> None:
    """CommonMark reads no fence when a backtick fence's info string holds a backtick, but
    unless its run closes a code span on the line the line is a fence attempt: the form
    would otherwise vanish without a word (found by a reviewer; vector
    ``fence-backtick-in-info-not-fence``)."""
    form = 'title: T\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n```\n'
    text = "Intro\n\n```questionnaire`\n" + form
    found = segment(text).diagnostics
    assert [(d.code, d.start, d.end) for d in found] == [("near_miss.unknown_name", 7, 24)]
    assert self_check([{"role": "assistant", "content": text}]).passed is False
    assert _codes("```questionnaire `x`\n") == ["near_miss.extra_words"]
    assert _codes("> ````Questionnaire` y\n") == ["near_miss.unknown_name"]
    assert _codes("\u3000```questionnaire`\n") == ["near_miss.unknown_name"]
    # A run that closes a span on its line is inline code; a name without the family
    # word gets nothing.
    assert _codes("```questionnaire`x```\n") == []
    assert _codes("```python`\n") == []
    for closed in (text, "x\n```questionnaire `x`\n"):
        assert segment(closed, checked=True) == segment(closed)
        assert check_stream(cut(closed, [3, 9, 20])) == []
