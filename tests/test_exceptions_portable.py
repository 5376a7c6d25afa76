"""Every exception class of replykit pickles and deep-copies to an equal exception, so
one raised in a process-pool worker (``audit --jobs``, the Dask recipe of
docs/evals.md) reaches the caller as itself, and the pool stays usable.

The classes are found by walking every module of the package, so a new one without
a strategy here fails :func:`test_every_exception_class_has_a_strategy`."""

from __future__ import annotations

import copy
import importlib
import pickle
import pkgutil
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import replykit
from replykit import AnswersError, Finding, Option, Question, Questionnaire, build_response
from replykit.questionnaire.payload.json_syntax import SyntaxProblem as JsonProblem


def _exception_classes() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(replykit.__path__, "replykit."):
        if info.name.endswith(".__main__"):
            continue  # runs the CLI on import
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseException)
                and value.__module__ == module.__name__
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


CLASSES = _exception_classes()

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)
_findings = st.lists(
    st.builds(
        Finding,
        code=st.text(min_size=1, max_size=12),
        message=st.text(max_size=20),
        path=st.lists(st.text(max_size=4) | st.integers(0, 9), max_size=3).map(tuple),
        severity=st.sampled_from(["error", "warning", "info"]),
        details=st.dictionaries(st.text(max_size=6), _json, max_size=3),
        params=st.dictionaries(st.text(max_size=6), _json, max_size=2),
    ),
    max_size=3,
).map(tuple)
_message = st.tuples(st.text(max_size=20))
_text_args = st.lists(st.text(max_size=10) | st.integers(), max_size=3).map(tuple)
_json_problem = st.builds(JsonProblem, st.integers(0, 99), st.integers(0, 99), st.text())

#: Constructor arguments of each class, by qualified name; any other class takes
#: BaseException's ``*args``.
ARGUMENTS: dict[str, st.SearchStrategy[tuple[Any, ...]]] = {
    "replykit.questionnaire.conversation.responses.build.AnswersError": st.tuples(_findings),
    "replykit.questionnaire.payload.yaml_problem.SyntaxProblem": st.tuples(
        st.text(max_size=10), st.integers(0, 10**6)
    ),
    "replykit.questionnaire.payload.json_syntax._Stop": st.tuples(_json_problem),
    "replykit.questionnaire.scan.lalr._Rejected": st.tuples(st.integers(0, 10**6)),
    "replykit.fuzz.process.AdapterStartError": st.one_of(
        _message,
        st.tuples(st.integers(1, 200), st.text(max_size=10)),
        st.tuples(st.integers(1, 200), st.text(max_size=10), st.text(max_size=10)),
    ),
}
#: The classes taking BaseException's ``*args`` (a new class with its own constructor
#: needs an entry in ARGUMENTS).
PLAIN_ARGS = {
    "replykit.actions.context.ContextError",
    "replykit.actions.state.StateError",
    "replykit.cli.io.InputError",
    "replykit.cli.sse.NotText",
    "replykit.evals.parquet.NotJson",
    "replykit.fuzz.accept.AcceptError",
    "replykit.fuzz.reference.RequestError",
    "replykit.markdown_it.plugin.RawHtmlWarning",
    "replykit.questionnaire.conversation.stored.ConversationError",
    "replykit.questionnaire.payload.json_strict._Refused",
    "replykit.questionnaire.scan.bug.ReplykitBug",
    "replykit.questionnaire.scan.grammar.GrammarNotFound",
    "replykit.serve.api.RequestError",
    "replykit.testing.fuzzing.InvariantError",
}


def test_every_exception_class_has_a_strategy() -> None:
    assert set(CLASSES) == set(ARGUMENTS) | PLAIN_ARGS
    assert "__init__" not in {n for name in PLAIN_ARGS for n in vars(CLASSES[name])}


def _fields(exc: BaseException) -> dict[str, Any]:
    """Every attribute that is not a method (one ``OSError`` leaves unset raises), so a
    compiled exception class (its fields in native slots, no ``__dict__``) is compared
    as fully as a pure one."""
    out: dict[str, Any] = {}
    for key in dir(exc):
        if key.startswith("__") and key.endswith("__"):
            continue
        try:
            value = getattr(exc, key)
        except AttributeError:
            continue
        if not callable(value):
            out[key] = value
    return out


def _state(exc: BaseException) -> tuple[Any, ...]:
    return type(exc), exc.args, str(exc), _fields(exc), getattr(exc, "__notes__", None)


#: The classes a caller can catch. The private ones (``_Stop``, ``_Refused``,
#: ``_Rejected``) end inside replykit; the compiled build makes them native classes,
#: which a process-wide exception reducer such as tblib's (installed by Dask's
#: ``distributed``, which other tests load) cannot pickle.
CAUGHT = sorted(name for name, cls in CLASSES.items() if not cls.__name__.startswith("_"))


@pytest.mark.parametrize("name", CAUGHT)
@given(data=st.data())
def test_an_exception_pickles_and_copies_to_an_equal_one(name: str, data: st.DataObject) -> None:
    cls = CLASSES[name]
    exc = cls(*data.draw(ARGUMENTS.get(name, _text_args)))
    if data.draw(st.booleans()):
        exc.add_note(data.draw(st.text(max_size=10)))
    for again in (
        pickle.loads(pickle.dumps(exc)),
        copy.deepcopy(exc),
        copy.copy(exc),
    ):
        assert _state(again) == _state(exc)
    if isinstance(exc, AnswersError):
        again = pickle.loads(pickle.dumps(exc))
        assert [f.params for f in again.findings] == [f.params for f in exc.findings]


FORM = Questionnaire(
    "T", (Question("q1", "single_choice", "Q?", (Option("a", "A"), Option("b", "B")), "a"),)
)


def _answer(answers: dict[str, Any]) -> str:
    return build_response(FORM, answers, questionnaire_id="m_q1").agent_text


def _caught(call: Callable[[], object]) -> AnswersError:
    with pytest.raises(AnswersError) as caught:
        call()
    return caught.value


def test_a_worker_raising_answers_error_reaches_the_caller_as_itself() -> None:
    local = _caught(lambda: _answer({"nope": 1, "q1": "z"}))
    with ProcessPoolExecutor(max_workers=1) as pool:
        remote = _caught(pool.submit(_answer, {"nope": 1, "q1": "z"}).result)
        assert pool.submit(_answer, {"q1": "b"}).result() == _answer({"q1": "b"})
    assert _state(remote) == _state(local)
    assert [f.code for f in remote.findings] == [
        "answer.value_not_in_options",
        "answer.unknown_question",
    ]
