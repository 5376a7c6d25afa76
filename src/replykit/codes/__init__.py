"""The registry of diagnostic codes: the one home of every code replykit reports.

Each code is a :class:`Code` constant of a family module (:mod:`~replykit.codes.segment`,
:mod:`~replykit.codes.payload`, :mod:`~replykit.codes.fields`,
:mod:`~replykit.codes.start`, :mod:`~replykit.codes.responses`,
:mod:`~replykit.codes.limits`, :mod:`~replykit.codes.actions`) with its severity, its
rule (:mod:`~replykit.codes.rules`), its English and Chinese message templates by
variant, its meaning and the example of the docs. Readers create findings through the
constants (``payload.YAML_ALIAS.finding(...)``), so a code that is not registered cannot
be written; the docs' code tables are rendered from :data:`CODES`
(:mod:`replykit.codes.tables`), and the fuzzer's rule tags are read from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from replykit.codes import actions, fields, limits, payload, responses, segment, start
from replykit.codes._core import DOC_FILES, Code, Doc, Locale, Rule
from replykit.codes.rules import RULES


def _registry() -> Mapping[str, Code]:
    out: dict[str, Code] = {}
    for family in (segment, payload, fields, start, responses, limits, actions):
        for code in family.CODES:
            if code.name in out:
                raise ValueError(f"{code.name} is registered twice")
            out[code.name] = code
    return MappingProxyType(out)


#: Every code, by name, in the docs' order.
CODES: Final[Mapping[str, Code]] = _registry()


def lookup(name: str) -> Code | None:
    """The registered :class:`Code` called ``name``, or ``None``."""
    return CODES.get(name)


def render(
    name: str,
    params: Mapping[str, Any],
    variant: str | None = None,
    locale: Locale = "en",
    fallback: str = "",
) -> str:
    """The message of a finding of code ``name`` with ``params`` and ``variant`` in
    ``locale`` (``zh``: the Chinese template, else the English one); ``fallback`` for a
    code that is not registered (a code copied from a client's tool result)."""
    code = CODES.get(name)
    if code is None:
        return fallback
    return code.render(params, variant, locale)


__all__ = [
    "CODES",
    "DOC_FILES",
    "RULES",
    "Code",
    "Doc",
    "Locale",
    "Rule",
    "lookup",
    "render",
]
