"""The analysis's tests: mcts-1 with few playouts (the same code, a fraction of the
time), replays in their own media folder."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from engine.search.bot import LEVELS


@pytest.fixture(autouse=True)
def tiny_level(monkeypatch: pytest.MonkeyPatch) -> None:
    small = dataclasses.replace(LEVELS["mcts-1"], iterations=8, candidates=4)
    monkeypatch.setitem(LEVELS, "mcts-1", small)


@pytest.fixture(autouse=True)
def own_media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
