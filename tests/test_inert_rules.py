"""§3b rules beyond plain CommonMark, found in review: an unclosed HTML comment that
starts a line hides the rest of the message; many blocks on one line stay linear."""

from __future__ import annotations

from replykit import code_regions, segment

FENCE = (
    "Intro\n\n```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n"
    '    text: Q\n    default: ""\n```\n'
)


def test_unclosed_comment_starting_a_line_runs_to_the_end_of_the_message() -> None:
    text = "<div>\n<!--\n</div>\n\n" + FENCE + "<questionnaire>{}</questionnaire>"
    result = segment(text)
    assert [s.kind for s in result.segments] == ["markdown"]
    assert result.diagnostics == ()
    # Plain CommonMark (code_regions) ends it with its HTML block.
    regions = code_regions(text)
    assert regions[0].kind == "html_comment" and regions[0].end == text.index("</div>") + 6
    assert any(r.kind == "fenced" for r in regions)


def test_closed_or_mid_line_comments_hide_nothing_after_them() -> None:
    for opener in ("<div>\n<!-- ok -->\n</div>\n\n", "<div>\nx <!--\n</div>\n\n"):
        result = segment(opener + FENCE)
        assert [s.kind for s in result.segments] == ["markdown", "questionnaire"]
        assert result.segments[1].valid


def test_many_blocks_side_by_side_are_all_found() -> None:
    block = '<questionnaire>{"questions":[{"type":"text","text":"Q"}]}</questionnaire>'
    result = segment("Intro " + block * 500)
    blocks = [s for s in result.segments if s.kind != "markdown"]
    assert len(blocks) == 500 and all(b.valid for b in blocks)
    assert blocks[-1].id == "message_q500"


def test_a_line_of_spaces_ends_an_item_that_began_blank() -> None:
    """Spec 5.2: a list item can begin with at most one blank line, and a line of
    spaces is blank (commonmark.js and markdown-it-py agree; cmark does not)."""
    for item in ("1.", "-"):
        pad = " " * (len(item) + 1)
        text = f"Intro\n\n{item}\n{pad}\n{pad}```questionnaire\ntitle: T\n```\n"
        kinds = [s.kind for s in segment(text).segments]
        assert kinds == ["markdown", "questionnaire"], item


def test_raw_html_spanning_block_quote_lines_hides_its_backticks() -> None:
    """A tag that continues on the next line of a block quote still holds its attribute
    value: the backtick there opens no code span (as markdown-it-py reads it)."""
    from markdown_it import MarkdownIt

    for text in ('> a <span\n> title="`">x `code` y\n', "> > a <b\n> > c='`'>`d`\n"):
        spans = [text[r.start : r.end] for r in code_regions(text) if r.kind == "span"]
        tokens = MarkdownIt("commonmark").parse(text)
        inline = [t for tok in tokens if tok.children for t in tok.children]
        oracle = [t.content for t in inline if t.type == "code_inline"]
        assert [s.strip("`") for s in spans] == oracle, text
