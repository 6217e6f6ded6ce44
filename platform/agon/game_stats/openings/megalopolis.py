"""Megalopolis: which kind of tile was played (or what else was chosen); the cells are
left out, the city grows differently in each match."""

from __future__ import annotations

from agon.game_stats.openings.places import without_places
from engine.core import JSON


def label(text: str, action: JSON) -> str:
    return without_places(text)
