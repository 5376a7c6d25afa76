"""DEL, the C1 controls (but NEL), U+FFFE and U+FFFF in a fenced YAML payload (§4.1):
YAML 1.2.2 (5.1, nb-json) lets quoted scalars hold them "to ensure JSON compatibility",
and nothing else; PyYAML refuses them everywhere. Inside a quoted scalar they are read
as the JSON form reads them; anywhere else they are ``yaml.syntax`` (``not_printable``)
at the character, unless a syntax error comes first. The same under every loader."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import segment
from replykit.questionnaire.payload.yaml12 import read_yaml
from replykit.questionnaire.payload.yaml_loader import c_available

LOADERS = ["pure", "c", "auto"] if c_available() else ["pure", "auto"]
QUOTED_ONLY = ["\x7f", "\x80", "\x84", "\x86", "\x9f", "\ufffe", "\uffff"]
FORM = 'title: {title}\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n'


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("char", QUOTED_ONLY)
@pytest.mark.parametrize("quote", ['"', "'"])
def test_a_quoted_scalar_holds_them(loader: str, char: str, quote: str) -> None:
    read = read_yaml(FORM.format(title=f"{quote}a{char}b{quote}"), loader=loader)
    assert read.findings == ()
    assert read.value is not None and read.value["title"] == f"a{char}b"


@pytest.mark.parametrize("char", QUOTED_ONLY)
def test_the_fenced_form_reads_what_the_json_form_reads(char: str) -> None:
    fenced = "Intro\n\n```questionnaire\n" + FORM.format(title=f'"a{char}b"') + "```\n"
    form = {"title": f"a{char}b", "questions": [{"type": "text", "text": "Q"}]}
    xml = f"Intro\n\n<questionnaire>{json.dumps(form, ensure_ascii=False)}</questionnaire>\n"
    a, b = segment(fenced).segments[1], segment(xml).segments[1]
    assert a.valid and b.valid
    assert a.questionnaire is not None and b.questionnaire is not None
    assert a.questionnaire.title == b.questionnaire.title == f"a{char}b"


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize(
    ("payload", "at", "kind"),
    [
        ("title: a\x7fb\n", 8, "not_printable"),  # a plain scalar
        ("# note\x9f\ntitle: T\n", 6, "not_printable"),  # a comment
        ('title: "a"\nb: |\n  x\x80\n', 19, "not_printable"),  # a block scalar
        ('a: ["\x7f", \x7f]\n', 9, "not_printable"),  # after a quoted one
        ('a: "x\x7f"\nb: \x00\n', 11, "not_printable"),  # a C0 control after
        ("a: y\x7f\nb: \x00\n", 4, "not_printable"),  # the stray one comes first
        ('title: "a\x7fb\n', 7, "unclosed_quote"),  # inside an unclosed quoted one
        ('a: [\n "\x7f" : : b\x7f\n', 12, "missing_value"),  # a syntax error before the stray one
        ('a: [\n"\x7f" : b\x7f\n', 5, "flow_indent"),  # a flow line at its block's column
    ],
)
def test_anywhere_else_they_are_a_syntax_error(
    loader: str, payload: str, at: int, kind: str
) -> None:
    read = read_yaml(payload, loader=loader)
    assert read.value is None
    assert [(f.code, f.start, f.details["kind"]) for f in read.findings][:1] == [
        ("yaml.syntax", at, kind)
    ]


_PIECES = st.sampled_from(
    ["a", " ", "\n", ": ", "- ", '"', "'", "#", "[", "]", ",", "|\n  ", *QUOTED_ONLY, "\\"]
)


@given(st.lists(_PIECES, max_size=24).map("".join))
def test_every_loader_gives_the_same_answer(payload: str) -> None:
    reads = [read_yaml(payload, loader=loader) for loader in LOADERS]
    assert all((r.value, r.findings) == (reads[0].value, reads[0].findings) for r in reads)
