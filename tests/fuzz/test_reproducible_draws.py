"""The fuzzer's inputs depend only on the seed and the Hypothesis version, not on which
modules are loaded or where replykit is installed (docs/fuzzing.md, "Running").

Hypothesis also draws literals from the source of every loaded module outside
``site-packages``; before ``without_local_constants`` the same seed drew other inputs
from a checkout of replykit than from an installed wheel (14 classes against 15 in the
README's node-adapter run)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from replykit.fuzz.rounds import draw_each

_STRATEGY = st.one_of(st.text(max_size=8), st.integers())


def _draws() -> list[Any]:
    found: list[Any] = []
    draw_each(_STRATEGY, 3, 300, found.append)
    return found


def test_a_newly_loaded_local_module_does_not_change_the_draws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _draws()
    # A caller's own module full of literals, as a checkout of replykit is to Hypothesis.
    words = ",".join(repr(f"zq{i}x") for i in range(300))
    numbers = ",".join(str(7919 * i + 100003) for i in range(300))
    source = f"WORDS = [{words}]\nNUMBERS = [{numbers}]\n"
    (tmp_path / "replykit_caller_constants.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "replykit_caller_constants", raising=False)
    module = importlib.import_module("replykit_caller_constants")
    assert len(module.WORDS) == 300
    after = _draws()
    assert after == before
    assert not any(isinstance(v, str) and v.startswith("zq") for v in after)
