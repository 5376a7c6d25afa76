"""The readers' own values, built without the public constructors' checks
(``replykit/trusted.py``), are exactly what the checked constructors build and pass
every check: each object ``segment()``, ``self_check()`` and the lenient normalizer
return is rebuilt through its class's checked constructor (argument types,
``__attrs_post_init__`` invariants) and compared, on generated messages and tool
arguments, the conformance vectors and the rich replies. A fenced payload without
indentation, taken whole, maps every offset as the line-by-line reading does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_rich_replies import REPLIES

from replykit import segment, self_check
from replykit.diagnostics import Diagnostic, Finding, LeftOut
from replykit.questionnaire.limits import DEFAULT_LIMITS
from replykit.questionnaire.model import (
    Option,
    Question,
    Questionnaire,
    Response,
    Segment,
    Segmentation,
)
from replykit.questionnaire.payload.lenient import normalize_form
from replykit.questionnaire.profiles import SELF_CHECK
from replykit.questionnaire.segmentation.blocks import dedented_content, fenced_content
from replykit.testing.strategies import messages, tool_arguments
from replykit.trusted import trusted

HERE = Path(__file__).parent
VECTORS: list[dict[str, Any]] = json.loads(
    (HERE / "vectors" / "segment.json").read_text(encoding="utf-8")
)["cases"]


def _fields(obj: Any) -> dict[str, Any]:
    return {a.alias or a.name: getattr(obj, a.name) for a in attrs.fields(type(obj))}


def checked_copy(obj: Any) -> Any:
    """``obj`` rebuilt, its parts first, through the checked constructors: a
    ``TypeError`` or ``ValueError`` when any part breaks a check."""
    if isinstance(obj, tuple):
        return tuple(checked_copy(item) for item in obj)
    if not attrs.has(type(obj)):
        return obj
    built = type(obj)(**{k: checked_copy(v) for k, v in _fields(obj).items()})
    # Every field, those outside equality (params, variant) too.
    assert _fields(built) == _fields(obj)
    return built


def assert_checked(result: Segmentation) -> None:
    assert checked_copy(result) == result


@given(messages())
def test_segment_results_pass_the_checked_constructors(text: str) -> None:
    assert_checked(segment(text))
    assert_checked(segment(text, profile=SELF_CHECK, compat="sage"))


@given(messages(), st.sampled_from(["zh", "en"]))
def test_self_check_results_pass_the_checked_constructors(text: str, locale: str) -> None:
    # Passing and failing checks, clean replies and replies with diagnostics.
    result = self_check([{"role": "assistant", "content": text}], locale=locale)
    assert checked_copy(result) == result


def test_rich_self_check_results_pass_the_checked_constructors() -> None:
    for reply in REPLIES:
        result = self_check([{"role": "assistant", "content": reply.text}])
        assert result.passed and result.index == 0
        assert checked_copy(result) == result


@pytest.mark.parametrize("case", VECTORS, ids=lambda c: str(c["id"]))
def test_vector_results_pass_the_checked_constructors(case: dict[str, Any]) -> None:
    assert_checked(segment(case["input"]))
    assert_checked(segment(case["input"], compat="sage"))
    checked = self_check([{"role": "assistant", "content": case["input"]}])
    assert checked_copy(checked) == checked


def test_rich_results_pass_the_checked_constructors() -> None:
    results = [segment(r.text) for r in REPLIES]
    assert all(r.segments[-1].valid or r.segments[-2].valid for r in results)
    for result in results:
        assert_checked(result)


@given(tool_arguments(), st.booleans())
def test_normalized_forms_pass_the_checked_constructors(args: Any, extras: bool) -> None:
    read = normalize_form(args, allow_extras=extras)
    assert checked_copy(read.value) == read.value


def test_message_cap_summary_passes_the_checked_constructors() -> None:
    # More diagnostics than the cap: the summary and the blocks' own lists are rebuilt.
    payload = json.dumps({"title": "t", "questions": [1, 2, 3, 4, 5, 6]})
    text = f"Pick one.\n\n<questionnaire>{payload}</questionnaire>\n~~~questionnaire\n"
    result = segment(text, limits=attrs.evolve(DEFAULT_LIMITS, max_diagnostics=3))
    first = "questionnaire.start.question_not_object"
    assert [d.code for d in result.diagnostics] == [first, "limit.diagnostics", "near_miss.tilde"]
    assert [d.code for d in result.segments[1].diagnostics] == [first, "limit.diagnostics"]
    assert_checked(result)


OPTION = Option("a", "A")
EXAMPLES: list[tuple[type, dict[str, Any]]] = [
    (Option, {"value": "a", "label": "A"}),
    (Question, {"id": "q1", "type": "free_text", "text": "Why"}),
    (
        Question,
        {
            "id": "q2",
            "type": "multi_choice",
            "text": "Which",
            "options": (OPTION,),
            "default": ("a",),
            "allow_other": True,
        },
    ),
    (Questionnaire, {"title": "T", "questions": (Question("q1", "free_text", "x"),)}),
    (
        Questionnaire,
        {
            "title": "",
            "questions": (Question("q1", "free_text", "x"),),
            "ui_text": (("other", "Else"),),
            "timeout_seconds": 2.5,
        },
    ),
    (Segment, {"kind": "markdown", "start": 0, "end": 2, "text": "ab"}),
    (Segmentation, {"segments": (), "diagnostics": ()}),
    (Diagnostic, dict(code="c", severity="error", message="m", start=1, end=2, line=1, column=2)),
    (
        Diagnostic,
        dict(
            code="c",
            severity="warning",
            message="m",
            start=0,
            end=0,
            line=1,
            column=1,
            path="questions[1]",
            left_out=(LeftOut("c", "error", 3),),
            params={"n": 1},
            variant="v",
        ),
    ),
    (Finding, {"code": "c", "message": "m"}),
]


@pytest.mark.parametrize(("cls", "kwargs"), EXAMPLES)
def test_builder_equals_the_constructor(cls: type, kwargs: dict[str, Any]) -> None:
    build = trusted(cls)
    by_name, checked = build(**kwargs), cls(**kwargs)
    assert type(by_name) is cls
    assert _fields(by_name) == _fields(checked)
    assert by_name == checked
    if cls is not Finding:  # a Finding holds a dict: no hash
        assert hash(by_name) == hash(checked)
    assert _fields(build(*kwargs.values())) == _fields(checked)


def test_builder_defaults_and_factories_are_the_constructors() -> None:
    first, second = trusted(Finding)("c", "m"), trusted(Finding)("c", "m")
    assert _fields(first) == _fields(Finding("c", "m"))
    # A factory gives each instance its own value, as attrs does.
    assert first.details == {} and first.details is not second.details


def test_builder_values_are_frozen() -> None:
    built = trusted(Option)("a", "A")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.value = "b"  # type: ignore[misc]


def test_builder_skips_the_checks_it_is_for() -> None:
    # What a reader never builds is still refused by the public constructor.
    with pytest.raises(ValueError, match="blank"):
        Option(" ", "A")
    with pytest.raises(TypeError, match="Response"):
        Response("t", "id", "submitted", [])  # type: ignore[arg-type]
    assert trusted(Option)(" ", "A").value == " "


def test_builder_refuses_what_it_cannot_build() -> None:
    with pytest.raises(TypeError, match="attrs"):
        trusted(dict)

    @attrs.frozen
    class Converted:
        n: int = attrs.field(converter=int)
        m: int = attrs.field(default="4", converter=int)

    # A plain converter changes the value, it checks nothing: the builder runs it.
    assert trusted(Converted)("7") == Converted("7") == Converted(7, 4)

    @attrs.frozen
    class SelfConverted:
        n: int = attrs.field(converter=attrs.Converter(lambda v, s: int(v), takes_self=True))

    @attrs.frozen
    class Validated:
        n: int = attrs.field(validator=attrs.validators.instance_of(int))

    for cls in (SelfConverted, Validated):
        with pytest.raises(TypeError, match="field 'n'"):
            trusted(cls)


_LINE = st.text(alphabet=" \ta`~xy:-", max_size=8)


@given(
    st.lists(st.tuples(_LINE, st.sampled_from(["\n", "\r\n", "\r"])), max_size=6),
    st.text(alphabet="ab\n", max_size=3),
    st.text(alphabet="cd\n", max_size=3),
)
def test_whole_content_equals_the_line_by_line_reading(
    lines: list[tuple[str, str]], before: str, after: str
) -> None:
    body = "".join(line + end for line, end in lines)
    text = before + body + after
    start, end = len(before), len(before) + len(body)
    content, to_message = fenced_content(text, start, end, 0)
    general, general_map = dedented_content(text, start, end, 0)
    assert content == general == body
    for offset in range(len(content) + 1):
        assert to_message(offset) == general_map(offset)
