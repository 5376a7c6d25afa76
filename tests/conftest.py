"""Hypothesis profiles; the ``yaml_loader`` fixture that runs a test under every YAML
loader; the ``browser`` and ``integration`` markers.

- ``ci`` (the default, what the README's test command and ``.ci/run`` use): bounded and
  derandomized, so every run of a given test suite draws the same examples and a red or
  green gate says something about the code, not about the draw; no example database.
- ``long``: 5 000 examples, drawn afresh each run (with the example database), for
  local fuzzing; make what it finds an ``@example`` so that ``ci`` keeps it.

Select a profile with ``HYPOTHESIS_PROFILE=long pytest ...``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from replykit.questionnaire.payload.yaml_loader import ENV_VAR, c_available

settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    database=None,
)
settings.register_profile(
    "long", max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

TESTS = Path(__file__).resolve().parent

# The tests left out of the core suite that `.ci/run` runs on the compiled build
# (`-m "not browser and not integration"`); the README's command runs every test.
# browser: they drive Debian's chromium. integration: they run other implementations
# (fuzz adapters, which import replykit from src/) or a cluster in child processes.
BROWSER = ("serve/test_browser.py", "evals/test_html_report.py::test_charts_render_in_chromium")
INTEGRATION = (
    "evals/test_dask_recipe.py",
    "fuzz/test_adapter_failures.py",
    "fuzz/test_classes.py",
    "fuzz/test_faulty_adapter.py",
    "fuzz/test_fuzz_recall.py",
    "fuzz/test_mutants.py",
    "fuzz/test_node_adapter.py",
    "fuzz/test_self_fuzz.py",
    "fuzz/test_smaller.py",
    "fuzz/test_stream_fuzz.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks the tests listed in ``BROWSER`` and ``INTEGRATION`` (a module, or
    ``module::test``)."""
    for item in items:
        module = item.path.resolve().relative_to(TESTS).as_posix()
        name = f"{module}::{getattr(item, 'originalname', item.name)}"
        for marker, listed in (("browser", BROWSER), ("integration", INTEGRATION)):
            if module in listed or name in listed:
                item.add_marker(marker)


# Every loader this install has: the referee always, PyYAML's C parser when importable.
YAML_LOADERS = ["pure", *(["c"] if c_available() else [])]


@pytest.fixture(params=YAML_LOADERS, scope="module")
def yaml_loader(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs the test with ``REPLYKIT_YAML_LOADER`` set to each loader in turn: the
    environment, not a module attribute, so a compiled build is tested the same way."""
    saved = os.environ.get(ENV_VAR)
    os.environ[ENV_VAR] = request.param
    try:
        yield str(request.param)
    finally:
        if saved is None:
            os.environ.pop(ENV_VAR, None)
        else:
            os.environ[ENV_VAR] = saved
