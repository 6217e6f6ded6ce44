"""Akropolis: the cities as planes on one axial grid, every placement an index.

The grid: a city starts with one tile whose hexes lie within distance 1 of (0, 0), and a
tile goes on the ground only next to the city (a tile is three mutually adjacent hexes),
so each tile reaches at most 2 hexes further out: after t tiles every hex of the city
lies within 1 + 2t of the centre, and the hex an action anchors, `hexes[0]` of the tile
being placed, within 2T + 1 for T, the most tiles a player places in a match. T follows
from the setup the observation shows: (stacks + 1) rounds of players + 1 turns, shared
among the players. The grid is the square of axial (q, r) in [-R, R] for R = 2T + 1, so
no placement the rules allow falls outside it (cells further than R from the centre, the
grid's corners, stay empty).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from agon_bot.envs.encoding import Encoding, Segment, seat_order
from agon_bot.envs.fast.akropolis import AkropolisStateReader
from engine.akropolis.actions import LegalActions

COLORS = ("house", "market", "barracks", "temple", "garden")
TILES = 61
"""Tile ids 1..61 (0 is a starting tile)."""
_BRACKETS = str.maketrans("", "", "[]{} ")
VARIANTS = ("all_tiles", "houses", "markets", "barracks", "temples", "gardens")


_CODES: dict[tuple[str, str | None], int] = {
    ("quarry", None): 1,
    **{("plaza", color): 2 + n for n, color in enumerate(COLORS)},
    **{("district", color): 7 + n for n, color in enumerate(COLORS)},
}


def hex_code(hexagon: Mapping[str, Any]) -> int:
    """0 nothing, 1 quarry, 2-6 plaza of house..garden, 7-11 district of house..garden."""
    return _CODES[hexagon["kind"], hexagon.get("color")]


class AkropolisEncoding(Encoding):
    game_id = "akropolis"

    def __init__(self, players: int, options: Mapping[str, Any], first: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        stacks = int(first["stacks_left"])
        turns = (stacks + 1) * (players + 1)
        self.max_tiles = -(-turns // players)
        self.radius = 2 * self.max_tiles + 1
        self.width = 2 * self.radius + 1
        self.site_size = players + 2
        self.max_level = self.max_tiles + 1
        w = self.width
        self.segments = (
            Segment(
                "cities",
                (players, 3, w, w),
                max(TILES + 1, self.max_level, 11),
                "per seat (0 = you, then the next seats): plane 0 the level of the space's "
                "top hex (0 empty), plane 1 its kind (hex_code), plane 2 its tile id + 1; "
                "cell [q + R, r + R]",
            ),
            Segment(
                "site",
                (self.site_size, 4),
                TILES + 1,
                "per Construction Site position: tile id + 1 (0: no tile), then the "
                "hex_code of hexes[0..2]",
            ),
            Segment("stones", (players,), 10_000, "stones per seat (0 = you)"),
            Segment("stack_tiles", (TILES + 1,), 1, "1 where tile id i is still in the stacks"),
            Segment(
                "scalars",
                (3,),
                10_000,
                "stacks left, turn, the seat to move (relative: 0 = you)",
            ),
            Segment("options", (len(VARIANTS),), 1, "1 per option on: " + ", ".join(VARIANTS)),
        )
        self._layout()
        self.n_actions = self.site_size * w * w * 6
        self.action_doc = (
            f"((tile * W + q + R) * W + r + R) * 6 + rotation, W = {w}, R = {self.radius}"
        )
        self._cities = self.offsets["cities"][0]
        self.variants = VARIANTS
        self.reader = AkropolisStateReader(self)

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        return self.reader.encode(state, seat)

    def vector_buffer(self) -> Any:
        return self.reader.kept_vector()

    def encode_state_into(self, state: Any, seat: int, kept: Any) -> np.ndarray:
        return self.reader.encode_into(state, seat, kept)

    def moved(self, seat: int, move: Any) -> None:
        self.reader.moved(seat, move)

    def state_legal_indices(self, state: Any, legal: Sequence[Any]) -> np.ndarray:
        if isinstance(legal, LegalActions):
            return self.reader.legal_indices(legal)
        return super().state_legal_indices(state, legal)

    def legal_position(self, legal: Sequence[Any], indices: np.ndarray, index: int) -> int:
        if isinstance(legal, LegalActions):
            return self.reader.legal_position(legal, index)
        return super().legal_position(legal, indices, index)

    def fill(self, observation: Mapping[str, Any], vector: np.ndarray) -> None:
        w, radius = self.width, self.radius
        plane = w * w
        me = int(observation["player"])
        cities = observation["cities"]
        for rank, seat in enumerate(seat_order(self.players, me)):
            hexes = cities[seat]["hexes"]
            if not hexes:
                continue
            base = self._cities + rank * 3 * plane
            rows = np.array(
                [
                    (
                        base + (h["q"] + radius) * w + h["r"] + radius,
                        h["level"],
                        _CODES[h["kind"], h.get("color")],
                        h["tile"] + 1,
                    )
                    for h in hexes
                ],
                dtype=np.int64,
            )
            cells = rows[:, 0]
            vector[cells] = rows[:, 1]
            vector[cells + plane] = rows[:, 2]
            vector[cells + 2 * plane] = rows[:, 3]
        site = self.view(vector, "site")
        for entry in observation["site"]:
            row = site[entry["position"]]
            row[0] = entry["tile"] + 1
            row[1:] = [hex_code(h) for h in entry["hexes"]]
        stones = observation["stones"]
        self.view(vector, "stones")[:] = [stones[s] for s in seat_order(self.players, me)]
        stack = self.view(vector, "stack_tiles")
        stack[observation["stack_tiles"]] = 1
        scalars = self.view(vector, "scalars")
        scalars[0] = observation["stacks_left"]
        scalars[1] = observation["turn"]
        scalars[2] = self.relative(observation, observation["current_player"])
        options = observation["options"]
        self.view(vector, "options")[:] = [bool(options.get(name)) for name in VARIANTS]

    def encode_action(self, action: Any, observation: Mapping[str, Any]) -> int:
        tile, q, r, rotation = action["tile"], action["q"], action["r"], action["rotation"]
        radius, w = self.radius, self.width
        if not (
            0 <= tile < self.site_size
            and -radius <= q <= radius
            and -radius <= r <= radius
            and 0 <= rotation < 6
        ):
            raise ValueError(f"not representable: {action}")
        return int(((tile * w + q + radius) * w + r + radius) * 6 + rotation)

    def decode_action(self, index: int, observation: Mapping[str, Any]) -> Any:
        w, radius = self.width, self.radius
        rest, rotation = divmod(int(index), 6)
        rest, r = divmod(rest, w)
        tile, q = divmod(rest, w)
        return {"tile": tile, "q": q - radius, "r": r - radius, "rotation": rotation}

    def compact_text_indices(self, text: str, observation: Mapping[str, Any]) -> np.ndarray | None:
        # {"tiles":[0,1],"placements":[[-3,1,0],...]}: two runs of numbers.
        head, _, tail = text.partition('"placements":')
        if not tail:
            return None
        numbers = head[head.index("[") + 1 : head.rindex("]")]
        tiles = np.array([int(n) for n in numbers.split(",") if n], dtype=np.int64)
        flat = tail.translate(_BRACKETS)
        placements = np.array(flat.split(",") if flat else [], dtype=np.int64).reshape(-1, 3)
        return self._indices(tiles, placements)

    def compact_indices(self, compact: Any, observation: Mapping[str, Any]) -> np.ndarray | None:
        placements = compact["placements"]
        flat = np.fromiter(itertools.chain.from_iterable(placements), np.int64, 3 * len(placements))
        return self._indices(np.asarray(compact["tiles"], dtype=np.int64), flat.reshape(-1, 3))

    def _indices(self, tiles: np.ndarray, placements: np.ndarray) -> np.ndarray:
        radius, w = self.radius, self.width
        if len(placements) and (
            np.abs(placements[:, :2]).max() > radius or tiles.max() >= self.site_size
        ):
            raise ValueError("a legal placement outside the encoding's grid")
        cells = ((placements[:, 0] + radius) * w + placements[:, 1] + radius) * 6 + placements[:, 2]
        indices: np.ndarray = np.add.outer(tiles * (w * w * 6), cells).ravel()
        return indices
