"""Every payload test runs under each YAML loader (docs/protocol.md §4.1)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="module")
def _every_yaml_loader(yaml_loader: str) -> str:
    return yaml_loader
