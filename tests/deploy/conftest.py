"""The deployment tests' marker: `pytest -m deploy` runs them, `-m "not deploy"` leaves
them out (test_compose.py brings the whole stack up in the Docker engine)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "deploy: the compose stack in the real Docker engine (needs docker)"
    )
