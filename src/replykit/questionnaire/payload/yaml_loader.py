"""Which YAML event source reads a payload: PyYAML's C parser or replykit's referee (§1).

The choice never changes a result (docs/protocol.md §4.1: one answer on every install);
it exists so that tests and users can run every reader both ways. It is read at call
time from a parameter or the environment, never from a module attribute.
"""

from __future__ import annotations

import os
from typing import Any, Literal

import yaml

from replykit.questionnaire.payload.yaml_referee import RefereeParser
from replykit.textout import quoted

ENV_VAR = "REPLYKIT_YAML_LOADER"
Loader = Literal["c", "pure"]

#: libyaml's event parser (``yaml.CBaseLoader`` without the constructor and resolver
#: it mixes in, whose set-up costs more than a short payload's events and which an
#: event reader never uses); ``None`` when PyYAML's C extension is not importable.
C_PARSER: type[Any] | None
try:
    from yaml._yaml import CParser

    C_PARSER = CParser
except ImportError:  # pragma: no cover - PyYAML without libyaml
    C_PARSER = None


def c_available() -> bool:
    """Whether PyYAML's C extension (libyaml) is importable on this install (§1)."""
    return bool(getattr(yaml, "__with_libyaml__", False))


def choose_loader(loader: str | None = None) -> Loader:
    """The event source to use: ``"c"`` or ``"pure"`` (§1, one answer on every install).

    Input: ``loader`` is ``"auto"``, ``"c"``, ``"pure"`` or ``None``; ``None`` reads the
    environment variable ``REPLYKIT_YAML_LOADER`` now (unset or empty means ``auto``).
    ``auto`` is ``c`` when PyYAML's C extension is importable, else ``pure``.

    Raises ``ValueError`` for any other name, and for ``c`` when the C extension is not
    importable (asking for it is a configuration error, not a reason to fall back).
    """
    name = os.environ.get(ENV_VAR, "") if loader is None else loader
    if name in ("", "auto"):
        return "c" if c_available() else "pure"
    if name == "pure":
        return "pure"
    if name == "c":
        if not c_available():
            raise ValueError(
                f"{ENV_VAR}=c (or loader='c') asks for PyYAML's C extension, "
                "which is not importable here; use auto or pure"
            )
        return "c"
    where = f"{ENV_VAR}" if loader is None else "loader"
    raise ValueError(f"{where} must be one of auto, c, pure; got {quoted(name)}")


def open_parser(parser: type[Any], payload: str, max_depth: int) -> Any:
    """An event parser of ``payload``: ``parser`` (:class:`RefereeParser` or libyaml's
    ``CParser``) for a reader that refuses more than ``max_depth`` nested collections
    (the referee then saves no possible simple key past that many flow levels: see
    :meth:`RefereeParser.save_possible_simple_key`; the results are the same)."""
    loader = parser(payload)
    if isinstance(loader, RefereeParser):
        loader.max_flow = max_depth
    return loader
