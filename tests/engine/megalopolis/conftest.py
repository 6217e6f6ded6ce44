"""Fixtures of the Megalopolis tests (plain helpers are in `support.py`)."""

from __future__ import annotations

import pytest

from engine.megalopolis import Megalopolis
from tests.engine.megalopolis.support import GAME


@pytest.fixture
def game() -> Megalopolis:
    return GAME
