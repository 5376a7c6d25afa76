"""The Polars, DuckDB and Hugging Face recipes of docs/evals.md, run as written (the
code is read from the doc) on the bundled example's output and on an output without
input errors; their figures are the audit command's."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from replykit.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "audit" / "replies.jsonl"
FORM = (
    'Pick:\n\n<questionnaire>{"questions":[{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}]}</questionnaire>\n'
)
TILDE = "Pick one:\n\n~~~questionnaire\ntitle: T\n~~~\n"


def blocks(heading: str, language: str) -> list[str]:
    """The ``language`` code blocks of the docs/evals.md section titled ``heading``."""
    doc = (ROOT / "docs" / "evals.md").read_text("utf-8")
    section = re.split(r"\n#{2,3} ", doc.split(f"### {heading}", 1)[1])[0]
    return re.findall(rf"```{language}\n(.*?)```", section, re.S)


def audit_output(tmp_path: Path, source: Path) -> tuple[Path, dict[str, Any]]:
    """results.jsonl (the recipes' input) and the json report of ``source``."""
    out = tmp_path / "results.jsonl"
    argv = ["audit", str(source), "--group-by", "model"]
    assert main([*argv, "--format", "jsonl", "--out", str(out)]) == 0
    assert main([*argv, "--format", "json", "--out", str(tmp_path / "summary.json")]) == 0
    return out, json.loads((tmp_path / "summary.json").read_text("utf-8"))


@pytest.fixture(params=["example", "clean"])
def output(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    if request.param == "example":
        results, summary = audit_output(tmp_path, EXAMPLE)
        assert summary["input_errors"]["count"] == 1  # the cut line, line 218
        return results, summary
    clean = tmp_path / "clean.jsonl"
    replies = [[{"role": "assistant", "content": [FORM, TILDE][i % 3 == 0]}] for i in range(9)]
    lines = [{"model": f"m{i % 2}", "messages": replies[i]} for i in range(9)]
    clean.write_text("".join(json.dumps(x) + "\n" for x in lines), "utf-8")
    results, summary = audit_output(tmp_path, clean)
    assert summary["input_errors"]["count"] == 0
    return results, summary


def expected(summary: dict[str, Any]) -> tuple[list[tuple[Any, ...]], Counter[tuple[str, str]]]:
    rates = [(g["group"], g["messages"], g["pass_rate"]) for g in summary["groups"]]
    codes = Counter(
        {(g["group"], c["code"]): c["messages"] for g in summary["groups"] for c in g["codes"]}
    )
    return rates, codes


def test_duckdb_recipe(
    output: tuple[Path, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    results, summary = output
    monkeypatch.chdir(results.parent)
    (sql,) = blocks("Aggregating the `jsonl` output with DuckDB or Polars (tested)", "sql")
    statements = [re.sub(r"--[^\n]*", "", q).strip() for q in sql.split(";")]
    first, second = [q for q in statements if q]
    rates = [(g, n, round(r, 4)) for g, n, r in duckdb.sql(first).fetchall()]
    codes = Counter({(g, c): n for g, c, n in duckdb.sql(second).fetchall()})
    assert (rates, codes) == expected(summary)


def test_polars_recipe(
    output: tuple[Path, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    results, summary = output
    monkeypatch.chdir(results.parent)
    (code,) = blocks("Aggregating the `jsonl` output with DuckDB or Polars (tested)", "python")
    scope: dict[str, Any] = {}
    exec(code, scope)  # the recipe as written
    rates = [(g, n, round(p, 4)) for g, n, p in scope["rates"].iter_rows()]
    codes = Counter({(g, c): n for g, c, n in scope["codes"].iter_rows()})
    assert (rates, codes) == expected(summary)
    assert isinstance(scope["df"], pl.DataFrame)


def test_hugging_face_recipe_function() -> None:
    (code,) = blocks(
        "Hugging Face `datasets` (the function is tested; `datasets` itself is not installed)",
        "python",
    )
    scope: dict[str, Any] = {}
    exec(code.split("from datasets")[0], scope)  # the recipe up to the library's import
    judge = scope["judge"]
    assert judge({"messages": "oops"}) == {
        "passed": None,
        "error": "messages must be a list, not a string",
    }
    assert judge({"id": 3})["passed"] is None
    assert judge({"messages": [{"role": "user", "content": "hi"}]}) == {
        "passed": None,
        "error": None,
    }
    replies = [{"role": "assistant", "content": TILDE}, {"role": "assistant", "content": FORM}]
    assert judge({"messages": replies}) == {"passed": True, "error": None}
    assert judge({"messages": replies[:1]}) == {"passed": False, "error": None}
    # datasets fills a field a record lacks with None: a one-message record of a file
    # that also holds conversations comes as messages None beside role and content.
    row = {"messages": None, "role": "assistant", "content": FORM, "model": None}
    assert judge(row) == {"passed": True, "error": None}
    assert judge({**row, "content": TILDE}) == {"passed": False, "error": None}
    assert os.path.exists(EXAMPLE)
