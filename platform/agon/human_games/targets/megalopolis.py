"""Megalopolis: a tile of your hand, then the cell it goes on (or a Hotel to put a token
on); the decisions of the tiles' texts: a tile, a token's owner, a space, a player."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.human_games.targets.steps import Step, Targets, cell, pick
from engine.megalopolis.components import KINDS

ABBREVIATION = {kind.name: kind.abbreviation for kind in KINDS}


def action_steps(action: dict[str, Any]) -> list[Step]:
    if "play" in action:
        kind = action["play"]
        return [
            pick(f"play-{kind}", f"Play {kind.replace('_', ' ')}"),
            cell(action["x"], action["y"]),
        ]
    if "hotel" in action:
        x, y = action["hotel"]
        return [pick("hotel", "Put a token on a Hotel"), cell(x, y)]
    if "tile" in action:
        x, y = action["tile"]
        if "owner" in action:
            owner = action["owner"]
            label = "every token" if owner == "all" else f"a token of player {owner}"
            return [cell(x, y), pick(f"owner-{owner}", f"Choose {label}")]
        return [cell(x, y, "this tile")]
    if "space" in action:
        x, y = action["space"]
        return [cell(x, y, "this space")]
    if "player" in action:
        return [pick(f"player-{action['player']}", f"Player {action['player']}")]
    if "done" in action:
        return [pick("done", "Take no more tokens back")]
    return [pick("pass", "Pass")]


def targets(observation: Any, legal: Sequence[Any]) -> Targets:
    seat = observation["player"]
    cells = []
    for tile in observation["board"]:
        tokens = tile.get("tokens") or []
        mine = tokens[seat] if seat < len(tokens) else 0
        name = ABBREVIATION.get(tile.get("kind", ""), "?") if tile.get("face_up") else "?"
        text = f"{name}{'•' * mine}"
        cells.append([tile["x"], tile["y"], text, "#fde7c8" if tile.get("face_up") else "#d6d3cc"])
    hand = ", ".join(kind.replace("_", " ") for kind in observation.get("hand", []))
    facts = [
        f"Your hand: {hand or 'empty'}.",
        f"Your tokens left: {observation['tokens_in_supply'][seat]}.",
    ]
    return Targets(board="square", cells=cells, facts=facts, steps=[action_steps(a) for a in legal])
