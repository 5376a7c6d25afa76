"""Hypothesis is the ``replykit[fuzz]`` extra: ``import replykit`` and every command but
``fuzz`` work without it, and each command loads only what it runs.

Each check runs a child Python whose ``sys.meta_path`` refuses ``hypothesis`` (as an
install without the extra would), so nothing is uninstalled. What a command loads is
counted from ``sys.modules`` after it ran, never timed (timing is in
``benchmarks/startup.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
ACTIONS_DATA = ROOT / "tests" / "actions" / "data"

# Installed first by the child when told to: a finder that refuses every module of
# Hypothesis, as ``import`` sees an install without it.
BLOCKER = """
import sys

class NoHypothesis:
    def find_spec(self, name, path=None, target=None):
        if name == "hypothesis" or name.startswith("hypothesis."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

if sys.argv[1] == "block":
    sys.meta_path.insert(0, NoHypothesis())
"""

# Runs ``replykit ARGS`` in process, then reports the exit status and the loaded modules
# (``--help`` and ``--version`` end by SystemExit, as argparse does).
RUN_CLI = """
import json, os
from replykit.cli import main
try:
    status = main(sys.argv[2:])
except SystemExit as stop:
    status = stop.code
sys.stdout.flush()
os.write(2, ("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n").encode())
raise SystemExit(status)
"""

FUZZ_EXTRA_LINE = (
    "replykit fuzz: error: needs Hypothesis, which is not installed: pip install 'replykit[fuzz]'\n"
)


def child(code: str, *args: str, block: bool = True) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a child Python, Hypothesis refused when ``block``."""
    return subprocess.run(
        [sys.executable, "-c", BLOCKER + code, "block" if block else "allow", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
        cwd=ROOT,
    )


def run_cli(*args: str, block: bool = True) -> tuple[int, str, str, list[str]]:
    """``(status, stdout, stderr, loaded modules)`` of ``replykit ARGS`` in a child."""
    proc = child(RUN_CLI, *args, block=block)
    err, marker, modules = proc.stderr.rpartition("\nMODULES ")
    assert marker, proc.stderr
    return proc.returncode, proc.stdout, err, json.loads(modules)


def loaded(modules: list[str], *prefixes: str) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes)]


def test_the_blocker_refuses_hypothesis() -> None:
    # The other tests mean something only if the child really cannot import it.
    proc = child("import hypothesis")
    assert proc.returncode == 1
    assert "ModuleNotFoundError: No module named 'hypothesis'" in proc.stderr
    assert child("import hypothesis", block=False).returncode == 0


def test_import_replykit_loads_no_testing_tool_and_no_argparse() -> None:
    proc = child("import json, replykit; print(json.dumps(sorted(sys.modules)))")
    assert proc.returncode == 0, proc.stderr
    modules = json.loads(proc.stdout)
    assert "replykit.questionnaire.segmentation.segmenter" in modules
    heavy = ("hypothesis", "argparse", "replykit.actions", "replykit.fuzz", "replykit.cli")
    assert loaded(modules, *heavy, "replykit.testing", "replykit.strategies") == []


def test_testing_tools_that_need_no_hypothesis_import_without_it() -> None:
    code = (
        "import replykit.fuzz, replykit.fuzz.ops, replykit.fuzz.examples\n"
        "import replykit.testing.hostile, replykit.hostile\n"
        "print(len(replykit.fuzz.explicit_examples()), len(replykit.hostile.FAMILIES))\n"
    )
    proc = child(code)
    assert proc.returncode == 0, proc.stderr
    examples, families = map(int, proc.stdout.split())
    assert examples > 50 and families > 20


def _files(tmp_path: Path) -> dict[str, str]:
    conversation = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": (EXAMPLES / "task_paused.md").read_text("utf-8")},
    ]
    arguments = {"questions": [{"type": "text", "text": "Why?"}]}
    paths = {
        "conversation": tmp_path / "c.json",
        "answers": tmp_path / "a.json",
        "arguments": tmp_path / "args.json",
    }
    paths["conversation"].write_text(json.dumps(conversation), encoding="utf-8")
    paths["answers"].write_text(json.dumps({"q1": "继续"}), encoding="utf-8")
    paths["arguments"].write_text(json.dumps(arguments), encoding="utf-8")
    return {key: str(path) for key, path in paths.items()}


# Each command, and the modules it must not load: nothing of Hypothesis, the fuzzer or
# the audit anywhere (docs/cli.md "Modules and start-up"), and the answer-actions
# package only where the command uses it.
NO_FUZZ_LOOP = ("hypothesis", "replykit.testing", "replykit.strategies", "replykit.fuzz.runner")
NO_FUZZER = (*NO_FUZZ_LOOP, "replykit.fuzz", "replykit.evals")
NO_ACTIONS = (*NO_FUZZER, "replykit.actions")
COMMANDS: list[tuple[str, tuple[str, ...], int, tuple[str, ...]]] = [
    ("segment", ("segment", "{message}"), 0, NO_ACTIONS),
    ("segment-text", ("segment", "--format", "text", "{message}"), 0, NO_ACTIONS),
    ("stream", ("stream", "--chunk-size", "7", "{message}"), 0, NO_ACTIONS),
    ("check", ("check", "{conversation}"), 0, NO_ACTIONS),
    (
        "respond",
        ("respond", "--message", "{message}", "--message-id", "m", "--answers", "{answers}"),
        0,
        NO_ACTIONS,
    ),
    ("tool", ("tool", "questionnaire_async", "{arguments}"), 0, NO_ACTIONS),
    ("schema-tool", ("schema", "tool"), 0, NO_ACTIONS),
    ("schema-form", ("schema", "form"), 0, NO_ACTIONS),
    ("schema-response", ("schema", "response"), 0, NO_ACTIONS),
    ("schema-actions", ("schema", "actions"), 0, NO_FUZZER),
    ("actions", ("actions", "{answer}", "--lint", "--format", "text"), 0, NO_FUZZER),
    ("help", ("--help",), 0, NO_ACTIONS),
    ("version", ("--version",), 0, NO_ACTIONS),
    ("usage-error", ("segment", "--format", "xml"), 2, NO_ACTIONS),
]


@pytest.mark.parametrize(
    ("argv", "status", "forbidden"),
    [pytest.param(argv, status, forbidden, id=name) for name, argv, status, forbidden in COMMANDS],
)
def test_command_works_without_hypothesis_and_loads_only_what_it_runs(
    tmp_path: Path, argv: tuple[str, ...], status: int, forbidden: tuple[str, ...]
) -> None:
    files = {
        **_files(tmp_path),
        "message": str(EXAMPLES / "task_paused.md"),
        "answer": str(ACTIONS_DATA / "seed_full_example.json"),
    }
    args = [a.format(**files) if a.startswith("{") else a for a in argv]
    blocked = run_cli(*args)
    allowed = run_cli(*args, block=False)
    assert blocked[0] == status, blocked[2]
    assert blocked[:3] == allowed[:3]  # the same status and output with or without it
    if status == 0:
        assert blocked[1]
    assert loaded(blocked[3], *forbidden) == []
    assert loaded(allowed[3], *forbidden) == []


def test_vectors_export_needs_no_hypothesis(tmp_path: Path) -> None:
    blocked = run_cli("vectors", "export", str(tmp_path / "blocked"))
    allowed = run_cli("vectors", "export", str(tmp_path / "allowed"), block=False)
    assert blocked[0] == 0, blocked[2]
    assert loaded(blocked[3], *NO_FUZZ_LOOP) == []  # the export is the fuzz package's own
    names = sorted(p.name for p in (tmp_path / "blocked").iterdir())
    assert names == [
        "README.md",
        "questionnaire_async.json",
        "sanitize_actions.json",
        "segment.json",
        "segment_generated.json",
        "stream.json",
    ]
    assert allowed[0] == 0
    for name in names:
        assert (tmp_path / "blocked" / name).read_bytes() == (
            tmp_path / "allowed" / name
        ).read_bytes()


@pytest.mark.parametrize(
    "argv",
    [
        ("fuzz", "--impl", "adapter-that-is-never-started"),
        ("fuzz", "--impl", "x", "--op", "segment", "--examples", "0", "--out", "{tmp}"),
    ],
)
def test_fuzz_without_hypothesis_exits_2_naming_the_extra(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    status, out, err, modules = run_cli(*(a.format(tmp=tmp_path / "r") for a in argv))
    assert (status, out, err) == (2, "", FUZZ_EXTRA_LINE)
    assert not (tmp_path / "r").exists()  # refused before anything was written
    assert loaded(modules, "replykit.fuzz.runner") == []


def test_fuzz_with_hypothesis_does_not_print_the_extra(tmp_path: Path) -> None:
    # Same command line with Hypothesis available: it runs (the adapter cannot start).
    status, _, err, _ = run_cli(
        "fuzz", "--impl", str(tmp_path / "missing-adapter"), "--out", str(tmp_path), block=False
    )
    assert status == 2
    assert "replykit[fuzz]" not in err and "cannot" in err


def _project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        project: dict[str, Any] = tomllib.load(handle)["project"]
    return project


def test_hypothesis_is_the_fuzz_extra_and_the_test_extra_includes_it() -> None:
    project = _project()
    extras = project["optional-dependencies"]
    assert not [d for d in project["dependencies"] if d.lower().startswith("hypothesis")]
    assert [d for d in extras["fuzz"] if d.lower().startswith("hypothesis")]
    assert "replykit[fuzz]" in extras["test"]
    assert project["scripts"] == {"replykit": "replykit.cli:main"}


def test_the_fuzz_targets_without_hypothesis_say_which_extra() -> None:
    # ``python -m replykit.fuzzing`` and ``python -m replykit.testing.fuzzing``.
    for module in ("replykit.fuzzing", "replykit.testing.fuzzing"):
        code = f"import runpy\nrunpy.run_module({module!r}, run_name='__main__')"
        proc = child(code)
        assert proc.returncode == 2, proc.stderr
        assert proc.stdout == ""
        assert proc.stderr == (
            "python -m replykit.testing.fuzzing: error: needs Hypothesis, which is not installed: "
            "pip install 'replykit[fuzz]'\n"
        )


def test_the_parser_names_the_fuzz_ops_and_audit_expectations_it_does_not_import() -> None:
    # cli/fuzz.py and cli/audit.py write their choices out so that building the parser
    # loads neither package; they must stay the packages' own.
    from replykit.cli.audit import EXPECT_NAMES
    from replykit.cli.fuzz import OP_NAMES
    from replykit.evals.compliance import EXPECTS
    from replykit.fuzz.ops import ALL_OPS

    assert OP_NAMES == ALL_OPS
    assert EXPECT_NAMES == EXPECTS
