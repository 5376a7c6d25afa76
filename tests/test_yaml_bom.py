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
    "payload, not inside it; remove this one"
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
    (f,) = read_yaml(payload, loader=loader).findings
    where = payload.index("\ufeff", 1)
    assert (f.code, f.start, f.details["kind"]) == ("yaml.syntax", where, "byte_order_mark")
    assert read_yaml(payload, loader="pure").findings == (f,)
