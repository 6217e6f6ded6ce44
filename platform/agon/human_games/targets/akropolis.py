"""Akropolis: a tile from the Construction Site, the hex its first hex goes on, then the
hex its second goes on (which is the rotation: the third follows, next to both)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.human_games.targets.steps import Step, Targets, cell, pick

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
FILL = {
    "house": "#2f66c9",
    "market": "#e5b31c",
    "barracks": "#cf3a2b",
    "temple": "#7a4bc8",
    "garden": "#2f9a4c",
    "quarry": "#a3a6ad",
}


def hex_name(hexagon: dict[str, Any]) -> str:
    if hexagon.get("kind") == "quarry":
        return "quarry"
    return f"{hexagon.get('color')} {hexagon.get('kind')}"


def targets(observation: Any, legal: Sequence[Any]) -> Targets:
    seat = observation["player"]
    site = {entry["position"]: entry for entry in observation["site"]}
    city = observation["cities"][seat]["hexes"]
    cells = [
        [
            h["q"],
            h["r"],
            f"{h['level']}{'★' if h.get('kind') == 'plaza' else ''}",
            FILL.get(h.get("color") or "quarry", "#a3a6ad"),
        ]
        for h in city
    ]
    stones = observation["stones"][seat]
    steps: list[list[Step]] = []
    for action in legal:
        entry = site[action["tile"]]
        names = [hex_name(h) for h in entry["hexes"]]
        cost = entry["cost"]
        price = "free" if cost == 0 else f"{cost} stone{'s' if cost > 1 else ''}"
        q, r, rotation = action["q"], action["r"], action["rotation"]
        dq, dr = DIRECTIONS[rotation]
        steps.append(
            [
                pick(
                    f"tile-{action['tile']}", f"Tile {entry['tile']} ({price}): {', '.join(names)}"
                ),
                cell(q, r, f"its {names[0]} here"),
                cell(q + dq, r + dr, f"its {names[1]} here (the {names[2]} next to both)"),
            ]
        )
    return Targets(
        board="hex",
        cells=cells,
        facts=[f"You have {stones} stone{'s' if stones != 1 else ''}."],
        steps=steps,
    )
