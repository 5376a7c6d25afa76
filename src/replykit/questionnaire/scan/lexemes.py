"""The patterns the scanner applies, each compiled from a terminal of ``grammar/message.lark``.

:func:`replykit.questionnaire.scan.grammar.lexemes` builds the one :class:`Lexemes` value from the
loaded grammar, so the grammar file is the single source of every pattern that
states a rule. Patterns for near-misses and the §9 relaxations are compiled to match
in any ASCII case.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

import attrs

_ANY_CASE = re.IGNORECASE | re.ASCII


@attrs.frozen
class Lexemes:
    """Compiled grammar terminals (the attribute names are the terminals' in lower case)."""

    family_word_any_case: re.Pattern[str]
    family_name: re.Pattern[str]
    family_name_any_case: re.Pattern[str]
    fence_opener: re.Pattern[str]
    fence_closer: re.Pattern[str]
    open_tag: re.Pattern[str]
    tag_like: re.Pattern[str]
    any_close_tag: re.Pattern[str]
    short_fence: re.Pattern[str]
    list_marker: re.Pattern[str]
    atx_marker: re.Pattern[str]
    setext_underline: re.Pattern[str]
    blank_line: re.Pattern[str]
    code_fence_open: re.Pattern[str]
    code_fence_close: re.Pattern[str]
    html_starts: tuple[re.Pattern[str], ...]
    html_ends: tuple[re.Pattern[str], ...]
    backtick_run: re.Pattern[str]
    escape: re.Pattern[str]
    autolink: re.Pattern[str]
    tag_name: re.Pattern[str]
    attribute_start: re.Pattern[str]
    attribute_equals: re.Pattern[str]
    unquoted_value: re.Pattern[str]
    tag_end: re.Pattern[str]
    raw_closing_tag: re.Pattern[str]
    raw_html: re.Pattern[str]
    thematic_break: re.Pattern[str]
    character_reference: re.Pattern[str]
    name_chars: re.Pattern[str]

    @classmethod
    def from_terminals(cls, terms: Mapping[str, str]) -> Lexemes:
        """Compile the terminals the scanner needs from ``{name: regular expression}``
        (raises ``KeyError`` naming a terminal the grammar lacks)."""

        one = functools.partial(_compile_terminal, terms)
        return cls(
            family_word_any_case=one("FAMILY_WORD", _ANY_CASE),
            family_name=one("FAMILY_NAME"),
            family_name_any_case=one("FAMILY_NAME", _ANY_CASE),
            fence_opener=one("FENCE_OPENER"),
            fence_closer=one("FENCE_CLOSER"),
            open_tag=one("OPEN_TAG"),
            tag_like=one("TAG_LIKE", _ANY_CASE),
            any_close_tag=one("ANY_CLOSE_TAG", _ANY_CASE),
            short_fence=one("SHORT_FENCE"),
            list_marker=one("LIST_MARKER"),
            atx_marker=one("ATX_MARKER"),
            setext_underline=one("SETEXT_UNDERLINE"),
            blank_line=one("BLANK_LINE"),
            code_fence_open=one("CODE_FENCE_OPEN"),
            code_fence_close=one("CODE_FENCE_CLOSE"),
            html_starts=tuple(one(f"HTML_START_{k}") for k in range(1, 8)),
            html_ends=tuple(one(f"HTML_END_{k}") for k in range(1, 6)),
            backtick_run=one("BACKTICK_RUN"),
            escape=one("ESCAPE"),
            autolink=one("AUTOLINK"),
            tag_name=one("TAG_NAME"),
            attribute_start=one("ATTRIBUTE_START"),
            attribute_equals=one("ATTRIBUTE_EQUALS"),
            unquoted_value=one("UNQUOTED_VALUE"),
            tag_end=one("TAG_END"),
            raw_closing_tag=one("RAW_CLOSING_TAG"),
            raw_html=one("RAW_HTML"),
            thematic_break=one("THEMATIC_BREAK"),
            character_reference=one("CHARACTER_REFERENCE"),
            name_chars=one("NAME_CHARS"),
        )


def _compile_terminal(terms: Mapping[str, str], name: str, flags: int = 0) -> re.Pattern[str]:
    # Module level, not nested in from_terminals: mypyc cannot compile a closure inside a
    # method of an attrs class (a non-native class for it).
    return re.compile(terms[name], flags)
