"""Architekton: a building placed on a square of the board (its number differs by deal:
the square and the edges it shows are the choice), or a landscape as the viewer says."""

from __future__ import annotations

from engine.core import JSON


def label(text: str, action: JSON) -> str:
    if isinstance(action, dict) and "building" in action:
        return f"placed a building at ({int(action['x'])}, {int(action['y'])})"
    return text
