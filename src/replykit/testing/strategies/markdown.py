"""Markdown without protocol blocks, and lines probing where inert regions end (§3b)."""

from __future__ import annotations

from typing import Final

from hypothesis import strategies as st

from replykit.testing.strategies._common import WORDS, pick


@st.composite
def prose(draw: st.DrawFn) -> str:
    """One line of visible prose (1-6 words, no line ending), e.g. ``"Hello 任务 😀"``.

    May hold inline Markdown (emphasis, a code span, an escaped backtick) and the word
    ``questionnaire``; never a line ending.
    """
    words = [pick(draw, WORDS) for _ in range(draw(st.integers(1, 6)))]
    return " ".join(words)


_PROSE: Final = prose()


@st.composite
def markdown(draw: st.DrawFn) -> str:
    """A Markdown fragment without protocol blocks: 1-3 constructs separated by
    newlines, ending with a newline.

    Constructs: paragraph, ATX heading, list item, block quote, thematic break,
    fenced code (backticks or tildes, maybe holding a questionnaire example),
    indented code, an HTML block, an HTML comment, a blank line.
    """
    parts: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.integers(0, 9))
        line = draw(_PROSE)
        if kind == 0:
            parts.append(line + "\n")
        elif kind == 1:
            parts.append("## " + line + "\n")
        elif kind == 2:
            parts.append(pick(draw, ["- ", "* ", "1. "]) + line + "\n")
        elif kind == 3:
            parts.append("> " + line + "\n")
        elif kind == 4:
            parts.append("---\n")
        elif kind == 5:
            fence = pick(draw, ["```", "~~~", "````"])
            info = pick(draw, ["", "yaml", "questionnaire", "markdown"])
            parts.append(f"{fence}{info}\n{line}\n{fence}\n")
        elif kind == 6:
            parts.append("\n    " + line + "\n")
        elif kind == 7:
            parts.append("<details>\n" + line + "\n</details>\n")
        elif kind == 8:
            parts.append("<!-- " + line + " -->\n")
        else:
            parts.append("\n")
    return "".join(parts)


# Pieces of lines for inert_messages(): openers and end conditions of HTML comments and
# of the seven CommonMark HTML block types, unclosed and attribute-bearing tags,
# tag-like and fence-like text, code-span backticks, and short candidates.
_INERT_PIECES: Final[tuple[str, ...]] = (
    "<!--", "<!--", "-->", "-->", "<!-->", "<!--->", "--", ">",
    "<pre>", "</pre>", "<script>", "</script>", "<style>", "</style>", "<textarea>",
    "</textarea>", "<?", "?>", "<!DOCTYPE html", "<![CDATA[", "]]>", "<div>", "</div>",
    "<details>", "</details>", "<span>", "</span>", '<a href="x">', '<span title="', '"',
    "'", "<b", "<questionnaire", "<questionnaire", "<questionnaire>", "</questionnaire>",
    "<Questionnaire>", "<questionnaire a=1>", "<sage-questionnaire>",
    "</sage-questionnaire>", "<questionnaire-response>", "</questionnaire-response>",
    "<questionnaire>{}</questionnaire>", '<questionnaire>{"x":"-->"}</questionnaire>',
    "<questionnaire>{}", "<questionnaire>\n{}\n</questionnaire>",
    "<questionnaire>{\n\n}</questionnaire>", "<http://x", "```questionnaire", "```", "~~~",
    "``questionnaire", "```Questionnaire", "\u3000```questionnaire", "\u00a0~~~questionnaire",
    "\u200b```questionnaire", "`", "``", "\\`", "a", "Intro", " ", "  ", "\t", "x <y> z", "问",
)  # fmt: skip
# Line starts: none, indentation, block quote and list item markers.
_INERT_STARTS: Final[tuple[str, ...]] = (
    "", "", "", "", "", " ", "   ", "    ", "> ", ">", "> > ", "- ", "1. ", "  ", "- > ",
)  # fmt: skip
_FENCE_TAIL: Final = (
    "\n\nIntro\n\n```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n"
    '    text: Q\n    default: ""\n```\n'
)


@st.composite
def inert_messages(draw: st.DrawFn) -> str:
    """A message probing where inert regions end (§3b): 1-10 lines, each a line start
    (none, indentation, ``>``, list markers) and 0-5 pieces: HTML comment openers and
    closers, openers and end conditions of the seven CommonMark HTML block types,
    unclosed tags and tags with attributes (``<span title="``, ``<questionnaire``),
    tag-like and fence-like text (``</questionnaire>``, ```` ```questionnaire ````),
    backticks and short XML+JSON candidates; some pieces are a line ending, so tags,
    comments and attribute values run across lines. Lines join with ``\\n`` or
    ``\\r\\n``, some blank; sometimes a valid fenced form follows, so that a region
    that runs too far shows as a lost block."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 10))):
        if draw(st.integers(0, 5)) == 0:
            lines.append("")
            continue
        pieces = [pick(draw, _INERT_STARTS)]
        for _ in range(draw(st.integers(0, 5))):
            pieces.append("\n" if draw(st.integers(0, 7)) == 0 else pick(draw, _INERT_PIECES))
        lines.append("".join(pieces))
    text = "\n".join(lines)
    if draw(st.integers(0, 2)) == 0:
        text += _FENCE_TAIL
    if draw(st.integers(0, 5)) == 0:
        text = text.replace("\n", "\r\n")
    return text


__all__ = ["inert_messages", "markdown", "prose"]
