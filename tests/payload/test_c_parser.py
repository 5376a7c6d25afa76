"""libyaml's bare event parser (``yaml_loader.C_PARSER``, PyYAML's ``CParser``) reads
every payload exactly as ``yaml.CBaseLoader`` (the same parser with a constructor and a
resolver mixed in, which the readers never used) reads it (docs/protocol.md §4.1): the
same events with the same fields and marks, the same error at the same place, and so
the same fast reading, full reading and form.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from payload.test_yaml_fast_path import yaml_trees
from payload.yaml_text import yaml_texts
from replykit.questionnaire.payload import yaml12
from replykit.questionnaire.payload.yaml_build import plain_read
from replykit.questionnaire.payload.yaml_loader import C_PARSER, c_available
from replykit.testing.strategies import form_dicts, form_yaml, hostile_payloads

pytestmark = pytest.mark.skipif(not c_available(), reason="PyYAML without libyaml")

EXAMPLES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_MARK_FIELDS = ("index", "line", "column")


def _fields(event: Any) -> tuple[object, ...]:
    """Everything an event holds: its class, its fields, its marks' positions."""
    out: list[object] = [type(event).__name__]
    for name, value in sorted(vars(event).items()):
        if name.endswith("_mark"):
            value = tuple(getattr(value, f) for f in _MARK_FIELDS)
        out.append((name, value))
    return tuple(out)


def _events(parser: type[Any], payload: str) -> list[object]:
    """Every event ``parser`` gives for ``payload``, then the error it stopped at."""
    loader = parser(payload)
    out: list[object] = []
    try:
        while loader.check_event():
            out.append(_fields(loader.get_event()))
    except yaml.YAMLError as error:
        out.append(("error", type(error).__name__, str(error)))
    finally:
        loader.dispose()
    return out


def _assert_same_reading(payload: str, max_depth: int = 64) -> None:
    assert C_PARSER is not None
    assert _events(C_PARSER, payload) == _events(yaml.CBaseLoader, payload)
    assert repr(plain_read(payload, max_depth, C_PARSER)) == repr(
        plain_read(payload, max_depth, yaml.CBaseLoader)
    )
    bare = yaml12._read(payload, max_depth, C_PARSER, sys.maxsize, ())
    loader = yaml12._read(payload, max_depth, yaml.CBaseLoader, sys.maxsize, ())
    assert repr(bare) == repr(loader)


def test_the_bare_parser_is_the_loaders_own() -> None:
    assert C_PARSER is not None
    assert issubclass(yaml.CBaseLoader, C_PARSER)
    assert yaml.CBaseLoader.get_event is C_PARSER.get_event


@EXAMPLES
@given(yaml_trees(), st.integers(1, 10))
def test_same_reading_on_trees(payload: str, max_depth: int) -> None:
    _assert_same_reading(payload, max_depth)


@EXAMPLES
@given(yaml_texts())
def test_same_reading_on_yaml_texts(payload: str) -> None:
    _assert_same_reading(payload)


@EXAMPLES
@given(form_dicts(traps=True), st.booleans())
def test_same_reading_on_forms(form: dict[str, Any], quoted: bool) -> None:
    _assert_same_reading(form_yaml(form, quoted=quoted))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_payloads())
def test_same_reading_on_hostile_payloads(fragment: str) -> None:
    _assert_same_reading(fragment)


def test_the_c_reading_of_a_valid_form() -> None:
    payload = "title: T\nquestions:\n  - type: free_text\n    text: Why?\n    default: ''\n"
    read = yaml12.read_yaml(payload, loader="c")
    assert read.findings == ()
    assert read.value == {
        "title": "T",
        "questions": [{"type": "free_text", "text": "Why?", "default": ""}],
    }
    assert read.spans[("questions", 0, "text")] == (50, 54)
