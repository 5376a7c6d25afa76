"""Text nested deeper than markdown-it's ``maxNesting`` (docs/html.md section 7).

At its nesting limit markdown-it stops reading: what lies deeper is dropped, and a card
there would lose its place. :func:`deep_rule` runs first among the block rules: where
one more container could reach the limit, it reads the rest of the container as one
paragraph of its text (deeper container markers shown as text), so no text is lost and
each card stays where ``segment()`` finds its block. Recursion stays bounded by
``maxNesting``, and each line is read once.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

#: The ``maxNesting`` :func:`replykit.markdown_it.render_html` uses: markdown-it's
#: ``commonmark`` preset has 20, its ``default`` preset 100 (Python's recursion stays
#: far from its limit: about 3 frames a level).
RENDER_NESTING = 100
# A list opens two levels (list, item) before it reads its content.
_MARGIN = 2


def add_deep_rule(md: MarkdownIt) -> None:
    """Put :func:`deep_rule` first among ``md``'s block rules."""
    md.block.ruler.before(md.block.ruler.get_all_rules()[0], "replykit_deep", deep_rule)


def deep_rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Near the nesting limit: the rest of this container, up to the first line it does
    not hold, as one paragraph of its text."""
    if silent or state.level + _MARGIN < state.md.options["maxNesting"]:
        return False
    line = start
    while line < end and _held(state, line):
        line += 1
    while line > start + 1 and state.isEmpty(line - 1):
        line -= 1
    token = state.push("paragraph_open", "p", 1)
    token.map = [start, line]
    token = state.push("inline", "", 0)
    token.content = state.getLines(start, line, state.blkIndent, False).strip()
    token.map = [start, line]
    token.children = []
    state.push("paragraph_close", "p", -1)
    state.line = line
    return True


def _held(state: StateBlock, line: int) -> bool:
    # A negative count marks a blockquote's lazy line, which the paragraph takes.
    count = state.sCount[line]
    return state.isEmpty(line) or count >= state.blkIndent or count < 0
