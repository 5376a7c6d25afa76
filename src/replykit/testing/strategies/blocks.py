"""Fault families of where blocks are found (§3a-§3c).

Each strategy draws a whole message around a valid form whose finding depends on one
CommonMark construct: code spans and blank lines, escaped backticks, HTML blocks and
comments, 4-space lines that are not code, tabs before fences, containers, the
opener's indentation and shorter closing fences.
"""

from __future__ import annotations

from typing import Final

from hypothesis import strategies as st

from replykit.testing.strategies._clean import (
    clean_form,
    fenced,
    json_text,
    prose,
    xml,
    yaml_text,
)
from replykit.testing.strategies._common import pick


def _indent(text: str, prefix: str, first: str | None = None) -> str:
    lines = text.splitlines(keepends=True)
    head = prefix if first is None else first
    return "".join((head if i == 0 else prefix) + line for i, line in enumerate(lines))


def _xml_form(draw: st.DrawFn) -> str:
    return xml(json_text(clean_form(draw)))


def _fenced_form(draw: st.DrawFn) -> str:
    return fenced(yaml_text(clean_form(draw)))


@st.composite
def code_span_blank_line_messages(draw: st.DrawFn) -> str:
    """A backtick run before a blank line and one of the same length after it, with a
    valid form between (§3b: no code span crosses a blank line, so the form is
    found)."""
    ticks = "`" * draw(st.integers(1, 2))
    blank = pick(draw, ("\n\n", "\n\n", "\n \n", "\n\n\n"))
    before = f"{prose(draw)} {ticks}{pick(draw, ('a', 'note', '代码'))}{blank}"
    if draw(st.integers(0, 3)) == 0:
        return f"{before}{_fenced_form(draw)}then{ticks} after\n"
    return f"{before}{_xml_form(draw)} then{ticks} after\n"


@st.composite
def escaped_backtick_messages(draw: st.DrawFn) -> str:
    """An escaped backtick (``\\```) before a tag and a backtick run after it (§3b: an
    escaped backtick opens no span, and the run left after it finds no run of its
    length, so the tag is found); or a code span ending in a backslash
    (```` `a\\` ````: no escapes inside spans) before the tag."""
    tag = _xml_form(draw)
    lead = prose(draw)
    kind = draw(st.integers(0, 3))
    if kind == 3:
        return f"{lead} `a\\`{tag}` b\n"
    if kind == 2:
        return f"{lead} \\``{tag}`` b\n"
    return f"{lead} \\`{tag}` {pick(draw, ('b', 'and more'))}\n"


_HTML_AROUND: Final[tuple[tuple[str, str], ...]] = (
    ("<details>", "</details>"),
    ("<details>\n<summary>Form</summary>", "</details>"),
    ("<div>", "</div>"),
    ('<div class="form">', "</div>"),
    ("<pre>", "</pre>"),
    ("<section>", "</section>"),
    ("<table><tr><td>", "</td></tr></table>"),
)


@st.composite
def html_block_messages(draw: st.DrawFn) -> str:
    """HTML blocks around forms and fence lines (§3b): a fenced form inside an HTML
    block is raw HTML (no block); a tag inside one is still a candidate; a type-6
    block (``<div>``) ends at a blank line, so a fence after the blank line opens
    although the ``</div>`` comes later."""
    opener, closer = pick(draw, _HTML_AROUND)
    lead = prose(draw) + "\n\n"
    kind = draw(st.integers(0, 5))
    if kind <= 2:
        return f"{lead}{opener}\n{_fenced_form(draw)}{closer}\n"
    if kind == 3:
        return f"{lead}{opener}\n{_xml_form(draw)}\n{closer}\n"
    if kind == 4:
        name = pick(draw, ("div", "details", "section"))
        return f"{lead}<{name}>\n\n{_fenced_form(draw)}\n</{name}>\n"
    return f"<div>\n{prose(draw)}\n\n{lead}{_fenced_form(draw)}</div>\n"


@st.composite
def html_comment_messages(draw: st.DrawFn) -> str:
    """HTML comments around forms (§3b): a tag or a fenced form inside ``<!-- -->`` is
    not a block, and an unclosed comment that starts a line hides everything after
    it."""
    lead = prose(draw)
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return f"{lead} <!-- {_xml_form(draw)} -->\n"
    if kind == 1:
        return f"{lead}\n\n<!--\n{_fenced_form(draw)}-->\n"
    if kind == 2:
        return f"{lead}\n\n<!-- draft\n{_xml_form(draw)}\n-->\n"
    if kind == 3:
        return f"{lead} <!--{_xml_form(draw)}-->{pick(draw, ('', ' done'))}\n"
    # An unclosed comment starting a line (here in a list item) hides the rest.
    return f"{lead}\n\n- <!-- {prose(draw)}\n\n{_fenced_form(draw)}"


@st.composite
def four_space_messages(draw: st.DrawFn) -> str:
    """Lines indented 4 spaces that are not code (§3b): a paragraph continuation
    holding a tag (a candidate), list content holding a tag (a candidate) or a fence
    (code of the list item, ``near_miss.in_container``)."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return f"{prose(draw)}\n    {_xml_form(draw)}\n"
    marker = pick(draw, ("- ", "* ", "1. ", "2) "))
    item = f"{marker}{prose(draw)}\n"
    if kind == 1:
        return f"{item}\n    {_xml_form(draw)}\n"
    if kind == 2:
        return f"{item}    {_xml_form(draw)}\n"
    return f"{prose(draw)}\n\n{item}\n" + _indent(_fenced_form(draw), "    ")


@st.composite
def tab_fence_messages(draw: st.DrawFn) -> str:
    """A tab, alone or after 1-3 spaces, before a fence or a tag (§3b: it reaches
    column 4, indented code): the opener, the closer of a valid form (so the form is
    unclosed), the tag, or a fence in a list item (content, §3c)."""
    tab = pick(draw, ("\t", " \t", "  \t", "   \t"))
    lead = prose(draw) + "\n\n"
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return lead + _indent(_fenced_form(draw), pick(draw, (tab, "")), tab)
    if kind == 1:
        lines = _fenced_form(draw).splitlines(keepends=True)
        return lead + "".join(lines[:-1]) + tab + lines[-1]
    if kind == 2:
        return f"{lead}{tab}{_xml_form(draw)}\n"
    return f"{lead}- {prose(draw)}\n\n" + _indent(_fenced_form(draw), "  ", "\t")


@st.composite
def container_fence_messages(draw: st.DrawFn) -> str:
    """A fenced form inside a block quote, a list item or both (§3c: a fence only at
    the top level, ``near_miss.in_container``)."""
    block = _fenced_form(draw)
    kind = draw(st.integers(0, 4))
    if kind == 0:
        body = _indent(block, pick(draw, ("> ", ">")))
    elif kind == 1:
        marker = pick(draw, ("- ", "* ", "+ "))
        body = _indent(block, "  ", marker)
    elif kind == 2:
        marker = pick(draw, ("1. ", "2) "))
        body = _indent(block, "   ", marker)
    elif kind == 3:
        body = _indent(block, ">   ", "> - ")
    else:
        body = f"- {prose(draw)}\n" + _indent(block, "  ")
    return f"{prose(draw)}\n\n{body}"


@st.composite
def dedent_messages(draw: st.DrawFn) -> str:
    """An opener indented 1-3 spaces whose content lines are indented unevenly, so
    the YAML is a valid form only once each line loses up to that many spaces (§3a:
    the payload is CommonMark's content of the block)."""
    size = draw(st.integers(1, 3))
    indent = " " * size
    lines = yaml_text(clean_form(draw)).splitlines(keepends=True)
    # One top-level key line loses its indentation: read as written, it no longer
    # lines up with the rest.
    bare = draw(st.integers(0, 1))
    body = "".join(line if i == bare else indent + line for i, line in enumerate(lines))
    closer = " " * draw(st.integers(0, size))
    return f"{prose(draw)}\n\n{indent}```questionnaire\n{body}{closer}```\n"


@st.composite
def short_closer_messages(draw: st.DrawFn) -> str:
    """An opener of 4-5 backticks and a shorter closing fence after a valid form (§3a
    closer: it closes nothing): the block runs on, unclosed or up to a later closer
    of the right length."""
    size = draw(st.integers(4, 5))
    short = "`" * draw(st.integers(3, size - 1))
    payload = yaml_text(clean_form(draw))
    text = f"{prose(draw)}\n\n{'`' * size}questionnaire\n{payload}{short}\n"
    kind = draw(st.integers(0, 2))
    if kind == 1:
        text += f"{prose(draw)}\n"
    elif kind == 2:
        text += f"{prose(draw)}\n{'`' * size}\n"
    return text


__all__ = [
    "code_span_blank_line_messages",
    "container_fence_messages",
    "dedent_messages",
    "escaped_backtick_messages",
    "four_space_messages",
    "html_block_messages",
    "html_comment_messages",
    "short_closer_messages",
    "tab_fence_messages",
]
