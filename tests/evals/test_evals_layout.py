"""The evals modules and the audit command stay small: modules of at most 500 lines,
functions of at most 60."""

from __future__ import annotations

import ast
from pathlib import Path

import replykit

SRC = Path(replykit.__file__).resolve().parent
MODULES = [*sorted((SRC / "evals").glob("*.py")), SRC / "cli" / "audit.py"]


def test_modules_and_functions_stay_small() -> None:
    assert len(MODULES) >= 8
    long_modules = {}
    long_functions = {}
    for path in MODULES:
        text = path.read_text("utf-8")
        if text.count("\n") > 500:
            long_modules[path.name] = text.count("\n")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > 60:
                    long_functions[f"{path.name}:{node.name}"] = size
    assert (long_modules, long_functions) == ({}, {})
