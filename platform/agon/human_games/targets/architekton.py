"""Architekton: a tile of the display (a building or a landscape), the square it goes
on, and for a building its rotation; the house and remove-house decisions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.human_games.targets.steps import Step, Targets, cell, pick

TERRAIN = {"water": "#3d86d6", "mountain": "#8b7765", "plain": "#e9d27a", "forest": "#2f7a3a"}
SIDES = "NESW"


def turned(edges: Sequence[str], rotation: int) -> str:
    """The edges as they face north, east, south, west once turned."""
    return " ".join(f"{SIDES[d]}:{edges[(d - rotation) % 4]}" for d in range(4))


def action_steps(action: dict[str, Any], display: dict[int, list[str]]) -> list[Step]:
    if "building" in action:
        tile, rotation = action["building"], action["rotation"]
        edges = display.get(tile, ["?"] * 4)
        return [
            pick(f"b-{tile}", f"Building {tile} ({turned(edges, 0)})"),
            cell(action["x"], action["y"]),
            pick(f"turn-{rotation}", f"Turned {90 * rotation}°: {turned(edges, rotation)}"),
        ]
    if "landscape" in action:
        terrain = action["landscape"]
        return [pick(f"l-{terrain}", f"Landscape: {terrain}"), cell(action["x"], action["y"])]
    if "house" in action:
        x, y = action["house"]
        return [cell(x, y, "move your house from here")]
    if "remove_house" in action:
        if action["remove_house"]:
            return [pick("remove", "Remove the house (lose one point less)")]
        return [pick("keep", "Keep the house")]
    return [pick("pass", "Pass")]


def targets(observation: Any, legal: Sequence[Any]) -> Targets:
    cells = []
    for square in observation["board"]:
        if square["kind"] == "landscape":
            cells.append([square["x"], square["y"], "", TERRAIN.get(square["terrain"], "#ccc")])
        else:
            house = square.get("house")
            cells.append([square["x"], square["y"], "⌂" if house is not None else "B", "#f4efe6"])
    display = {b["tile"]: b["edges"] for b in observation["display"]["buildings"]}
    facts = [
        f"Points: {observation['points']}; houses left: {observation['houses_in_supply']}.",
        f"Display landscapes: {', '.join(observation['display']['landscapes']) or 'none'}.",
    ]
    return Targets(
        board="square",
        cells=cells,
        facts=facts,
        steps=[action_steps(action, display) for action in legal],
    )
