"""The docs and the README name only what exists: every import they show works, every
``replykit.x.y`` they name resolves, every function they show called is public; no API
table lists a name twice; no paragraph is a stray fragment."""

from __future__ import annotations

import builtins
import importlib
import inspect
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
DOCS = (*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md")
# Docs about replykit's inside: they name internal functions with their module.
INTERNAL_DOCS = {"architecture.md", "performance.md"}
# Public namespaces a user-facing doc may show a bare call from.
PUBLIC = (
    "replykit",
    "replykit.actions",
    "replykit.markdown_it",
    "replykit.evals",
    "replykit.testing.streaming",  # check_stream, named with its module (docs/streaming.md)
)
# Called names that belong to other programs the docs show replykit with.
FOREIGN = {
    "CompressionStream",  # the browser's, in the playground
    "MarkdownIt",  # markdown-it-py's
    "Task",  # inspect_ai's
    "get_assert",  # the hook promptfoo calls (docs/evals.md)
    "respond",  # the function a fuzz adapter's author writes (docs/fuzzing.md)
    "F",  # a caller's segmenter class, a placeholder in docs/streaming.md
    "protocol_compliance",  # inspect_ai scorer, imported in docs/evals.md
}
# Lower-case words a paragraph may start with: names written in lower case.
LOWER_NAMES = {"replykit", "cProfile", "libyaml", "mypyc", "cmark"}


def _ids(paths: tuple[Path, ...]) -> list[str]:
    return [p.name for p in paths]


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def _without_before_columns(text: str) -> str:
    """The text with the first cell of each "| Before | Now |" row blanked: names
    that no longer exist, on purpose."""
    out, in_moves = [], False
    for line in text.split("\n"):
        if line.startswith("| Before | Now |"):
            in_moves = True
        elif not line.startswith("|"):
            in_moves = False
        elif in_moves:
            line = "|" + line.split("|", 2)[2] if line.count("|") > 2 else line
        out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("path", DOCS, ids=_ids(DOCS))
def test_every_import_shown_works(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    pattern = r"from (replykit[\w.]*) import (\([^)]*\)|[\w, ]+)"
    for module, names in re.findall(pattern, text):
        for name in re.findall(r"\w+", names):
            assert hasattr(importlib.import_module(module), name), f"{module}.{name}"


@pytest.mark.parametrize("path", DOCS, ids=_ids(DOCS))
def test_every_dotted_name_resolves(path: Path) -> None:
    text = _without_before_columns(path.read_text(encoding="utf-8"))
    names = set(re.findall(r"(?<![\w./-])(replykit(?:\.[A-Za-z_]\w*)+)", text))
    assert sorted(n for n in names if not _resolves(n)) == []


def _methods() -> set[str]:
    out: set[str] = set()
    for module in map(importlib.import_module, PUBLIC):
        for value in vars(module).values():
            if inspect.isclass(value):
                out.update(n for n in dir(value) if not n.startswith("_"))
    return out


USER_DOCS = tuple(p for p in DOCS if p.name not in INTERNAL_DOCS)


@pytest.mark.parametrize("path", USER_DOCS, ids=_ids(USER_DOCS))
def test_every_function_shown_called_is_public(path: Path) -> None:
    """A bare ``name(...)`` in a user-facing doc is importable from a public namespace
    (README: every public name is exported from ``replykit``), a method of a public
    class, a builtin, or another program's."""
    known = {n for m in map(importlib.import_module, PUBLIC) for n in dir(m)}
    known |= _methods() | set(dir(builtins)) | FOREIGN
    called = set(re.findall(r"`([A-Za-z_]\w*)\(", path.read_text(encoding="utf-8")))
    assert sorted(called - known) == []


# Tables that list names (API, codes, options, fields), by the header of the first column.
NAME_HEADERS = {"Name", "Code", "Command", "Key", "Field", "field", "Variable", "Switch",
                "Module", "Model", "Limit", "Tag", "Profile", "Type", "Package", "Id"}  # fmt: skip


def _table_rows(text: str) -> Iterator[tuple[int, list[tuple[str, str]]]]:
    """Each Markdown table (numbered by order) as (first cell, rest of the row) pairs,
    the header row first."""
    table: list[tuple[str, str]] = []
    number = 0
    for line in [*text.split("\n"), ""]:
        if line.startswith("|") and not re.fullmatch(r"\|[-\s|:]*\|?", line):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            table.append((cells[0], "|".join(cells[1:])))
        elif table and not line.startswith("|"):
            number += 1
            yield number, table
            table = []


@pytest.mark.parametrize("path", DOCS, ids=_ids(DOCS))
def test_no_table_lists_a_name_twice_differently(path: Path) -> None:
    clashes = []
    for number, rows in _table_rows(path.read_text(encoding="utf-8")):
        if rows[0][0] not in NAME_HEADERS:
            continue
        seen: dict[str, str] = {}
        for first, rest in rows[1:]:
            if re.fullmatch(r"`[^`]+`", first):
                if first in seen and seen[first] != rest:
                    clashes.append((number, first))
                seen.setdefault(first, rest)
    assert clashes == []


def _sentence_starts(text: str) -> Iterator[tuple[int, str, bool]]:
    """(line number, line, whether a code block comes right before) of each line
    outside fenced code that starts a paragraph or follows a line ending a sentence."""
    in_code = after_code = False
    previous = ""
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            in_code, after_code, previous = not in_code, True, ""
        elif in_code:
            continue
        elif not line.strip():
            previous = ""
        else:
            if not previous or previous.endswith("."):
                yield number, line, after_code
            after_code, previous = False, line


@pytest.mark.parametrize("path", DOCS, ids=_ids(DOCS))
def test_no_paragraph_is_a_stray_fragment(path: Path) -> None:
    """A paragraph or sentence that starts in lower case goes on from a code block above
    it (``for an a.json holding ...``) or starts with a lower-case name; any other is a
    fragment cut from its sentence."""
    stray = [
        (number, line[:40])
        for number, line, after_code in _sentence_starts(path.read_text(encoding="utf-8"))
        if line[0].islower() and not after_code and re.match(r"\w+", line)[0] not in LOWER_NAMES  # type: ignore[index]
    ]
    assert stray == []


# In a table cell, `replykit.mod` (`a`, `.b`) and `a` in `replykit.mod` name what the
# module defines (or a submodule of it): a name it merely imports is not its own.
_PARENS = re.compile(r"`(replykit[\w.]*)` \(([^)]*)\)")
_IN = re.compile(r"`([A-Za-z_]\w*)` in `(replykit[\w.]*)`")


def _cell_names(text: str) -> Iterator[tuple[str, str]]:
    for _number, rows in _table_rows(_without_before_columns(text)):
        for first, rest in rows:
            cells = f"{first}|{rest}"
            for module, inner in _PARENS.findall(cells):
                for name in re.findall(r"`(\.?[A-Za-z_]\w*)`", inner):
                    yield module, name
            for name, module in _IN.findall(cells):
                yield module, name


def _own(module: str, name: str) -> bool:
    dotted = module + name if name.startswith(".") else f"{module}.{name}"
    if not _resolves(dotted):
        return False
    parent, attr = dotted.rsplit(".", 1)
    value = getattr(importlib.import_module(parent), attr, None)
    if value is None:  # a submodule not yet imported as an attribute
        value = importlib.import_module(dotted)
    home = getattr(value, "__module__", None) or getattr(value, "__name__", parent)
    return inspect.ismodule(value) or not callable(value) or home.startswith(parent)


@pytest.mark.parametrize("path", DOCS, ids=_ids(DOCS))
def test_every_name_a_table_places_in_a_module_is_its_own(path: Path) -> None:
    names = list(_cell_names(path.read_text(encoding="utf-8")))
    assert sorted({f"{m} {n}" for m, n in names if not _own(m, n)}) == []


def test_the_table_names_are_found() -> None:
    """The pattern above finds the README's moved names (so the test cannot pass empty)."""
    names = set(_cell_names((ROOT / "README.md").read_text(encoding="utf-8")))
    assert ("replykit.cli.tool", "SCHEMAS") in names
    assert ("replykit.questionnaire.conversation.responses", ".build") in names
