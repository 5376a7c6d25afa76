"""Size limits of the source under ``src/replykit``: no module over 500 lines and no
function over 60, so each stays readable whole.

The functions still over the limit are named in :data:`OVER_LIMIT`, each until the
change that splits it lands; an entry whose function is no longer over the limit (or
is gone) fails too, so the list only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

import replykit

SRC = Path(replykit.__file__).resolve().parent
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60

#: ``module:qualified name`` of each function allowed over the limit (none today).
OVER_LIMIT: frozenset[str] = frozenset()


def function_lengths(source: str) -> dict[str, int]:
    """Lines of each function of ``source`` (``def`` line to last line, decorators
    left out), by qualified name: ``Class.method``, ``outer.inner``."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, scope: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = scope
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{scope}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    assert child.end_lineno is not None
                    found[name] = child.end_lineno - child.lineno + 1
                name += "."
            visit(child, name)

    visit(ast.parse(source), "")
    return found


def _modules() -> dict[str, str]:
    return {
        p.relative_to(SRC).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(SRC.rglob("*.py"))
    }


def _function_lengths() -> dict[str, int]:
    return {
        f"{module}:{name}": lines
        for module, source in _modules().items()
        for name, lines in function_lengths(source).items()
    }


def test_the_measure_counts_each_function_by_its_qualified_name() -> None:
    source = (
        "import attrs\n"
        "\n"
        "@attrs.frozen\n"
        "class Box:\n"
        "    @staticmethod\n"
        "    def make() -> int:\n"
        "        def inner() -> int:\n"
        "            return 1\n"
        "\n"
        "        return inner()\n"
        "\n"
        "async def go() -> None:\n" + "    pass\n" * 61
    )
    assert function_lengths(source) == {"Box.make": 5, "Box.make.inner": 2, "go": 62}


def test_no_module_is_over_500_lines() -> None:
    modules = _modules()
    assert len(modules) > 100
    long = {
        name: n for name, src in modules.items() if (n := len(src.splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_function_is_over_60_lines_but_those_named() -> None:
    lengths = _function_lengths()
    assert len(lengths) > 500
    over = {name for name, n in lengths.items() if n > MAX_FUNCTION_LINES}
    assert over - OVER_LIMIT == set(), "split these functions"
    assert OVER_LIMIT - over == set(), "under the limit now: remove them from OVER_LIMIT"
