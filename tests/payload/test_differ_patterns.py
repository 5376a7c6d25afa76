"""The C parser's gate (``payload/yaml_differ.py``) answers as its first formulation did.

Its patterns that look behind a character now start with that character (so the
regular-expression engine skips to it), the colon rule lost its substring pre-tests (the
pattern finds the same places) and the lone-indicator pattern is two. Each rule is
compared here with the first formulation, kept below as the reference, on generated
text over the characters the rules look at, on the rich replies' payloads and on the
hostile payloads.
"""

from __future__ import annotations

import itertools
import re

from hypothesis import given
from hypothesis import strategies as st
from test_rich_replies import REPLIES

from payload.yaml_text import yaml_texts
from replykit.questionnaire.payload import yaml_differ
from replykit.testing.strategies import hostile_payloads

_WS = " \t\r\n\x85\u2028\u2029"
# With a tab before a character counted as white space, as the tab rule now leaves
# tabs between content to libyaml.
# And with U+0085, U+2028 and U+2029 counted as the line breaks both scanners read.
_REF_COLON_FIRST = re.compile(
    r"(?<![^ \t\r\n\x85\u2028\u2029\[{,]):[^ \t\r\n\x85\u2028\u2029,\[\]{}]"
)
_REF_ODD_ANCHOR = re.compile(
    r"(?<![^ \t\r\n\x85\u2028\u2029\[{,])[&*][0-9A-Za-z_\-]*"
    r"[^0-9A-Za-z_\- \t\r\n\x85\u2028\u2029,\[\]{}]"
)
_REF_LONE_INDICATOR = re.compile(
    "(?<![^ \t\r\n\x85\u2028\u2029\\[{,:?])"
    "(?:-[,\\[\\]{}]|[?:](?:[ \t\r\n\x85\u2028\u2029,\\[\\]{}]|\\Z))"
)


def _reference(payload: str) -> dict[str, bool]:
    """The three rules as first written (substring pre-tests, look-behind first)."""
    colon = _REF_COLON_FIRST.search(payload) is not None
    anchor = ("&" in payload or "*" in payload) and _REF_ODD_ANCHOR.search(payload) is not None
    lone = ("[" in payload or "{" in payload) and _REF_LONE_INDICATOR.search(payload) is not None
    return {"colon_first": colon, "odd_anchor": anchor, "lone_indicator": lone}


def _rules(payload: str) -> dict[str, bool]:
    rules = dict(yaml_differ.RULES)
    return {name: rules[name](payload) for name in ("colon_first", "odd_anchor", "lone_indicator")}


def _check(payload: str) -> None:
    assert _rules(payload) == _reference(payload)
    assert yaml_differ.c_may_differ(payload) == bool(yaml_differ.differ_rules(payload))


# Every character the three rules name, a letter, a digit and a non-ASCII letter.
_ALPHABET = st.sampled_from(list(_WS + ":?-&*[]{},#|>'\"_aZ9é中"))


@given(st.text(_ALPHABET, max_size=24))
def test_rules_answer_as_first_written_on_generated_text(payload: str) -> None:
    _check(payload)


@given(hostile_payloads())
def test_rules_answer_as_first_written_on_hostile_payloads(payload: str) -> None:
    _check(payload)


@given(yaml_texts())
def test_rules_answer_as_first_written_on_generated_yaml(payload: str) -> None:
    _check(payload)


def test_rules_answer_as_first_written_on_rich_payloads() -> None:
    payloads = [r.text[r.text.index("```questionnaire") :] for r in REPLIES if "```q" in r.text]
    assert len(payloads) >= 40
    for payload in payloads:
        _check(payload)
    # Lone indicators and colons at the start, at line starts, at the end.
    for payload in (":x", "a :b", "[:x]", "[a, -]", "{? }", "[?", "x:", "- &a!", "*b]", ""):
        _check(payload)


def test_rules_answer_as_first_written_on_every_short_text() -> None:
    # Every text of up to four characters over those the look-behinds and indicators
    # name (one of each kind), alone and after a flow indicator: each place a rule's
    # first character can stand, and each neighbour it can have.
    alphabet = " \n\x85:?-&*[]{},#a"
    for size in range(1, 5):
        for chars in itertools.product(alphabet, repeat=size):
            text = "".join(chars)
            _check(text)
            _check("[" + text)
