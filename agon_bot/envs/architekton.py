"""Architekton: the board as a list of entries, every placement named by the entry next to it.

Every tile goes on an empty cell that shares an edge with a tile of the other kind, so
each legal cell is next to an entry of the board list (`agon_bot.envs.pointers`). The
board holds at most the 24 landscapes and 22 buildings of the game: 46 entries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from agon_bot.envs.cell_boards import DIRECTIONS, CellBoardEncoding
from agon_bot.envs.encoding import Segment, seat_order
from agon_bot.envs.fast.architekton import ArchitektonStateReader, ArchitektonVectors
from engine.architekton.actions import LegalActions

TERRAINS = ("water", "mountain", "plain", "forest")
"""North, east, south, west: the protocol's direction order."""
BUILDINGS = 22
BOARD = 24 + BUILDINGS
DISPLAY = 3
CELLS = BOARD * len(DIRECTIONS)
STAGES = ("play", "reserve_turn", "over")
ENTRY = (
    "present, x, y, is a building, terrain (landscape: 1 + index in TERRAINS), the four "
    "edges as placed (N, E, S, W: 1 + index), tile id + 1, rotation, house (0 none, 1 + "
    "relative seat)"
)


_TERRAIN: dict[str | None, int] = {None: 0, **{name: 1 + n for n, name in enumerate(TERRAINS)}}


def terrain(name: str | None) -> int:
    return _TERRAIN[name]


class ArchitektonEncoding(CellBoardEncoding):
    game_id = "architekton"
    legal_type = LegalActions
    capacity = BOARD
    vectors: ArchitektonVectors

    def __init__(self, players: int, options: Mapping[str, Any], first: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        self.segments = (
            Segment(
                "board",
                (BOARD, 12),
                100,
                "per board entry, in the observation's order: " + ENTRY,
                low=-100,
            ),
            Segment(
                "display_buildings",
                (DISPLAY, 5),
                BUILDINGS + 1,
                "tile id + 1, its edges unturned (N, E, S, W)",
            ),
            Segment(
                "display_landscapes",
                (len(TERRAINS),),
                DISPLAY * 2,
                "landscapes of each terrain in the display",
            ),
            Segment(
                "seats",
                (players, 4),
                100,
                "per seat (0 = you): points, houses in supply, houses removed, turns taken",
            ),
            Segment(
                "unseen_buildings", (BUILDINGS + 1,), 1, "1 where building tile id i is unseen"
            ),
            Segment("unseen_landscapes", (len(TERRAINS),), 24, "unseen landscapes per terrain"),
            Segment(
                "scalars",
                (12,),
                1000,
                "turn, seat to move (relative), turn player (relative), stage (index in "
                "STAGES), placed this turn, idle turns, lost early (0 none, 1 + relative "
                "seat), piles buildings, piles landscapes, reserve buildings, reserve "
                "landscapes, pending decisions",
            ),
            Segment(
                "pending",
                (5,),
                100,
                "the decision now: kind (0 none, 1 move_house, 2 remove_house), its player "
                "(relative), the building's board entry + 1, loss",
                low=-100,
            ),
        )
        self._layout()
        self.building_base = 0
        self.landscape_base = DISPLAY * CELLS * 4
        self.pass_index = self.landscape_base + len(TERRAINS) * CELLS
        self.house_base = self.pass_index + 1
        self.remove_base = self.house_base + BOARD
        self.n_actions = self.remove_base + 2
        self.action_doc = (
            "building: (display position * CELLS + cell) * 4 + rotation; landscape: "
            f"{self.landscape_base} + terrain * CELLS + cell; pass: {self.pass_index}; "
            f"house: {self.house_base} + board entry; remove_house false/true: "
            f"{self.remove_base} + 0/1; cell = board entry * 4 + direction, CELLS = {CELLS}"
        )
        self.stages = STAGES
        self.reader = ArchitektonStateReader(self, BOARD)
        self.vectors = ArchitektonVectors(self, self.reader)

    def vector_buffer(self) -> Any:
        return self.vectors.vector_buffer()

    def encode_state_into(self, state: Any, seat: int, kept: Any) -> np.ndarray:
        return self.vectors.encode_into(state, seat, kept)

    def fill(self, observation: Mapping[str, Any], vector: np.ndarray) -> None:
        me = int(observation["player"])
        relative = self.relative
        rows = []
        for entry in observation["board"]:
            building = entry["kind"] == "building"
            house = entry.get("house")
            rows.append(
                (
                    1,
                    entry["x"],
                    entry["y"],
                    building,
                    terrain(entry.get("terrain")),
                    *([_TERRAIN[e] for e in entry["edges"]] if building else (0, 0, 0, 0)),
                    entry["tile"] + 1 if building else 0,
                    entry.get("rotation", 0),
                    0 if house is None else 1 + relative(observation, house),
                )
            )
        if rows:
            self.view(vector, "board")[: len(rows)] = rows
        display = observation["display"]
        shown = self.view(vector, "display_buildings")
        for row, tile in zip(shown, display["buildings"], strict=False):
            row[:] = (tile["tile"] + 1, *map(terrain, tile["edges"]))
        landscapes = self.view(vector, "display_landscapes")
        for name in display["landscapes"]:
            landscapes[TERRAINS.index(name)] += 1
        seats = self.view(vector, "seats")
        for rank, seat in enumerate(seat_order(self.players, me)):
            seats[rank] = (
                observation["points"][seat],
                observation["houses_in_supply"][seat],
                observation["houses_removed"][seat],
                observation["turns_taken"][seat],
            )
        self.view(vector, "unseen_buildings")[observation["unseen_buildings"]] = 1
        unseen = self.view(vector, "unseen_landscapes")
        for name, count in observation["unseen_landscapes"].items():
            unseen[TERRAINS.index(name)] = count
        lost = observation["lost_early"]
        piles, reserve = observation["piles"], observation["reserve"]
        pending = observation["pending"]
        self.view(vector, "scalars")[:] = (
            observation["turn"],
            relative(observation, observation["current_player"]),
            relative(observation, observation["turn_player"]),
            STAGES.index(observation["stage"]),
            observation["placed_this_turn"],
            observation["idle_turns"],
            0 if lost is None else 1 + relative(observation, lost),
            piles["buildings"],
            piles["landscapes"],
            reserve["buildings"],
            reserve["landscapes"],
            len(pending),
        )
        if pending:
            decision = pending[0]
            where = self.cells(observation).index.get((decision.get("x"), decision.get("y")))
            self.view(vector, "pending")[:] = (
                1 if decision["decision"] == "move_house" else 2,
                relative(observation, decision["player"]),
                0 if where is None else where + 1,
                decision.get("loss", 0),
                0,
            )

    def legal_indices(self, legal: Sequence[Any], observation: Mapping[str, Any]) -> np.ndarray:
        cell = self.cells(observation).cell
        slots = {tile["tile"]: n for n, tile in enumerate(observation["display"]["buildings"])}
        indices = []
        for action in legal:
            building = action.get("building")
            if building is not None:
                at = cell(action["x"], action["y"])
                indices.append((slots[building] * CELLS + at) * 4 + action["rotation"])
            else:
                indices.append(self.encode_action(action, observation))
        return np.array(indices, dtype=np.int64)

    def encode_action(self, action: Any, observation: Mapping[str, Any]) -> int:
        if "building" in action:
            slots = [tile["tile"] for tile in observation["display"]["buildings"]]
            slot = slots.index(action["building"])
            cell = self.cells(observation).cell(action["x"], action["y"])
            return (slot * CELLS + cell) * 4 + int(action["rotation"])
        if "landscape" in action:
            cell = self.cells(observation).cell(action["x"], action["y"])
            return self.landscape_base + TERRAINS.index(action["landscape"]) * CELLS + cell
        if action.get("pass") is True:
            return self.pass_index
        if "house" in action:
            x, y = action["house"]
            return self.house_base + self.cells(observation).entry(x, y)
        if "remove_house" in action:
            return self.remove_base + bool(action["remove_house"])
        raise ValueError(f"not an Architekton action: {action}")

    def decode_action(self, index: int, observation: Mapping[str, Any]) -> Any:
        index = int(index)
        if index < self.landscape_base:
            rest, rotation = divmod(index, 4)
            slot, cell = divmod(rest, CELLS)
            x, y = self.cells(observation).position(cell)
            tile = observation["display"]["buildings"][slot]["tile"]
            return {"building": tile, "x": x, "y": y, "rotation": rotation}
        if index < self.pass_index:
            kind, cell = divmod(index - self.landscape_base, CELLS)
            x, y = self.cells(observation).position(cell)
            return {"landscape": TERRAINS[kind], "x": x, "y": y}
        if index == self.pass_index:
            return {"pass": True}
        if index < self.remove_base:
            entry = observation["board"][index - self.house_base]
            return {"house": [entry["x"], entry["y"]]}
        return {"remove_house": bool(index - self.remove_base)}
