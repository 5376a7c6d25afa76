"""Hypothesis draws that depend only on the seed and the Hypothesis version: the same
inputs on every install (docs/fuzzing.md, "Running")."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def without_local_constants() -> Iterator[None]:
    """Hypothesis (6.131 on) also draws literals found in the source of every *local*
    module loaded, meaning any module outside ``site-packages``: replykit itself when it
    runs from a checkout or an editable install, the caller's own code. The same seed
    then drew other inputs depending on how replykit was installed. Inside this block
    Hypothesis sees no local module, so the inputs depend only on the seed and the
    Hypothesis version (docs/fuzzing.md, "Running"). A Hypothesis without this feature
    is left as it is."""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # another Hypothesis: nothing to turn off
        yield
        return
    original = getattr(providers, "_get_local_constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if original is None or cache is None:
        yield
        return
    empty = Constants()
    providers._get_local_constants = lambda: empty
    cache.cache.clear()  # permitted constants cached with the local ones
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.cache.clear()


__all__ = ["without_local_constants"]
