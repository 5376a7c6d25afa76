"""The fault families the fuzzer's generators aim at (docs/fuzzing.md, "Fault families").

A *family* is a kind of input on which client implementations of the protocols are
known to go wrong: a transport encoding, a CommonMark construct that decides whether a
block is found, a form with exactly one damaged field, a §7 check or a §12 limit.
Each has a generator in :mod:`replykit.testing.strategies.families` (needs
Hypothesis) and at least one hand-written example in
:func:`replykit.fuzz.examples.explicit_examples` that carries its name. Plain data with
no dependency on Hypothesis.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

import attrs

from replykit.codes import Rule, rules
from replykit.fuzz.ops import Op


@attrs.frozen
class Family:
    """One fault family.

    ``name``: a stable kebab-case identifier (``html-entities``); ``op``: the
    operation whose requests carry it; ``rule``: the tag of :mod:`replykit.codes.rules`
    whose rule the inputs exercise (``§3b``); ``summary``: one sentence saying what the
    inputs hold and which client fault they expose.
    """

    name: str
    op: Op
    rule: str
    summary: str


def _seg(name: str, rule: Rule, summary: str) -> Family:
    return Family(name, "segment", rule.tag, summary)


#: Every family, in the order docs/fuzzing.md lists them.
FAMILIES: Final[tuple[Family, ...]] = (
    # Transport encodings: ordinary text in strict mode (§1).
    _seg(
        "html-entities",
        rules.TEXT_UNITS,
        "a form written with HTML entities (&lt;questionnaire&gt;, &quot;, &#96;&#96;&#96;): "
        "text, not a block, for a client that decodes entities before splitting",
    ),
    _seg(
        "json-string-message",
        rules.TEXT_UNITS,
        "a whole message that is a JSON string literal holding a form: text, "
        "for a client that decodes the message first",
    ),
    _seg(
        "escaped-closer",
        rules.TEXT_UNITS,
        "<\\/questionnaire> as a closer, or inside a JSON string of the payload: "
        "not a closing tag, for a client that unescapes it",
    ),
    _seg(
        "lone-cr",
        rules.TEXT_UNITS,
        "lone CR and mixed CRLF/CR/LF line endings at the lines that open, close or indent "
        "a block, for a client that splits lines on LF only",
    ),
    _seg(
        "astral-offsets",
        rules.TEXT_UNITS,
        "characters outside the BMP before and inside blocks, for a client that reports "
        "UTF-16 offsets",
    ),
    _seg(
        "utf16-lengths",
        rules.TOOL,
        "ui_text values of 33-64 code points that are over 64 UTF-16 units, for a client "
        "that measures UTF-16 length",
    ),
    # CommonMark constructs that decide where blocks are (§3).
    _seg(
        "code-span-blank-line",
        rules.INERT,
        "backticks on both sides of a blank line around a tag: no code span, "
        "for a client whose spans cross blank lines",
    ),
    _seg(
        "escaped-backtick",
        rules.INERT,
        "an escaped backtick before a tag (or a backslash inside a code span): no span "
        "around the tag, for a client that lets it open or extend one",
    ),
    _seg(
        "html-block",
        rules.INERT,
        "HTML blocks (<div>, <details>, <pre>, ...) around forms and fence lines, "
        "for a client that reads fences in them or hides tags in them",
    ),
    _seg(
        "html-comment",
        rules.INERT,
        "HTML comments around tags and fenced forms, for a client that reads inside them",
    ),
    _seg(
        "four-space-continuation",
        rules.INERT,
        "lines indented 4 spaces that continue a paragraph or belong to a list item, "
        "holding a tag or a fence, for a client that reads every such line as code",
    ),
    _seg(
        "tab-before-fence",
        rules.INERT,
        "a tab (alone or after 1-3 spaces) before a fence or a tag: 4 columns, indented "
        "code, for a client that counts a tab as one column",
    ),
    _seg(
        "fence-in-container",
        rules.TOP_LEVEL,
        "fenced forms inside list items and block quotes, for a client that accepts them",
    ),
    _seg(
        "fence-dedent",
        rules.CANDIDATES,
        "an opener indented 1-3 spaces whose content is dedented by that much, "
        "for a client that reads the content as written",
    ),
    _seg(
        "short-closer",
        rules.CLOSER,
        "a closing fence shorter than the opener, for a client that closes on it",
    ),
    _seg(
        "name-case",
        rules.NEAR_MISS,
        "names in other ASCII cases (<Questionnaire>, ```QUESTIONNAIRE, a closer in "
        "another case), for a client that compares names case-insensitively",
    ),
    _seg(
        "tag-attributes",
        rules.NEAR_MISS,
        'attributes or spaces on an opening tag (<questionnaire id="x">), '
        "for a client that accepts them",
    ),
    _seg(
        "unregistered-name",
        rules.PROFILES,
        "a valid form under a name no profile registers (<foo-questionnaire>), "
        "for a client that shows every family name",
    ),
    _seg(
        "invisible-preface",
        rules.PREFACE,
        "only zero-width characters, a BOM or other blank characters before a fenced "
        "form, for a client that counts them as prose",
    ),
    _seg(
        "no-preface",
        rules.PREFACE,
        "no prose before a fenced form (nothing, a code span, a comment, code, an "
        "XML+JSON block, Markdown that renders no text), for a client that ignores the "
        "preface rule",
    ),
    # A valid form with exactly one field damaged, in both encodings.
    _seg(
        "curly-quote",
        rules.XML_JSON,
        "typographic quotes in the JSON of a valid form (or in a string value, or in "
        "YAML), for a client that accepts or straightens them",
    ),
    _seg(
        "json-string-payload",
        rules.XML_JSON,
        "a payload, or one field, that is a JSON string holding JSON, for a client that decodes it",
    ),
    _seg(
        "one-bad-question",
        rules.FIELDS,
        "one invalid question among valid ones, for a client that drops it instead of "
        "failing the form",
    ),
    _seg(
        "yaml-alias",
        rules.YAML,
        "a YAML anchor and alias in a valid form, for a client that resolves them",
    ),
    _seg(
        "yaml11-scalar",
        rules.YAML,
        "one plain YAML 1.1 scalar (yes, no, on, 9:16, 0o7, 1_000, 2026-11-30) in a valid "
        "form, for a client that reads YAML 1.1",
    ),
    Family(
        "tool-one-rule",
        "questionnaire_async",
        rules.TOOL.tag,
        "valid tool arguments with exactly one §7 rule broken (or one value to trim, "
        "alias or null), for a tool that skips that check",
    ),
    Family(
        "action-url",
        "sanitize_actions",
        rules.ACTIONS.tag,
        "valid actions, one with a url (top level, in params or in target), "
        "for a sanitizer that keeps it",
    ),
    Family(
        "action-duplicate-id",
        "sanitize_actions",
        rules.ACTIONS.tag,
        "valid actions, one repeating an earlier id (also after an action dropped or "
        "over the limit), for a sanitizer that keeps it",
    ),
    Family(
        "action-label-utf16",
        "sanitize_actions",
        rules.ACTIONS.tag,
        "valid actions, one with a label, id, title or description of astral characters "
        "within its limit in code points but over it in UTF-16 units",
    ),
)

#: Each family by name.
BY_NAME: Final[Mapping[str, Family]] = MappingProxyType({f.name: f for f in FAMILIES})

__all__ = ["BY_NAME", "FAMILIES", "Family"]
