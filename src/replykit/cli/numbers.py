"""Number options of the CLI, read by the one rule for a number written as text (§1.3):
a whole JSON number token (``numbers.py``), then a range. A wrong value is a usage error
(exit 2) with one message shape: ``argument --jobs: must be an integer of at least 0,
not '-1'``."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from replykit.questionnaire.payload.numbers import read_number
from replykit.textout import quoted


def integer(minimum: int | None = None, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: the integer a JSON integer token spells, within
    ``minimum``-``maximum`` (either end open when ``None``); else
    :class:`argparse.ArgumentTypeError`."""
    if minimum is not None and maximum is not None:
        wanted = f"an integer from {minimum} to {maximum}"
    elif minimum is not None:
        wanted = f"an integer of at least {minimum}"
    else:
        wanted = "an integer"

    def parse(text: str) -> int:
        value, _ = read_number(text)
        if (
            not isinstance(value, int)
            or (minimum is not None and value < minimum)
            or (maximum is not None and value > maximum)
        ):
            raise argparse.ArgumentTypeError(f"must be {wanted}, not {quoted(text)}")
        return value

    return parse


def positive_number(text: str) -> float:
    """An argparse ``type``: the number above 0 a JSON number token spells, as a
    ``float``; else :class:`argparse.ArgumentTypeError`."""
    value, _ = read_number(text)
    if value is None or not value > 0 or not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a number above 0, not {quoted(text)}")
    return float(value)
