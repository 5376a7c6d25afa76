"""Hypothesis profiles: ``ci`` (default, bounded) and ``long`` for local fuzzing runs;
the ``yaml_loader`` fixture that runs a test under every YAML loader.

Select a profile with ``HYPOTHESIS_PROFILE=long pytest ...``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from replykit.questionnaire.payload.yaml_loader import ENV_VAR, c_available

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

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
