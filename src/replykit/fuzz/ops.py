"""The operations of the fuzzer's adapter protocol (docs/fuzzing.md).

Plain names with no dependency: the command line offers them as ``--op`` choices
without importing the fuzzer or Hypothesis.
"""

from __future__ import annotations

from typing import Final, Literal

Op = Literal["segment", "questionnaire_async", "sanitize_actions", "stream"]
#: The operations a plain run (``--op all``) fuzzes, in the order the fuzzer cycles them.
OPS: Final[tuple[Op, ...]] = ("segment", "questionnaire_async", "sanitize_actions")
#: Every operation of the adapter protocol: also ``stream`` (§10), asked for by name
#: (``--op stream``), since an adapter without streaming is the common case.
ALL_OPS: Final[tuple[Op, ...]] = (*OPS, "stream")

__all__ = ["ALL_OPS", "OPS", "Op"]
