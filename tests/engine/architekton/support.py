"""Helpers for the Architekton tests: seeded playthroughs and hand-built positions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from engine.architekton import ARCHITEKTON, ArchitektonState
from engine.architekton.components import BUILDING_BY_ID, TERRAIN_OF_NAME
from engine.architekton.state import Caches
from engine.core import JSON, MatchResult
from engine.rng import SplitMix64, derive_seed
from engine.squaregrid import encode

GAME = ARCHITEKTON
WATER, MOUNTAIN, PLAIN, FOREST = (
    TERRAIN_OF_NAME[t] for t in ("water", "mountain", "plain", "forest")
)
LAYOUT_WMPF = 1
"""Building tile 1 shows water, mountain, plain, forest (N, E, S, W) unturned."""


def random_game(seed: int) -> Iterator[tuple[ArchitektonState, JSON | None]]:
    """A game of uniformly random legal actions, yielding the live state and the action
    about to be applied; the last pair has the finished state and None."""
    state = GAME.new_state(seed, 2, {})
    rng = SplitMix64(derive_seed(seed, "tests"))
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        action = legal[rng.below(len(legal))]
        yield state, action
        GAME.apply(state, action)
    yield state, None


def state_json(state: ArchitektonState) -> str:
    return json.dumps(GAME.state_to_json(state), sort_keys=True)


def redeal_hidden(state: ArchitektonState, viewer: int, rng: SplitMix64) -> ArchitektonState:
    """The same table with what no player sees dealt differently: the face-down piles,
    the reserve and the seed (both players see the same, so `viewer` changes nothing)."""
    other = state.copy()
    buildings = other.building_pile + other.reserve_buildings
    landscapes = other.landscape_pile + other.reserve_landscapes
    rng.shuffle(buildings)
    rng.shuffle(landscapes)
    size_b, size_l = len(other.reserve_buildings), len(other.reserve_landscapes)
    other.reserve_buildings, other.building_pile = buildings[:size_b], buildings[size_b:]
    other.reserve_landscapes, other.landscape_pile = landscapes[:size_l], landscapes[size_l:]
    other.seed = rng.next_u64()
    return other


def rank_keys(result: MatchResult) -> list[tuple[int, ...]]:
    """Who lost early ranks last; then more points, then more houses kept."""
    return [
        (int(not detail["lost_early"]), score, detail.get("houses_kept", 0))
        for score, detail in zip(result.scores, result.details, strict=True)
    ]


def cell(x: int, y: int) -> int:
    return encode(x, y)


def empty_city(seed: int = 7) -> ArchitektonState:
    """A fresh game with the board cleared (no starting landscapes): tests place what
    they need with `put_landscape` and `put_building`."""
    state = GAME.new_state(seed, 2, {})
    state.landscapes.clear()
    return state


def put_landscape(state: ArchitektonState, x: int, y: int, terrain: int) -> None:
    state.landscapes[encode(x, y)] = terrain
    state.caches = Caches()  # painted behind the rules' back (a tile may be replaced)


def put_building(
    state: ArchitektonState, x: int, y: int, tile_id: int, rotation: int, owner: int | None
) -> None:
    state.buildings[encode(x, y)] = (tile_id, rotation)
    state.caches = Caches()  # painted behind the rules' back (a tile may be replaced)
    if owner is not None:
        state.houses[encode(x, y)] = owner


def with_display(
    state: ArchitektonState, buildings: list[int], landscapes: list[int]
) -> ArchitektonState:
    """Set the display (building ids, terrains); the displaced tiles are forgotten."""
    assert all(tile in BUILDING_BY_ID for tile in buildings)
    for tile in buildings:
        if tile in state.building_pile:
            state.building_pile.remove(tile)
        if tile in state.reserve_buildings:
            state.reserve_buildings.remove(tile)
    state.display_buildings = list(buildings)
    state.display_landscapes = list(landscapes)
    return state


def building(tile: int, x: int, y: int, rotation: int) -> dict[str, Any]:
    return {"building": tile, "x": x, "y": y, "rotation": rotation}


def landscape(terrain: str, x: int, y: int) -> dict[str, Any]:
    return {"landscape": terrain, "x": x, "y": y}
