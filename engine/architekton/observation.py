"""What an Architekton player sees, and a state for lookahead built from it.

Everything is public but the order of the face-down piles and the reserve: a player sees
which tiles are still in them.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.architekton.components import TERRAINS, rotated_edges
from engine.architekton.state import ArchitektonState
from engine.architekton.state_json import board_to_json, state_from_json
from engine.architekton.turns import current_player
from engine.core import compact_json
from engine.squaregrid import decode


def observation(state: ArchitektonState, player: int) -> dict[str, Any]:
    unseen_buildings = sorted(state.building_pile + state.reserve_buildings)
    unseen_landscapes = state.landscape_pile + state.reserve_landscapes
    return {
        "game": "architekton",
        "player": player,
        "players": state.players,
        "turn": state.turn,
        "current_player": current_player(state),
        "turn_player": state.turn_player,
        "options": dict(state.options),
        "stage": state.stage,
        "turns_taken": list(state.turns_taken),
        "placed_this_turn": state.placed_this_turn,
        "idle_turns": state.idle_turns,
        "points": list(state.points),
        "houses_in_supply": list(state.supply),
        "houses_removed": list(state.removed),
        "lost_early": state.loser,
        "display": {
            "buildings": [
                {"tile": t, "edges": [TERRAINS[e] for e in rotated_edges(t, 0)]}
                for t in state.display_buildings
            ],
            "landscapes": [TERRAINS[t] for t in state.display_landscapes],
        },
        "piles": {
            "buildings": len(state.building_pile),
            "landscapes": len(state.landscape_pile),
        },
        "reserve": {
            "buildings": len(state.reserve_buildings),
            "landscapes": len(state.reserve_landscapes),
        },
        "unseen_buildings": unseen_buildings,
        "unseen_landscapes": {name: unseen_landscapes.count(t) for t, name in enumerate(TERRAINS)},
        "board": board_to_json(state),
        "pending": [decision.to_json() for decision in state.pending],
    }


def observation_text(state: ArchitektonState, player: int) -> str:
    """`observation(state, player)` as JSON text only, written without building it: what
    a boxed bot is sent. Each placed tile's text is written once (`landscape_text`,
    `building_text`); the rest is small and written field by field."""
    landscapes, buildings, houses = state.landscapes, state.buildings, state.houses
    board = ",".join(
        [
            landscape_text(code, landscapes[code])
            if code in landscapes
            else building_text(code, *buildings[code], houses.get(code))
            for code in sorted((*landscapes, *buildings))
        ]
    )
    unseen_landscapes = state.landscape_pile + state.reserve_landscapes
    unseen = ",".join([f'"{name}":{unseen_landscapes.count(t)}' for t, name in enumerate(TERRAINS)])
    pending = compact_json([d.to_json() for d in state.pending]) if state.pending else "[]"
    display_buildings = ",".join([display_text(t) for t in state.display_buildings])
    display_landscapes = ",".join([f'"{TERRAINS[t]}"' for t in state.display_landscapes])
    return (
        f'{{"game":"architekton","player":{player},"players":{state.players},'
        f'"turn":{state.turn},"current_player":{current_player(state)},'
        f'"turn_player":{state.turn_player},'
        f'"options":{options_text(tuple(state.options.items()))},"stage":"{state.stage}",'
        f'"turns_taken":{_ints(state.turns_taken)},"placed_this_turn":{state.placed_this_turn},'
        f'"idle_turns":{state.idle_turns},"points":{_ints(state.points)},'
        f'"houses_in_supply":{_ints(state.supply)},"houses_removed":{_ints(state.removed)},'
        f'"lost_early":{"null" if state.loser is None else state.loser},'
        f'"display":{{"buildings":[{display_buildings}],"landscapes":[{display_landscapes}]}},'
        f'"piles":{{"buildings":{len(state.building_pile)},'
        f'"landscapes":{len(state.landscape_pile)}}},'
        f'"reserve":{{"buildings":{len(state.reserve_buildings)},'
        f'"landscapes":{len(state.reserve_landscapes)}}},'
        f'"unseen_buildings":{_ints(sorted(state.building_pile + state.reserve_buildings))},'
        f'"unseen_landscapes":{{{unseen}}},"board":[{board}],"pending":{pending}}}'
    )


def _ints(values: list[int]) -> str:
    return f"[{','.join(map(str, values))}]"


@functools.lru_cache(maxsize=4096)
def landscape_text(code: int, terrain: int) -> str:
    """A placed landscape as `board_to_json` gives it, as JSON text."""
    x, y = decode(code)
    return f'{{"x":{x},"y":{y},"kind":"landscape","terrain":"{TERRAINS[terrain]}"}}'


@functools.lru_cache(maxsize=8192)
def building_text(code: int, tile_id: int, rotation: int, house: int | None) -> str:
    """A placed building as `board_to_json` gives it, as JSON text."""
    x, y = decode(code)
    edges = ",".join([f'"{TERRAINS[t]}"' for t in rotated_edges(tile_id, rotation)])
    return (
        f'{{"x":{x},"y":{y},"kind":"building","tile":{tile_id},"rotation":{rotation},'
        f'"edges":[{edges}],"house":{"null" if house is None else house}}}'
    )


@functools.lru_cache(maxsize=256)
def display_text(tile_id: int) -> str:
    """A display building as the observation shows it, as JSON text."""
    edges = ",".join([f'"{TERRAINS[t]}"' for t in rotated_edges(tile_id, 0)])
    return f'{{"tile":{tile_id},"edges":[{edges}]}}'


@functools.lru_cache(maxsize=64)
def options_text(options: tuple[tuple[str, bool], ...]) -> str:
    """The match's options as JSON text (a handful of combinations in all)."""
    return compact_json(dict(options))


def state_from_observation(observation: dict[str, Any]) -> ArchitektonState:
    """A state for lookahead built from what a player sees. The piles and the reserve are
    face down, so they hold the unseen tiles in a fixed order (building ids ascending,
    landscapes by terrain): a guess, not the truth."""
    buildings = list(observation["unseen_buildings"])
    landscapes = [name for name in TERRAINS for _ in range(observation["unseen_landscapes"][name])]
    reserve = observation["reserve"]
    data = {
        "game": "architekton",
        "seed": 0,
        "players": observation["players"],
        "options": observation["options"],
        "turn": observation["turn"],
        "turn_player": observation["turn_player"],
        "turns_taken": observation["turns_taken"],
        "placed_this_turn": observation["placed_this_turn"],
        "stage": observation["stage"],
        "idle_turns": observation["idle_turns"],
        "loser": observation["lost_early"],
        "points": observation["points"],
        "supply": observation["houses_in_supply"],
        "removed": observation["houses_removed"],
        "board": observation["board"],
        "display_buildings": [entry["tile"] for entry in observation["display"]["buildings"]],
        "display_landscapes": observation["display"]["landscapes"],
        "reserve_buildings": buildings[: reserve["buildings"]],
        "building_pile": buildings[reserve["buildings"] :],
        "reserve_landscapes": landscapes[: reserve["landscapes"]],
        "landscape_pile": landscapes[reserve["landscapes"] :],
        "pending": observation["pending"],
    }
    return state_from_json(data)
