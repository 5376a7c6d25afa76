"""A byte order mark inside a fenced YAML payload (anywhere but its first character)
is ``yaml.syntax`` at the BOM, under both loaders: YAML 1.2.2 allows c-byte-order-mark
only in a document prefix, and nb-char excludes it (§4.1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import segment
from replykit.questionnaire.payload.yaml12 import read_yaml
from replykit.questionnaire.payload.yaml_loader import c_available

LOADERS = ["pure", "c", "auto"] if c_available() else ["pure", "auto"]
FORM = 'title: T\nquestions:\n  - type: free_text\n    text: "Q"\n    default: ""  # c\n'
MESSAGE = (
    "YAML syntax error: a byte order mark (U+FEFF) may stand only at the start of the "
    "payload or inside a quoted string, not here; remove this one"
)


@pytest.mark.parametrize("loader", LOADERS)
def test_the_reported_payload_is_a_syntax_error_at_the_bom(loader: str) -> None:
    payload = FORM.replace("questions:", "\ufeffquestions:")
    (f,) = read_yaml(payload, loader=loader).findings
    at = payload.index("\ufeff")
    assert (f.code, f.start, f.end, f.message) == ("yaml.syntax", at, at + 1, MESSAGE)
    assert f.details == {"kind": "byte_order_mark"}
    text = f"Intro\n\n```questionnaire\n{payload}```\n"
    (d,) = segment(text).diagnostics
    start = len("Intro\n\n```questionnaire\n") + at
    assert (d.code, d.start, d.end, d.line, d.column) == ("yaml.syntax", start, start + 1, 5, 1)


@pytest.mark.parametrize("loader", LOADERS)
def test_a_leading_bom_is_still_allowed(loader: str) -> None:
    read = read_yaml("\ufeff" + FORM, loader=loader)
    assert read.findings == () and read.value is not None
    assert read.value["title"] == "T"


@given(st.integers(1, len(FORM)), st.sampled_from(LOADERS), st.booleans())
def test_a_bom_anywhere_inside_is_the_same_error_on_every_loader(
    at: int, loader: str, leading: bool
) -> None:
    payload = ("\ufeff" if leading else "") + FORM[:at] + "\ufeff" + FORM[at:]
    quotes = [i for i, ch in enumerate(FORM) if ch == '"']
    quoted = any(a < at <= b for a, b in zip(quotes[::2], quotes[1::2], strict=True))
    read = read_yaml(payload, loader=loader)
    if quoted:  # YAML 1.2.2 5.2: allowed inside a quoted scalar (nb-json)
        assert read.findings == () and read.value is not None
        question = read.value["questions"][0]
        assert "\ufeff" in question["text"] + question["default"]
        return
    (f,) = read.findings
    where = payload.index("\ufeff", 1)
    # At the mark, unless the mark breaks the text before it (as for DEL, §4.1: "unless
    # a syntax error comes before it"; "text:\ufeff" is then a key without its colon).
    assert f.code == "yaml.syntax" and f.start is not None
    assert (f.start, f.details["kind"]) == (where, "byte_order_mark") or f.start < where
    assert read_yaml(payload, loader="pure").findings == (f,)


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("quote", ['"', "'"])
def test_a_bom_inside_a_quoted_scalar_reads_as_json_does(loader: str, quote: str) -> None:
    payload = (
        f"title: {quote}a\ufeffb{quote}\nquestions:\n  - type: free_text\n    text: Q\n"
        '    default: ""\n'
    )
    read = read_yaml(payload, loader=loader)
    assert read.findings == () and read.value is not None
    assert read.value["title"] == "a\ufeffb"
    json_form = '<questionnaire>{"title":"a\ufeffb","questions":[{"type":"text","text":"Q"}]}'
    fenced = segment(f"Intro\n\n```questionnaire\n{payload}```\n").segments[1]
    xml = segment(f"Intro {json_form}</questionnaire>").segments[1]
    assert fenced.valid and xml.valid
    assert fenced.questionnaire is not None and xml.questionnaire is not None
    assert fenced.questionnaire.title == xml.questionnaire.title == "a\ufeffb"
