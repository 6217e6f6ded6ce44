"""Akropolis: which place of the Construction Site the first tile came from (what it
cost) and where it went beside the starting tile; the tile itself differs by deal."""

from __future__ import annotations

from engine.core import JSON


def label(text: str, action: JSON) -> str:
    if not isinstance(action, dict):
        return text
    slot = int(action["tile"])
    cost = "free" if slot == 0 else f"{slot} stone{'s' * (slot > 1)}"
    return f"tile {slot + 1} of the site ({cost}) at ({int(action['q'])}, {int(action['r'])})"
