"""The operations of the fuzzer's adapter protocol (docs/fuzzing.md).

Plain names with no dependency: the command line offers them as ``--op`` choices
without importing the fuzzer or Hypothesis.
"""

from __future__ import annotations

from typing import Final, Literal

Op = Literal["segment", "questionnaire_async", "sanitize_actions"]
#: The operations of the adapter protocol, in the order the fuzzer cycles them.
OPS: Final[tuple[Op, ...]] = ("segment", "questionnaire_async", "sanitize_actions")

__all__ = ["OPS", "Op"]
