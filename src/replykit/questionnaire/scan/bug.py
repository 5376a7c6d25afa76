"""``ReplykitBug``: the checked mode found replykit inconsistent with itself.

A module of its own, left pure Python in the compiled build (docs/performance.md
"Compiled build"): mypyc cannot compile a class derived from ``AssertionError``, and
the modules that raise it (``emit.py``, ``lalr.py``) are compiled.
"""

from __future__ import annotations


class ReplykitBug(AssertionError):
    """The checked mode found replykit inconsistent with itself: a bug in replykit,
    never a property of the input. Its message says what disagreed; please report it
    with the message text that caused it."""
