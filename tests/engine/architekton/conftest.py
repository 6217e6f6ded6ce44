"""Fixtures of the Architekton tests (plain helpers are in `support.py`)."""

from __future__ import annotations

import pytest

from engine.architekton import Architekton
from tests.engine.architekton.support import GAME


@pytest.fixture
def game() -> Architekton:
    return GAME
