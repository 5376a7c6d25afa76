"""Hostile message families: a message built from a size ``n`` (§1 bounds).

Each family ends with a valid form (:data:`FENCED_TAIL` or :data:`XML_TAIL`) at the
top level of the document, so an exact fast path cannot skip the hostile part.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

#: A valid fenced YAML form with its preface (§4): closes every family whose hostile
#: part must not see a ``</questionnaire>`` closer.
FENCED_TAIL = (
    "\n\nPlease tell me how to go on.\n\n"
    "```questionnaire\n"
    "title: Next step\n"
    "questions:\n"
    "  - type: single_choice\n"
    "    text: Continue the task?\n"
    "    options:\n"
    '      - "Yes"\n'
    '      - "No"\n'
    '    default: "Yes"\n'
    "```\n"
)

#: A valid XML+JSON form (§5) on a paragraph of its own.
XML_TAIL = (
    "\n\n<questionnaire>"
    '{"title":"Next step","questions":[{"type":"single_choice","text":"Continue the task?",'
    '"options":["Yes","No"],"default":"Yes"}]}'
    "</questionnaire>\n"
)

#: The paragraph every family starts with.
INTRO = "Here is what I found.\n\n"


@dataclass(frozen=True)
class Family:
    """A hostile family: ``build(n)`` gives the message for size ``n``.

    ``deep`` marks block-nesting families, exempt from the markdown-it-py ratio
    because markdown-it-py stops nesting block quotes and lists at 20 levels.
    ``tail`` names the valid form the message ends with (``"fenced"`` or ``"xml"``;
    ``"none"``: a streaming family whose message holds no block).
    ``exempt``: the commands (keys of :data:`~replykit.testing.hostile.COMMANDS`) whose
    output §1 itself keeps from staying within 16x the input, each with its figure and
    arithmetic in docs/performance.md.
    """

    name: str
    build: Callable[[int], str]
    n: int
    tail: str
    description: str
    deep: bool = False
    exempt: tuple[str, ...] = ()


def backtick_runs(n: int) -> str:
    """Runs of 1, 2, 3, ... backticks separated by spaces (no run closes another), at
    least ``n`` characters, in one paragraph."""
    parts: list[str] = []
    size = 0
    k = 1
    while size < n:
        parts.append("`" * k)
        size += k + 1
        k += 1
    return "Runs: " + " ".join(parts) + FENCED_TAIL


def backtick_fence_line(n: int) -> str:
    """A fence opener of ``n`` backticks, one code line, and a closer of ``n``."""
    return "`" * n + "\ncode\n" + "`" * n + "\n" + FENCED_TAIL


def tilde_fence_line(n: int) -> str:
    """A fence opener of ``n`` tildes, one code line, and a closer of ``n``."""
    return "~" * n + "\ncode\n" + "~" * n + "\n" + FENCED_TAIL


def backtick_inline_run(n: int) -> str:
    """One run of ``n`` backticks inside a paragraph line, never closed."""
    return "Odd text " + "`" * n + " here" + FENCED_TAIL


def unclosed_tags(n: int) -> str:
    """``n`` opening ``<questionnaire>`` tags with no closer anywhere, ten a line."""
    line = " ".join(["<questionnaire>"] * 10) + "\n"
    return INTRO + line * (n // 10) + FENCED_TAIL


def unclosed_tags_with_attributes(n: int) -> str:
    """``n`` opening tags with an attribute (never openers: §3a), ten a line."""
    line = " ".join(['<questionnaire id="x">'] * 10) + "\n"
    return INTRO + line * (n // 10) + FENCED_TAIL


def tag_prefixes(n: int) -> str:
    """``n`` copies of ``<questionnaire `` (a tag start that never ends), one line."""
    return INTRO + "<questionnaire " * n + FENCED_TAIL


def quoted_fence_openers(n: int) -> str:
    """``n`` candidate-looking fence openers, each in its own block quote (so each is a
    code block that its container closes, with a near-miss warning)."""
    return INTRO + "> ```questionnaire\n\n" * n + FENCED_TAIL.lstrip("\n")


def fence_openers_in_candidate(n: int) -> str:
    """A fenced candidate whose payload is ``n`` fence-opener lines, then a closer."""
    return INTRO + "```questionnaire\n" + "```questionnaire\n" * n + "```\n" + FENCED_TAIL


def fence_openers_in_html_block(n: int) -> str:
    """``n`` fence-opener lines inside one HTML block (raw HTML, not fences)."""
    return INTRO + "<div>\n" + "```questionnaire\n" * n + "</div>\n" + FENCED_TAIL


def nested_block_quotes(n: int) -> str:
    """One line nested ``n`` block quotes deep."""
    return INTRO + ">" * n + " deep\n" + FENCED_TAIL


def nested_list_markers(n: int) -> str:
    """One line opening ``n`` nested list items."""
    return INTRO + "- " * n + "item\n" + FENCED_TAIL


def list_markers_as_preface(n: int) -> str:
    """The first line opens ``n`` nested list items before its text: the preface rule
    (§4.3) reads past each marker to find the first shown character."""
    return "- " * n + "* " * n + "item" + FENCED_TAIL


def newlines(n: int) -> str:
    """``n`` line feeds, then the form."""
    return INTRO + "\n" * n + FENCED_TAIL.lstrip("\n")


def one_line(n: int) -> str:
    """One line of ``n`` characters of prose with code spans and inline HTML."""
    unit = "Some prose with `code` and <b>bold</b> words, "
    body = (unit * (n // len(unit) + 1))[:n]
    return body + FENCED_TAIL


def deep_json_arrays(n: int) -> str:
    """A tag whose payload is arrays nested ``n`` deep (``json.too_deep``)."""
    return INTRO + "<questionnaire>" + "[" * n + "]" * n + "</questionnaire>" + XML_TAIL


def deep_json_objects(n: int) -> str:
    """A tag whose payload is objects nested ``n`` deep (``json.too_deep``)."""
    payload = '{"a":' * n + "0" + "}" * n
    return INTRO + "<questionnaire>" + payload + "</questionnaire>" + XML_TAIL


def yaml_alias_bomb(n: int) -> str:
    """A fenced form holding ``n`` levels of ten aliases each (a billion-laughs
    document; aliases are ``yaml.alias`` errors, §4)."""
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, n):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    body = "\n".join(lines)
    return INTRO + "```questionnaire\n" + body + "\n```\n" + FENCED_TAIL


def many_questions(n: int) -> str:
    """A fenced form with ``n`` single-choice questions (valid up to the questions
    limit; 10^4 questions stay under the default payload limit)."""
    question = (
        "  - type: single_choice\n"
        '    text: "Question {i}?"\n'
        '    options: ["A", "B"]\n'
        '    default: "A"\n'
    )
    body = "".join(question.format(i=i) for i in range(1, n + 1))
    return INTRO + "```questionnaire\ntitle: Many\nquestions:\n" + body + "```\n" + FENCED_TAIL


def fenced_payload_lines(n: int) -> str:
    """A fenced candidate whose payload is ``n`` short lines (not a mapping)."""
    return INTRO + "```questionnaire\n" + "x\n" * n + "```\n" + FENCED_TAIL


def fenced_payload_on_referee(n: int) -> str:
    """A fenced form of ``n`` nested mapping entries whose first line is a tab and a
    comment: a tab in leading white space keeps libyaml off, so the pure YAML 1.2
    referee reads the whole payload (docs/protocol.md §4.1)."""
    body = "\t# tab\ntitle: T\nx:\n" + "".join(f"  k{i}: v\n" for i in range(n))
    return INTRO + "```questionnaire\n" + body + "```\n" + FENCED_TAIL


def code_spans_then_tags(n: int) -> str:
    """``n`` code spans, each followed by an unclosed opening tag, ten a line."""
    line = " ".join(["`span` <questionnaire>"] * 10) + "\n"
    return INTRO + line * (n // 10) + FENCED_TAIL


def tags_inside_code_spans(n: int) -> str:
    """``n`` code spans each holding an opening tag (inert), then an XML form."""
    line = " ".join(["`<questionnaire>`"] * 10) + "\n"
    return INTRO + line * (n // 10) + XML_TAIL


def unclosed_comments_in_html_block(n: int) -> str:
    """``n`` comment openers ``<!--`` never closed, none at the start of a line, ten a
    line inside one HTML block."""
    line = "x" + " <!-- x" * 10 + "\n"
    return INTRO + "<div>\n" + line * (n // 10) + "</div>\n" + FENCED_TAIL


def unclosed_comments(n: int) -> str:
    """``n`` comment openers ``<!--`` never closed, ten a line, in one paragraph."""
    line = "x" + " <!-- x" * 10 + "\n"
    return INTRO + line * (n // 10) + FENCED_TAIL


def tags_on_one_line(n: int) -> str:
    """``n`` unclosed opening tags on one long line."""
    return INTRO + "x" + " <questionnaire> x" * n + "\n" + FENCED_TAIL


def code_spans_and_tags_on_one_line(n: int) -> str:
    """``n`` code spans each followed by an unclosed tag, all on one long line."""
    return INTRO + "x" + " `a` <questionnaire>" * n + "\n" + FENCED_TAIL


def candidates_on_one_line(n: int) -> str:
    """``n`` complete XML+JSON blocks (empty, so invalid) side by side on one line."""
    return INTRO + "x" + "<questionnaire>{}</questionnaire>" * n + "\n" + FENCED_TAIL


def link_targets_then_tags(n: int) -> str:
    """``n`` link openers each followed by ``](b``, then a tag on the same line: every
    ``]`` closes link text and tries an inline link target, whose raw destination reads
    on through the later ones (one parenthesis level each, at most 32: linear, §3b)."""
    unit = "[a](b"
    return INTRO + "x " + unit * n + " <questionnaire>\n\n" + FENCED_TAIL


def candidates_between_punctuation(n: int) -> str:
    """``n`` complete XML+JSON blocks on one line, each followed by `` ; ``: the prose
    between two blocks starts with no letter, so the preface rule reads it construct by
    construct (§4.3), once per piece, never to the end of the line each time."""
    unit = '<questionnaire>{"title":"T","questions":[]}</questionnaire> ; '
    return INTRO + "x " + unit * n + "\n" + FENCED_TAIL


def tags_in_comment_block(n: int) -> str:
    """An HTML block of type 2 (a comment) holding ``n`` lines of opening tags with
    closers after them, all inert (§3b), then the comment's end."""
    return INTRO + "<!--\n" + "<questionnaire>\n" * n + "-->\n</questionnaire>\n" + FENCED_TAIL


def candidates_hiding_block_ends(n: int) -> str:
    """``n`` XML+JSON blocks on one line of a ``<pre>`` HTML block, each payload holding
    the block's end condition ``</pre>`` (hidden: the block goes on, §3b), each followed
    by a comment opener."""
    unit = '<questionnaire>{"x":"</pre>"}</questionnaire> <!-- '
    return INTRO + "<pre>\n" + unit * n + "\n-->\n</pre>\n" + FENCED_TAIL


def fence_indent_lines(n: int) -> str:
    """``n`` paragraphs, each a fence opener behind U+3000 (paragraph text, each a
    ``near_miss.fence_indent``)."""
    return INTRO + "\u3000```questionnaire\n\n" * n + FENCED_TAIL.lstrip("\n")


def near_miss_lines(n: int) -> str:
    """``n`` lines of 22 bytes, each a tilde fence opener behind U+3000 with the name in
    the wrong case and a word after it: four near-misses a line (``fence_indent``,
    ``tilde``, ``case``, ``extra_words``), all of which the cap keeps (§1)."""
    return INTRO + "\u3000~~~Questionnaire x\n" * n + FENCED_TAIL


# Inline content of the nested families: a code span, an entity, a tag, the family
# word, so that each line takes the scanner's general path (no run skips it).
_INLINE = "`a` &amp; <b>x</b> questionnaire\n"


def _depth(n: int, width: int, line: int = len(_INLINE) + 2) -> int:
    """The depth ``d`` of a staircase of ``d`` lines of ``line`` characters, the
    ``i``-th indented ``width * i`` more, that takes about ``n`` characters in all."""
    return max(2, (math.isqrt(line * line + 2 * width * n) - line) // width)


def nested_bullet_items(n: int) -> str:
    """Bullet items nested one a line (line ``i`` indented ``2 i`` spaces), with inline
    content, about ``n`` characters: every line continues every open item."""
    lines = ("  " * i + "- " + _INLINE for i in range(_depth(n, 2)))
    return INTRO + "".join(lines) + FENCED_TAIL


def nested_ordered_items(n: int) -> str:
    """Ordered items ``1.`` nested one a line (line ``i`` indented ``3 i`` spaces),
    with inline content, about ``n`` characters."""
    lines = ("   " * i + "1. " + _INLINE for i in range(_depth(n, 3)))
    return INTRO + "".join(lines) + FENCED_TAIL


def nested_quote_lines(n: int) -> str:
    """Block quotes nested one a line (line ``i`` holds ``i + 1`` markers), with inline
    content, about ``n`` characters."""
    lines = ("> " * (i + 1) + _INLINE for i in range(_depth(n, 2)))
    return INTRO + "".join(lines) + FENCED_TAIL


def nested_quotes_and_items(n: int) -> str:
    """A block quote in a list item in a block quote ..., a level a line: each line
    continues the levels before it (``> `` or two spaces) and opens the next."""
    kinds = ["> " if i % 2 == 0 else "- " for i in range(_depth(n, 2))]
    lines = []
    for i, opener in enumerate(kinds):
        prefix = "".join("> " if k == "> " else "  " for k in kinds[:i])
        lines.append(prefix + opener + _INLINE)
    return INTRO + "".join(lines) + FENCED_TAIL


def nested_items_in_tabs(n: int) -> str:
    """Bullet items nested one a line, indented with tabs (a tab is the content
    column of two levels, 4 columns), about ``n`` characters."""
    lines = ("\t" * (i // 2) + "  " * (i % 2) + "- " + _INLINE for i in range(_depth(n, 1)))
    return INTRO + "".join(lines) + FENCED_TAIL


def nested_items_with_fences(n: int) -> str:
    """Bullet items nested one a level, each holding a fenced code block (4 lines a
    level), about ``n`` characters."""
    parts = []
    for i in range(_depth(n, 8, len(_INLINE) + 24)):
        inner = "  " * (i + 1)
        parts.append(
            "  " * i + "- " + _INLINE + inner + "```\n" + inner + "code\n" + inner + "```\n"
        )
    return INTRO + "".join(parts) + FENCED_TAIL


def lazy_lines_in_deep_items(n: int) -> str:
    """One line opening ``n / 16`` nested items, then lazy continuation lines of their
    paragraph with inline content (about ``3 n / 4`` characters of them)."""
    lazy = _INLINE * (3 * n // 4 // len(_INLINE))
    return INTRO + "- " * (n // 16) + "a\n" + lazy + FENCED_TAIL


def blank_lines_in_deep_items(n: int) -> str:
    """One line opening ``n / 16`` nested items, then ``n / 2`` blank lines inside
    them (each item goes on), then a paragraph in the innermost item."""
    depth = n // 16
    return INTRO + "- " * depth + "a\n" + "\n" * (n // 2) + "  " * depth + _INLINE + FENCED_TAIL


def _family(
    build: Callable[[int], str], n: int, tail: str, *, deep: bool = False,
    exempt: tuple[str, ...] = (),
) -> Family:  # fmt: skip
    doc = " ".join((build.__doc__ or "").split())
    return Family(build.__name__, build, n, tail, doc, deep, exempt)


#: Sizes: ``n`` here; ``10 * n`` is the size of the linearity target in
#: docs/performance.md (10^4 tags, 5000 levels, 1 MB of newlines, 10^5-deep JSON ...).
FAMILIES: tuple[Family, ...] = (
    _family(backtick_runs, 20_000, "fenced"),
    _family(backtick_fence_line, 10_000, "fenced"),
    _family(tilde_fence_line, 10_000, "fenced"),
    _family(backtick_inline_run, 10_000, "fenced"),
    _family(unclosed_tags, 1_000, "fenced"),
    _family(unclosed_tags_with_attributes, 1_000, "fenced"),
    _family(tag_prefixes, 7_000, "fenced"),
    _family(quoted_fence_openers, 1_000, "fenced"),
    _family(fence_openers_in_candidate, 1_000, "fenced"),
    _family(fence_openers_in_html_block, 1_000, "fenced"),
    _family(nested_block_quotes, 500, "fenced", deep=True),
    _family(nested_list_markers, 500, "fenced", deep=True),
    _family(list_markers_as_preface, 500, "fenced", deep=True),
    _family(nested_bullet_items, 20_000, "fenced", deep=True),
    _family(nested_ordered_items, 20_000, "fenced", deep=True),
    _family(nested_quote_lines, 20_000, "fenced", deep=True),
    _family(nested_quotes_and_items, 20_000, "fenced", deep=True),
    _family(nested_items_in_tabs, 20_000, "fenced", deep=True),
    _family(nested_items_with_fences, 20_000, "fenced", deep=True),
    _family(lazy_lines_in_deep_items, 20_000, "fenced", deep=True),
    _family(blank_lines_in_deep_items, 20_000, "fenced", deep=True),
    _family(newlines, 100_000, "fenced"),
    _family(one_line, 100_000, "fenced"),
    _family(deep_json_arrays, 10_000, "xml"),
    _family(deep_json_objects, 10_000, "xml"),
    _family(yaml_alias_bomb, 500, "fenced"),
    _family(many_questions, 1_000, "fenced"),
    _family(fenced_payload_lines, 50_000, "fenced"),
    _family(fenced_payload_on_referee, 4_000, "fenced"),
    _family(code_spans_then_tags, 1_000, "fenced"),
    _family(tags_inside_code_spans, 1_000, "xml"),
    _family(unclosed_comments, 10_000, "fenced"),
    _family(unclosed_comments_in_html_block, 10_000, "fenced"),
    _family(tags_on_one_line, 1_000, "fenced"),
    _family(code_spans_and_tags_on_one_line, 1_000, "fenced"),
    _family(candidates_on_one_line, 1_000, "fenced"),
    _family(candidates_between_punctuation, 1_000, "fenced"),
    _family(link_targets_then_tags, 4_000, "fenced"),
    _family(tags_in_comment_block, 1_000, "fenced"),
    _family(candidates_hiding_block_ends, 1_000, "fenced"),
    _family(fence_indent_lines, 1_000, "fenced"),
    # Every near-miss is kept (§1): four diagnostics per 22-byte line.
    _family(near_miss_lines, 1_000, "fenced", exempt=("segment-json", "segment-text", "check")),
)

BY_NAME: dict[str, Family] = {f.name: f for f in FAMILIES}
