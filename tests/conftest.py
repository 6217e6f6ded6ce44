"""Checks the whole suite shares."""

from __future__ import annotations

import pytest

from tests.required import required_parts


def pytest_configure(config: pytest.Config) -> None:
    required_parts()  # a misspelt AGON_TEST_REQUIRE stops the run at start
