"""Which build of replykit is running: pure Python, or compiled with mypyc.

The compiled build is opt-in at install time (``HATCH_BUILD_HOOK_ENABLE_MYPYC=1 pip
install .``, docs/performance.md "Compiled build"): it compiles the scanner and the
payload readers to C extension modules that stand beside their ``.py`` sources and are
imported in their place. Both builds give the same results (docs/protocol.md §1: the
same on every install); only speed differs. This module itself is never compiled.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import pkgutil
from typing import Literal

import attrs

from replykit.argcheck import typed

#: The packages the compiled build compiles modules of (pyproject.toml lists them).
COMPILED_PACKAGES = (
    "replykit.questionnaire.scan",
    "replykit.questionnaire.segmentation",
    "replykit.questionnaire.payload",
)


@typed
@attrs.frozen
class BuildInfo:
    """The build of this install: ``kind`` is ``"compiled"`` when at least one module
    of :data:`COMPILED_PACKAGES` is loaded from a C extension, else ``"pure"``;
    ``compiled_modules`` names those modules (dotted, sorted) and ``pure_modules`` the
    others of those packages. The constructor raises ``TypeError`` naming the field when
    a value has the wrong type."""

    kind: Literal["compiled", "pure"]
    compiled_modules: tuple[str, ...]
    pure_modules: tuple[str, ...]

    def label(self) -> str:
        """One phrase for ``replykit --version``: ``pure Python`` or ``compiled (N of M
        scanner and payload modules)``."""
        if self.kind == "pure":
            return "pure Python"
        total = len(self.compiled_modules) + len(self.pure_modules)
        return f"compiled ({len(self.compiled_modules)} of {total} scanner and payload modules)"


def build_info() -> BuildInfo:
    """Report which build is installed (no input; raises nothing).

    Looks each module of :data:`COMPILED_PACKAGES` up by its import spec (a compiled
    module's loader reads a C extension file) without importing the modules themselves.
    """
    compiled: list[str] = []
    pure: list[str] = []
    for package in COMPILED_PACKAGES:
        spec = importlib.util.find_spec(package)
        if spec is None or spec.submodule_search_locations is None:
            continue
        names = [package] + [
            f"{package}.{m.name}" for m in pkgutil.iter_modules(spec.submodule_search_locations)
        ]
        for name in names:
            found = spec if name == package else importlib.util.find_spec(name)
            is_extension = found is not None and isinstance(
                found.loader, importlib.machinery.ExtensionFileLoader
            )
            (compiled if is_extension else pure).append(name)
    return BuildInfo(
        kind="compiled" if compiled else "pure",
        compiled_modules=tuple(sorted(compiled)),
        pure_modules=tuple(sorted(pure)),
    )
