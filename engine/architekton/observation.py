"""What an Architekton player sees, and a state for lookahead built from it.

Everything is public but the order of the face-down piles and the reserve: a player sees
which tiles are still in them.
"""

from __future__ import annotations

from typing import Any

from engine.architekton.components import TERRAINS, rotated_edges
from engine.architekton.state import ArchitektonState
from engine.architekton.state_json import board_to_json, state_from_json
from engine.architekton.turns import current_player
from engine.rng import SplitMix64


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


def state_from_observation(
    observation: dict[str, Any], rng: SplitMix64 | None = None
) -> ArchitektonState:
    """A state for lookahead built from what a player sees. The piles and the reserve are
    face down, so they hold the unseen tiles in a fixed order (building ids ascending,
    landscapes by terrain): a guess, not the truth; or, given `rng`, in an order drawn
    from it (a determinization for search, `engine.search`)."""
    buildings = list(observation["unseen_buildings"])
    landscapes = [name for name in TERRAINS for _ in range(observation["unseen_landscapes"][name])]
    if rng is not None:
        rng.shuffle(buildings)
        rng.shuffle(landscapes)
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
