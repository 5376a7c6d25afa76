"""The model's invariants (§1, §2, §4-§7): an instance that exists is valid, so each
class refuses, with a ``ValueError`` naming the field, every value that breaks one, both
when built and through ``attrs.evolve``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from replykit.diagnostics import Diagnostic
from replykit.questionnaire.model import (
    MAX_UI_TEXT,
    OTHER_VALUE,
    Answer,
    Option,
    Question,
    Questionnaire,
    Response,
    Segment,
    Segmentation,
)

OPT = Option("a", "A")
SINGLE = Question("q1", "single_choice", "One", (OPT, Option("b", "B")), "a", True)
MULTI = Question("q2", "multi_choice", "Many", (OPT, Option("b", "B")), ("a",))
FREE = Question("q3", "free_text", "Why", (), "because")
FORM = Questionnaire("T", (SINGLE, MULTI, FREE), (("other", "Else"),), 30)
A1 = Answer("q1", "single_choice", "a", value="a", label="A")
A2 = Answer("q2", "multi_choice", ("a",), values=("a",), labels=("A",))
A3 = Answer("q3", "free_text", "t")
RESPONSE = Response("questionnaire_response", "m_q1", "submitted", (A1, A2, A3))
DIAG = Diagnostic("yaml.syntax", "error", "bad", 4, 6, 1, 5)
TEXT = "ab<questionnaire>{}</questionnaire>"
MD = Segment("markdown", 0, 2, "ab")
BLOCK = Segment(
    "questionnaire",
    2,
    len(TEXT),
    TEXT[2:],
    encoding="xml_json",
    name="questionnaire",
    registered=True,
    valid=True,
    id="m_q1",
    questionnaire=FORM,
)
WHOLE = Segmentation((MD, BLOCK), ())

BAD: list[tuple[str, Callable[[], Any], str]] = [
    ("option blank value", lambda: Option(" \t", "A"), "value must not be blank"),
    ("option blank label", lambda: Option("a", "\u3000"), "label must not be blank"),
    ("option format-only label", lambda: Option("a", "\u200b"), "label must not be blank"),
    ("option other value", lambda: Option(OTHER_VALUE, "A"), "value must not be"),
    ("question blank id", lambda: attrs.evolve(SINGLE, id=""), "id must not be blank"),
    ("question type", lambda: attrs.evolve(FREE, type="text"), "type must be"),
    ("free options", lambda: attrs.evolve(FREE, options=(OPT,)), "options must be empty"),
    ("free other", lambda: attrs.evolve(FREE, allow_other=True), "allow_other must be False"),
    ("free default", lambda: attrs.evolve(FREE, default=("a",)), "default of a free_text"),
    ("choice no options", lambda: attrs.evolve(SINGLE, options=()), "options must not be"),
    ("single default shape", lambda: attrs.evolve(SINGLE, default=("a",)), "must be a str"),
    ("single default value", lambda: attrs.evolve(SINGLE, default="z"), "not an option value"),
    ("multi default shape", lambda: attrs.evolve(MULTI, default="a"), "must be a tuple"),
    ("multi default repeat", lambda: attrs.evolve(MULTI, default=("a", "a")), "repeat"),
    ("multi default value", lambda: attrs.evolve(MULTI, default=("z",)), "not an option"),
    ("form empty", lambda: attrs.evolve(FORM, questions=()), "questions must not be empty"),
    ("form ids", lambda: attrs.evolve(FORM, questions=(FREE, FREE)), "distinct ids"),
    ("ui_text key", lambda: attrs.evolve(FORM, ui_text=(("nope", "x"),)), "ui_text keys"),
    (
        "ui_text repeat",
        lambda: attrs.evolve(FORM, ui_text=(("other", "x"), ("other", "y"))),
        "ui_text keys",
    ),
    (
        "ui_text long",
        lambda: attrs.evolve(FORM, ui_text=(("other", "x" * (MAX_UI_TEXT + 1)),)),
        "ui_text values",
    ),
    ("timeout negative", lambda: attrs.evolve(FORM, timeout_seconds=-1), "timeout_seconds"),
    ("timeout inf", lambda: attrs.evolve(FORM, timeout_seconds=float("inf")), "timeout"),
    ("timeout nan", lambda: attrs.evolve(FORM, timeout_seconds=float("nan")), "timeout"),
    ("answer blank id", lambda: attrs.evolve(A3, question_id=" "), "question_id must not"),
    ("answer type", lambda: attrs.evolve(A3, type="number"), "type must be"),
    ("single answer shape", lambda: attrs.evolve(A1, answer=("a",)), "must be a str"),
    ("multi answer shape", lambda: attrs.evolve(A2, answer="a"), "must be a tuple of str"),
    ("values on single", lambda: attrs.evolve(A1, values=("a",)), "values must be None"),
    ("value on multi", lambda: attrs.evolve(A2, value="a"), "value must be None"),
    ("label on free text", lambda: attrs.evolve(A3, label="A"), "label must be None"),
    ("response blank id", lambda: attrs.evolve(RESPONSE, questionnaire_id=""), "must not be"),
    ("diagnostic order", lambda: attrs.evolve(DIAG, start=7), "0 <= start <= end"),
    ("diagnostic negative", lambda: attrs.evolve(DIAG, start=-1), "0 <= start <= end"),
    ("diagnostic line", lambda: attrs.evolve(DIAG, line=0), "at least 1"),
    ("diagnostic column", lambda: attrs.evolve(DIAG, column=0), "at least 1"),
    ("segment empty", lambda: Segment("markdown", 2, 2, ""), "0 <= start < end"),
    ("segment negative", lambda: Segment("markdown", -1, 1, "ab"), "0 <= start < end"),
    ("segment text", lambda: attrs.evolve(MD, end=3), "end - start code points"),
    ("markdown name", lambda: attrs.evolve(MD, name="questionnaire"), "name must be None"),
    ("markdown valid", lambda: attrs.evolve(MD, registered=True), "a markdown segment"),
    ("markdown diagnostics", lambda: attrs.evolve(MD, diagnostics=(DIAG,)), "markdown"),
    ("block without id", lambda: attrs.evolve(BLOCK, id=None), "id are required"),
    (
        "response block fenced",
        lambda: attrs.evolve(
            BLOCK, kind="questionnaire_response", encoding="fenced_yaml", questionnaire=None
        ),
        "encoding must be xml_json",
    ),
    ("block both", lambda: attrs.evolve(BLOCK, response=RESPONSE), "response must be None"),
    ("valid unregistered", lambda: attrs.evolve(BLOCK, registered=False), "requires registered"),
    ("valid empty", lambda: attrs.evolve(BLOCK, questionnaire=None), "is required when valid"),
    ("invalid holding", lambda: attrs.evolve(BLOCK, valid=False), "None when not valid"),
    ("valid with error", lambda: attrs.evolve(BLOCK, diagnostics=(DIAG,)), "without an error"),
    ("segments gap", lambda: Segmentation((BLOCK,), ()), "contiguous from 0"),
    (
        "segments adjacent",
        lambda: Segmentation((MD, attrs.evolve(MD, start=2, end=4)), ()),
        "two adjacent",
    ),
    ("decoded length", lambda: attrs.evolve(WHOLE, decoded=TEXT + "x"), "length of decoded"),
]


def test_the_sample_values_are_valid() -> None:
    assert WHOLE.segments[-1].end == len(TEXT)
    assert attrs.evolve(WHOLE, decoded=TEXT).decoded == TEXT
    assert attrs.evolve(BLOCK, valid=False, questionnaire=None, diagnostics=(DIAG,)).id == "m_q1"
    # Blank question text and a repeated option value are allowed (§7; the fenced form
    # keeps a repeat with a warning).
    assert attrs.evolve(SINGLE, text="", options=(OPT, OPT)).options == (OPT, OPT)


@pytest.mark.parametrize(("what", "build", "message"), BAD, ids=[b[0] for b in BAD])
def test_an_invalid_value_cannot_be_built(
    what: str, build: Callable[[], Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        build()
