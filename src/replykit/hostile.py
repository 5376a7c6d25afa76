"""Moved: the hostile input families are :mod:`replykit.testing.hostile`.

Every name of that package stays importable from here (README "Where things moved").
"""

from __future__ import annotations

from typing import Any

from replykit.testing import hostile as _hostile

__all__ = list(_hostile.__all__)


def __getattr__(name: str) -> Any:
    if name in _hostile.__all__:
        return getattr(_hostile, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
