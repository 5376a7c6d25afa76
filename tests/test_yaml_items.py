"""``yaml_items.item_starts``: the starts of the questions, from the events alone (§10).

It must find what the full reading finds: each item's start equals ``read_yaml``'s
span of ``questions[i]``, with either event source, on whole payloads and on every
prefix of complete lines (what the streaming preview reads).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit.questionnaire.payload.yaml12 import read_yaml
from replykit.questionnaire.payload.yaml_items import item_starts
from replykit.questionnaire.payload.yaml_loader import c_available
from replykit.testing import strategies as rs

LOADERS = ["pure", "c"] if c_available() else ["pure"]

# Examples under the ``ci`` profile; the ``long`` profile (HYPOTHESIS_PROFILE=long)
# multiplies them by 25.
SCALE = max(1, settings.default.max_examples // 200)


def _spans_of_items(payload: str, loader: str) -> list[int]:
    """What the full reading (values and spans) gives for the items of questions."""
    spans = read_yaml(payload, loader=loader).spans
    out = []
    while ("questions", len(out)) in spans:
        out.append(spans[("questions", len(out))][0])
    return out


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ("title: T\nquestions:\n  - a: 1\n  - b: 2\n", [24, 33]),
        ("questions:\n- a: 1\n-\n  b: 2\n", [13, 22]),  # a lone "-": the next line
        ("title: T\r\nquestions:\r  - a: 1\r  - b: 2\r", [25, 34]),
        ("title: Plan\n  - two\nquestions:\n  - a: 1\n", [35]),  # a title's "- " line
        ("questions:\n  - a: [x, y]\n    o:\n      - p\n  - b\n", [15, 46]),
        ("questions: [a, b]\n", []),  # a flow sequence
        ("{questions: [a]}\n", []),  # a flow root
        ("- questions\n", []),  # no mapping at the root
        ("title: T\nquestions: x\n", []),
        ("? [k]\n: v\nquestions:\n  - a\n", [25]),  # a complex key first
        ("questions:\n  - a\n  - 'b\n", [15]),  # a syntax error ends the items
        ("questions:\n  - \x9fa\n", []),  # allowed only in quotes: read_yaml reports it
        ("\ufeffquestions:\n- a\n- b\n", [14, 18]),  # a byte order mark may open it
        ("questions:\n- {t: '\ufffeQ'}\n- b\n", [13, 25]),  # inside quotes: read
    ],
)
def test_item_starts(payload: str, expected: list[int], loader: str) -> None:
    assert item_starts(payload, "questions", loader) == expected


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize(
    "payload",
    [
        # libyaml stops where the referee reads on (read_yaml then reads with it).
        "%YAML 1.3\n---\nquestions:\n- a\n- b\n",
        "%FOO bar\n---\nquestions:\n- a\n- b\n",
        "questions:\n: \nquestions:\n- a\n- b\n",
        'questions:\n- "\\ud800"\n- b\n',
        "questions:\n- ? a\n- \n  : b\n- c\n- d\n",
    ],
)
def test_both_event_sources_find_what_read_yaml_places(payload: str, loader: str) -> None:
    assert item_starts(payload, "questions", loader) == _spans_of_items(payload, "pure")


def _variant(payload: str, eol: str, lone_dash: bool, indent: str) -> str:
    if lone_dash:
        payload = payload.replace("\n  - type:", "\n  -\n    type:")
    payload = "".join(indent + line for line in payload.splitlines(keepends=True))
    return payload.replace("\n", eol)


@settings(max_examples=150 * SCALE)
@given(
    form=rs.form_dicts(traps=True),
    quoted=st.booleans(),
    eol=st.sampled_from(["\n", "\r\n", "\r"]),
    lone_dash=st.booleans(),
    indent=st.sampled_from(["", "  "]),
)
def test_items_are_where_the_full_reading_puts_them_on_every_prefix(
    form: dict[str, object], quoted: bool, eol: str, lone_dash: bool, indent: str
) -> None:
    payload = _variant(rs.form_yaml(form, quoted=quoted), eol, lone_dash, indent)
    cuts = [i + 1 for i, c in enumerate(payload) if c in "\r\n"]
    for cut in cuts:
        prefix = payload[:cut]
        for loader in LOADERS:
            assert item_starts(prefix, "questions", loader) == _spans_of_items(prefix, loader)
