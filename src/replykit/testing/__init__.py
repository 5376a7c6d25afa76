"""replykit's testing tools, public so that other test suites can use them.

- :mod:`replykit.testing.strategies`: Hypothesis strategies for messages, forms, tool
  arguments and answer actions;
- :mod:`replykit.testing.hostile`: hostile input families of growing size, for
  linearity tests and benchmarks (no dependency on Hypothesis);
- :mod:`replykit.testing.fuzzing`: the invariant fuzz target,
  ``python -m replykit.testing.fuzzing``.

The strategies and the fuzz target need Hypothesis: install :data:`FUZZ_EXTRA`. The
fuzzer of other implementations (``replykit fuzz``) is :mod:`replykit.fuzz`.
"""

from __future__ import annotations

#: The install command that brings Hypothesis, for the tools that need it.
FUZZ_EXTRA = "pip install 'replykit[fuzz]'"


def is_missing_hypothesis(error: ImportError) -> bool:
    """Whether ``error`` (raised while importing a tool) means Hypothesis is not
    installed, as opposed to a fault inside replykit."""
    name = getattr(error, "name", None) or ""
    return name == "hypothesis" or name.startswith("hypothesis.")


__all__ = ["FUZZ_EXTRA", "is_missing_hypothesis"]
