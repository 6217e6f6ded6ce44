"""What an Akropolis player sees, and a state for lookahead built from it.

Everything is public but the order of the face-down stacks: a player sees which tiles
are still in them, sorted. A boxed bot is sent the same as JSON text written directly
(`fast.observation_text`, byte for byte `compact_json` of `observation`).
"""

from __future__ import annotations

from typing import Any

from engine.akropolis.components import STARS_OF_CODE, TILES, describe_hex
from engine.akropolis.rules import current_player
from engine.akropolis.state import AkropolisState
from engine.akropolis.state_json import city_hexes_to_json, state_from_json
from engine.core import JSON
from engine.rng import SplitMix64


def observation(state: AkropolisState, player: int) -> dict[str, Any]:
    """What the player sees: the whole table but the stacks' order."""
    return {
        "game": "akropolis",
        "player": player,
        "players": state.players,
        "turn": state.turn,
        "current_player": current_player(state),
        "options": dict(state.options),
        "site": [
            {"position": k, "cost": k, "tile": tile_id, "hexes": tile_hexes_json(tile_id)}
            for k, tile_id in enumerate(state.site)
        ],
        "stacks_left": len(state.stacks),
        "stack_tiles": sorted(tile for stack in state.stacks for tile in stack),
        "stones": list(state.stones),
        # Fresh lists: what a bot does to its observation must not reach the next one.
        "cities": [
            {"tiles": city.tiles, "hexes": city_hexes_to_json(city)} for city in state.cities
        ],
    }


def tile_hexes_json(tile_id: int) -> list[dict[str, Any]]:
    """A tile's hexes in order, each as `{"kind", "color", "stars"}` (a plaza's stars)."""
    hexes = []
    for code in TILES[tile_id].hexes:
        kind, color = describe_hex(code)
        entry: dict[str, Any] = {"kind": kind}
        if color is not None:
            entry["color"] = color
        if kind == "plaza":
            entry["stars"] = STARS_OF_CODE[code]
        hexes.append(entry)
    return hexes


def state_from_observation(observation: JSON, rng: SplitMix64 | None = None) -> AkropolisState:
    """A state for lookahead built from what a player sees. The stacks' order is
    hidden, so they hold the unseen tiles in id order: a guess, not the truth; or, given
    `rng`, in an order drawn from it (a determinization for search, `engine.search`)."""
    unseen = list(observation["stack_tiles"])
    if rng is not None:
        rng.shuffle(unseen)
    size = observation["players"] + 1
    data = {
        "game": "akropolis",
        "seed": 0,
        "players": observation["players"],
        "options": observation["options"],
        "turn": observation["turn"],
        "stones": observation["stones"],
        "site": [entry["tile"] for entry in observation["site"]],
        "stacks": [unseen[i : i + size] for i in range(0, len(unseen), size)],
        "cities": observation["cities"],
    }
    return state_from_json(data)
