"""The Architekton game state's JSON form."""

from __future__ import annotations

from typing import Any

from engine.architekton.components import (
    BUILDING_BY_ID,
    TERRAIN_OF_NAME,
    TERRAINS,
    rotated_edges,
)
from engine.architekton.state import STAGES, ArchitektonState, Decision
from engine.squaregrid import decode, encode


def board_to_json(state: ArchitektonState) -> list[dict[str, Any]]:
    """Every placed tile, sorted by (x, y): landscapes with their terrain, buildings with
    their tile id, rotation, the terrains their edges show (N, E, S, W) and their house."""
    tiles: list[dict[str, Any]] = []
    for code in sorted((*state.landscapes, *state.buildings)):
        x, y = decode(code)
        if code in state.landscapes:
            tiles.append(
                {"x": x, "y": y, "kind": "landscape", "terrain": TERRAINS[state.landscapes[code]]}
            )
        else:
            tile_id, rotation = state.buildings[code]
            tiles.append(
                {
                    "x": x,
                    "y": y,
                    "kind": "building",
                    "tile": tile_id,
                    "rotation": rotation,
                    "edges": [TERRAINS[t] for t in rotated_edges(tile_id, rotation)],
                    "house": state.houses.get(code),
                }
            )
    return tiles


def board_from_json(
    tiles: list[dict[str, Any]],
) -> tuple[dict[int, int], dict[int, tuple[int, int]], dict[int, int]]:
    landscapes: dict[int, int] = {}
    buildings: dict[int, tuple[int, int]] = {}
    houses: dict[int, int] = {}
    for tile in tiles:
        code = encode(int(tile["x"]), int(tile["y"]))
        if tile["kind"] == "landscape":
            landscapes[code] = TERRAIN_OF_NAME[tile["terrain"]]
        elif tile["kind"] == "building":
            tile_id = int(tile["tile"])
            if tile_id not in BUILDING_BY_ID:
                raise ValueError(f"no building tile {tile_id}")
            buildings[code] = (tile_id, int(tile["rotation"]) % 4)
            if tile.get("house") is not None:
                houses[code] = int(tile["house"])
        else:
            raise ValueError(f"unknown tile kind {tile['kind']!r}")
    return landscapes, buildings, houses


def state_to_json(state: ArchitektonState) -> dict[str, Any]:
    return {
        "game": "architekton",
        "seed": state.seed,
        "players": state.players,
        "options": dict(sorted(state.options.items())),
        "turn": state.turn,
        "turn_player": state.turn_player,
        "turns_taken": list(state.turns_taken),
        "placed_this_turn": state.placed_this_turn,
        "stage": state.stage,
        "idle_turns": state.idle_turns,
        "loser": state.loser,
        "points": list(state.points),
        "supply": list(state.supply),
        "removed": list(state.removed),
        "board": board_to_json(state),
        "display_buildings": list(state.display_buildings),
        "display_landscapes": [TERRAINS[t] for t in state.display_landscapes],
        "building_pile": list(state.building_pile),
        "landscape_pile": [TERRAINS[t] for t in state.landscape_pile],
        "reserve_buildings": list(state.reserve_buildings),
        "reserve_landscapes": [TERRAINS[t] for t in state.reserve_landscapes],
        "pending": [decision.to_json() for decision in state.pending],
    }


def state_from_json(data: dict[str, Any]) -> ArchitektonState:
    if data.get("game") != "architekton":
        raise ValueError("not an Architekton state")
    if data["stage"] not in STAGES:
        raise ValueError(f"unknown stage {data['stage']!r}")
    landscapes, buildings, houses = board_from_json(data["board"])
    return ArchitektonState(
        seed=int(data["seed"]),
        players=int(data["players"]),
        options={str(k): bool(v) for k, v in data["options"].items()},
        landscapes=landscapes,
        buildings=buildings,
        houses=houses,
        building_pile=[int(t) for t in data["building_pile"]],
        landscape_pile=[TERRAIN_OF_NAME[t] for t in data["landscape_pile"]],
        reserve_buildings=[int(t) for t in data["reserve_buildings"]],
        reserve_landscapes=[TERRAIN_OF_NAME[t] for t in data["reserve_landscapes"]],
        display_buildings=[int(t) for t in data["display_buildings"]],
        display_landscapes=[TERRAIN_OF_NAME[t] for t in data["display_landscapes"]],
        points=[int(p) for p in data["points"]],
        supply=[int(s) for s in data["supply"]],
        removed=[int(r) for r in data["removed"]],
        turn=int(data["turn"]),
        turn_player=int(data["turn_player"]),
        turns_taken=[int(t) for t in data["turns_taken"]],
        placed_this_turn=int(data["placed_this_turn"]),
        pending=[Decision.from_json(d) for d in data["pending"]],
        stage=str(data["stage"]),
        idle_turns=int(data["idle_turns"]),
        loser=None if data["loser"] is None else int(data["loser"]),
    )
