"""The Architekton game state and its JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.architekton.components import (
    BUILDING_BY_ID,
    TERRAIN_OF_NAME,
    TERRAINS,
    rotated_edges,
)
from engine.squaregrid import decode, encode

PLAY, RESERVE_TURN, OVER = "play", "reserve_turn", "over"
STAGES = (PLAY, RESERVE_TURN, OVER)

MOVE_HOUSE, REMOVE_HOUSE = "move_house", "remove_house"


@dataclass
class Decision:
    """A question the rules put to one player before play goes on.

    `move_house`: the player has no house left and must move a placed one onto the new
    building at `cell`. `remove_house`: the building at `cell` is surrounded and costs its
    owner `loss` points; they may remove its house from play to lose one point less.
    """

    kind: str
    player: int
    cell: int
    loss: int = 0

    def to_json(self) -> dict[str, Any]:
        x, y = decode(self.cell)
        data: dict[str, Any] = {"decision": self.kind, "player": self.player, "x": x, "y": y}
        if self.kind == REMOVE_HOUSE:
            data["loss"] = self.loss
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        kind = str(data["decision"])
        if kind not in (MOVE_HOUSE, REMOVE_HOUSE):
            raise ValueError(f"unknown decision {kind!r}")
        return cls(
            kind,
            int(data["player"]),
            encode(int(data["x"]), int(data["y"])),
            int(data.get("loss", 0)),
        )


@dataclass
class ArchitektonState:
    seed: int
    players: int
    options: dict[str, bool]
    landscapes: dict[int, int]
    """Placed landscape tiles: cell code -> terrain."""
    buildings: dict[int, tuple[int, int]]
    """Placed building tiles: cell code -> (tile id, rotation in quarter turns clockwise)."""
    houses: dict[int, int]
    """Houses on buildings: cell code -> owner."""
    building_pile: list[int]
    """Face-down building tile ids, the next to turn up first. Hidden from players."""
    landscape_pile: list[int]
    """Face-down landscape terrains, the next to turn up first. Hidden from players."""
    reserve_buildings: list[int]
    """The face-down reserve, used for the last turn. Hidden from players."""
    reserve_landscapes: list[int]
    display_buildings: list[int]
    display_landscapes: list[int]
    points: list[int]
    supply: list[int]
    """Houses not yet placed, per player."""
    removed: list[int]
    """Houses removed from play to reduce a loss, per player."""
    turn: int = 0
    """Actions applied so far (placements, passes and decisions)."""
    turn_player: int = 0
    turns_taken: list[int] = field(default_factory=lambda: [0, 0])
    placed_this_turn: int = 0
    pending: list[Decision] = field(default_factory=list)
    """Decisions to take, the first one now."""
    stage: str = PLAY
    idle_turns: int = 0
    """Turns in a row in which nothing could be placed."""
    loser: int | None = None
    """The player who could not pay a loss and lost at once."""

    def copy(self) -> ArchitektonState:
        return ArchitektonState(
            seed=self.seed,
            players=self.players,
            options=dict(self.options),
            landscapes=dict(self.landscapes),
            buildings=dict(self.buildings),
            houses=dict(self.houses),
            building_pile=list(self.building_pile),
            landscape_pile=list(self.landscape_pile),
            reserve_buildings=list(self.reserve_buildings),
            reserve_landscapes=list(self.reserve_landscapes),
            display_buildings=list(self.display_buildings),
            display_landscapes=list(self.display_landscapes),
            points=list(self.points),
            supply=list(self.supply),
            removed=list(self.removed),
            turn=self.turn,
            turn_player=self.turn_player,
            turns_taken=list(self.turns_taken),
            placed_this_turn=self.placed_this_turn,
            pending=[Decision(d.kind, d.player, d.cell, d.loss) for d in self.pending],
            stage=self.stage,
            idle_turns=self.idle_turns,
            loser=self.loser,
        )


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
