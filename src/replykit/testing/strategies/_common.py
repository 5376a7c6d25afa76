"""Word pools and drawing helpers shared by the strategies (no strategy of its own)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")
#: Profile strings as the CLI spells them (§6).
PROFILES: Final[tuple[str, ...]] = ("client", "self_check", "product:acme", "product:movo")

WORDS: Final[tuple[str, ...]] = (
    "Hello",
    "please",
    "answer",
    "below",
    "the",
    "questionnaire",
    "form",
    "任务",
    "已暂停",
    "请选择",
    "😀",
    "𝔘",
    "é",
    "a*b*",
    "_x_",
    "<b>",
    "&amp;",
    "\\`",
    "`code`",
    "``a`b``",
    "1.",
    "#",
)
BLANKS: Final[tuple[str, ...]] = (" ", "\t", "\u00a0", "\u3000", "\u200b", "\ufeff", "\u2028")
FAMILY: Final[tuple[str, ...]] = (
    "questionnaire",
    "sage-questionnaire",
    "yiii-questionnaire",
    "movo-questionnaire",
    "acme-questionnaire",
    "foo-questionnaire",
)
# Scalars that YAML 1.1 and YAML 1.2 read differently, or that look like numbers/dates.
YAML_TRAPS: Final[tuple[str, ...]] = (
    "yes",
    "no",
    "on",
    "off",
    "Yes",
    "NO",
    "y",
    "n",
    "9:16",
    "02142",
    "0o17",
    "2026-11-30",
    "1_000",
    "0x1F",
    ".5",
    "~",
    "true",
    "null",
)
SAFE_WORDS: Final[tuple[str, ...]] = ("red", "blue", "继续", "调整", "A", "b c", "Ω", "😀")

JUNK: Final[tuple[Any, ...]] = (None, True, 0, 1.5, "", " ", "x", [], {}, ["a"], {"a": 1})


def pick(draw: st.DrawFn, values: Sequence[T]) -> T:
    """One of ``values``, drawn as an index (``st.integers`` strategies are cached by
    Hypothesis, so no strategy object is built per draw)."""
    return values[draw(st.integers(0, len(values) - 1))]


def subset(draw: st.DrawFn, values: Sequence[T], low: int, high: int) -> list[T]:
    """Distinct items of ``values`` (in a drawn order), ``low`` to ``high`` of them."""
    pool = list(values)
    out: list[T] = []
    for _ in range(draw(st.integers(low, min(high, len(pool))))):
        out.append(pool.pop(draw(st.integers(0, len(pool) - 1))))
    return out


__all__ = [
    "BLANKS",
    "FAMILY",
    "JUNK",
    "PROFILES",
    "SAFE_WORDS",
    "WORDS",
    "YAML_TRAPS",
    "pick",
    "subset",
]
