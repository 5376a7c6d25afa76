"""Moved: the invariant fuzz target is :mod:`replykit.testing.fuzzing`.

``python -m replykit.fuzzing`` still runs it, and its names stay importable from here
(README "Where things moved"). Needs Hypothesis (the ``replykit[fuzz]`` extra).
"""

from __future__ import annotations

from replykit.testing.fuzzing import (
    FuzzRun,
    InvariantError,
    check_message,
    check_payload,
    check_segmentation,
    main,
    run,
)

__all__ = [
    "FuzzRun",
    "InvariantError",
    "check_message",
    "check_payload",
    "check_segmentation",
    "main",
    "run",
]

if __name__ == "__main__":
    raise SystemExit(main())
