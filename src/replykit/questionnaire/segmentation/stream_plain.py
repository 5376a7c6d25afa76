"""Lines of plain prose a streaming reading may take without scanning them (§3b, §10).

A line that starts with a letter, where nothing is open before it, starts a paragraph
(no block starts with a letter, CommonMark 4-5); if its text up to a protocol tag holds
no character that may start an inline region, a link, an entity or an escape, nothing
in it can make the tag inert or part of something else (§3b). A streaming reading
takes such a line whole: the line still arriving that ends with an opening tag
(:func:`plain_tag_line`, the tentative block of §10) and the line of a one-line
XML+JSON block whose closer came (``stream_closer.read_xml_closer``). Tests compare
both with the scanner's reading (``tests/test_stream_xml_closer.py``).
"""

from __future__ import annotations

import re

from replykit.questionnaire.compat import Compat
from replykit.questionnaire.scan.lexemes import Lexemes

#: Prose before a protocol tag that a reading takes whole: a letter first, then no
#: backtick, ``<``, ``>``, ``&``, backslash, bracket, ``!``, ``*``, ``_``, ``~``, line
#: ending or control character.
PLAIN_PROSE = re.compile(r"[^\W\d_][^`<>&\\\[\]!*_~\x00-\x1f\x7f-\x9f]*")
_STRICT = Compat()


def plain_tag_line(text: str, lexemes: Lexemes, compat: Compat) -> tuple[int, int]:
    """Where the last line of ``text`` starts and where its tag starts (offsets into
    ``text``), when that line is :data:`PLAIN_PROSE` followed by an exact opening tag
    (strict §3a, no §9 switch) that ends the text; else ``(-1, -1)``."""
    if not text.endswith(">") or compat != _STRICT:
        return -1, -1
    line = text.rfind("\n") + 1
    tag = text.find("<", line)
    if (
        line == 0 or tag < 0 or lexemes.open_tag.fullmatch(text, tag) is None
        or PLAIN_PROSE.fullmatch(text, line, tag) is None
    ):  # fmt: skip
        return -1, -1
    return line, tag
