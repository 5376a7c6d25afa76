"""The streaming guarantees of §10 as properties (docs/streaming.md, "Guarantees").

For any split points over every message generator of :mod:`replykit.testing.strategies`,
under each profile and with and without ``compat="sage"``: ``finish()`` equals
``segment()``; commits are contiguous and never withdrawn; every committed block
equals its final segment; committed Markdown lies inside one final Markdown segment;
pending fenced ids are final; a tentative block becomes that block or Markdown; the
work bound holds (:func:`replykit.testing.streaming.check_stream`). Per-character
chunking gives the same result, and every prefix of every conformance vector is
checked (each state of a per-character run, and short vectors' prefixes as messages).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit.questionnaire.profiles import profile_from_string
from replykit.testing import strategies as rs
from replykit.testing.hostile import FAMILIES
from replykit.testing.streaming import check_stream, cut

VECTORS = json.loads((Path(__file__).parent / "vectors" / "segment.json").read_text("utf-8"))
CASES: list[dict[str, Any]] = VECTORS["cases"]
SHORT_VECTOR = 300  # vectors this short also have each prefix streamed as a message
# Examples per test under the ``ci`` profile (560 in all); the ``long`` profile
# (HYPOTHESIS_PROFILE=long) multiplies them by 25.
SCALE = max(1, settings.default.max_examples // 200)

GENERATORS = st.one_of(
    rs.messages(),
    rs.markdown(),
    rs.prose(),
    rs.inert_messages(),
    rs.fenced_blocks(),
    rs.xml_blocks(),
    rs.hostile_payloads(),
    st.lists(st.one_of(rs.fenced_blocks(), rs.xml_blocks(), rs.prose()), max_size=5).map(
        "\n\n".join
    ),
)


def _options(profile: str, message_id: str, compat: str | None) -> dict[str, Any]:
    return {"profile": profile_from_string(profile), "message_id": message_id, "compat": compat}


@settings(max_examples=350 * SCALE)
@given(
    text=GENERATORS,
    cuts=st.lists(st.integers(0, 12_000), max_size=40),
    profile=st.sampled_from(rs.PROFILES),
    compat=st.sampled_from([None, None, "sage"]),
    head=st.sampled_from(["", "", "a &amp; b\n\n", "&lt;p&gt; "]),
)
def test_any_split_points_keep_the_guarantees(
    text: str, cuts: list[int], profile: str, compat: str | None, head: str
) -> None:
    # ``head``: an entity first, so that under "sage" a §9 limit lies before the rest.
    text = head + text
    cuts = [c % (len(text) + 1) for c in cuts]
    assert check_stream(cut(text, cuts), **_options(profile, "m", compat)) == []


@settings(max_examples=150 * SCALE)
@given(text=GENERATORS, size=st.integers(1, 64))
def test_chunks_of_any_size_keep_the_guarantees(text: str, size: int) -> None:
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    assert check_stream(chunks) == []


@settings(max_examples=60 * SCALE)
@given(text=rs.messages())
def test_per_character_chunking_keeps_the_guarantees(text: str) -> None:
    assert check_stream(list(text)) == []


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_every_prefix_of_every_vector(case: dict[str, Any]) -> None:
    text = case["input"]
    options = _options(case["profile"], case["message_id"], None)
    # Each state of a per-character run is one prefix, checked against the final.
    assert check_stream(list(text), **options) == []
    if len(text) <= SHORT_VECTOR:
        for k in range(len(text) + 1):
            assert check_stream(cut(text[:k], [k // 2]), **options) == [], k


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@pytest.mark.parametrize("size", [1, 16, 256])
def test_hostile_families_keep_the_work_bound(family: Any, size: int) -> None:
    text = family.build(max(family.n // 400 * 10, 20))
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    assert check_stream(chunks) == []
