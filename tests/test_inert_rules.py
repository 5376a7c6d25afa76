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


# ---- where an HTML block ends when a tag inside it is judged (§3b) ----------------------
XML = '<questionnaire>{"questions":[{"type":"text","text":"Q"}]}</questionnaire>'


def kinds(text: str) -> list[str]:
    return [s.encoding or "markdown" for s in segment(text).segments]


def test_a_comment_ended_on_the_line_that_ends_its_html_block_hides_nothing_after() -> None:
    """The reported message: the comment's tag-like text made segment() read ahead to
    find the block's end, and the line holding ``-->`` was left out of the block."""
    text = "<!--\n<questionnaire\n-->\n\n" + FENCE
    result = segment(text)
    assert kinds(text) == ["markdown", "fenced_yaml"]
    assert result.segments[1].valid and result.diagnostics == ()
    assert code_regions(text)[0].end == text.index("-->") + 3


def test_minimal_comment_then_block_on_the_closing_line() -> None:
    text = "<!--<questionnaire\n--><questionnaire></questionnaire>"
    result = segment(text)
    assert [(s.kind, s.start, s.end) for s in result.segments] == [
        ("markdown", 0, 22),
        ("questionnaire", 22, len(text)),
    ]
    assert [d.code for d in result.diagnostics] == ["json.syntax"]


def test_html_blocks_of_types_1_to_5_end_with_the_line_of_their_end_condition() -> None:
    for opener, closing in (
        ("<pre>", "--></pre>"),
        ("<pre><!--", "--></pre>"),
        ("<?php", "--> ?>"),
        ("<?php <!--", "--> ?>"),
        ("<!DOCTYPE html", "-->"),
        ("<![CDATA[", "-->]]>"),
    ):
        comment = "" if "<!--" in opener else "<!--\n"
        text = f"{opener}\n{comment}<questionnaire\n{closing}\n\n{FENCE}"
        result = segment(text)
        assert kinds(text) == ["markdown", "fenced_yaml"], opener
        # The tag-like text lies in the comment: no near-miss.
        assert result.diagnostics == (), opener


def test_an_end_condition_on_the_tags_own_line_ends_the_block_there() -> None:
    """``<!-->`` (and ``</pre>``) end their HTML block on the first line, so the comment
    opened after them on that line is unclosed text and the tag is a candidate."""
    for first in ("<!--> <!-- ", "<pre></pre> <!-- "):
        text = first + XML + "\n-->\n"
        assert kinds(text) == ["markdown", "xml_json", "markdown"], first
        assert segment(text).segments[1].start == len(first)


def test_an_end_condition_inside_a_candidate_does_not_end_the_block() -> None:
    """With the first block in place its ``</pre>`` is hidden, so the block goes on to
    the next line and the comment closes there: the second tag is inert."""
    text = '<pre>\n<questionnaire>{"x":"</pre>"}</questionnaire> <!-- ' + XML + "\n-->\n"
    assert kinds(text) == ["markdown", "xml_json", "markdown"]


def test_nothing_after_an_unclosed_comment_is_read_even_on_its_own_line() -> None:
    """A block quote's HTML block ends at the next line, which the halting comment
    hides: no candidate and no near-miss there."""
    assert kinds("Intro\n> <!--\n" + XML) == ["markdown"]
    result = segment("Intro\n> <!--\n<Questionnaire>")
    assert result.diagnostics == ()


def test_an_unclosed_comment_starting_a_list_items_line_runs_to_the_end() -> None:
    for item in ("- ", "1. ", "> - ", "- > "):
        text = f"Intro\n\n{item}<!--\n\n{FENCE}"
        assert kinds(text) == ["markdown"], item
        regions = code_regions(text)
        assert regions[0].kind == "html_comment", item
        assert regions[0].start == text.index("<!--"), item


def test_a_greater_than_sign_in_html_block_text_is_not_a_line_prefix() -> None:
    """Inside an HTML block ``>`` is text, so ``> <!--`` there does not start a line."""
    text = "<div>\n> <!--\n</div>\n\n" + FENCE
    assert kinds(text) == ["markdown", "fenced_yaml"]
    assert [r.kind for r in code_regions(text)] == ["fenced"]


def test_unclosed_comment_in_raw_text_elements_halts_too() -> None:
    """docs/protocol.md §3b: the comment rule holds inside <textarea>, <script> and
    <style> (a departure from browsers, kept by the decisions)."""
    form = '<questionnaire>{"title":"T","questions":[{"type":"text","text":"Q"}]}</questionnaire>'
    for tag in ("textarea", "script", "style"):
        text = f"<{tag}>\n<!-- draft\n</{tag}>\n\nPick one: {form}\n"
        result = segment(text)
        assert [(s.kind, s.start, s.end) for s in result.segments] == [("markdown", 0, len(text))]
        assert result.diagnostics == ()
