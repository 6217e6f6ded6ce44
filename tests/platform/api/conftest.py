"""Fixtures of the API tests: uploads land in a temporary folder, rate limits start afresh."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from pytest_django import Settings


@pytest.fixture(autouse=True)
def media_root(settings: Settings, tmp_path: Path) -> Path:
    """Archives and replays are stored under a fresh folder for each test."""
    folder = tmp_path / "media"
    folder.mkdir()
    settings.MEDIA_ROOT = folder
    return folder


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()
