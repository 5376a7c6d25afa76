"""The fast paths of the XML+JSON request reading give exactly what the full reading
gives (docs/protocol.md §1, §5, §7).

* ``plain_request`` (the lenient normalizer on a request with nothing to report)
  against ``normalize_fitting``: the same form whenever the fast path answers, and an
  answer whenever the normalizer reports nothing.
* ``read_xml_request`` against its full path (every finding, the normalizer run), on
  generated requests, damaged payloads and the conformance vectors' payloads.
* The shared JSON decoder tried first (``_decode_fast``) against the decoding with every
  hook (``_decode``): the same value and refused kinds, or the same error; and the
  surrogate hint against the one regular expression it replaces.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inputs import VECTORS

from payload.same_read import assert_same_read
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits, form_lists
from replykit.questionnaire.model import OTHER_VALUE
from replykit.questionnaire.payload import json_strict, xml_form
from replykit.questionnaire.payload.lenient import normalize_fitting
from replykit.questionnaire.payload.lenient_plain import plain_request
from replykit.questionnaire.payload.results import FormRead
from replykit.testing.strategies import form_dicts, hostile_payloads, tool_arguments

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Values of the XML+JSON extras and edits the normalizer reports or normalizes.
_EXTRAS: list[tuple[str, Any]] = [
    ("ui_text", {"other": "Other", "answer_title": "Answers"}),
    ("ui_text", {"other": None, "unknown": 3}),
    ("ui_text", {"other": "x" * 65}),
    ("ui_text", {"other": 1}),
    ("ui_text", "Other"),
    ("timeout_seconds", 30),
    ("timeout_seconds", 0),
    ("timeout_seconds", 1.5),
    ("timeout_seconds", -1),
    ("timeout_seconds", True),
    ("timeout_seconds", float("inf")),
    ("timeout_seconds", "30"),
    ("title", " Padded\u3000"),
    ("title", None),
    ("title", 3),
]


# Edits of a question's fields: the reserved value, repeats, {value, label} options.
_QUESTION_EDITS: list[tuple[str, Any]] = [
    ("options", ["a", OTHER_VALUE]),
    ("options", [" a", "a "]),
    ("options", [{"value": "a", "label": " "}, {"value": "b", "label": 2}]),
    ("options", [{"value": " a ", "label": "A"}, {"value": "b", "label": None}]),
    ("options", [{"value": "a", "label": "A"}, "b"]),
    ("default", ["a", "a"]),
    ("default", ["a", " a"]),
    ("default", " a "),
    ("default", ""),
    ("default", None),
    ("id", " "),
    ("id", "q2"),
    ("type", " TEXT "),
    ("allow_other", None),
    ("allow_other", 1),
]


def _with_extras(args: Any, extras: list[tuple[str, Any]], edits: list[tuple[str, Any]]) -> Any:
    if not isinstance(args, dict):
        return args
    out = copy.deepcopy(args)
    for key, value in extras:
        out[key] = value
    questions = out.get("questions")
    if isinstance(questions, list) and questions and isinstance(questions[0], dict):
        for key, value in edits:
            questions[0][key] = copy.deepcopy(value)
    return out


REQUESTS = st.builds(
    _with_extras,
    st.one_of(tool_arguments(), form_dicts(traps=True)),
    st.lists(st.sampled_from(_EXTRAS), max_size=2),
    st.lists(st.sampled_from(_QUESTION_EDITS), max_size=2),
)


@EXAMPLES
@given(REQUESTS)
def test_plain_request_equals_the_normalizer(args: Any) -> None:
    if form_lists(args, DEFAULT_LIMITS) is not None:
        return  # the reader reports the limit before either runs
    fast = plain_request(args)
    full = normalize_fitting(args, True, DEFAULT_LIMITS)
    if fast is not None:
        assert full.findings == () and full.overflow is None
        assert fast == full.value
    else:
        assert full.findings != (), "the fast path refused a request with nothing to report"


def _full_xml(payload: str, limits: Limits) -> FormRead:
    """``read_xml_request`` without its fast path: every finding, the normalizer run."""
    read = json_strict.read_json(payload, max_depth=limits.max_depth)
    return xml_form.full_request(payload, read, limits)


def _same_read(payload: str, limits: Limits = DEFAULT_LIMITS) -> None:
    assert_same_read(xml_form.read_xml_request(payload, limits=limits), _full_xml(payload, limits))


@EXAMPLES
@given(
    REQUESTS,
    st.sampled_from([DEFAULT_LIMITS, Limits(max_questions=2, max_options=2, max_diagnostics=2)]),
)
def test_read_xml_request_equals_the_full_path(args: Any, limits: Limits) -> None:
    _same_read(json.dumps(args, ensure_ascii=False), limits)


@EXAMPLES
@given(hostile_payloads())
def test_read_xml_request_equals_the_full_path_on_hostile_payloads(payload: str) -> None:
    _same_read(payload)


_TAG_PAYLOAD = re.compile(r"<([a-z0-9-]*questionnaire)>(.*?)</\1>", re.S)
VECTOR_PAYLOADS = sorted(
    {m.group(2) for case in VECTORS for m in _TAG_PAYLOAD.finditer(case["input"])}
)


def test_the_vectors_hold_request_payloads() -> None:
    assert len(VECTOR_PAYLOADS) >= 20


@pytest.mark.parametrize("payload", VECTOR_PAYLOADS)
def test_read_xml_request_equals_the_full_path_on_the_vectors(payload: str) -> None:
    _same_read(payload)


def test_a_valid_request_takes_the_fast_path() -> None:
    args = {
        "title": "T",
        "questions": [
            {"id": "k", "type": "multiple_choice", "text": " Q ", "options": ["a", {"value": "b"}],
             "default": ["b"], "allow_other": True},
            {"type": "text", "title": "Notes"},
        ],
        "ui_text": {"other": "Other"},
        "timeout_seconds": 30,
    }  # fmt: skip
    form = plain_request(args)
    assert form is not None
    assert form == normalize_fitting(args, True, DEFAULT_LIMITS).value
    assert [q.id for q in form.questions] == ["k", "q2"]
    assert form.questions[0].text == "Q" and form.questions[0].default == ("b",)
    assert form.ui_text == (("other", "Other"),) and form.timeout_seconds == 30


# JSON texts around every token the strict reader refuses or places.
_JSON_TEXTS = [
    '{"a": 1, "a": 2}', '{"a": NaN}', "[Infinity, -Infinity]", "1" * 309, "1" * 308,
    "-" + "1" * 308, "1" * 4301, "1e400", "-1e400", "1." + "0" * 4300, "0.5e-400",
    '{"a": {"b": [1, {"b": 2, "b": 3}]}}', '{"a": 1} x', "{", '"\\ud800"', "\ufeff{}",
    "[" * 70 + "]" * 70, '{"a": NaN, "b": }', '[1, 2, "x"]', " {} ", "",
]  # fmt: skip

JSON_TEXTS = st.one_of(
    st.sampled_from(_JSON_TEXTS),
    REQUESTS.map(lambda a: json.dumps(a, ensure_ascii=False)),
    hostile_payloads(),
    st.text(alphabet='{}[]":,0123456789.eE-+ aNIfinity\\u'),
)


def _outcome(decode: Any, text: str) -> Any:
    try:
        value, refused = decode(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        return type(exc)
    return json.dumps(value, allow_nan=True), refused


@EXAMPLES
@given(JSON_TEXTS)
def test_the_shared_decoder_equals_the_decoding_with_every_hook(text: str) -> None:
    assert _outcome(json_strict._decode_fast, text) == _outcome(json_strict._decode, text)


_HINT = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")


@EXAMPLES
@given(
    st.one_of(
        st.text(st.characters(codec=None, exclude_categories=())),
        st.text(alphabet="\\uDd89aF0\ud800\udfff é"),
    )
)
def test_the_surrogate_hint_is_the_one_expression(text: str) -> None:
    assert json_strict.surrogate_hint(text) == (_HINT.search(text) is not None)


def _one(**fields: Any) -> dict[str, Any]:
    question = {"type": "multi_choice", "text": "Q", "options": ["a", "b"], "default": ["a"]}
    return {"title": "T", "questions": [{**question, **fields}]}


# One request per thing the normalizer reports (warnings included): the fast path
# gives up on each, and the normalizer does report it.
REPORTED = [
    _one(default=["a", "a"]), _one(default=["a", " a"]), _one(default=["c"]),
    _one(default=["a", 1]), _one(default="a"), _one(options=["a", OTHER_VALUE]),
    _one(options=["a", " a "]), _one(options=["a", " "]), _one(options=[]),
    _one(options=[{"value": "a", "label": 2}]), _one(options=[{"label": "a"}]),
    _one(allow_other="yes"), _one(id=7), _one(type="choice"), _one(text=" "),
    {"title": 3, "questions": _one()["questions"]}, {"title": "T", "questions": []},
    {**_one(), "ui_text": {"other": 1}}, {**_one(), "ui_text": []},
    {**_one(), "ui_text": {"other": "x" * 65}}, {**_one(), "timeout_seconds": -1},
    {**_one(), "timeout_seconds": True}, {**_one(), "timeout_seconds": float("nan")},
    {"questions": [*_one(id="q2")["questions"], *_one()["questions"]]},
    {"questions": [{"type": "text", "text": "Q", "default": 1}]},
    {"questions": [{"type": "single_choice", "text": "Q", "options": ["a"], "default": "b"}]},
    {"questions": [{"type": "single_choice", "text": "Q", "options": ["a"], "default": []}]},
]  # fmt: skip


@pytest.mark.parametrize("args", REPORTED)
def test_the_fast_path_gives_up_on_what_the_normalizer_reports(args: dict[str, Any]) -> None:
    assert normalize_fitting(args, True, DEFAULT_LIMITS).findings != ()
    assert plain_request(args) is None
