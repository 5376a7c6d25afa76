"""Adapters run as child processes: make sure they import this checkout's replykit."""

from __future__ import annotations

import os

import pytest

from .helpers import ROOT


@pytest.fixture(autouse=True)
def _replykit_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    src = str(ROOT / "src")
    current = os.environ.get("PYTHONPATH", "")
    if src not in current.split(os.pathsep):
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [src, current])))
