"""Deep flow nesting in a YAML payload (§4.1 nesting limit, §1.5 bounded work): the
referee saves no possible simple key past the limit, and looks at the first saved key
alone where PyYAML looked at all of them on every token; the results are the same."""

from __future__ import annotations

import sys

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from replykit.questionnaire.payload import read_yaml
from replykit.questionnaire.payload.yaml_loader import open_parser
from replykit.questionnaire.payload.yaml_referee import RefereeParser

PAYLOADS = [
    "x: " + "[" * 1020,
    "x: " + "[" * 70 + "]" * 70,
    "a:\n  b: " + "{k: " * 80 + "v" + "}" * 80,
    "x: [" + "[a]: b, " * 50 + "]",
    "x: " + "[" * 63 + "]" * 63,
    "- " * 40 + "[" * 40 + "]" * 40,
]
_STARTS = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_ENDS = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


def _events(payload: str, depth: int, max_flow: int) -> list[tuple[str, int]]:
    """The events up to the first one nested deeper than ``depth`` (as the reader
    stops there), or to a syntax error, with the referee saving keys to ``max_flow``."""
    loader = RefereeParser(payload)
    loader.max_flow = max_flow
    out: list[tuple[str, int]] = []
    level = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            out.append((type(event).__name__, event.start_mark.index))
            level += isinstance(event, _STARTS) - isinstance(event, _ENDS)
            if level > depth:
                break
    except yaml.YAMLError as error:
        out.append(("error", getattr(getattr(error, "problem_mark", None), "index", -1)))
    return out


@pytest.mark.parametrize("payload", PAYLOADS)
def test_limited_keys_read_the_same(payload: str) -> None:
    assert _events(payload, 64, 64) == _events(payload, 64, sys.maxsize)


@given(st.text(alphabet="[]{}:, ab\n-?", max_size=120), st.integers(1, 6))
def test_generated_flow_reads_the_same(payload: str, depth: int) -> None:
    assert _events(payload, depth, depth) == _events(payload, depth, sys.maxsize)


@given(st.text(alphabet="[]{}:, ab\n-?&*!'\"", max_size=200))
def test_saved_keys_grow_with_their_level(payload: str) -> None:
    # What the referee's next_possible_simple_key and stale_possible_simple_keys rely
    # on (the first key is the lowest level's): checked at every token.
    loader = RefereeParser(payload)
    try:
        while loader.check_token():
            keys = loader.possible_simple_keys
            firsts = [keys[level] for level in sorted(keys)]
            assert [k.token_number for k in firsts] == sorted(k.token_number for k in firsts)
            assert [k.index for k in firsts] == sorted(k.index for k in firsts)
            assert (
                loader.next_possible_simple_key()
                == yaml.scanner.Scanner.next_possible_simple_key(loader)
            )
            loader.get_token()
    except yaml.YAMLError:
        pass


def test_no_key_is_saved_past_the_limit() -> None:
    loader = open_parser(RefereeParser, "x: " + "[" * 1020, 64)
    loader.check_event()
    assert loader.max_flow == 64 and len(loader.possible_simple_keys) <= 66
    assert RefereeParser("x: 1").max_flow == sys.maxsize


@pytest.mark.parametrize("loader", ["pure", "c"])
def test_deep_flow_is_too_deep_on_both_loaders(
    loader: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPLYKIT_YAML_LOADER", loader)
    found = read_yaml("x: " + "[" * 1020).findings
    assert [(f.code, f.start) for f in found] == [("yaml.too_deep", 66)]
