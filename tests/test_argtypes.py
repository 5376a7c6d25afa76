"""Every public callable refuses a wrong argument type with a ``TypeError`` naming the
argument (its docstring says so), generated from ``__all__`` so a new export is covered
without a new test."""

from __future__ import annotations

import collections.abc
import inspect
import types
import typing
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import replykit
import replykit.actions
from replykit import (
    CLIENT,
    SAGE,
    Answer,
    Diagnostic,
    Limits,
    Option,
    Question,
    Questionnaire,
    Response,
    Segment,
    argcheck,
)
from replykit.actions import (
    ActionContext,
    ActionSet,
    ActionStateRecord,
    AnswerAction,
    AnswerState,
    ChartComponent,
    ConfirmationView,
    Params,
    Target,
)

MODULES = (replykit, replykit.actions)
OPTION = Option("a", "a")
QUESTION = Question("q1", "single_choice", "Pick", (OPTION,), "a")
FORM = Questionnaire("T", (QUESTION,))
ANSWER = Answer("q1", "single_choice", "a")
ACTION = AnswerAction("a", "business.execute", "Pay", params=Params(prompt="pay"))
VIEW = ConfirmationView("a", "t", "d", None, "No", "Yes")
# A value of each type an annotation names, for the arguments a case leaves alone.
SAMPLES: dict[Any, Any] = {
    str: "x",
    int: 1,
    float: 1.5,
    bool: True,
    datetime: datetime(2026, 11, 30, tzinfo=UTC),
    replykit.Profile: CLIENT,
    replykit.Compat: SAGE,
    Limits: Limits(),
    Option: OPTION,
    Question: QUESTION,
    Questionnaire: FORM,
    Answer: ANSWER,
    Response: Response("questionnaire_response", "m_q1", "submitted", (ANSWER,)),
    Diagnostic: Diagnostic("c", "error", "m", 0, 1, 1, 1),
    Segment: Segment("markdown", 0, 1, "x"),
    AnswerAction: ACTION,
    ActionContext: ActionContext(),
    ActionSet: ActionSet(),
    AnswerState: AnswerState(),
    ActionStateRecord: ActionStateRecord("idle", "", "2026-11-30T00:00:00.000Z"),
    ChartComponent: ChartComponent("c", "ordinal"),
    ConfirmationView: VIEW,
    Target: Target(dataset="d"),
    Params: Params(prompt="p"),
}
# Arguments whose generic sample is not a meaningful value.
OVERRIDES: dict[tuple[str, str], Any] = {
    ("profile_from_string", "spec"): "client",
    ("product", "namespace"): "acme",
    ("build_response", "name"): "questionnaire",
    ("build_response", "locale"): "zh",
    ("build_response_json", "name"): "questionnaire",
    ("build_response_json", "locale"): "zh",
    ("build_response_json", "answers_text"): "{}",
    ("questionnaire_async_json", "locale"): "zh",
    ("self_check", "locale"): "zh",
    ("questionnaire_async", "locale"): "zh",
    ("questionnaire_from_tool_result", "locale"): "zh",
    ("self_check", "messages"): [{"role": "assistant", "content": "x"}],
    ("can_submit", "messages"): [{"role": "assistant", "content": "x"}],
    ("can_submit", "index"): 0,
    ("ActionStateRecord", "updatedAt"): "2026-11-30T00:00:00.000Z",
    ("Params", "prompt"): "p",
    ("Target", "dataset"): "d",
    # Values the model's invariants require: a choice has options, a form questions,
    # a segment end - start code points.
    ("Question", "options"): (OPTION,),
    ("Questionnaire", "questions"): (QUESTION,),
    ("Segment", "start"): 0,
}


def _generator() -> Iterator[int]:
    yield 1


# Values of many types; each case passes those that do not fit the argument's type.
WRONG: tuple[Callable[[], Any], ...] = (
    lambda: None,
    lambda: True,
    lambda: 7,
    lambda: 2.5,
    lambda: '{"actions": []}',
    lambda: b"x",
    lambda: [1],
    lambda: (1,),
    lambda: {"k": 1},
    lambda: {1: "v"},
    lambda: frozenset({1}),
    _generator,
    lambda: object(),
    lambda: OPTION,
    lambda: ACTION,
)


def exports() -> list[tuple[str, Any]]:
    found = []
    for module in MODULES:
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                found.append((f"{module.__name__}.{name}", obj))
    return found


def fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` has the type ``hint`` documents (literals by their types;
    sequences and iterables at the top only, their items are the callee's data)."""
    if hint is Any or hint is object:
        return True
    if hint is None or hint is type(None):
        return value is None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return any(type(value) is type(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, a) for a in args)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(fits(v, args[0]) for v in value)
        return len(value) == len(args) and all(fits(v, a) for v, a in zip(value, args, strict=True))
    if origin is frozenset:
        return isinstance(value, frozenset) and all(fits(v, args[0]) for v in value)
    if origin is collections.abc.Mapping:
        return isinstance(value, collections.abc.Mapping) and all(
            fits(k, args[0]) and fits(v, args[1]) for k, v in value.items()
        )
    if origin in (collections.abc.Sequence, collections.abc.Iterable):
        return isinstance(value, origin) and not isinstance(value, str | bytes)
    assert isinstance(hint, type), f"the test cannot read {hint!r}"
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, hint)


def sample(owner: str, name: str, hint: Any) -> Any:
    if (owner, name) in OVERRIDES:
        return OVERRIDES[(owner, name)]
    if hint in SAMPLES:
        return SAMPLES[hint]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return args[0]
    if origin in (typing.Union, types.UnionType):
        return sample(owner, name, next(a for a in args if a is not type(None)))
    if origin is tuple:
        return ()
    if origin is frozenset:
        return frozenset()
    if origin is collections.abc.Mapping:
        return {}
    if origin in (collections.abc.Sequence, collections.abc.Iterable):
        return []
    if hint is Any or hint is object:
        return {}
    raise AssertionError(f"add a sample for {owner}({name}: {hint!r}) to SAMPLES")


def parameters(obj: Any) -> list[tuple[inspect.Parameter, Any]]:
    target = obj.__init__ if inspect.isclass(obj) else obj
    hints = typing.get_type_hints(target)
    params = list(inspect.signature(target).parameters.values())
    if inspect.isclass(obj):
        params = params[1:]
    return [(p, hints.get(p.name, Any)) for p in params]


def call(obj: Any, args: dict[str, tuple[inspect.Parameter, Any]]) -> Any:
    positional = [v for p, v in args.values() if p.kind is p.POSITIONAL_ONLY]
    keywords = {p.name: v for p, v in args.values() if p.kind is not p.POSITIONAL_ONLY}
    return obj(*positional, **keywords)


EXPORTS = exports()


def test_every_export_is_found() -> None:
    names = {name.rsplit(".", 1)[1] for name, _ in EXPORTS}
    assert {"segment", "sanitize", "Questionnaire", "needs_confirmation", "StateError"} <= names


@pytest.mark.parametrize(("qualname", "obj"), EXPORTS, ids=[n for n, _ in EXPORTS])
def test_wrong_argument_types_raise_type_error_naming_the_argument(qualname: str, obj: Any) -> None:
    owner = qualname.rsplit(".", 1)[1]
    if inspect.isclass(obj) and issubclass(obj, BaseException) and "__init__" not in vars(obj):
        # Exceptions take any message: the documented result is the exception itself.
        assert isinstance(obj(object()), obj)
        return
    params = parameters(obj)
    base = {
        p.name: (p, sample(owner, p.name, hint))
        for p, hint in params
        if p.default is p.empty or (owner, p.name) in OVERRIDES
    }
    call(obj, base)  # the samples fit; a problem with the test shows here first
    tried = 0
    for p, hint in params:
        for make in WRONG:
            value = make()
            if fits(value, hint):
                continue
            args = {**base, p.name: (p, value)}
            with pytest.raises(TypeError) as caught:
                call(obj, args)
            assert f"argument '{p.name}'" in str(caught.value), (qualname, p.name, value)
            tried += 1
    untyped = all(hint in (Any, object) for _, hint in params)
    assert tried > 0 or untyped, f"{qualname} has no argument a wrong type could reach"


@pytest.mark.parametrize(("qualname", "obj"), EXPORTS, ids=[n for n, _ in EXPORTS])
def test_every_docstring_names_the_type_error(qualname: str, obj: Any) -> None:
    if inspect.isclass(obj) and issubclass(obj, BaseException):
        return
    typed_arguments = [p for p, hint in parameters(obj) if hint not in (Any, object)]
    doc = obj.__doc__ or ""
    assert ("TypeError" in doc) == bool(typed_arguments), qualname


def test_the_faults_first_reported() -> None:
    cases: list[tuple[Callable[[], Any], str]] = [
        (lambda: replykit.profile_from_string(None), "profile_from_string() argument 'spec'"),
        (lambda: replykit.self_check(m for m in ()), "self_check() argument 'messages'"),
        (
            lambda: replykit.actions.needs_confirmation({"id": "a", "type": "business.execute"}),
            "needs_confirmation() argument 'action' must be AnswerAction, not dict",
        ),
        (
            lambda: replykit.actions.format_timestamp(None),
            "format_timestamp() argument 'now' must be datetime, not None",
        ),
        (
            lambda: replykit.actions.sanitize('{"actions": [{"id": "a"}]}'),
            "sanitize() argument 'answer'",
        ),
        (
            lambda: Questionnaire("T", [QUESTION]),
            "Questionnaire() argument 'questions' must be a tuple of Question, not list",
        ),
    ]
    for run, message in cases:
        with pytest.raises(TypeError) as caught:
            run()
        assert str(caught.value).startswith(message), str(caught.value)


def test_json_text_where_decoded_json_belongs_is_named() -> None:
    with pytest.raises(TypeError, match=r"not str \(JSON text\? decode it first\)$"):
        replykit.actions.sanitize('{"actions": []}')
    with pytest.raises(TypeError, match=r"not str$"):
        replykit.actions.needs_confirmation('{"id": "a"}')


def test_a_decoded_non_object_answer_still_has_no_actions() -> None:
    for answer in (None, 3, 2.5, True, [1], {}):
        assert replykit.actions.sanitize(answer) == ActionSet()


_ITEMS = st.lists(
    st.one_of(st.none(), st.integers(), st.text(max_size=3), st.dictionaries(st.text(), st.text())),
    max_size=4,
)


@given(st.data())
def test_the_types_made_plain_without_a_check_always_pass_it(data: st.DataObject) -> None:
    """The wrappers' shortcut (``argcheck._passing_types``: a list or tuple where a
    sequence belongs, a dict where a mapping of any values does) is taken only for
    values the full check passes, whatever they hold."""
    seen = 0
    for _, obj in EXPORTS:
        for _, hint in parameters(obj):
            check = argcheck._compile(hint)
            for kind in argcheck._passing_types(hint):
                seen += 1
                items = data.draw(_ITEMS)
                value = dict(enumerate(items)) if kind is dict else kind(items)
                assert check is not None and check(value) is None, (hint, value)
    assert seen > 0


class _Tag(str):
    """A caller's ``str`` subclass."""


def test_a_list_or_tuple_taken_by_the_shortcut_is_still_made_plain() -> None:
    text = _Tag("Pick one.\n\n```questionnaire\ntitle: [\n```\n")
    for conversation in ([{"role": "assistant", "content": text}], ({"role": "user"},)):
        result = replykit.self_check(conversation)
        assert all(type(d.message) is str for d in result.diagnostics)
    with pytest.raises(TypeError, match=r"messages\[0\] must be an object"):
        replykit.self_check([text])
