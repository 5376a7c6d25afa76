"""Which build is running (pure Python or compiled with mypyc), as ``replykit.build_info()``
and ``replykit --version`` report it (docs/performance.md "Compiled build").

``REPLYKIT_EXPECT_BUILD`` (``pure`` or ``compiled``) names the build the run must be on:
`.ci/run` sets it for the compiled venv, so a compiled install that silently fell back to
pure Python fails here instead of passing as the compiled build.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import tomllib
from pathlib import Path

import pytest

import replykit
from replykit.build import COMPILED_PACKAGES, BuildInfo, build_info
from replykit.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _loaded_from_extension(name: str) -> bool:
    return str(importlib.import_module(name).__file__).endswith(EXTENSION_SUFFIXES)


def test_every_module_of_the_compiled_packages_is_classified_by_where_it_loads_from() -> None:
    info = build_info()
    names = info.compiled_modules + info.pure_modules
    assert len(names) == len(set(names))
    assert "replykit.questionnaire.scan.scanner" in names
    assert "replykit.questionnaire.payload.yaml_build" in names
    for name in names:
        assert name.startswith(COMPILED_PACKAGES)
        assert _loaded_from_extension(name) == (name in info.compiled_modules), name
    assert info.kind == ("compiled" if info.compiled_modules else "pure")


def test_the_build_is_the_one_expected() -> None:
    expected = os.environ.get("REPLYKIT_EXPECT_BUILD", "")
    info = build_info()
    if expected == "":
        # A source checkout or a plain install: never compiled.
        assert _loaded_from_extension("replykit.questionnaire.scan.scanner") == (
            info.kind == "compiled"
        )
        return
    assert info.kind == expected
    if expected == "compiled":
        # The modules pyproject.toml leaves pure, and only those, are pure.
        hook = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["hatch"]
        excluded = hook["build"]["targets"]["wheel"]["hooks"]["mypyc"]["exclude"]
        left_pure = {
            p.removeprefix("/src/").removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            for p in excluded
        }
        assert set(info.pure_modules) == left_pure


def test_labels() -> None:
    assert BuildInfo("pure", (), ("a", "b")).label() == "pure Python"
    compiled = BuildInfo("compiled", ("a", "b", "c"), ("d",))
    assert compiled.label() == "compiled (3 of 4 scanner and payload modules)"
    assert replykit.build_info() == build_info()


def test_version_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    out = capsys.readouterr()
    assert out.out == f"replykit {replykit.__version__} ({build_info().label()})\n"
    assert out.err == ""


def test_the_compiled_build_is_opt_in() -> None:
    """A plain ``pip install .`` builds the pure package: hatchling runs (and installs the
    requirements of) a hook that is off by default only when HATCH_BUILD_HOOK_ENABLE_MYPYC
    is set, so mypy and a C compiler are never needed unless asked for."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    wheel = project["tool"]["hatch"]["build"]["targets"]["wheel"]
    hook = wheel["hooks"]["mypyc"]
    assert hook["enable-by-default"] is False
    assert any(d.startswith("hatch-mypyc") for d in hook["dependencies"])
    assert all("mypy" not in d for d in project["build-system"]["requires"])
    assert all("mypy" not in d for d in project["project"]["dependencies"])
    # The grammar ships in both builds (the scanner reads it at run time).
    assert wheel["force-include"]["grammar"] == "replykit/grammar"
