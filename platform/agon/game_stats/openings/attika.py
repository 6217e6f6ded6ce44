"""Attika: which building was built or drawn from where; the map is built during play,
so its cells are left out."""

from __future__ import annotations

from agon.game_stats.openings.places import without_places
from engine.core import JSON


def label(text: str, action: JSON) -> str:
    return without_places(text)
