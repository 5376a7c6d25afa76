"""Public functions taking a list refuse a ``str`` or a mapping with ``TypeError``
naming the argument: iterating either would read characters or keys as items."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from replykit import fuzzing, strategies
from replykit.actions import ActionContext
from replykit.cli import main
from replykit.evals import merge_tallies, tally_results
from replykit.markdown_it import actions_html, render_html, render_segments

ANSWER = {"actions": [{"id": "a", "type": "view.detail", "label": "L"}]}

CALLS: list[tuple[str, Callable[[Any], object], str]] = [
    ("actions_html", lambda v: actions_html(v), "actions_html() argument 'actions'"),
    ("render_html", lambda v: render_html("Hi", message_id="m", actions=v),
     "argument 'actions' must be a list of actions or None"),
    ("render_segments", lambda v: render_segments("Hi", actions=v),
     "argument 'actions' must be a list of actions or None"),
    ("merge_tallies", lambda v: merge_tallies(v), "merge_tallies() argument 'tallies'"),
    ("tally_results", lambda v: tally_results(v), "tally_results() argument 'results'"),
    ("cli.main", lambda v: main(v), "main() argument 'argv'"),
    ("fuzzing.main", lambda v: fuzzing.main(v), "main() argument 'argv'"),
    ("explicit_examples", lambda v: strategies.explicit_examples(v),
     "explicit_examples() argument 'ops'"),
    ("requests", lambda v: strategies.requests(v), "requests() argument 'ops'"),
    ("ActionContext", lambda v: ActionContext(charts=v), "ActionContext() argument 'charts'"),
]  # fmt: skip


@pytest.mark.parametrize("value", ['{"actions":[]}', ANSWER, b"ab"], ids=["str", "dict", "bytes"])
@pytest.mark.parametrize(("name", "call", "message"), CALLS, ids=[c[0] for c in CALLS])
def test_a_str_or_mapping_is_no_list(
    name: str, call: Callable[[Any], object], message: str, value: object
) -> None:
    with pytest.raises(TypeError) as info:
        call(value)
    assert str(info.value).startswith(message)
    assert f"not {type(value).__name__}" in str(info.value)


def test_a_list_of_actions_still_renders() -> None:
    html = render_html("Hi", message_id="m", actions=ANSWER["actions"])
    assert 'data-action-id="a"' in html
    assert actions_html(ANSWER["actions"]).count("<button") == 1
