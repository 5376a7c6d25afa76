"""Moved: the invariant fuzz target is :mod:`replykit.testing.fuzzing`.

``python -m replykit.fuzzing`` still runs it, and its names stay importable from here
(README "Where things moved"). Needs Hypothesis (the ``replykit[fuzz]`` extra).
"""

from __future__ import annotations

import sys

from replykit.testing import FUZZ_EXTRA, is_missing_hypothesis

try:
    from replykit.testing.fuzzing import (
        FuzzRun,
        InvariantError,
        check_message,
        check_payload,
        check_segmentation,
        main,
        run,
    )
except ImportError as _missing:  # run as a command: one line, not a traceback
    if __name__ != "__main__" or not is_missing_hypothesis(_missing):
        raise
    print(
        # As the module it moved to says it (its main() prints that name too).
        "python -m replykit.testing.fuzzing: error: needs Hypothesis, which is not installed: "
        f"{FUZZ_EXTRA}",
        file=sys.stderr,
    )
    raise SystemExit(2) from None

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
