"""What replykit returns is plain, immutable data.

- Every exported frozen class hashes, equal values hash equal, and a pickled or
  deep-copied value is equal with the same hash; the mapping and JSON fields
  (``Finding.details``, ``Diagnostic.params``, ``ToolError.details``,
  ``Response.status``, ``Code.en`` ...) are immutable (:mod:`replykit.frozen`), and
  ``to_json()`` still gives plain ``dict`` and ``list``.
- No result holds an instance of a ``str`` subclass the caller passed in: every string
  is a plain ``str`` (:mod:`replykit.plain`)."""

from __future__ import annotations

import ast
import copy
import importlib
import json
import pickle
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attr
import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import replykit
from replykit import (
    AnswersError,
    Finding,
    StreamSegmenter,
    build_response,
    call_questionnaire_async,
    initial_answers,
    questionnaire_from_tool_result,
    segment,
    self_check,
)
from replykit.actions import sanitize
from replykit.codes import lookup
from replykit.frozen import FrozenDict, FrozenList, freeze, thaw
from replykit.plain import plain
from replykit.testing.strategies import answers, messages, tool_arguments

#: Exported frozen classes that hold decoded JSON or a reader's working mappings as
#: given, and say so in their docstring ("does not hash").
UNHASHED = {
    "replykit.fuzz.accept.Acceptance",
    "replykit.fuzz.adapter.Outcome",
    "replykit.fuzz.compare.Difference",
    "replykit.fuzz.example.Example",
    "replykit.fuzz.results.FuzzClass",
    "replykit.fuzz.verdict.Verdict",
    "replykit.questionnaire.payload.results.FormRead",
    "replykit.questionnaire.payload.results.Read",
    "replykit.questionnaire.payload.results.ResponseRead",
}


def _exported_frozen() -> dict[str, type]:
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(replykit.__path__, "replykit."):
        if info.name.endswith(".__main__"):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            frozen = getattr(value, "__setattr__", None) is attr._make._frozen_setattrs
            if isinstance(value, type) and attrs.has(value) and frozen:
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


EXPORTED = _exported_frozen()


def _values(root: object) -> Iterator[object]:
    """``root`` and every attrs instance, dict, list and tuple inside it."""
    stack = [root]
    while stack:
        item = stack.pop()
        yield item
        if attrs.has(type(item)):
            stack.extend(getattr(item, f.name) for f in attrs.fields(type(item)))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | frozenset):
            stack.extend(item)


def _check_hashes(root: object, reached: set[str]) -> None:
    for value in _values(root):
        if not attrs.has(type(value)):
            continue
        reached.add(f"{type(value).__module__}.{type(value).__qualname__}")
        for again in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value)):
            assert again == value and hash(again) == hash(value)


REACHED: set[str] = set()
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@given(messages(), st.sampled_from(["", "sage"]))
def test_what_segment_returns_hashes(text: str, compat: str) -> None:
    _check_hashes(segment(text, compat=compat or None), REACHED)
    streamer = StreamSegmenter()
    _check_hashes([streamer.push(text), streamer.finish()], REACHED)


@given(tool_arguments(), st.dictionaries(st.sampled_from(["q1", "q2", "x"]), st.text()))
def test_what_the_tool_and_responses_return_hashes(arguments: Any, given: Any) -> None:
    result = call_questionnaire_async(arguments, locale="en")
    form = questionnaire_from_tool_result(result, "call_1")
    _check_hashes(form, REACHED)
    if form.questionnaire is not None:
        try:
            _check_hashes(build_response(form.questionnaire, given, questionnaire_id="c"), REACHED)
        except AnswersError as exc:
            _check_hashes(exc.findings, REACHED)


@given(answers().filter(lambda a: not isinstance(a, str)))
def test_what_sanitize_returns_hashes(answer: Any) -> None:
    _check_hashes(sanitize(answer), REACHED)


def test_the_classes_reached_are_the_public_results() -> None:
    reached: set[str] = set()
    mixed = (EXAMPLES / "mixed.md").read_text(encoding="utf-8")
    _check_hashes(segment(mixed), reached)
    _check_hashes(self_check([{"role": "assistant", "content": mixed}], locale="en"), reached)
    _check_hashes(lookup("answer.unknown_question"), reached)
    bad_tool = call_questionnaire_async({"title": 1, "questions": []}, locale="en")
    _check_hashes(questionnaire_from_tool_result(bad_tool, "call_1"), reached)
    form = next(s.questionnaire for s in segment(mixed).segments if s.questionnaire)
    _check_hashes(build_response(form, initial_answers(form), questionnaire_id="c"), reached)
    with pytest.raises(AnswersError) as caught:
        build_response(form, {"nope": 1}, questionnaire_id="c")
    _check_hashes(caught.value.findings, reached)
    go = {"id": "go", "type": "conversation.continue", "label": "Go", "params": {"prompt": "p"}}
    _check_hashes(sanitize({"actions": [go, {"id": 1}]}), reached)
    response = '<questionnaire-response>{"type": "questionnaire_response", '
    response += '"questionnaire_id": "m_q1", "status": "submitted", "answers": []}'
    _check_hashes(segment(response + "</questionnaire-response>"), reached)
    invalid = '<questionnaire>{"questions": [{"id": "q1", "type": "frob"}]}</questionnaire>'
    _check_hashes(segment(invalid), reached)
    for name in (
        "Finding",
        "ToolError",
        "ToolForm",
        "Segment",
        "Segmentation",
        "Diagnostic",
        "Questionnaire",
        "Question",
        "Option",
        "Response",
        "BuiltResponse",
        "Answer",
        "ActionSet",
        "AnswerAction",
        "ActionDiagnostic",
        "SelfCheckResult",
        "Code",
    ):
        assert any(found.endswith("." + name) for found in reached), name


#: The sources of the package (the tests run from the repository).
SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.mark.parametrize("name", sorted(UNHASHED))
def test_a_class_that_does_not_hash_says_why(name: str) -> None:
    assert name in EXPORTED
    # The docstring as written in the source: the compiled build replaces the
    # ``__doc__`` of its native classes.
    cls = EXPORTED[name]
    path = SRC.joinpath(*cls.__module__.split(".")).with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__]
    assert len(found) == 1, name
    assert "does not hash" in " ".join((ast.get_docstring(found[0]) or "").split())


def test_the_mapping_fields_are_immutable_and_to_json_is_plain() -> None:
    finding = Finding("c", "m", details={"left_out": [{"code": "x"}], "path": "q1"})
    assert hash(finding) == hash(
        Finding("c", "m", details={"path": "q1", "left_out": [{"code": "x"}]})
    )
    assert finding.details == {"left_out": [{"code": "x"}], "path": "q1"}
    assert isinstance(finding.details["left_out"], FrozenList)
    for change in (
        lambda: finding.details.__setitem__("path", "hacked"),
        lambda: finding.details.update(path="hacked"),
        lambda: finding.details["left_out"].append(1),
        lambda: finding.details["left_out"][0].pop("code"),
        lambda: finding.params.setdefault("x", 1),
    ):
        with pytest.raises(TypeError, match="is immutable"):
            change()
    assert finding.details["path"] == "q1" and dict(finding.details) == finding.details
    result = call_questionnaire_async({"title": 1, "questions": []}, locale="en")
    form = questionnaire_from_tool_result(result, "call_1")
    shown = form.errors[0].to_json()
    assert type(shown["details"]) is dict and shown == result["errors"][0]
    status = {"state": ["a", {"b": 1}]}
    body = {"type": "questionnaire_response", "questionnaire_id": "m_q1", "status": status}
    text = f"<questionnaire-response>{json.dumps({**body, 'answers': []})}</questionnaire-response>"
    [response] = [s.response for s in segment(text).segments if s.response is not None]
    assert hash(response) == hash(copy.deepcopy(response))
    out = response.to_json()["status"]
    assert out == status and type(out) is dict and type(out["state"]) is list


@given(
    st.recursive(
        st.none() | st.integers() | st.text(max_size=3),
        lambda i: st.lists(i, max_size=3) | st.dictionaries(st.text(max_size=3), i, max_size=3),
        max_leaves=10,
    )
)
def test_freeze_and_thaw_keep_the_value(value: Any) -> None:
    frozen = freeze(value)
    assert frozen == value and thaw(frozen) == value and hash(frozen) == hash(freeze(thaw(frozen)))
    assert json.dumps(frozen) == json.dumps(value)
    assert not any(type(v) in (FrozenDict, FrozenList) for v in _values(thaw(frozen)))
    assert pickle.loads(pickle.dumps(frozen)) == value


def test_freeze_refuses_a_value_inside_itself() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="contains itself"):
        Finding("c", "m", details={"loop": loop})


class Tagged(str):
    """A caller's string type: replykit's results must not hold it."""

    __slots__ = ()


def _tagged(value: Any) -> Any:
    if isinstance(value, str):
        return Tagged(value)
    if isinstance(value, dict):
        return {_tagged(k): _tagged(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_tagged(item) for item in value]
    return value


def _no_tagged(root: object) -> None:
    assert [v for v in _values(root) if type(v) is Tagged] == []


@given(messages())
def test_segment_returns_plain_str(text: str) -> None:
    _no_tagged(segment(Tagged(text), message_id=Tagged("m")))
    streamer = StreamSegmenter(message_id=Tagged("m"))
    _no_tagged([streamer.push(Tagged(text)), streamer.finish()])
    _no_tagged(segment(Tagged("hello")))


@given(tool_arguments(), st.dictionaries(st.sampled_from(["q1", "q2"]), st.text()))
def test_the_tool_and_responses_return_plain_str(arguments: Any, given: Any) -> None:
    result = call_questionnaire_async(_tagged(arguments), locale="en")
    _no_tagged(result)
    form = questionnaire_from_tool_result(_tagged(result), Tagged("call_1"))
    _no_tagged(form)
    if form.questionnaire is not None:
        _no_tagged(initial_answers(form.questionnaire))
        try:
            built = build_response(form.questionnaire, _tagged(given), questionnaire_id=Tagged("c"))
            _no_tagged(built)
        except AnswersError as exc:
            _no_tagged(exc.findings)


@given(answers().filter(lambda a: not isinstance(a, str)))
def test_sanitize_returns_plain_str(answer: Any) -> None:
    _no_tagged(sanitize(_tagged(answer)))


def test_a_subclass_overriding_str_still_gives_its_characters() -> None:
    class Loud(str):
        def __str__(self) -> str:
            return "LOUD"

    [only] = segment(Loud("hello")).segments
    assert (only.text, type(only.text)) == ("hello", str)


_LEAF = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=3))
_NESTED = st.recursive(
    _LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.text(max_size=2), inner, max_size=3),
    ),
    max_leaves=12,
)


def _reference_plain(value: Any) -> Any:
    """``plain`` with no shortcut: a copy with every ``str`` made plain, ``dict``, ``list``
    and ``tuple`` rebuilt."""
    if isinstance(value, str):
        return str.__str__(value)
    if type(value) is dict:
        return {_reference_plain(k): _reference_plain(v) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(_reference_plain(v) for v in value)
    return value


def _holds_tagged(value: Any) -> bool:
    if type(value) is Tagged:
        return True
    if type(value) is dict:
        return any(_holds_tagged(k) or _holds_tagged(v) for k, v in value.items())
    return type(value) in (list, tuple) and any(map(_holds_tagged, value))


@given(_NESTED, st.booleans())
def test_plain_returns_the_value_itself_exactly_when_it_holds_no_subclass(
    value: Any, tag: bool
) -> None:
    """Its shortcuts (a flat dict, a list or tuple of scalars and flat dicts: a
    conversation of plain messages) return the value itself only when the full walk
    finds no ``str`` subclass; otherwise an equal copy of plain ``str``."""
    if tag:
        value = _tagged(value) if not isinstance(value, tuple) else tuple(map(_tagged, value))
    out = plain(value)
    assert (out is value) == (not _holds_tagged(value))
    assert out == _reference_plain(value)
    assert not _holds_tagged(out)
    conversation = [{"role": "assistant", "content": value if isinstance(value, str) else "x"}]
    assert (plain(conversation) is conversation) == (not _holds_tagged(conversation))
