"""Every message the docs show next to the input that gives it is the message the code
gives for that input: "`f(args)` raises `message`" in a sentence, and tables whose
header is "| `f` input | `Error` message |" (a JSON input, the exception it raises) or
"| `f` input | diagnostic message |" (a JSON string input, the message of one of the
diagnostics of its result). A test runs each one."""

from __future__ import annotations

import ast
import importlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parents[1]
DOCS = (*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md")
PUBLIC = ("replykit", "replykit.actions")

_RAISES = re.compile(r"`([A-Za-z_]\w*)\(([^`]*)\)` raises `([^`]* [^`]*)`")
_HEADER = re.compile(r"\| `(\w+)` input \| (?:`(\w+)`|(diagnostic)) message \|")


def _function(name: str) -> Callable[..., Any]:
    for module in map(importlib.import_module, PUBLIC):
        if hasattr(module, name):
            return getattr(module, name)  # type: ignore[no-any-return]
    raise AssertionError(f"{name} is not public")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _raised(function: Callable[..., object], *args: object) -> BaseException:
    try:
        function(*args)
    except Exception as exc:  # the doc names the type; the message is compared
        return exc
    raise AssertionError("nothing was raised")


def _sentences(text: str) -> Iterator[tuple[str, str, str]]:
    yield from _RAISES.findall(_one_line(text))


def _rows(text: str) -> Iterator[tuple[str, str | None, str, str]]:
    """(function, exception name or None for a diagnostic, input, message) per row."""
    header: re.Match[str] | None = None
    for line in text.split("\n"):
        if not line.startswith("|"):
            header = None
        elif header is None:
            header = _HEADER.fullmatch(line.strip())
        elif not re.fullmatch(r"\|[-\s|]*", line.strip()):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            given, message = (c.removeprefix("`").removesuffix("`") for c in cells)
            yield header[1], header[2], given, message


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_every_call_shown_raising_raises_that_message(path: Path) -> None:
    for name, args, message in _sentences(path.read_text(encoding="utf-8")):
        values = ast.literal_eval(f"({args},)")
        exc = _raised(_function(name), *values)
        assert str(exc) == message, (name, args)


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_every_input_and_message_table_row_holds(path: Path) -> None:
    for name, error, given, message in _rows(path.read_text(encoding="utf-8")):
        value = json.loads(given)
        if error is None:
            result = _function(name)(value)
            assert message in [d.message for d in result.diagnostics], given
        else:
            exc = _raised(_function(name), value)
            assert (type(exc).__name__, str(exc)) == (error, message), given


def test_the_shown_messages_are_found() -> None:
    """The patterns above find the docs' examples, so the tests cannot pass empty."""
    text = {p.name: p.read_text(encoding="utf-8") for p in DOCS}
    assert [n for n, _, _ in _sentences(text["actions.md"])] == [
        "ChartComponent",
        "ChartComponent",
        "ChartComponent",
        "needs_confirmation",
        "format_timestamp",
    ]
    rows = list(_rows(text["protocol-responses.md"]))
    assert [(n, e) for n, e, _, _ in rows][:1] == [("self_check", "TypeError")]
    assert len(rows) >= 4
