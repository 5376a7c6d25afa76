"""The layout of the command line and the testing tools, and what ``replykit`` exports.

- one module per command group, registered by :mod:`replykit.cli`;
- the testing tools under :mod:`replykit.testing`, the fuzzer's operations and
  examples under :mod:`replykit.fuzz`, the old module names kept as thin re-exports;
- every replykit type an exported function returns (through the fields of the
  returned classes) or documents raising is exported.
"""

from __future__ import annotations

import argparse
import builtins
import importlib
import inspect
import re
import subprocess
import sys
import typing
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

import replykit
import replykit.actions
from replykit.cli import GROUPS, build_parser, check_message_id, main

SRC = Path(replykit.__file__).resolve().parent


# ---------------------------------------------------------------- command line


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[name] = sub
    return found


def test_each_command_runs_from_the_module_of_its_group() -> None:
    parser = build_parser()
    argv = {
        "segment": ["segment"],
        "stream": ["stream"],
        "check": ["check", "c.json"],
        "respond": ["respond", "--message", "m", "--message-id", "i", "--answers", "a"],
        "audit": ["audit", "runs"],
        "tool": ["tool", "questionnaire_async", "a.json"],
        "schema": ["schema", "form"],
        "actions": ["actions", "a.json"],
        "fuzz": ["fuzz", "--impl", "x"],
        "vectors": ["vectors", "export", "d"],
        "serve": ["serve"],
    }
    assert list(_subcommands(parser)) == list(argv)
    homes = {name: parser.parse_args(args).func.__module__ for name, args in argv.items()}
    assert homes == {
        "segment": "replykit.cli.segment",
        "stream": "replykit.cli.stream",
        "check": "replykit.cli.conversation",
        "respond": "replykit.cli.conversation",
        "audit": "replykit.cli.audit",
        "tool": "replykit.cli.tool",
        "schema": "replykit.cli.tool",
        "actions": "replykit.cli.actions",
        "fuzz": "replykit.cli.fuzz",
        "vectors": "replykit.cli.vectors",
        "serve": "replykit.cli.serve",
    }
    assert [g.__name__ for g in GROUPS] == [
        f"replykit.cli.{n}"
        for n in (
            "segment",
            "stream",
            "conversation",
            "audit",
            "tool",
            "actions",
            "fuzz",
            "vectors",
            "serve",
        )
    ]


def test_the_old_command_line_names_still_work(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "form"]) == 0
    assert capsys.readouterr().out.startswith('{"$schema":')
    check_message_id("m" * 128)
    with pytest.raises(Exception, match="longer than 128"):
        check_message_id("m" * 129)
    proc = subprocess.run(
        [sys.executable, "-m", "replykit.cli", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    version = f"replykit {replykit.__version__} ({replykit.build_info().label()})\n"
    assert (proc.returncode, proc.stdout) == (0, version)


# ---------------------------------------------------------------- testing tools


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_command_line_and_testing_modules_stay_under_500_lines() -> None:
    folders = [SRC / "cli", SRC / "testing", SRC / "fuzz", SRC / "evals", SRC / "serve"]
    modules = [p for folder in folders for p in sorted(folder.rglob("*.py"))]
    modules += [SRC / "strategies.py", SRC / "hostile.py", SRC / "fuzzing.py"]
    assert len(modules) > 25
    long = {str(p.relative_to(SRC)): _lines(p) for p in modules if _lines(p) > 500}
    assert long == {}


def test_strategies_keeps_its_names_from_their_new_homes() -> None:
    import replykit.fuzz.examples
    import replykit.fuzz.generate
    import replykit.fuzz.ops
    import replykit.strategies as old
    import replykit.testing.strategies as new

    assert set(old.__all__) == set(new.__all__) | {
        "OPS",
        "Op",
        "Example",
        "explicit_examples",
        "requests",
    }
    for name in new.__all__:
        assert getattr(old, name) is getattr(new, name), name
    assert old.requests is replykit.fuzz.generate.requests
    assert old.explicit_examples is replykit.fuzz.examples.explicit_examples
    assert old.Example is replykit.fuzz.examples.Example
    assert (
        old.OPS is replykit.fuzz.ops.OPS == ("segment", "questionnaire_async", "sanitize_actions")
    )


def test_fuzz_package_exports_load_on_first_use() -> None:
    import replykit.fuzz
    import replykit.fuzz.runner

    reference_module = importlib.import_module("replykit.fuzz.reference")
    assert replykit.fuzz.fuzz is replykit.fuzz.runner.fuzz
    # The function, not its module of the same name.
    assert replykit.fuzz.reference is reference_module.reference
    for name in replykit.fuzz.__all__:
        assert getattr(replykit.fuzz, name) is not None, name
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = replykit.fuzz.no_such_name  # type: ignore[attr-defined]


def test_hostile_and_fuzzing_keep_their_names() -> None:
    import replykit.fuzzing
    import replykit.hostile
    import replykit.testing.fuzzing
    import replykit.testing.hostile

    assert replykit.hostile.__all__ == replykit.testing.hostile.__all__
    for name in replykit.testing.hostile.__all__:
        assert getattr(replykit.hostile, name) is getattr(replykit.testing.hostile, name)
    assert len(replykit.hostile.FAMILIES) == 42 and len(replykit.hostile.JSON_FAMILIES) == 16
    with pytest.raises(AttributeError):
        _ = replykit.hostile.no_such_family
    for name in replykit.fuzzing.__all__:
        assert getattr(replykit.fuzzing, name) is getattr(replykit.testing.fuzzing, name)


@pytest.mark.parametrize("module", ["replykit.fuzzing", "replykit.testing.fuzzing"])
def test_the_invariant_fuzzer_runs_as_a_module(module: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", module, "--examples", "5"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    shape = r"python -m replykit\.testing\.fuzzing: 5 inputs in \S+ s \(\d+/s\), no failure\n"
    assert re.fullmatch(shape, proc.stdout)


# ---------------------------------------------------------------- exports


def _replykit_classes(annotation: Any, seen: set[type]) -> set[type]:
    """replykit classes named by ``annotation``, and by the fields of those classes."""
    found: set[type] = set()
    stack = [annotation]
    while stack:
        item = stack.pop()
        if not isinstance(item, type):
            stack.extend(typing.get_args(item))
            continue
        if item in seen or not item.__module__.startswith("replykit"):
            continue
        seen.add(item)
        found.add(item)
        if attrs.has(item):
            stack.extend(typing.get_type_hints(item).values())
    return found


def _returned_classes(package: ModuleType) -> set[type]:
    seen: set[type] = set()
    found: set[type] = set()
    for name in package.__all__:
        value = getattr(package, name)
        if isinstance(value, type):
            found |= _replykit_classes(value, seen) if attrs.has(value) else set()
        elif inspect.isfunction(inspect.unwrap(value)):
            hints = typing.get_type_hints(inspect.unwrap(value))
            found |= _replykit_classes(hints.get("return"), seen)
    return found


@pytest.mark.parametrize("package", [replykit, replykit.actions], ids=lambda p: p.__name__)
def test_every_returned_type_is_exported(package: ModuleType) -> None:
    classes = _returned_classes(package)
    assert len(classes) > 8
    missing = {
        f"{c.__module__}.{c.__name__}"
        for c in classes
        if getattr(package, c.__name__, None) is not c
        and getattr(replykit, c.__name__, None) is not c
    }
    assert missing == set()


@pytest.mark.parametrize("package", [replykit, replykit.actions], ids=lambda p: p.__name__)
def test_every_documented_error_is_exported(package: ModuleType) -> None:
    documented: set[str] = set()
    for name in package.__all__:
        value = getattr(package, name)
        if inspect.isfunction(inspect.unwrap(value)):
            doc = inspect.getdoc(value) or ""
            documented |= set(re.findall(r"`~?(?:\w+\.)*(\w+Error)`", doc))
    ours = {n for n in documented if not hasattr(builtins, n)}
    assert ours
    assert {n for n in ours if not hasattr(package, n)} == set()


def test_types_of_answers_and_tool_results_are_exported() -> None:
    from replykit.diagnostics import LeftOut
    from replykit.questionnaire.conversation.responses import OTHER_VALUE, AnswersError
    from replykit.questionnaire.conversation.tool import ToolError, ToolForm

    assert replykit.AnswersError is AnswersError and issubclass(AnswersError, ValueError)
    assert replykit.OTHER_VALUE == OTHER_VALUE == "__questionnaire_other__"
    assert (replykit.ToolForm, replykit.ToolError, replykit.LeftOut) == (
        ToolForm,
        ToolError,
        LeftOut,
    )
    for name in ("AnswersError", "OTHER_VALUE", "ToolForm", "ToolError", "LeftOut"):
        assert name in replykit.__all__
    form = replykit.questionnaire_from_tool_result({"success": False}, "call_1")
    assert isinstance(form, replykit.ToolForm) and form.questionnaire is None
    assert [type(e) for e in form.errors] == [replykit.ToolError]
